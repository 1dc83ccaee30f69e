"""Each framework adapter at its edges, in a real run of its framework (offline test models): the
model's arguments that JSON cannot carry come back to it as an error and never reach the server, a
tool error reaches a PydanticAI model as ``ModelRetry``, and what the model reads of a result
(``model_reads``).

The server is ``tests/servers/names_server.py``: ``take(value)`` takes any JSON value, ``ran()`` lists
what ran, so a test sees that no call reached the server.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from mcp_client import Client, StdioServerParameters
from tests.support.servers import FEATURES_SERVER, SERVERS_DIR, stdio_command

pytestmark = pytest.mark.anyio

NAMES = StdioServerParameters(*stdio_command(SERVERS_DIR / "names_server.py"))
FEATURES = StdioServerParameters(*stdio_command(FEATURES_SERVER))
BOUND = 120
DEEP = 100_000
BAD_ARGUMENT_STRINGS = {
    "nan": '{"value": NaN}',
    "infinity": '{"value": [1, -Infinity]}',
    "overflow": '{"value": 1e400}',
    "digits": '{"value": ' + "7" * 5000 + "}",
    "deep": '{"value": ' + "[" * DEEP + "]" * DEEP + "}",
    "deeper_than_100": '{"value": ' + '{"v": ' * 150 + "1" + "}" * 150 + "}",
}
NOT_RUN = "The call to take was not run: "
NOT_FINITE = "the arguments hold NaN or Infinity, which JSON does not allow: send a finite number or null."
TOO_LONG = "a number in the arguments has more than 4300 digits: send a shorter one."
TOO_DEEP = "the arguments are nested more than 100 levels deep: send a flatter object."
WHY = {
    "nan": NOT_FINITE,
    "infinity": NOT_FINITE,
    "overflow": NOT_FINITE,
    "digits": TOO_LONG,
    "deep": TOO_DEEP,
    "deeper_than_100": TOO_DEEP,
}


def _nested(depth: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth):
        node["v"] = {}
        node = node["v"]
    return root


async def _ran(client: Client) -> list[str]:
    result = await client.call_tool("ran", {})
    return json.loads(result.content[0].text)  # type: ignore[union-attr]


# ------------------------------------------------------------------ PydanticAI


async def test_pydantic_ai_a_tool_error_is_a_model_retry() -> None:
    """docs/models.md promises ModelRetry: the model's next request carries the error as a retry of
    its call (``outcome="retried"``), not as the tool's result."""
    from pydantic_ai import Agent, ModelRetry
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from mcp_client.frameworks.pydantic_ai import MCPToolset

    returned: list[ToolReturnPart] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        parts = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if not parts:
            return ModelResponse(parts=[ToolCallPart("failing_weather", {"city": "Oslo"}, tool_call_id="w1")])
        returned.extend(parts)
        return ModelResponse(parts=[TextPart("no weather today")])

    with anyio.fail_after(BOUND):
        async with Client(FEATURES) as client:
            toolset = MCPToolset(client)
            run = await Agent(FunctionModel(model), toolsets=[toolset]).run("Weather in Oslo?")
            error = await client.call_tool("failing_weather", {"city": "Oslo"})
    assert run.output == "no weather today"
    (part,) = returned
    assert part.tool_call_id == "w1" and part.outcome == "retried"
    assert "no weather for Oslo" in str(part.content)
    retry = toolset.deferred_result("failing_weather", error)  # a resumed call's error: the same
    assert isinstance(retry, ModelRetry) and "no weather for Oslo" in retry.message


async def test_pydantic_ai_malformed_arguments_are_a_retry_and_no_call() -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from mcp_client.frameworks.pydantic_ai import MCPToolset

    returned: list[ToolReturnPart] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        parts = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if not parts:
            calls = [
                ToolCallPart("take", raw, tool_call_id=case) for case, raw in BAD_ARGUMENT_STRINGS.items()
            ]
            return ModelResponse(parts=list(calls))
        returned.extend(parts)
        return ModelResponse(parts=[TextPart("gave up")])

    with anyio.fail_after(BOUND):
        async with Client(NAMES) as client:
            agent = Agent(FunctionModel(model), toolsets=[MCPToolset(client, max_retries=10)])
            run = await agent.run("take these")
            ran = await _ran(client)
    assert run.output == "gave up"
    assert {p.tool_call_id for p in returned} == set(BAD_ARGUMENT_STRINGS)
    assert all(p.outcome == "retried" for p in returned)
    seen = {p.tool_call_id: str(p.content) for p in returned}
    # PydanticAI's own JSON reader refuses two of them first (its words); ours the rest.
    assert "number out of range" in seen.pop("digits")
    assert "recursion limit exceeded" in seen.pop("deep")
    assert seen == {case: NOT_RUN + WHY[case] for case in seen}
    assert ran == []


# ------------------------------------------------------------------ LangChain


async def test_langchain_malformed_arguments_are_an_error_message_and_no_call() -> None:
    from langchain_core.messages import ToolMessage

    from mcp_client.frameworks.langchain import load_tools

    given = {
        "nan": float("nan"),
        "infinity": [1, float("-inf")],
        "digits": 7 * 10**5000,
        "deep": _nested(DEEP),
        "deeper_than_100": _nested(150),
    }
    with anyio.fail_after(BOUND):
        async with Client(NAMES) as client:
            tools = {tool.name: tool for tool in await load_tools(client)}
            messages = [
                await tools["take"].ainvoke(
                    {"name": "take", "args": {"value": v}, "id": case, "type": "tool_call"}
                )
                for case, v in given.items()
            ]
            plain = await tools["take"].ainvoke({"value": float("nan")})  # invoked without a tool call
            ran = await _ran(client)
    assert all(isinstance(m, ToolMessage) and m.status == "error" for m in messages)
    assert {m.tool_call_id: m.content for m in messages} == {case: NOT_RUN + WHY[case] for case in given}
    assert plain == NOT_RUN + NOT_FINITE
    assert ran == []


# ------------------------------------------------------------------ OpenAI Agents SDK


async def test_openai_agents_malformed_arguments_are_an_error_output_and_no_call() -> None:
    """All but the 100,000-deep arguments: openai-agents 0.24's runner parses a call's arguments itself
    before any tool runs (``_tool_invocation._normalize_arguments``) and lets that one's
    ``RecursionError`` out; 150 levels reach the tool and are refused there."""
    from agents import Agent, RunConfig, Runner

    from mcp_client.frameworks.openai_agents import function_tools
    from tests.frameworks.scripted_agents_model import ScriptedModel

    outputs: dict[str, str] = {}
    with anyio.fail_after(BOUND):
        async with Client(NAMES) as client:
            tools = await function_tools(client)
            for case, raw in BAD_ARGUMENT_STRINGS.items():
                if case == "deep":
                    continue
                agent = Agent(name="names", model=ScriptedModel("take", raw), tools=tools)
                result = await Runner.run(agent, "take it", run_config=RunConfig(tracing_disabled=True))
                outputs[case] = result.final_output
            ran = await _ran(client)
    assert outputs == {case: f"Tool: Error: {NOT_RUN}{WHY[case]}" for case in WHY if case != "deep"}
    assert ran == []


# ------------------------------------------------------------------ what the model reads


async def test_each_adapter_gives_the_content_unless_asked_for_the_structured_result() -> None:
    """``a_b`` is an official-SDK ``-> str`` tool (an outputSchema ``{"result": str}``)."""
    from agents import Agent, RunConfig, Runner
    from langchain_core.messages import ToolMessage
    from pydantic_ai import Agent as PydanticAgent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from mcp_client.frameworks.langchain import load_tools
    from mcp_client.frameworks.openai_agents import function_tools
    from mcp_client.frameworks.pydantic_ai import MCPToolset
    from tests.frameworks.scripted_agents_model import ScriptedModel

    returned: list[Any] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        parts = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if not parts:
            return ModelResponse(parts=[ToolCallPart("a_b", {})])
        returned.append(parts[0].content)
        return ModelResponse(parts=[TextPart("ok")])

    call = {"name": "a_b", "args": {}, "id": "c1", "type": "tool_call"}
    langchain: list[Any] = []
    agents: list[str] = []
    with anyio.fail_after(BOUND):
        async with Client(NAMES) as client:
            for reads in ("content", "structured"):
                await PydanticAgent(
                    FunctionModel(model), toolsets=[MCPToolset(client, model_reads=reads)]
                ).run("x")
                (tool,) = [t for t in await load_tools(client, model_reads=reads) if t.name == "a_b"]
                langchain.append(await tool.ainvoke(call))
                agent = Agent(
                    name="names",
                    model=ScriptedModel("a_b", {}),
                    tools=await function_tools(client, model_reads=reads),
                )
                run = await Runner.run(agent, "x", run_config=RunConfig(tracing_disabled=True))
                agents.append(run.final_output)
    assert returned == ["ran a_b", {"result": "ran a_b"}]
    assert all(isinstance(m, ToolMessage) for m in langchain)
    assert [m.content for m in langchain] == ["ran a_b", '{"result":"ran a_b"}']
    assert agents == ["Tool: ran a_b", 'Tool: {"result":"ran a_b"}']
