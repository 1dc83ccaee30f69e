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
from tests.support.bad_arguments import BAD_ARGUMENT_STRINGS, DEEP, NOT_FINITE, WHY
from tests.support.bad_arguments import nested as _nested
from tests.support.servers import FEATURES_SERVER, SERVERS_DIR, stdio_command

pytestmark = pytest.mark.anyio

NAMES = StdioServerParameters(*stdio_command(SERVERS_DIR / "names_server.py"))
FEATURES = StdioServerParameters(*stdio_command(FEATURES_SERVER))
BOUND = 120
NOT_RUN = "The call to take was not run: "


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


# ------------------------------------------------------------------ an export looser than the tool's schema

SCHEMAS = StdioServerParameters(*stdio_command(SERVERS_DIR / "schemas_server.py"))
MIXED = {"query": "mcp", "id": "not-hex"}  # both forms of search's root anyOf at once
CORRECT = {"query": "mcp", "page": 2}
FORMS = "Input schema (as the tool checks it): the arguments must match at least one of these forms: "
SEARCH_FORMS = FORMS + "1) query, page (required: query); 2) id (required: id)."
REFUSED = "The call to search was not run: the arguments do not match the tool's input schema, at $: "


def _refused(text: str) -> bool:
    return (
        text.startswith(REFUSED)
        and "1) query, page (required: query); 2) id (required: id)" in text
        and text.endswith("Correct the arguments and call again.")
    )


async def test_each_adapter_describes_and_checks_a_tool_whose_export_is_looser() -> None:
    """``search`` (tests/servers/schemas_server.py) is a root ``anyOf``, exported as one object with
    every property optional: each adapter's description says what the export could not (its forms),
    and a call mixing both forms comes back to the model as the error that says why, the server not
    called (PydanticAI: a ``ModelRetry``); the correct call runs."""
    from agents import Agent, RunConfig, Runner
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, ToolMessage
    from pydantic_ai import Agent as PydanticAgent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from mcp_client.frameworks.langchain import load_tools
    from mcp_client.frameworks.openai_agents import function_tools
    from mcp_client.frameworks.pydantic_ai import MCPToolset
    from tests.frameworks.scripted_agents_model import ScriptedModel

    pydantic_descriptions: list[str | None] = []
    returned: list[ToolReturnPart] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        parts = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if not parts:
            pydantic_descriptions.extend(t.description for t in info.function_tools if t.name == "search")
            return ModelResponse(parts=[ToolCallPart("search", MIXED, tool_call_id="p1")])
        if len(parts) == 1:
            return ModelResponse(parts=[ToolCallPart("search", CORRECT, tool_call_id="p2")])
        returned.extend(parts)
        return ModelResponse(parts=[TextPart("found")])

    calls = [
        {"name": "search", "args": MIXED, "id": "l1", "type": "tool_call"},
        {"name": "search", "args": CORRECT, "id": "l2", "type": "tool_call"},
    ]
    chat = GenericFakeChatModel(messages=iter([AIMessage(content="", tool_calls=calls)]))
    outputs: list[str] = []
    with anyio.fail_after(BOUND):
        async with Client(SCHEMAS) as client:
            run = await PydanticAgent(FunctionModel(model), toolsets=[MCPToolset(client, max_retries=3)]).run(
                "Find the MCP page."
            )

            lc_tools = {tool.name: tool for tool in await load_tools(client)}
            reply = await chat.ainvoke("Find the MCP page.")
            assert isinstance(reply, AIMessage)
            messages = [await lc_tools[c["name"]].ainvoke(c) for c in reply.tool_calls]

            agents_tools = await function_tools(client)
            scripted: list[ScriptedModel] = []
            for arguments in (MIXED, CORRECT):
                scripted.append(ScriptedModel("search", arguments))
                agent = Agent(name="schemas", model=scripted[-1], tools=agents_tools)
                result = await Runner.run(agent, "find", run_config=RunConfig(tracing_disabled=True))
                outputs.append(result.final_output)
            received = await client.call_tool("calls", {})

    got = f"search got {json.dumps(CORRECT, sort_keys=True)}"
    # PydanticAI
    assert run.output == "found"
    assert pydantic_descriptions == [f"the search tool\n\n{SEARCH_FORMS}"]
    first, second = returned
    assert first.tool_call_id == "p1" and first.outcome == "retried" and _refused(str(first.content))
    assert second.tool_call_id == "p2" and second.content == got
    # LangChain
    assert lc_tools["search"].description == f"the search tool\n\n{SEARCH_FORMS}"
    refused, ran = messages
    assert isinstance(refused, ToolMessage) and isinstance(ran, ToolMessage)
    assert refused.status == "error" and _refused(str(refused.content))
    assert ran.status == "success" and ran.content == got
    # the OpenAI Agents SDK
    (agents_search,) = [t for t in scripted[0].tools if t.name == "search"]
    assert agents_search.description == f"the search tool\n\n{SEARCH_FORMS}"
    assert outputs[0].startswith("Tool: Error: ") and _refused(outputs[0].removeprefix("Tool: Error: "))
    assert outputs[1] == f"Tool: {got}"
    # only the correct calls reached the server
    assert json.loads(received.content[0].text) == [{"name": "search", "arguments": CORRECT}] * 3  # type: ignore[union-attr]
