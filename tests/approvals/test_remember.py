"""How long an answer holds: ``"once"`` this call, ``"session"`` this ``Client``, ``"always"`` in the
``ApprovalStore`` keyed by the server, the tool and the policy, never by the arguments."""

from __future__ import annotations

from typing import Literal

import anyio
import pytest

from mcp_client import (
    ApprovalResult,
    ApprovalStore,
    Client,
    MemoryApprovalStore,
    StdioServerParameters,
    ToolCallDenied,
    ToolPolicy,
)
from tests.approvals.conftest import APPROVALS_SERVER, BOUND, Approver, ran
from tests.support.servers import PEER_PYTHON

pytestmark = pytest.mark.anyio


class RecordingStore(MemoryApprovalStore):
    """A memory store that records the keys it is asked for and given."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[str] = []

    async def get_approval(self, key: str) -> Literal["allow", "deny"] | None:
        self.keys.append(key)
        return await super().get_approval(key)


async def test_once_asks_each_time(server: StdioServerParameters) -> None:
    approver = Approver({"*": ApprovalResult("allow", remember="once")})
    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=approver) as client:
            await client.call_tool("plain", {"text": "a"})
            await client.call_tool("plain", {"text": "a"})
    assert approver.tools == ["plain", "plain"]


async def test_session_holds_for_this_client_whatever_the_arguments(server: StdioServerParameters) -> None:
    approver = Approver({"*": ApprovalResult("allow", remember="session")})
    store = MemoryApprovalStore()
    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=approver, approval_store=store) as client:
            await client.call_tool("plain", {"text": "a"})
            await client.call_tool("plain", {"text": "something else"})
            await client.call_tool("write_note", {"text": "a"})  # another tool: asked
        assert approver.tools == ["plain", "write_note"]
        assert len(store) == 0  # "session" is not kept in the store
        async with Client(server, mode="legacy", approval_callback=approver, approval_store=store) as client:
            await client.call_tool("plain", {"text": "a"})  # a new client: asked again
    assert approver.tools == ["plain", "write_note", "plain"]


async def test_a_session_refusal_is_not_asked_again(server: StdioServerParameters) -> None:
    approver = Approver({"*": ApprovalResult("deny", remember="session", note="never this")})
    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=approver) as client:
            for _ in range(2):
                with pytest.raises(ToolCallDenied) as denied:
                    await client.call_tool("plain", {"text": "a"})
            assert await ran(client) == []
    assert approver.tools == ["plain"]
    assert denied.value.by_user  # remembered from the person's answer
    assert "the refusal was remembered" in str(denied.value)


async def test_always_is_kept_in_the_store_for_the_next_client(server: StdioServerParameters) -> None:
    approver = Approver({"*": ApprovalResult("allow", remember="always")})
    store = RecordingStore()
    assert isinstance(store, ApprovalStore)  # the protocol is runtime-checkable
    policy = ToolPolicy()
    with anyio.fail_after(BOUND):
        for arguments in ({"text": "a"}, {"text": "other arguments"}):
            async with Client(
                server, mode="legacy", tool_policy=policy, approval_callback=approver, approval_store=store
            ) as client:
                await client.call_tool("plain", arguments)
                assert await ran(client) == ["plain"]
    assert approver.tools == ["plain"]  # the second client (another process) was not asked
    assert len(store) == 1
    assert len(set(store.keys)) == 1  # one key for both calls: the arguments are not part of it
    assert all("other arguments" not in key and "plain" not in key for key in store.keys)


async def test_always_is_asked_again_under_another_policy_or_of_another_server(
    server: StdioServerParameters,
) -> None:
    approver = Approver({"*": ApprovalResult("allow", remember="always")})
    store = MemoryApprovalStore()
    # The same server started by another command line is another server to the store.
    other = StdioServerParameters(PEER_PYTHON, ["-u", str(APPROVALS_SERVER), "stdio"])
    with anyio.fail_after(BOUND):
        for target, policy in (
            (server, ToolPolicy()),
            (server, ToolPolicy(deny=["drop_*"])),  # another policy
            (other, ToolPolicy()),  # another server
            (server, ToolPolicy()),  # as the first: remembered
        ):
            async with Client(
                target, mode="legacy", tool_policy=policy, approval_callback=approver, approval_store=store
            ) as client:
                await client.call_tool("plain", {"text": "a"})
    assert approver.tools == ["plain", "plain", "plain"]
    assert len(store) == 3


async def test_an_always_refusal_is_kept_too(server: StdioServerParameters) -> None:
    approver = Approver({"*": ApprovalResult("deny", remember="always")})
    store = MemoryApprovalStore()
    with anyio.fail_after(BOUND):
        for _ in range(2):
            client = Client(server, mode="legacy", approval_callback=approver, approval_store=store)
            async with client:
                with pytest.raises(ToolCallDenied):
                    await client.call_tool("drop_notes")
                assert await ran(client) == []
    assert approver.tools == ["drop_notes"]


async def test_the_default_store_lasts_for_the_process(server: StdioServerParameters) -> None:
    approver = Approver({"*": ApprovalResult("allow", remember="always")})
    policy = ToolPolicy(allow=["nothing-else"], ask="always")  # a policy of this test's own
    with anyio.fail_after(BOUND):
        for _ in range(2):
            client = Client(server, mode="legacy", tool_policy=policy, approval_callback=approver)
            async with client:
                await client.call_tool("get_note", {"id": "1"})
    assert approver.tools == ["get_note"]


class _BrokenStore:
    async def get_approval(self, key: str) -> Literal["allow", "deny"] | None:
        raise OSError("the store is down")

    async def set_approval(self, key: str, decision: Literal["allow", "deny"]) -> None:
        raise OSError("the store is down")


async def test_a_store_that_fails_means_asking(server: StdioServerParameters) -> None:
    approver = Approver({"*": ApprovalResult("allow", remember="always")})
    with anyio.fail_after(BOUND):
        async with Client(
            server, mode="legacy", approval_callback=approver, approval_store=_BrokenStore()
        ) as client:
            await client.call_tool("plain", {"text": "a"})
            await client.call_tool("plain", {"text": "a"})  # held for this client all the same
            assert await ran(client) == ["plain", "plain"]
    assert approver.tools == ["plain"]
