"""A paused call inside each framework's run: the run stops with the framework's signal, naming the
paused call, and the model sees the tool's result once the app resumed it.

The files example server's ``delete_folder`` asks for a confirmation; in the 2026-07-28 era it returns
the question, and ``pause_with=broker`` releases the call as a ``PausedCall`` instead of holding the
run. Each test then answers the question as the app would (``broker.answer``), resumes the call
(``broker.resume``) and hands the result back the framework's way. The models are scripted, offline.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest

from mcp_client import Client, StdioServerParameters
from mcp_client.llm import ToolBridge, ToolCallPaused
from mcp_client.types import CallToolResult
from ui_adapters import QuestionBroker

pytestmark = pytest.mark.anyio

FILES = StdioServerParameters(
    sys.executable, [str(Path(__file__).resolve().parents[2] / "examples" / "servers" / "files.py")]
)
MODERN = "2026-07-28"
BOUND = 60
PATH = {"path": "/srv/old"}
QUESTION = "Really delete /srv/old? This cannot be undone."
DELETED = "deleted /srv/old"


async def _answer_and_resume(broker: QuestionBroker, call_id: str, client: Client) -> CallToolResult:
    """What the app does later: the person answers the question, the paused call is resumed."""
    (question,) = broker.pending()
    assert question.call_id == call_id
    assert question.message == QUESTION
    await broker.answer(question.id, {"confirm": True})
    result = await broker.resume(call_id, client)
    assert isinstance(result, CallToolResult)
    return result


async def test_pydantic_ai_defers_the_call_and_finishes_with_its_result() -> None:
    from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults
    from pydantic_ai.messages import (
        ModelMessage,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
    )
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from mcp_client.frameworks.pydantic_ai import MCPToolset

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        assert all(p.outcome == "success" for p in returns)  # never told the tool failed
        if not returns:
            return ModelResponse(parts=[ToolCallPart("delete_folder", PATH, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart(f"The tool said: {returns[0].content}")])

    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(FILES, mode=MODERN, elicitation_callback=broker) as client:
            toolset = MCPToolset(client, pause_with=broker)
            agent = Agent(FunctionModel(model), toolsets=[toolset], output_type=[str, DeferredToolRequests])
            run = await agent.run("Delete /srv/old")

            requests = run.output
            assert isinstance(requests, DeferredToolRequests)
            (call,) = requests.calls
            assert call.tool_call_id == "c1" and call.tool_name == "delete_folder"
            metadata = requests.metadata["c1"]
            assert metadata["mcp_server"] == client.server and metadata["mcp_tool"] == "delete_folder"
            result = await _answer_and_resume(broker, metadata["mcp_paused_call"], client)

            answered = DeferredToolResults(calls={"c1": toolset.deferred_result(call.tool_name, result)})
            final = await agent.run(message_history=run.all_messages(), deferred_tool_results=answered)
    assert isinstance(final.output, str) and DELETED in final.output


async def test_langchain_tool_raises_the_pause_and_the_resumed_result_is_its_tool_message() -> None:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    from mcp_client.frameworks.langchain import load_tools, tool_message

    call = {"name": "delete_folder", "args": PATH, "id": "call_1", "type": "tool_call"}
    model = GenericFakeChatModel(messages=iter([AIMessage(content="", tool_calls=[call])]))
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(FILES, mode=MODERN, elicitation_callback=broker) as client:
            (tool,) = await load_tools(client, pause_with=broker)
            reply = await model.ainvoke("Delete /srv/old")
            assert isinstance(reply, AIMessage)
            with pytest.raises(ToolCallPaused) as caught:
                await tool.ainvoke(reply.tool_calls[0])
            paused = caught.value
            assert paused.tool_call_id == "call_1" and paused.tool.name == "delete_folder"
            assert paused.arguments == PATH and paused.server == client.server
            result = await _answer_and_resume(broker, paused.call_id, client)
    message = tool_message(paused, result)
    assert message.tool_call_id == "call_1" and message.status == "success"
    assert DELETED in str(message.content)
    assert message.artifact is result


async def test_openai_agents_run_stops_with_the_pause_and_goes_on_with_the_result() -> None:
    from agents import Agent, RunConfig, Runner, TResponseInputItem

    from mcp_client.frameworks.openai_agents import function_tools, resumed_items
    from tests.frameworks.scripted_agents_model import ScriptedModel

    scripted = ScriptedModel("delete_folder", PATH)
    config = RunConfig(tracing_disabled=True)
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(FILES, mode=MODERN, elicitation_callback=broker) as client:
            agent = Agent(name="files", model=scripted, tools=await function_tools(client, pause_with=broker))
            with pytest.raises(ToolCallPaused) as caught:
                await Runner.run(agent, "Delete /srv/old", run_config=config)
            paused = caught.value
            assert paused.tool_call_id == "c1" and paused.tool.name == "delete_folder"
            assert len(scripted.inputs) == 1  # the model saw no error: the run stopped at the pause
            result = await _answer_and_resume(broker, paused.call_id, client)

            items = resumed_items(paused, result)  # the model's call and the tool's output
            assert [item["call_id"] for item in items] == ["c1", "c1"]
            conversation: list[TResponseInputItem] = [{"role": "user", "content": "Delete /srv/old"}]
            conversation += items  # pyright: ignore[reportArgumentType]
            final = await Runner.run(agent, conversation, run_config=config)
    assert DELETED in final.final_output


async def test_tool_bridge_raises_the_pause_and_shapes_the_resumed_result() -> None:
    call = {"id": "call_9", "function": {"name": "delete_folder", "arguments": json.dumps(PATH)}}
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(FILES, mode=MODERN, elicitation_callback=broker) as client:
            bridge = ToolBridge(client, pause_with=broker)
            await bridge.openai_tools()
            with pytest.raises(ToolCallPaused) as caught:
                await bridge.run_openai(call)
            paused = caught.value
            assert paused.tool_call_id == "call_9"
            result = await _answer_and_resume(broker, paused.call_id, client)
            message = await bridge.run_openai(call, result=result)
    assert message["role"] == "tool" and message["tool_call_id"] == "call_9"
    assert DELETED in message["content"]


async def test_a_legacy_servers_question_waits_in_the_run_and_the_broker_answers_it() -> None:
    """A legacy server cannot release its call: with pause_with, its question still reaches the broker
    mid-run, the app answers it there, and the model sees the tool's final result."""
    from pydantic_ai import Agent, DeferredToolRequests
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from mcp_client.frameworks.pydantic_ai import MCPToolset
    from tests.llm.conftest import BISTRO

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if not returns:
            return ModelResponse(parts=[ToolCallPart("book_table", {"date": "2025-12-25", "party_size": 2})])
        return ModelResponse(parts=[TextPart(f"The tool said: {returns[0].content}")])

    broker = QuestionBroker()
    asked: list[str] = []

    async def person() -> None:
        async for question in broker:
            asked.append(question.message)
            await broker.answer(question.id, {"accept_alternative": True, "date": "2025-12-27"})

    with anyio.fail_after(BOUND):
        async with (
            Client(BISTRO, mode="legacy", elicitation_callback=broker) as client,
            anyio.create_task_group() as tg,
        ):
            tg.start_soon(person)
            agent = Agent(
                FunctionModel(model),
                toolsets=[MCPToolset(client, pause_with=broker)],
                output_type=[str, DeferredToolRequests],
            )
            run = await agent.run("A table for two on Christmas")
            tg.cancel_scope.cancel()
    assert isinstance(run.output, str) and "[SUCCESS] Booked for 2025-12-27" in run.output
    assert asked == ["No tables for 2 on 2025-12-25. Would you like another date?"]
    assert broker.paused_calls() == []
