"""The approval UIs as an app uses them: a real Client with a ToolPolicy and the approvals server over
stdio (tests/servers/approvals_server.py, the official SDK). A denial never reaches the server (its
own record of what ran says so), and the request the UI is handed names what the server listed."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from mcp_client import ApprovalResult, Client, StdioServerParameters, ToolCallDenied, ToolPolicy
from mcp_client.types import TextContent
from tests.support.servers import SERVERS_DIR, stdio_command
from ui_adapters import canned_approvals
from ui_adapters.chat import ChatMessage, chat_approval

pytestmark = pytest.mark.anyio

APPROVALS_SERVER = SERVERS_DIR / "approvals_server.py"
TIMEOUT = 60


def server() -> StdioServerParameters:
    command, args = stdio_command(Path(APPROVALS_SERVER))
    return StdioServerParameters(command=command, args=args)


async def ran(client: Client) -> list[str]:
    result = await client.call_tool("ran", {})
    block = result.content[0]
    assert isinstance(block, TextContent)
    return json.loads(block.text)


async def test_canned_approvals_decide_and_a_denial_never_reaches_the_server() -> None:
    approvals = canned_approvals({"drop_*": "deny", "*": "allow"})
    policy = ToolPolicy(ask="destructive")
    with anyio.fail_after(TIMEOUT):
        async with Client(server(), approval_callback=approvals, tool_policy=policy) as client:
            with pytest.raises(ToolCallDenied):
                await client.call_tool("drop_notes", {})
            await client.call_tool("plain", {"text": "hi"})
            await client.call_tool("search_notes", {"query": "x"})  # read-only: not asked
            assert await ran(client) == ["plain", "search_notes"]
    approvals.assert_all_answered()
    assert [request.tool for request in approvals.asked] == ["drop_notes", "plain"]
    drop = approvals.asked[0]
    assert drop.server == "approvals-server"
    assert drop.annotations is not None and drop.annotations.get("destructiveHint") is True
    assert drop.description == "Delete every note."
    assert approvals.asked[1].arguments == {"text": "hi"}


async def test_a_lying_server_is_shown_as_what_it_claims() -> None:
    """``wipe_disk`` says it is read-only: asked under ask="always", the UI gets its claims as data."""
    approvals = canned_approvals({"*": ApprovalResult("deny", note="not today")})
    with anyio.fail_after(TIMEOUT):
        async with Client(
            server(), approval_callback=approvals, tool_policy=ToolPolicy(allow=["ran"], ask="always")
        ) as client:
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("wipe_disk", {})
            assert denied.value.note == "not today"
            assert approvals.asked[0].title == "Look at the disk"
            assert approvals.asked[0].annotations is not None
            assert approvals.asked[0].annotations.get("readOnlyHint") is True
            assert "wipe_disk" not in await ran(client)


async def test_a_chat_approval_with_a_reason_denies_and_the_reason_reaches_the_app() -> None:
    seen: list[ChatMessage] = []

    async def send(message: ChatMessage) -> None:
        seen.append(message)

    async def receive() -> str:
        return "no, because it's prod"

    approve = chat_approval(send, receive)
    with anyio.fail_after(TIMEOUT):
        async with Client(server(), approval_callback=approve, tool_policy=ToolPolicy()) as client:
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("drop_notes", {})
            assert await ran(client) == []
    assert denied.value.note == "because it's prod"
    assert "the user said: because it's prod" in str(denied.value)
    assert seen[0].text.startswith("This app asks")
    assert "Server: approvals-server" in seen[0].text.splitlines()
    assert "The server describes it: “Delete every note.”" in seen[0].text.splitlines()


async def test_a_session_approval_is_asked_once() -> None:
    answers = iter(["session"])
    seen: list[ChatMessage] = []

    async def send(message: ChatMessage) -> None:
        seen.append(message)

    async def receive() -> str:
        return next(answers)

    approve = chat_approval(send, receive)
    with anyio.fail_after(TIMEOUT):
        async with Client(server(), approval_callback=approve, tool_policy=ToolPolicy()) as client:
            await client.call_tool("write_note", {"text": "a"})
            await client.call_tool("write_note", {"text": "b"})
            assert await ran(client) == ["write_note", "write_note"]
    assert [message.step for message in seen] == ["approval", "done"]


async def test_a_call_canned_approvals_do_not_cover_is_denied_with_the_assertion_as_its_cause() -> None:
    """In a test, the canned callback's AssertionError (naming the call) is the denial's cause: the
    traceback says which call had no answer, not only that the callback failed."""
    approvals = canned_approvals({"ran": "allow"})
    with anyio.fail_after(TIMEOUT):
        async with Client(
            server(), tool_policy=ToolPolicy(ask="always"), approval_callback=approvals
        ) as client:
            with pytest.raises(ToolCallDenied, match="the approval callback failed") as caught:
                await client.call_tool("drop_notes", {})
            assert isinstance(caught.value.__cause__, AssertionError)
            assert "drop_notes" in str(caught.value.__cause__)
            assert "drop_notes" not in await ran(client)
