"""Each framework adapter in a real run of its framework, offline: a scripted model calls the bistro's
``book_table`` on a full date, the tool asks the user, the canned callback answers mid-run, and the
run's final output carries the tool's answer.

PydanticAI runs a ``FunctionModel``, LangChain a ``GenericFakeChatModel`` with tool calls, the OpenAI
Agents SDK a scripted ``Model``.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from mcp_client import Client, NoBackChannelError, StdioServerParameters
from tests.llm.conftest import BISTRO

pytestmark = pytest.mark.anyio

FULL = {"date": "2025-12-25", "party_size": 2}
QUESTION = "No tables for 2 on 2025-12-25. Would you like another date?"
BOOKED = "[SUCCESS] Booked for 2025-12-27"


def _answers(canned_answers: Any) -> Any:
    return canned_answers(fields={"accept_alternative": True, "date": "2025-12-27"})


async def test_pydantic_ai_agent_run(canned_answers: Any) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from mcp_client.frameworks.pydantic_ai import MCPToolset

    seen: list[Any] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if not returns:
            seen.extend(t.name for t in info.function_tools)
            return ModelResponse(parts=[ToolCallPart("book_table", FULL)])
        return ModelResponse(parts=[TextPart(f"The tool said: {returns[0].content}")])

    answers = _answers(canned_answers)
    async with Client(BISTRO, mode="legacy", elicitation_callback=answers) as client:
        agent = Agent(FunctionModel(model), toolsets=[MCPToolset(client)])
        result = await agent.run("A table for two on Christmas")
    assert seen == ["book_table"]
    assert BOOKED in result.output
    assert answers.messages == [QUESTION]


async def test_langchain_tools(canned_answers: Any) -> None:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, ToolMessage

    from mcp_client.frameworks.langchain import load_tools

    call = {"name": "book_table", "args": FULL, "id": "call_1", "type": "tool_call"}
    wrong = {"name": "book_table", "args": {"party_size": "two"}, "id": "call_2", "type": "tool_call"}
    model = GenericFakeChatModel(messages=iter([AIMessage(content="", tool_calls=[call, wrong])]))
    answers = _answers(canned_answers)
    async with Client(BISTRO, mode="legacy", elicitation_callback=answers) as client:
        tools = {tool.name: tool for tool in await load_tools(client)}
        reply = await model.ainvoke("A table for two on Christmas")
        assert isinstance(reply, AIMessage)
        messages = [await tools[c["name"]].ainvoke(c) for c in reply.tool_calls]
    booked, refused = messages
    assert isinstance(booked, ToolMessage) and isinstance(refused, ToolMessage)
    assert booked.content == BOOKED  # the content, not {"result": ...}
    assert booked.artifact.structured_content == {"result": BOOKED}
    assert booked.status == "success"
    assert refused.status == "error" and "date" in str(refused.content)
    assert answers.messages == [QUESTION]


async def test_openai_agents_run(canned_answers: Any) -> None:
    from agents import Agent, RunConfig, Runner

    from mcp_client.frameworks.openai_agents import function_tools
    from tests.frameworks.scripted_agents_model import ScriptedModel

    answers = _answers(canned_answers)
    scripted = ScriptedModel("book_table", FULL)
    async with Client(BISTRO, mode="legacy", elicitation_callback=answers) as client:
        agent = Agent(name="bistro", model=scripted, tools=await function_tools(client))
        result = await Runner.run(
            agent, "A table for two on Christmas", run_config=RunConfig(tracing_disabled=True)
        )
    assert BOOKED in result.final_output
    assert [t.name for t in scripted.tools] == ["book_table"]
    assert scripted.tools[0].strict_json_schema is True
    assert answers.messages == [QUESTION]


@pytest.mark.parametrize(
    ("module", "extra"),
    [("pydantic_ai", "pydantic-ai"), ("langchain", "langchain"), ("openai_agents", "openai-agents")],
)
def test_a_missing_framework_names_its_extra(module: str, extra: str) -> None:
    blocked = {"pydantic_ai": "pydantic_ai", "langchain": "langchain_core", "openai_agents": "agents"}[module]
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        "import mcp_client.frameworks\n"
        f"try:\n    import mcp_client.frameworks.{module}\n"
        "except ImportError as exc:\n    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f'pip install "mcp-elicit-client[{extra}]"' in done.stdout


# ------------------------------------------------ a ctx.elicit tool on a 2026-07-28 connection


def _guide(guide_stdio_command: tuple[str, list[str]]) -> StdioServerParameters:
    """The guide server, whose ``book_table`` asks with ``ctx.elicit`` (the legacy back-channel only)."""
    return StdioServerParameters(*guide_stdio_command)


def _says_to_connect_in_legacy(error: BaseException) -> None:
    assert isinstance(error, NoBackChannelError), repr(error)
    assert "tried to ask the user a question (elicitation/create) over the legacy back-channel" in str(error)
    assert 'Client(..., mode="legacy")' in str(error)


async def test_pydantic_ai_raises_no_back_channel_instead_of_retrying(
    guide_stdio_command: tuple[str, list[str]], canned_answers: Any
) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from mcp_client.frameworks.pydantic_ai import MCPToolset

    turns: list[int] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        turns.append(len(messages))
        if len(turns) > 1:
            return ModelResponse(parts=[TextPart("the model saw the error and gave up")])
        return ModelResponse(parts=[ToolCallPart("book_table", FULL)])

    answers = _answers(canned_answers)
    async with Client(_guide(guide_stdio_command), mode="2026-07-28", elicitation_callback=answers) as client:
        agent = Agent(FunctionModel(model), toolsets=[MCPToolset(client)])
        with pytest.raises(NoBackChannelError) as caught:
            await agent.run("A table for two on Christmas")
    _says_to_connect_in_legacy(caught.value)
    assert len(turns) == 1  # the model never saw it: no retry, no "error" result to read
    assert answers.messages == []


async def test_langchain_raises_no_back_channel_instead_of_an_error_message(
    guide_stdio_command: tuple[str, list[str]], canned_answers: Any
) -> None:
    from mcp_client.frameworks.langchain import load_tools

    call = {"name": "book_table", "args": FULL, "id": "call_1", "type": "tool_call"}
    answers = _answers(canned_answers)
    async with Client(_guide(guide_stdio_command), mode="2026-07-28", elicitation_callback=answers) as client:
        tools = {tool.name: tool for tool in await load_tools(client)}
        with pytest.raises(NoBackChannelError) as caught:
            await tools["book_table"].ainvoke(call)  # handle_tool_error=True would make it a ToolMessage
    _says_to_connect_in_legacy(caught.value)
    assert answers.messages == []


async def test_openai_agents_raises_no_back_channel_as_it_is(
    guide_stdio_command: tuple[str, list[str]], canned_answers: Any
) -> None:
    from agents import Agent, RunConfig, Runner

    from mcp_client.frameworks.openai_agents import function_tools
    from tests.frameworks.scripted_agents_model import ScriptedModel

    answers = _answers(canned_answers)
    scripted = ScriptedModel("book_table", FULL)
    async with Client(_guide(guide_stdio_command), mode="2026-07-28", elicitation_callback=answers) as client:
        agent = Agent(name="bistro", model=scripted, tools=await function_tools(client))
        with pytest.raises(NoBackChannelError) as caught:
            await Runner.run(agent, "Christmas for two", run_config=RunConfig(tracing_disabled=True))
    _says_to_connect_in_legacy(caught.value)
    assert len(scripted.inputs) == 1  # the model was not given the error to read
    assert answers.messages == []
