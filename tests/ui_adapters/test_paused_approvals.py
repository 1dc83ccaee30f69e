"""An approval as a paused call (issue 45 §2: "with a paused call where the app uses paused calls").

A ``ToolBridge(client, pause_with=broker)`` whose client asks the same broker for approvals does not
wait inside the worker: a call the policy asks about pauses before anything is sent (``ToolCallPaused``,
as for a server's question), its approval is pending in the broker (``kind == "approval"``, ``call_id``
the paused call's) on every worker sharing the store, and ``broker.resume`` runs the call once it is
allowed, or gives the model the refusal. The peer is tests/servers/approvals_server.py over HTTP (one
process for the module, so a second client reaches the same server); its ``ran`` tool says what ran.
Two brokers on one SQLite file stand for two workers, as the paused-call tests of the stores do.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_client import ApprovalResult, Client, ToolPolicy
from mcp_client.llm import ToolBridge, ToolCallPaused
from mcp_client.types import CallToolResult
from tests.support.extras import need
from tests.support.servers import SERVERS_DIR, start_http_server
from tests.ui_adapters._approval_helpers import ran, text_of
from ui_adapters import PausedCall, QuestionBroker, QuestionNotPendingError, SqliteStore
from ui_adapters.broker.approval import PendingApproval
from ui_adapters.broker.paused import PausedCallNotReadyError

pytestmark = pytest.mark.anyio

BOUND = 60
TELEMETRY_SCRIPT = Path(__file__).with_name("paused_approval_telemetry_script.py")
REPO = Path(__file__).resolve().parents[2]


def openai_call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    function = {"name": name, "arguments": json.dumps(arguments)}
    return {"id": "call_1", "type": "function", "function": function}


def gated(url: str, broker: QuestionBroker, policy: ToolPolicy | None = None) -> Client:
    return Client(url, approval_callback=broker, tool_policy=policy or ToolPolicy())


async def pause(bridge: ToolBridge, call: dict[str, Any]) -> ToolCallPaused:
    with pytest.raises(ToolCallPaused) as caught:
        await bridge.run_openai(call)
    return caught.value


async def test_an_approval_pauses_the_call_and_another_worker_allows_and_resumes_it(
    approvals_url: str, tmp_path: Path
) -> None:
    db = tmp_path / "questions.db"
    call = openai_call("write_note", {"text": "hello"})
    before = await ran(approvals_url)
    with anyio.fail_after(BOUND):
        async with QuestionBroker(store=SqliteStore(db)) as first:
            async with gated(approvals_url, first) as client:
                bridge = ToolBridge(client, pause_with=first)
                paused = await pause(bridge, call)
            assert paused.tool_call_id == "call_1" and paused.arguments == {"text": "hello"}
            assert "paused until a person approves it" in str(paused)
            assert await ran(approvals_url) == before  # nothing was sent
            (mine,) = first.pending()
            assert mine.kind == "approval" and mine.call_id == paused.call_id

            async with QuestionBroker(store=SqliteStore(db)) as second:  # another worker
                (item,) = second.pending()
                assert isinstance(item, PendingApproval) and item.id == mine.id
                assert item.call_id == paused.call_id and item.request.tool == "write_note"
                assert dict(item.request.arguments) == {"text": "hello"}
                assert (await second.describe(item.id) or {})["call_id"] == paused.call_id
                await second.answer(item.id, ApprovalResult(decision="allow"))
                assert second.pending() == []
                async with gated(approvals_url, second) as other:
                    result = await second.resume(paused.call_id, other)
                    assert isinstance(result, CallToolResult)
                    message = await ToolBridge(other, pause_with=second).run_openai(call, result=result)
                    with pytest.raises(QuestionNotPendingError, match="resumed already"):
                        await first.resume(paused.call_id, other)
    assert message == {"role": "tool", "tool_call_id": "call_1", "content": "ran write_note"}
    assert await ran(approvals_url) == [*before, "write_note"]  # run once, after the answer


async def test_a_denied_paused_approval_gives_the_model_the_refusal_and_never_runs(
    approvals_url: str, tmp_path: Path
) -> None:
    db = tmp_path / "questions.db"
    call = openai_call("drop_notes", {})
    before = await ran(approvals_url)
    with anyio.fail_after(BOUND):
        async with QuestionBroker(store=SqliteStore(db)) as first, gated(approvals_url, first) as client:
            bridge = ToolBridge(client, pause_with=first)
            paused = await pause(bridge, call)
            async with QuestionBroker(store=SqliteStore(db)) as second:
                (item,) = second.pending()
                await second.answer(item.id, {"decision": "deny", "note": "not the notes!"})
            result = await first.resume(paused.call_id, client)
            assert isinstance(result, CallToolResult)
            message = await bridge.run_openai(call, result=result)
    assert message["content"] == (  # what the bridge says of a call refused while it waited
        "Error: The user refused this call of drop_notes: it was not run. The user said: not the notes!"
    )
    assert result.is_error
    assert await ran(approvals_url) == before  # drop_notes never ran


async def test_a_paused_approval_that_went_away_unanswered_is_nobody_s_refusal(approvals_url: str) -> None:
    """The approval of a paused call withdrawn before anyone answered (its store entry expired): the
    resumed call is refused, and the model reads that nobody approved it, not that the user refused."""
    call = openai_call("drop_notes", {})
    before = await ran(approvals_url)
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with gated(approvals_url, broker) as client:
            bridge = ToolBridge(client, pause_with=broker)
            paused = await pause(bridge, call)
            (waiting,) = broker.paused_calls()
            assert waiting.approval is not None
            waiting.approval.withdraw()
            result = await broker.resume(paused.call_id, client)
            assert isinstance(result, CallToolResult)
            message = await bridge.run_openai(call, result=result)
    assert message["content"] == (
        "Error: Nobody approved this call of drop_notes, so it was not run: the approval ended unanswered. "
        "It needs a person's approval: do not retry it; go on without it, or tell the user it needs their "
        "approval."
    )
    assert await ran(approvals_url) == before


async def test_a_call_the_policy_allows_or_denies_does_not_pause(approvals_url: str) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with gated(approvals_url, broker, ToolPolicy(deny=["drop_*"])) as client:
            bridge = ToolBridge(client, pause_with=broker)
            read = await bridge.run_openai(openai_call("get_note", {"id": "1"}))  # read-only: allowed
            refused = await bridge.run_openai(openai_call("drop_notes", {}))
    assert read["content"] == "ran get_note"
    policy_says = "Error: The app's tool policy does not allow drop_notes: the call was not run."
    assert refused["content"] == policy_says
    assert broker.pending() == [] and broker.paused_calls() == []


async def test_a_client_asking_another_callback_is_asked_there_and_does_not_pause(approvals_url: str) -> None:
    from ui_adapters import canned_approvals

    broker, approver = QuestionBroker(), canned_approvals({"*": "allow"})
    with anyio.fail_after(BOUND):
        async with Client(approvals_url, approval_callback=approver, tool_policy=ToolPolicy()) as client:
            bridge = ToolBridge(client, pause_with=broker)
            message = await bridge.run_openai(openai_call("plain", {"text": "x"}))
    assert message["content"] == "ran plain"
    assert [request.tool for request in approver.asked] == ["plain"]
    assert broker.pending() == [] and broker.paused_calls() == []


async def test_broker_call_tool_pauses_on_an_approval_and_resume_waits_for_the_decision(
    approvals_url: str,
) -> None:
    broker = QuestionBroker()
    before = await ran(approvals_url)
    with anyio.fail_after(BOUND):
        async with gated(approvals_url, broker) as client:
            paused = await broker.call_tool(client, "plain", {"text": "x"})
            assert isinstance(paused, PausedCall) and paused.approval is not None and not paused.ready
            assert PausedCall.from_json(json.loads(json.dumps(paused.to_json()))).approval is not None
            with pytest.raises(PausedCallNotReadyError, match="still waits for its approval"):
                await broker.resume(paused, client)
            (item,) = broker.pending()
            assert item.kind == "approval" and item.call_id == paused.id
            await broker.answer(item.id, ApprovalResult(decision="allow", remember="session"))
            result = await broker.resume(paused.id, client)
            assert isinstance(result, CallToolResult) and text_of(result) == "ran plain"
            again = await broker.call_tool(client, "plain", {"text": "y"})  # remembered for the session
    assert isinstance(again, CallToolResult) and text_of(again) == "ran plain"
    assert await ran(approvals_url) == [*before, "plain", "plain"]


async def test_pydantic_ai_defers_a_call_paused_on_its_approval_and_reads_the_refusal(
    approvals_url: str,
) -> None:
    pytest.importorskip("pydantic_ai", reason="the pydantic-ai extra is not installed")
    from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from mcp_client.frameworks.pydantic_ai import MCPToolset

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if not returns:
            return ModelResponse(parts=[ToolCallPart("drop_notes", {}, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart(f"The tool said: {returns[0].content}")])

    broker = QuestionBroker()
    before = await ran(approvals_url)
    with anyio.fail_after(BOUND):
        async with gated(approvals_url, broker) as client:
            toolset = MCPToolset(client, pause_with=broker)
            agent = Agent(FunctionModel(model), toolsets=[toolset], output_type=[str, DeferredToolRequests])
            run = await agent.run("Drop the notes")
            assert isinstance(run.output, DeferredToolRequests)
            call_id = run.output.metadata["c1"]["mcp_paused_call"]
            (item,) = broker.pending()
            assert item.kind == "approval" and item.call_id == call_id
            await broker.answer(item.id, ApprovalResult(decision="deny", note="keep them"))
            result = await broker.resume(call_id, client)
            assert isinstance(result, CallToolResult)
            answers = DeferredToolResults(calls={"c1": toolset.deferred_result("drop_notes", result)})
            final = await agent.run(message_history=run.all_messages(), deferred_tool_results=answers)
    (told,) = [p for m in final.all_messages() for p in m.parts if isinstance(p, ToolReturnPart)]
    assert told.outcome == "success"  # a refusal, not an error to retry (as in the run itself)
    assert final.output == (
        "The tool said: The user refused this call of drop_notes: it was not run. The user said: keep them"
    )
    assert await ran(approvals_url) == before


def approval_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "mcp_client.approvals"]


async def test_a_resumed_approval_is_one_audit_line_naming_the_person(
    approvals_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The person's answer is the decision: logged once when the paused call resumes (as the gate logs
    an answer given inside the call), not once more as the app's when the call is made."""
    caplog.set_level(logging.INFO, logger="mcp_client.approvals")
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with gated(approvals_url, broker) as client:
            paused = await broker.call_tool(client, "plain", {"text": "x"})
            assert isinstance(paused, PausedCall)
            assert approval_lines(caplog) == []  # nothing decided yet
            (item,) = broker.pending()
            await broker.answer(item.id, ApprovalResult("allow", remember="session", note="fine"))
            result = await broker.resume(paused.id, client)
            assert isinstance(result, CallToolResult) and text_of(result) == "ran plain"
    assert approval_lines(caplog) == [
        "tool call allowed: 'plain' on 'approvals-server' (rule: ask=\"unless_read_only\": the server "
        "does not mark it read-only; asked; answer from callback; remember=session; note: 'fine') "
        "arguments: {'text': 'x'}"
    ]


async def test_a_refused_paused_approval_is_one_audit_line_too(
    approvals_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="mcp_client.approvals")
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with gated(approvals_url, broker) as client:
            paused = await broker.call_tool(client, "plain", {"text": "x"})
            assert isinstance(paused, PausedCall)
            (item,) = broker.pending()
            await broker.answer(item.id, ApprovalResult("deny", note="no"))
            result = await broker.resume(paused.id, client)
            assert isinstance(result, CallToolResult) and result.is_error
    assert approval_lines(caplog) == [
        "tool call denied: 'plain' on 'approvals-server' (rule: ask=\"unless_read_only\": the server "
        "does not mark it read-only; asked; answer from callback; remember=once; note: 'no') "
        "arguments: {'text': 'x'}"
    ]


def test_a_resumed_approval_is_one_otel_event() -> None:
    need("opentelemetry.sdk", extra="otel")
    with start_http_server(script=SERVERS_DIR / "approvals_server.py") as url:
        done = subprocess.run(
            [sys.executable, str(TELEMETRY_SCRIPT), url],
            capture_output=True, text=True, timeout=120, check=False, cwd=REPO,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    spans = json.loads(done.stdout.strip().splitlines()[-1])
    (step,) = [s for s in spans if s["name"] == "resume"]
    events = [e["attributes"] for e in step["events"] if e["name"] == "mcp.client.tool_approval"]
    said = [(e["gen_ai.tool.name"], e["mcp.approval.decision"], e["mcp.approval.source"]) for e in events]
    assert said == [("plain", "allow", "callback")]
    assert events[0]["mcp.approval.asked"] is True and events[0]["mcp.approval.remember"] == "session"
