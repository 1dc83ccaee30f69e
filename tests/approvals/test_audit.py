"""The audit trail: one line per decision on ``mcp_client.approvals`` (INFO allowed, WARNING denied;
the server, the tool, the rule, asked or not, the answer, remembered or not; arguments folded), and an
OpenTelemetry event on the call's span where tracing is on."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from mcp_client import (
    ApprovalResult,
    Client,
    MemoryApprovalStore,
    StdioServerParameters,
    ToolCallDenied,
    ToolPolicy,
)
from mcp_client.approvals import approved_by_app
from tests.approvals.conftest import APPROVALS_SERVER, BOUND, Approver
from tests.support.extras import need
from tests.support.servers import stdio_command

SCRIPT = Path(__file__).with_name("telemetry_script.py")
REPO = Path(__file__).resolve().parents[2]


@pytest.mark.anyio
async def test_each_decision_is_one_line(
    server: StdioServerParameters, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="mcp_client.approvals")
    approver = Approver(
        {"write_note": ApprovalResult("allow", remember="always"), "plain": ApprovalResult("deny", note="no")}
    )
    store = MemoryApprovalStore()
    policy = ToolPolicy(deny=["drop_*"])
    long_text = "x" * 5000 + "\x1b[2J"
    with anyio.fail_after(BOUND):
        for _ in range(2):
            client = Client(
                server, mode="legacy", tool_policy=policy, approval_callback=approver, approval_store=store
            )
            async with client:
                await client.call_tool("write_note", {"text": long_text})
        caplog.clear()
        async with Client(
            server, mode="legacy", tool_policy=policy, approval_callback=approver, approval_store=store
        ) as client:
            await client.call_tool("search_notes", {"query": "q"})
            await client.call_tool("write_note", {"text": long_text})
            for tool in ("drop_notes", "plain"):
                with pytest.raises(ToolCallDenied):
                    await client.call_tool(tool, {"text": "t"} if tool == "plain" else {})
    lines = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "mcp_client.approvals"]
    assert lines[:3] == [
        (
            "INFO",
            "tool call allowed: 'search_notes' on 'approvals-server' (rule: ask=\"unless_read_only\": "
            "the server marks it read-only; not asked; answer from policy; not remembered) "
            "arguments: {'query': 'q'}",
        ),
        (
            "INFO",
            "tool call allowed: 'write_note' on 'approvals-server' (rule: ask=\"unless_read_only\": "
            "the server does not mark it read-only; not asked; answer from store; not remembered) "
            "arguments: {'text': 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…}",
        ),
        (
            "WARNING",
            "tool call denied: 'drop_notes' on 'approvals-server' (rule: deny pattern 'drop_*'; not asked; "
            "answer from policy; not remembered) arguments: {}",
        ),
    ]
    assert lines[3] == (
        "WARNING",
        "tool call denied: 'plain' on 'approvals-server' (rule: ask=\"unless_read_only\": the server does "
        "not mark it read-only; asked; answer from callback; remember=once; note: 'no') "
        "arguments: {'text': 't'}",
    )
    assert all(len(message) < 600 and "\x1b" not in message for _, message in lines)


@pytest.mark.anyio
async def test_an_apps_approval_is_one_line_and_a_settled_one_adds_none(
    server: StdioServerParameters, caplog: pytest.LogCaptureFixture
) -> None:
    """``approved_by_app()``: the app asked its user (PydanticAI's deferred flow), the gate logs it as
    the app's; ``settled=True``: ``settle_approval`` logged the person's answer, the call adds no line.
    Neither lifts a deny pattern, whose refusal is logged."""
    caplog.set_level(logging.INFO, logger="mcp_client.approvals")
    approver = Approver()
    with anyio.fail_after(BOUND):
        async with Client(
            server, mode="legacy", tool_policy=ToolPolicy(deny=["drop_*"]), approval_callback=approver
        ) as client:
            with approved_by_app():
                await client.call_tool("plain", {"text": "by the app"})
            with approved_by_app(settled=True):
                await client.call_tool("plain", {"text": "settled"})
                with pytest.raises(ToolCallDenied):
                    await client.call_tool("drop_notes")
    assert approver.asked == []
    lines = [r.getMessage() for r in caplog.records if r.name == "mcp_client.approvals"]
    assert lines == [
        "tool call allowed: 'plain' on 'approvals-server' (rule: ask=\"unless_read_only\": the server "
        "does not mark it read-only; asked; answer from app; not remembered) "
        "arguments: {'text': 'by the app'}",
        "tool call denied: 'drop_notes' on 'approvals-server' (rule: deny pattern 'drop_*'; not asked; "
        "answer from policy; not remembered) arguments: {}",
    ]


def test_each_decision_is_an_event_on_the_calls_span() -> None:
    need("opentelemetry.sdk", extra="otel")
    command = [*stdio_command(APPROVALS_SERVER)[:1], *stdio_command(APPROVALS_SERVER)[1]]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), json.dumps(command)],
        capture_output=True, text=True, timeout=120, check=False, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    spans = json.loads(done.stdout.strip().splitlines()[-1])
    (step,) = [s for s in spans if s["name"] == "agent step"]
    events = [e for e in step["events"] if e["name"] == "mcp.client.tool_approval"]
    assert [
        (e["attributes"]["gen_ai.tool.name"], e["attributes"]["mcp.approval.decision"]) for e in events
    ] == [("search_notes", "allow"), ("write_note", "allow"), ("drop_notes", "deny")]
    search, write, drop = (e["attributes"] for e in events)
    assert search["mcp.approval.asked"] is False and search["mcp.approval.source"] == "policy"
    assert write["mcp.approval.asked"] is True and write["mcp.approval.remember"] == "session"
    assert drop["mcp.approval.rule"] == "deny pattern 'drop_*'"
    assert search["mcp.server"] == "approvals-server"
    assert "secret" not in json.dumps(spans)  # no arguments in the trace
    assert drop["mcp.approval.asked"] is False and drop["mcp.approval.source"] == "policy"
    # Outside any span of the app's, the decision is a short span of its own.
    (own,) = [s for s in spans if s["name"] == "mcp.client.approval write_note"]
    remembered = own["events"][0]["attributes"]
    assert remembered["mcp.approval.source"] == "session" and remembered["mcp.approval.asked"] is False
    assert remembered["mcp.approval.decision"] == "allow"
    # A callback that fails denies: asked, and the answer is "deny".
    (failed_step,) = [s for s in spans if s["name"] == "broken step"]
    (failed,) = [e["attributes"] for e in failed_step["events"] if e["name"] == "mcp.client.tool_approval"]
    assert (failed["mcp.approval.decision"], failed["mcp.approval.asked"], failed["mcp.approval.source"]) == (
        "deny", True, "callback"
    )  # fmt: skip
    assert failed["mcp.approval.rule"] == "the approval callback failed"
