"""The gate in ``Client.call_tool``: what the policy denies, and what the person refuses, never reaches
the server (counted on the server: ``ran()``); what is asked carries the call and the server's claims;
a broken callback denies; no policy costs nothing."""

from __future__ import annotations

import logging
from typing import Any

import anyio
import pytest

from mcp_client import (
    ApprovalResult,
    Client,
    StdioServerParameters,
    ToolCallDenied,
    ToolPolicy,
)
from tests.approvals.conftest import BOUND, Approver, ran, text

pytestmark = pytest.mark.anyio


async def test_no_policy_changes_nothing_and_costs_no_request(server: StdioServerParameters) -> None:
    """Without a policy there is no gate; with one, the listing it reads is the one the client makes
    anyway (to check results against output schemas): not one more request on the wire."""
    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy") as client:
            assert client.tool_policy is None
            assert text(await client.call_tool("drop_notes")) == "ran drop_notes"
            plain = text(await client.call_tool("listings"))
        async with Client(server, mode="legacy", tool_policy=ToolPolicy(ask="never")) as client:
            assert client.tool_policy == ToolPolicy(ask="never")
            assert text(await client.call_tool("drop_notes")) == "ran drop_notes"
            gated = text(await client.call_tool("listings"))
    assert plain == gated == "1"


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_a_denied_call_never_reaches_the_server(server: StdioServerParameters, mode: str) -> None:
    approver = Approver()
    policy = ToolPolicy(deny=["drop_*"], ask="always")
    with anyio.fail_after(BOUND):
        async with Client(server, mode=mode, tool_policy=policy, approval_callback=approver) as client:
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("drop_notes")
            with pytest.raises(ToolCallDenied):
                await client.call_tool("drop_notes", as_task=True)  # the task variant too
            assert approver.asked == []  # a deny pattern asks nobody
            assert await ran(client) == []
    error = denied.value
    assert (error.tool, error.server, error.reason, error.note) == (
        "drop_notes", "approvals-server", "deny pattern 'drop_*'", None
    )  # fmt: skip
    assert not error.by_user
    assert str(error) == (
        "the call of tool 'drop_notes' on approvals-server was denied (deny pattern 'drop_*') and not "
        "sent to the server: change the ToolPolicy's deny patterns to let it run"
    )


async def test_the_person_refuses_with_a_note(server: StdioServerParameters) -> None:
    approver = Approver({"write_note": ApprovalResult("deny", note="not today")})
    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=approver) as client:
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("write_note", {"text": "hello"})
            assert await ran(client) == []
    assert denied.value.note == "not today" and denied.value.by_user
    assert denied.value.reason == 'ask="unless_read_only": the server does not mark it read-only'
    assert str(denied.value).endswith("the user refused it; the user said: not today")


async def test_the_request_carries_the_call_and_the_servers_claims(server: StdioServerParameters) -> None:
    approver = Approver()
    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=approver) as client:
            assert text(await client.call_tool("write_note", {"text": "hello"})) == "ran write_note"
            assert text(await client.call_tool("search_notes", {"query": "x"})) == "ran search_notes"
            assert await ran(client) == ["write_note", "search_notes"]
    (request,) = approver.asked  # search_notes is read-only: not asked
    assert request.server == "approvals-server"
    assert request.tool == "write_note"
    assert dict(request.arguments) == {"text": "hello"}
    assert request.annotations is not None
    assert (request.annotations["readOnlyHint"], request.annotations["destructiveHint"]) == (False, False)
    assert request.description == "Add a note."
    assert request.reason == 'ask="unless_read_only": the server does not mark it read-only'
    (context,) = approver.contexts
    assert context.tool_name == "write_note" and dict(context.arguments or {}) == {"text": "hello"}
    assert context.server_name == "approvals-server"
    assert context.server_info is not None and context.server_info.name == "approvals-server"
    with pytest.raises(TypeError):
        request.arguments["text"] = "changed"  # type: ignore[index]  # read-only for the callback


async def test_a_lying_server_gets_its_destructive_tool_run_as_read_only(
    server: StdioServerParameters,
) -> None:
    """Annotations are the server's claims: ``wipe_disk`` says read-only, so ``"unless_read_only"``
    runs it unasked. Denying it by name is what stops it; ``ask="always"`` shows its claimed title."""
    approver = Approver({"*": ApprovalResult("deny")})
    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=approver) as client:
            assert text(await client.call_tool("wipe_disk")) == "ran wipe_disk"
            assert approver.asked == []
        named = ToolPolicy(deny=["wipe_*"])
        async with Client(server, mode="legacy", tool_policy=named, approval_callback=approver) as client:
            with pytest.raises(ToolCallDenied):
                await client.call_tool("wipe_disk")
            assert await ran(client) == []
        always = ToolPolicy(allow=["ran"], ask="always")
        async with Client(server, mode="legacy", tool_policy=always, approval_callback=approver) as client:
            with pytest.raises(ToolCallDenied):
                await client.call_tool("wipe_disk")
            assert await ran(client) == []
    (request,) = approver.asked
    assert request.title == "Look at the disk"
    assert request.annotations is not None and request.annotations["readOnlyHint"] is True


async def test_a_tool_listed_again_is_judged_on_its_new_annotations(server: StdioServerParameters) -> None:
    """``relabel`` lists ``plain`` again as read-only and says the tool list changed: the next call of
    ``plain`` is judged on the new claim."""
    approver = Approver()
    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=approver) as client:
            await client.call_tool("plain", {"text": "a"})
            assert approver.tools == ["plain"]
            # A raw request: no result check lists the tools again after it, only the notice (which
            # over stdio comes before the result) makes the listing stale.
            await client.send_request("tools/call", {"name": "relabel", "arguments": {}})
            await client.call_tool("plain", {"text": "b"})
            assert approver.tools == ["plain"]  # not asked again: now it claims read-only
            assert await ran(client) == ["plain", "plain"]


class _Broken(Exception):
    pass


async def _raises(context: Any, request: Any) -> ApprovalResult:
    raise _Broken("the approval UI crashed")


async def _returns_junk(context: Any, request: Any) -> Any:
    return "allow"  # a string is not an ApprovalResult


@pytest.mark.parametrize(("callback", "logged"), [(_raises, "failed"), (_returns_junk, "returned str")])
async def test_a_broken_callback_denies_the_call(
    server: StdioServerParameters, callback: Any, logged: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="mcp_client.approvals")
    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=callback) as client:
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("write_note", {"text": "x"})
            assert await ran(client) == []
    assert denied.value.reason == "the approval callback failed"
    assert not denied.value.by_user
    assert "fix the approval_callback" in str(denied.value)
    assert any(logged in r.getMessage() and "the call is denied" in r.getMessage() for r in caplog.records)


async def test_a_waiting_approval_ends_with_the_calls_cancellation(server: StdioServerParameters) -> None:
    """Nothing but the call's own cancellation bounds a person's answer; cancelled, nothing is sent."""
    started = anyio.Event()

    async def waits(context: Any, request: Any) -> ApprovalResult:
        started.set()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=waits) as client:
            # Cancelled once the person is being asked (a fixed 0.5 s could end before that on a
            # busy machine, and the call would not have reached its callback yet).
            with anyio.CancelScope() as scope:
                async with anyio.create_task_group() as tg:

                    async def cancel_once_asked() -> None:
                        await started.wait()
                        scope.cancel()

                    tg.start_soon(cancel_once_asked)
                    await client.call_tool("write_note", {"text": "x"})
            assert scope.cancelled_caught and started.is_set()
            assert await ran(client) == []


def test_a_policy_that_may_ask_needs_a_callback_at_construction(server: StdioServerParameters) -> None:
    with pytest.raises(ValueError) as refused:
        Client(server, tool_policy=ToolPolicy(ask="destructive"))
    message = str(refused.value)
    assert "tool_policy=ToolPolicy(ask='destructive')" in message
    assert "approval_callback" in message and "ToolPolicy(ask='never')" in message
    Client(server, tool_policy=ToolPolicy(deny=["drop_*"], ask="never"))  # never asks: no callback needed
    with pytest.raises(TypeError, match=r"tool_policy is a mcp_client\.ToolPolicy"):
        Client(server, tool_policy={"deny": ["*"]}, approval_callback=Approver())  # type: ignore[arg-type]


async def test_a_callback_alone_means_the_default_policy(server: StdioServerParameters) -> None:
    approver = Approver()
    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=approver) as client:
            assert client.tool_policy == ToolPolicy()
            await client.call_tool("search_notes", {"query": "x"})
            await client.call_tool("plain", {"text": "x"})
    assert approver.tools == ["plain"]
