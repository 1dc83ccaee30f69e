"""The approval gate at its edges, against an official-SDK server in this process (``Client(MCPServer)``,
no subprocess): fast enough for ``bash scripts/mutants src/mcp_client/_approvals/gate.py``. What ran is
what the server recorded; what was decided is what the app sees (``ToolCallDenied``, the request and
context its callback is handed) and the audit line on ``mcp_client.approvals``."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio
import pytest
from mcp.server.caching import CacheHint
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import ToolAnnotations

from mcp_client import (
    ApprovalRequest,
    ApprovalResult,
    ApprovalStore,
    Client,
    ClientRequestContext,
    ClientStateError,
    MemoryApprovalStore,
    ToolCallDenied,
    ToolPolicy,
)
from mcp_client._approvals import store as approvals_store
from mcp_client._transports.in_process import InProcessTransport
from mcp_client.approvals import (
    approval_callback_of,
    approved_by_app,
    pending_approval,
    settle_approval,
)
from mcp_client.types import TextContent
from tests.approvals.conftest import Approver

pytestmark = pytest.mark.anyio

BOUND = 60  # seconds: generous, for a busy machine
ASKS = 'ask="unless_read_only": the server does not mark it read-only'
LOOKS = 'ask="unless_read_only": the server marks it read-only'


@dataclass
class Peer:
    """An ``MCPServer`` in this process, with what ran on it and how many listings it answered."""

    server: MCPServer
    runs: list[str] = field(default_factory=list[str])
    listings: int = 0
    fail_listing: bool = False


def make_peer(name: str = "gate-peer", **options: Any) -> Peer:
    """Tools: ``look`` (read-only, titled in its annotations), ``write`` (not read-only, with a title and
    a description of its own), ``drop`` (destructive), ``plain`` (no annotations), ``add_later`` (adds
    ``late``, not read-only, and sends no notice)."""

    server = MCPServer(name, **options)
    peer = Peer(server)
    listed = server.list_tools

    async def counting() -> Any:  # what the server's tools/list handler calls
        peer.listings += 1
        if peer.fail_listing:
            raise MCPError(-32000, "no listing today")
        return await listed()

    server.list_tools = counting  # type: ignore[method-assign]

    def ran(tool: str) -> str:
        peer.runs.append(tool)
        return f"ran {tool}"

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True, title="Have a look"))
    def look(what: str = "") -> str:
        return ran("look")

    @server.tool(
        title="Write it", description="Write a note.", annotations=ToolAnnotations(readOnlyHint=False)
    )
    def write(text: str = "") -> str:
        return ran("write")

    @server.tool(annotations=ToolAnnotations(destructiveHint=True, title="Drop all"))
    def drop() -> str:
        return ran("drop")

    @server.tool()
    def plain() -> str:
        return ran("plain")

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True))
    async def add_later(ctx: Context) -> str:
        @server.tool(annotations=ToolAnnotations(readOnlyHint=False, title="Late"))
        def late() -> str:
            return ran("late")

        return "added"

    return peer


def text(result: Any) -> str:
    return "".join(block.text for block in result.content if isinstance(block, TextContent))


@pytest.fixture
def peer() -> Peer:
    return make_peer()


@pytest.fixture
def audit(caplog: pytest.LogCaptureFixture) -> Iterator[list[tuple[str, str]]]:
    """What is logged on ``mcp_client.approvals`` (level, message), in order: the audit lines and the
    gate's own warnings and errors."""
    caplog.set_level(logging.INFO, logger="mcp_client.approvals")
    lines: list[tuple[str, str]] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append((record.levelname, record.getMessage()))

    handler = Keep(logging.INFO)
    logger = logging.getLogger("mcp_client.approvals")
    logger.addHandler(handler)
    try:
        yield lines
    finally:
        logger.removeHandler(handler)


# ------------------------------------------------------------------------------------ the policy alone


async def test_a_deny_pattern_refuses_unasked_and_says_how_to_let_it_run(
    peer: Peer, audit: list[tuple[str, str]]
) -> None:
    approver = Approver()
    policy = ToolPolicy(deny=["dr*"])
    with anyio.fail_after(BOUND):
        async with Client(peer.server, tool_policy=policy, approval_callback=approver) as client:
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("drop")
    assert peer.runs == [] and approver.asked == []
    error = denied.value
    assert str(error) == (
        "the call of tool 'drop' on gate-peer was denied (deny pattern 'dr*') and not sent to the "
        "server: change the ToolPolicy's deny patterns to let it run"
    )
    assert (error.tool, error.server, error.reason, error.note, error.by_user) == (
        "drop", "gate-peer", "deny pattern 'dr*'", None, False
    )  # fmt: skip
    assert audit == [
        (
            "WARNING",
            "tool call denied: 'drop' on 'gate-peer' (rule: deny pattern 'dr*'; not asked; answer from "
            "policy; not remembered) arguments: {}",
        )
    ]


async def test_what_the_policy_allows_runs_unasked(peer: Peer, audit: list[tuple[str, str]]) -> None:
    approver = Approver({"*": ApprovalResult("deny")})
    policy = ToolPolicy(allow=["gate-peer.plain"])  # server.tool: the server's own name
    with anyio.fail_after(BOUND):
        async with Client(peer.server, tool_policy=policy, approval_callback=approver) as client:
            assert text(await client.call_tool("look", {"what": "the sky"})) == "ran look"
            assert text(await client.call_tool("plain")) == "ran plain"
    assert peer.runs == ["look", "plain"] and approver.asked == []
    assert audit == [
        (
            "INFO",
            f"tool call allowed: 'look' on 'gate-peer' (rule: {LOOKS}; not asked; answer from policy; "
            "not remembered) arguments: {'what': 'the sky'}",
        ),
        (
            "INFO",
            "tool call allowed: 'plain' on 'gate-peer' (rule: allow pattern 'gate-peer.plain'; not asked; "
            "answer from policy; not remembered) arguments: {}",
        ),
    ]


# ------------------------------------------------------------------------------------ asking


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_callback_is_handed_the_call_the_claims_and_who_asks(
    peer: Peer, mode: str, audit: list[tuple[str, str]]
) -> None:
    approver = Approver()
    policy = ToolPolicy(ask="always")
    with anyio.fail_after(BOUND):
        async with Client(peer.server, mode=mode, tool_policy=policy, approval_callback=approver) as client:
            assert approval_callback_of(client) is approver
            assert text(await client.call_tool("write", {"text": "hello"})) == "ran write"
            await client.call_tool("drop")
            await client.call_tool("plain")
            label = client.server
            version = client.protocol_version
    assert peer.runs == ["write", "drop", "plain"]
    write, drop, plain = approver.asked
    assert write == ApprovalRequest(
        server="gate-peer",
        tool="write",
        arguments={"text": "hello"},
        annotations={"readOnlyHint": False},
        title="Write it",  # the tool's own title first
        description="Write a note.",
        reason='ask="always"',
    )
    with pytest.raises(TypeError):
        write.arguments["text"] = "changed"  # type: ignore[index]  # read-only for the callback
    assert write.annotations is not None
    with pytest.raises(TypeError):
        write.annotations["readOnlyHint"] = True  # type: ignore[index]
    assert (drop.title, drop.description, drop.arguments) == ("Drop all", "", {})  # the annotations' title
    assert (plain.title, plain.annotations) == (None, None)
    context = approver.contexts[0]
    assert context == ClientRequestContext(
        server=label,
        server_info=context.server_info,
        protocol_version=version,
        era="legacy" if mode == "legacy" else "modern",
        config_name=None,
        tool_name="write",
        arguments={"text": "hello"},
    )
    assert context.server_info is not None and context.server_info.name == "gate-peer"
    assert context.server_name == "gate-peer" and label != "gate-peer"
    assert audit[0] == (
        "INFO",
        "tool call allowed: 'write' on 'gate-peer' (rule: ask=\"always\"; asked; answer from callback; "
        "remember=once) arguments: {'text': 'hello'}",
    )


async def test_a_refusal_with_a_note_and_one_without(peer: Peer, audit: list[tuple[str, str]]) -> None:
    approver = Approver({"write": ApprovalResult("deny", note="not today"), "plain": ApprovalResult("deny")})
    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=approver) as client:
            with pytest.raises(ToolCallDenied) as with_note:
                await client.call_tool("write", {"text": "x"})
            with pytest.raises(ToolCallDenied) as without:
                await client.call_tool("plain")
            with pytest.raises(ToolCallDenied):
                await client.call_tool("write", {"text": "x"})  # "once": asked again
    assert peer.runs == [] and approver.tools == ["write", "plain", "write"]
    assert str(with_note.value) == (
        f"the call of tool 'write' on gate-peer was denied ({ASKS}) and not sent to the server: the user "
        "refused it; the user said: not today"
    )
    assert (with_note.value.note, with_note.value.by_user, with_note.value.reason) == (
        "not today",
        True,
        ASKS,
    )
    assert str(without.value).endswith("not sent to the server: the user refused it")
    assert (without.value.note, without.value.by_user, without.value.unanswered) == (None, True, False)
    assert audit[:2] == [
        (
            "WARNING",
            f"tool call denied: 'write' on 'gate-peer' (rule: {ASKS}; asked; answer from callback; "
            "remember=once; note: 'not today') arguments: {'text': 'x'}",
        ),
        (
            "WARNING",
            f"tool call denied: 'plain' on 'gate-peer' (rule: {ASKS}; asked; answer from callback; "
            "remember=once) arguments: {}",
        ),
    ]


async def test_a_refusal_nobody_was_asked_about_does_not_say_the_user_refused(
    peer: Peer, audit: list[tuple[str, str]]
) -> None:
    """``ApprovalResult(asked=False)``: the app had nobody to ask (no terminal) and said no itself. The
    error and the audit line say nobody decided and give the app's why; ``by_user`` is false,
    ``unanswered`` true."""
    why = "no terminal to ask on; run with --yes"
    approver = Approver({"write": ApprovalResult("deny", note=why, asked=False)})
    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=approver) as client:
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("write", {"text": "x"})
            with pytest.raises(ToolCallDenied):
                await client.call_tool("write", {"text": "x"})  # nothing remembered: asked again
    assert peer.runs == [] and approver.tools == ["write", "write"]
    assert str(denied.value) == (
        f"the call of tool 'write' on gate-peer was denied ({ASKS}) and not sent to the server: nobody "
        f"decided: {why}"
    )
    assert (denied.value.note, denied.value.by_user, denied.value.unanswered) == (why, False, True)
    assert audit[0] == (
        "WARNING",
        f"tool call denied: 'write' on 'gate-peer' (rule: {ASKS}; nobody decided; answer from callback; "
        f"remember=once; note: {why!r}) arguments: {{'text': 'x'}}",
    )


async def test_settling_an_answer_nobody_gave_says_so_without_a_gate() -> None:
    """``settle_approval`` on a client with no gate: a refusal nobody was asked about says so too."""
    request = ApprovalRequest(server="s", tool="write")
    nobody = ApprovalResult("deny", note="why", asked=False)
    async with Client(make_peer().server) as client:
        with pytest.raises(ToolCallDenied) as denied:
            await settle_approval(client, "write", None, request, nobody)
    assert str(denied.value).endswith("not sent to the server: nobody decided: why")
    assert denied.value.by_user is False and denied.value.unanswered is True


async def test_a_plain_function_may_answer(peer: Peer) -> None:
    """The callback's answer is awaited only when it is awaitable: a plain function answering at once
    is taken as it is."""
    asked: list[str] = []

    def answer(context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        asked.append(request.tool)
        return ApprovalResult("allow")

    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=answer) as client:  # type: ignore[arg-type]
            assert text(await client.call_tool("write")) == "ran write"
    assert asked == ["write"] and peer.runs == ["write"]


class _Broken(Exception):
    pass


async def test_a_callback_that_raises_denies_and_is_the_cause(
    peer: Peer, audit: list[tuple[str, str]], caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        raise _Broken("the approval UI crashed")

    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=broken) as client:
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("write", {"text": "x"})
    assert peer.runs == []
    error = denied.value
    assert isinstance(error.__cause__, _Broken) and str(error.__cause__) == "the approval UI crashed"
    assert str(error) == (
        "the call of tool 'write' on gate-peer was denied (the approval callback failed) and not sent to "
        "the server: fix the approval_callback: it raised _Broken (its error is logged above)"
    )
    assert (error.reason, error.by_user, error.note) == ("the approval callback failed", False, None)
    assert audit == [
        ("ERROR", "the approval_callback failed on write of gate-peer; the call is denied"),
        (
            "WARNING",
            "tool call denied: 'write' on 'gate-peer' (rule: the approval callback failed; asked; answer "
            "from callback; not remembered) arguments: {'text': 'x'}",
        ),
    ]
    (logged,) = [r for r in caplog.records if r.levelname == "ERROR"]
    assert logged.exc_info is not None and logged.exc_info[0] is _Broken  # the traceback is logged


@pytest.mark.parametrize("junk", ["allow", None, {"decision": "allow"}])
async def test_a_callback_that_answers_something_else_denies(
    peer: Peer, junk: Any, audit: list[tuple[str, str]]
) -> None:
    async def answers_junk(context: ClientRequestContext, request: ApprovalRequest) -> Any:
        return junk

    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=answers_junk) as client:
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("write")
    assert peer.runs == []
    assert denied.value.__cause__ is None
    assert (denied.value.reason, denied.value.by_user) == ("the approval callback failed", False)
    assert audit[0] == (
        "WARNING",
        f"the approval_callback returned {type(junk).__name__} for write of gate-peer, not an "
        "ApprovalResult; the call is denied",
    )


async def test_a_waiting_callback_ends_with_the_calls_cancellation(peer: Peer) -> None:
    started = anyio.Event()

    async def waits(context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        started.set()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=waits) as client:
            # Cancelled once the person is being asked (a fixed 0.2 s could end before that on a
            # busy machine, and the call would not have reached its callback yet).
            with anyio.CancelScope() as scope:
                async with anyio.create_task_group() as tg:

                    async def cancel_once_asked() -> None:
                        await started.wait()
                        scope.cancel()

                    tg.start_soon(cancel_once_asked)
                    await client.call_tool("write")
            assert scope.cancelled_caught and started.is_set()
            assert text(await client.call_tool("look")) == "ran look"  # the client goes on
    assert peer.runs == ["look"]


# ------------------------------------------------------------------------------------ remembered


async def test_session_holds_for_this_tool_of_this_client(peer: Peer, audit: list[tuple[str, str]]) -> None:
    approver = Approver({"*": ApprovalResult("allow", remember="session")})
    store = MemoryApprovalStore()
    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=approver, approval_store=store) as client:
            await client.call_tool("write", {"text": "a"})
            await client.call_tool("write", {"text": "b"})
            await client.call_tool("plain")  # another tool: asked
        async with Client(peer.server, approval_callback=approver, approval_store=store) as client:
            await client.call_tool("write", {"text": "a"})  # another client: asked again
    assert approver.tools == ["write", "plain", "write"]
    assert peer.runs == ["write", "write", "plain", "write"]
    assert len(store) == 0  # "session" is not kept in the store
    assert audit[1] == (
        "INFO",
        f"tool call allowed: 'write' on 'gate-peer' (rule: {ASKS}; not asked; answer from session; "
        "not remembered) arguments: {'text': 'b'}",
    )


async def test_a_remembered_refusal_says_so(peer: Peer, audit: list[tuple[str, str]]) -> None:
    approver = Approver({"*": ApprovalResult("deny", remember="session", note="never this")})
    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=approver) as client:
            with pytest.raises(ToolCallDenied):
                await client.call_tool("write")
            with pytest.raises(ToolCallDenied) as again:
                await client.call_tool("write")
    assert approver.tools == ["write"] and peer.runs == []
    assert str(again.value) == (
        f"the call of tool 'write' on gate-peer was denied ({ASKS}) and not sent to the server: the "
        "refusal was remembered; ask again with a new Client"
    )
    assert again.value.by_user  # a person refused, earlier
    assert audit[1] == (
        "WARNING",
        f"tool call denied: 'write' on 'gate-peer' (rule: {ASKS}; not asked; answer from session; "
        "not remembered) arguments: {}",
    )


@pytest.mark.parametrize("decision", ["allow", "deny"])
async def test_always_is_kept_for_the_next_client_of_the_same_server(
    decision: Literal["allow", "deny"], audit: list[tuple[str, str]]
) -> None:
    approver = Approver({"*": ApprovalResult(decision, remember="always")})
    store = MemoryApprovalStore()
    peer = make_peer()
    outcomes: list[str] = []
    with anyio.fail_after(BOUND):
        for _ in range(2):
            async with Client(peer.server, approval_callback=approver, approval_store=store) as client:
                try:
                    outcomes.append(text(await client.call_tool("write", {"text": "a"})))
                except ToolCallDenied as denied:
                    outcomes.append(str(denied).partition("to the server: ")[2])
        other = make_peer("other-peer")  # another server: asked again
        async with Client(other.server, approval_callback=approver, approval_store=store) as client:
            with pytest.raises(ToolCallDenied) if decision == "deny" else contextlib.nullcontext():
                await client.call_tool("write")
    assert approver.tools == ["write", "write"]
    assert [request.server for request in approver.asked] == ["gate-peer", "other-peer"]
    assert len(store) == 2
    if decision == "allow":
        assert outcomes == ["ran write", "ran write"]
    else:
        assert outcomes == ["the user refused it", "the refusal was remembered; ask again with a new Client"]
    level = "INFO" if decision == "allow" else "WARNING"
    word = "allowed" if decision == "allow" else "denied"
    line = (
        f"tool call {word}: 'write' on 'gate-peer' (rule: {ASKS}; not asked; answer from store; "
        "not remembered) arguments: {'text': 'a'}"
    )
    assert (level, line) in audit


class _Store:
    """A store answering ``answer`` to every key, or failing; it records what it is given."""

    def __init__(self, answer: Any = None, *, fails: bool = False) -> None:
        self.answer = answer
        self.fails = fails
        self.kept: list[tuple[str, str]] = []

    async def get_approval(self, key: str) -> Any:
        if self.fails:
            raise OSError("the store is down")
        return self.answer

    async def set_approval(self, key: str, decision: Literal["allow", "deny"]) -> None:
        if self.fails:
            raise OSError("the store is down")
        self.kept.append((key, decision))


@pytest.mark.parametrize("stored", ["yes", "ALLOW", 1, True])
async def test_a_store_answer_that_is_not_allow_or_deny_means_asking(peer: Peer, stored: Any) -> None:
    approver = Approver({"*": ApprovalResult("deny")})
    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=approver, approval_store=_Store(stored)) as client:  # type: ignore[arg-type]
            with pytest.raises(ToolCallDenied):
                await client.call_tool("write")
    assert approver.tools == ["write"] and peer.runs == []


@pytest.mark.parametrize("stored", ["allow", "deny"])
async def test_a_stores_own_answer_decides(peer: Peer, stored: str) -> None:
    approver = Approver()
    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=approver, approval_store=_Store(stored)) as client:  # type: ignore[arg-type]
            if stored == "deny":
                with pytest.raises(ToolCallDenied):
                    await client.call_tool("write")
            else:
                await client.call_tool("write")
    assert approver.asked == []
    assert peer.runs == ([] if stored == "deny" else ["write"])


async def test_a_store_that_fails_means_asking_and_holding_for_this_client(
    peer: Peer, audit: list[tuple[str, str]]
) -> None:
    approver = Approver({"*": ApprovalResult("allow", remember="always")})
    with anyio.fail_after(BOUND):
        async with Client(
            peer.server, approval_callback=approver, approval_store=_Store(fails=True)
        ) as client:  # type: ignore[arg-type]
            await client.call_tool("write")
            await client.call_tool("write")
    assert approver.tools == ["write"] and peer.runs == ["write", "write"]
    errors = [message for level, message in audit if level == "ERROR"]
    assert errors == [
        "the approval store could not be read; asking instead",
        "the approval store could not keep a decision; it holds for this client only",
    ]


async def test_once_and_session_are_not_given_to_the_store(peer: Peer) -> None:
    store = _Store()
    approver = Approver(
        {"write": ApprovalResult("allow", remember="session"), "plain": ApprovalResult("allow")}
    )
    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=approver, approval_store=store) as client:  # type: ignore[arg-type]
            await client.call_tool("write")
            await client.call_tool("plain")
            await client.call_tool("plain")
    assert store.kept == []
    assert approver.tools == ["write", "plain", "plain"]


# ------------------------------------------------------------------------------------ the listing


async def test_a_first_call_of_a_tool_not_listed_lists_once(peer: Peer) -> None:
    approver = Approver()
    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=approver) as client:
            assert "nowhere" in text(await client.call_tool("nowhere"))  # the server has no such tool
            assert peer.listings == 1  # the listing just made is the one to read: not listed again
    assert approver.tools == ["nowhere"]


async def test_a_tool_added_since_a_cached_listing_is_listed_afresh() -> None:
    """A 2026-07-28 server lets its listing be kept (``ttlMs``): a tool missing from it is looked up in a
    new listing (``refresh``), not in the one kept, so it is judged on its own claims."""
    peer = make_peer(cache_hints={"tools/list": CacheHint(ttl_ms=3_600_000)})
    approver = Approver()
    with anyio.fail_after(BOUND):
        async with Client(peer.server, mode="2026-07-28", approval_callback=approver) as client:
            await client.call_tool("look")
            await client.call_tool("look")
            assert peer.listings == 1  # kept, as the server allows
            assert text(await client.call_tool("add_later")) == "added"  # no notice
            assert text(await client.call_tool("late")) == "ran late"
            assert peer.listings == 2
    (late,) = approver.asked
    assert (late.tool, late.title, late.annotations) == (
        "late",
        "Late",
        {"readOnlyHint": False, "title": "Late"},
    )


async def test_the_listing_is_read_once_and_again_only_for_a_tool_it_lacks(peer: Peer) -> None:
    approver = Approver()
    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=approver) as client:
            await client.call_tool("look")
            await client.call_tool("look")
            assert peer.listings == 1  # listed once for the annotations
            assert text(await client.call_tool("add_later")) == "added"  # no notice sent
            await client.call_tool("late")  # not in the listing: listed again, judged on its claims
            assert peer.listings == 2
            # Listed once more, then judged without annotations (and the server says it has no such tool).
            assert "nowhere" in text(await client.call_tool("nowhere"))
            assert peer.listings == 3
    (late, nowhere) = approver.asked
    assert (late.tool, late.title, late.reason) == ("late", "Late", ASKS)
    assert (nowhere.tool, nowhere.annotations, nowhere.title) == ("nowhere", None, None)
    assert peer.runs == ["look", "look", "late"]


async def test_a_listing_refused_means_judging_without_annotations(
    peer: Peer, audit: list[tuple[str, str]]
) -> None:
    peer.fail_listing = True
    approver = Approver({"*": ApprovalResult("deny")})
    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=approver) as client:
            with pytest.raises(ToolCallDenied):
                await client.call_tool("look")  # read-only, but the gate cannot know
            label = client.server
    assert peer.listings == 1  # not listed twice for one call
    assert approver.asked[0].annotations is None
    assert audit[0] == (
        "WARNING",
        f"{label}: could not list the tools to read their annotations (no listing today (JSON-RPC error "
        "-32000)); judging the call without them",
    )


# ------------------------------------------------------------------------------------ asked by the app


async def test_approved_by_app_runs_what_would_ask_but_not_what_is_denied(
    peer: Peer, audit: list[tuple[str, str]]
) -> None:
    approver = Approver({"*": ApprovalResult("deny")})
    policy = ToolPolicy(deny=["drop"])
    with anyio.fail_after(BOUND):
        async with Client(peer.server, tool_policy=policy, approval_callback=approver) as client:
            assert await pending_approval(client, "write") is not None
            with approved_by_app():
                assert await pending_approval(client, "write") is None
                assert text(await client.call_tool("write", {"text": "x"})) == "ran write"
                with pytest.raises(ToolCallDenied):
                    await client.call_tool("drop")
            with pytest.raises(ToolCallDenied):
                await client.call_tool("write")  # outside the block: asked, refused
    assert approver.tools == ["write"] and peer.runs == ["write"]
    assert audit[0] == (
        "INFO",
        f"tool call allowed: 'write' on 'gate-peer' (rule: {ASKS}; asked; answer from app; not remembered) "
        "arguments: {'text': 'x'}",
    )


async def test_pending_then_settled_as_the_gate_would(peer: Peer, audit: list[tuple[str, str]]) -> None:
    approver = Approver()
    with anyio.fail_after(BOUND):
        async with Client(
            peer.server, tool_policy=ToolPolicy(deny=["gate-peer.drop"]), approval_callback=approver
        ) as client:
            assert await pending_approval(client, "look") is None  # read-only: asks nothing
            assert await pending_approval(client, "drop") is None  # denied by its server.tool pattern
            pending = await pending_approval(client, "write", {"text": "x"})
            assert pending is not None
            request, context = pending
            assert (request.tool, request.server, dict(request.arguments), request.reason) == (
                "write", "gate-peer", {"text": "x"}, ASKS
            )  # fmt: skip
            assert (request.title, request.description) == ("Write it", "Write a note.")
            assert request.annotations == {"readOnlyHint": False}
            assert (context.tool_name, context.server_name) == ("write", "gate-peer")
            await settle_approval(
                client, "write", {"text": "x"}, request, ApprovalResult("allow", remember="session")
            )
            assert await pending_approval(client, "write") is None  # remembered for this client
            pending = await pending_approval(client, "plain")
            assert pending is not None
            with pytest.raises(ToolCallDenied) as denied:
                await settle_approval(client, "plain", None, pending[0], ApprovalResult("deny", note="no"))
            assert text(await client.call_tool("write", {"text": "x"})) == "ran write"
    assert approver.asked == []  # the app asked, the callback never was
    assert peer.runs == ["write"]
    assert (denied.value.note, denied.value.by_user) == ("no", True)
    line = (
        f"tool call allowed: 'write' on 'gate-peer' (rule: {ASKS}; asked; answer from callback; "
        "remember=session) arguments: {'text': 'x'}"
    )
    assert ("INFO", line) in audit


# ------------------------------------------------------------------------------------ at construction


def test_the_options_are_checked_at_construction(peer: Peer) -> None:
    with pytest.raises(ValueError) as no_callback:
        Client(peer.server, tool_policy=ToolPolicy(ask="destructive"))
    assert str(no_callback.value) == (
        "tool_policy=ToolPolicy(ask='destructive') may ask a person to approve a tool call, and there is "
        "no approval_callback to ask: pass Client(approval_callback=...) (e.g. "
        "ui_adapters.terminal_approval()), or ToolPolicy(ask='never') to run what allow and deny do not name"
    )
    with pytest.raises(TypeError) as not_a_policy:
        Client(peer.server, tool_policy={"deny": ["*"]}, approval_callback=Approver())  # type: ignore[arg-type]
    assert str(not_a_policy.value) == "tool_policy is a mcp_client.ToolPolicy, got dict"
    with pytest.raises(TypeError) as not_callable:
        Client(peer.server, approval_callback="yes")  # type: ignore[arg-type]
    assert str(not_callable.value) == "approval_callback is an async function (context, request), got 'yes'"
    never = Client(
        peer.server, tool_policy=ToolPolicy(deny=["drop"], ask="never")
    )  # asks nobody: no callback
    assert never.tool_policy == ToolPolicy(deny=["drop"], ask="never")
    assert approval_callback_of(never) is None
    assert approval_callback_of(Client(peer.server)) is None  # no policy: no gate


async def test_pending_approval_needs_a_connected_client(peer: Peer) -> None:
    """Before ``async with`` and after it, there is no listing to judge by: ``pending_approval`` says
    so as ``call_tool`` does, rather than judging the call without the tool's annotations."""
    approver = Approver()
    client = Client(peer.server, approval_callback=approver)
    with anyio.fail_after(BOUND):
        with pytest.raises(ClientStateError) as before:
            await pending_approval(client, "look")
        with pytest.raises(ClientStateError) as call_before:
            await client.call_tool("look")
        async with client:
            assert await pending_approval(client, "look") is None  # read-only: asks nothing
        with pytest.raises(ClientStateError) as after:
            await pending_approval(client, "look")
    assert (
        str(before.value)
        == str(call_before.value)
        == ("the Client is not connected; use it inside `async with Client(...) as client:`")
    )
    assert str(after.value) == "the Client is closed; create a new Client to reconnect"
    assert peer.listings == 1 and approver.asked == [] and peer.runs == []


async def test_an_always_answer_needs_a_connected_client(peer: Peer) -> None:
    """An "always" answer is kept under the server's identity (its name, which only a connected client
    knows): settled on a client not connected, it is refused rather than kept where no call looks."""
    async with Client(peer.server, approval_callback=Approver()) as client:
        pending = await pending_approval(client, "write", {"text": "x"})
    assert pending is not None
    fresh = Client(peer.server, approval_callback=Approver())
    with anyio.fail_after(BOUND), pytest.raises(ClientStateError) as refused:
        await settle_approval(
            fresh, "write", {"text": "x"}, pending[0], ApprovalResult("allow", remember="always")
        )
    assert str(refused.value) == (
        "the Client is not connected; use it inside `async with Client(...) as client:`"
    )
    await settle_approval(fresh, "write", {"text": "x"}, pending[0], ApprovalResult("allow"))  # once: fine


async def test_pending_approval_reads_the_store_for_this_tool_only(peer: Peer) -> None:
    """An "always" answer kept in the store means no asking for that tool, for the next client of the
    server too: ``pending_approval`` reads it under the key the gate kept it by; another tool is asked."""
    store = MemoryApprovalStore()
    approver = Approver({"*": ApprovalResult("allow", remember="always")})
    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=approver, approval_store=store) as client:
            await client.call_tool("write")
        async with Client(peer.server, approval_callback=approver, approval_store=store) as client:
            assert await pending_approval(client, "write") is None
            pending = await pending_approval(client, "plain")
            assert pending is not None and pending[0].tool == "plain"
    assert approver.tools == ["write"]


async def test_two_servers_at_one_address_are_two_servers_to_the_store() -> None:
    """The store's key names the server by what it calls itself and where it is reached: another
    server behind the same address (a redeploy of something else) is asked about again."""
    store: ApprovalStore = MemoryApprovalStore()
    approver = Approver({"*": ApprovalResult("allow", remember="always")})
    with anyio.fail_after(BOUND):
        for name in ("alpha", "beta", "alpha"):
            transport = InProcessTransport(make_peer(name).server, label="https://tools.example/mcp")
            async with Client(transport, approval_callback=approver, approval_store=store) as client:
                await client.call_tool("write")
    assert [(request.server, request.tool) for request in approver.asked] == [
        ("alpha", "write"),
        ("beta", "write"),
    ]


async def test_a_server_with_no_name_is_named_by_its_address(audit: list[tuple[str, str]]) -> None:
    peer = make_peer()
    peer.server._lowlevel_server.name = ""  # pyright: ignore[reportPrivateUsage]  # what it says at initialize
    approver = Approver({"*": ApprovalResult("deny")})
    with anyio.fail_after(BOUND):
        async with Client(peer.server, approval_callback=approver) as client:
            assert client.server_info is not None and client.server_info.name == ""
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("write")
            label = client.server
    assert label == "in-process server 'MCPServer'"
    assert approver.asked[0].server == denied.value.server == label
    assert f"on {label} was denied" in str(denied.value)


def odd_server(runs: list[str]) -> Any:
    """A server of a few lines (an ASGI app answering JSON): it lists ``look`` with a ``title`` that is
    not a string and ``annotations`` that are not an object (what the official SDK would never send)."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                done = message["type"] == "lifespan.shutdown"
                await send({"type": "lifespan.shutdown.complete" if done else "lifespan.startup.complete"})
                if done:
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break

        async def reply(status: int, payload: Any = None) -> None:
            headers = [(b"content-type", b"application/json")]
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send(
                {
                    "type": "http.response.body",
                    "body": b"" if payload is None else json.dumps(payload).encode(),
                }
            )

        if scope["method"] != "POST":
            return await reply(405)
        request = json.loads(body)
        if "id" not in request:
            return await reply(202)
        method = request["method"]
        if method == "initialize":
            version = request["params"]["protocolVersion"]
            result = {
                "protocolVersion": version,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "odd"},
            }
        elif method == "tools/list":
            odd = {"name": "look", "title": 5, "annotations": "read-only", "inputSchema": {"type": "object"}}
            result = {"tools": [odd]}
        elif method == "tools/call":
            runs.append(request["params"]["name"])
            result = {"content": [{"type": "text", "text": "ran look"}]}
        else:
            error = {"code": -32601, "message": f"no {method}"}
            return await reply(200, {"jsonrpc": "2.0", "id": request["id"], "error": error})
        await reply(200, {"jsonrpc": "2.0", "id": request["id"], "result": result})

    return app


async def test_a_title_and_annotations_of_the_wrong_type_are_not_shown_or_read() -> None:
    """A listing whose ``title`` is not a string and whose ``annotations`` are not an object: the
    request carries neither, and the call is judged as one with no annotations (asked)."""
    runs: list[str] = []
    approver = Approver()
    with anyio.fail_after(BOUND):
        transport = InProcessTransport(odd_server(runs), label="odd server")
        async with Client(transport, mode="legacy", approval_callback=approver) as client:
            assert text(await client.call_tool("look")) == "ran look"
    (request,) = approver.asked
    assert (request.server, request.title, request.annotations, request.reason) == ("odd", None, None, ASKS)
    assert runs == ["look"]


async def test_the_key_a_store_is_given_stays_the_same_across_processes_and_releases(peer: Peer) -> None:
    """A store that outlives the process (SQLite, Redis) finds its "always" answers again only while
    the key stays the same: pinned here for one server, tool and two policies. A digest: neither the
    server's address nor the tool's name is written in clear."""
    store = _Store()
    approver = Approver({"*": ApprovalResult("allow", remember="always")})
    with anyio.fail_after(BOUND):
        for policy in (ToolPolicy(), ToolPolicy(allow=["look*"], deny=["drop"], ask="always")):
            async with Client(
                peer.server, tool_policy=policy, approval_callback=approver, approval_store=store
            ) as client:  # type: ignore[arg-type]
                await client.call_tool("write")
    assert store.kept == [
        ("mcp-approval:0b0c467d4997a040f21b49e614ff9fdb9a96d8892dfc04f092f2cbf36f0ed1d0", "allow"),
        ("mcp-approval:43fde3f3b3be824f0773746713869d796ef886256a6ca2f81836936dc3cd6ba7", "allow"),
    ]


async def test_the_default_store_is_made_once_per_process(
    peer: Peer, monkeypatch: pytest.MonkeyPatch, audit: list[tuple[str, str]]
) -> None:
    """Clients given no ``approval_store`` share one ``MemoryApprovalStore``, made by the first of
    them: here from nothing, as in a new process (an earlier test of this one made it already)."""
    monkeypatch.setattr(approvals_store, "_default", None)
    approver = Approver({"*": ApprovalResult("allow", remember="always")})
    with anyio.fail_after(BOUND):
        for _ in range(2):
            async with Client(peer.server, approval_callback=approver) as client:
                await client.call_tool("write")
    assert approver.tools == ["write"] and peer.runs == ["write", "write"]
    assert [line for line in audit if line[0] == "ERROR"] == []  # the store was there to read and keep
