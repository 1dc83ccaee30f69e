"""Elicitation cases that spot mutation testing found unguarded.

* ``requestState`` is opaque: one that looks like JSON must go back byte for byte, not re-serialized.
* Time in the callback does not count, but the clock runs again when it returns: a server that then
  never answers still times out.
* A server may cancel its own pending question (``notifications/cancelled``): the callback is
  cancelled and the server gets no answer to it, even when the cancel comes right behind the question.
* Issue 15 item 1 (see also test_question_deadlines.py): a question open on one call does not stop the
  clock of another, and the callback of a cancelled legacy call ends with it.
"""

from __future__ import annotations

import anyio
import pytest

from mcp_client import Client, ClientRequestContext
from mcp_client._errors import MCPTimeoutError
from mcp_client.types import ElicitRequestParams, ElicitResult
from tests.hostile._leaks import no_leaks
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 15
PATIENT = 30.0  # the client's timeout where no call is meant to time out (a loaded machine is slow)


def _text(result: object) -> str:
    return result.content[0].text  # type: ignore[attr-defined]


async def test_a_request_state_that_looks_like_json_goes_back_byte_for_byte(
    hostile: HostileServer, tag: str
) -> None:
    async with no_leaks(), Client(hostile.url(tag), mode="2026-07-28", timeout=5) as client:
        with anyio.fail_after(BOUND):
            assert _text(await client.call_tool("state_verbatim", {})) == "state intact"
    states = [
        m["params"].get("requestState") for m in hostile.requests(tag) if m.get("method") == "tools/call"
    ]
    assert states == [None, '{"step": 1}']


async def test_after_the_callback_returns_a_silent_server_still_times_out(
    hostile: HostileServer, tag: str, era: str
) -> None:
    """The callback takes longer than ``timeout`` (which does not count); then the server never answers.
    The call must fail with a timeout, not wait for ever."""
    answered: list[str] = []

    async def slow(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        await anyio.sleep(1.5)
        answered.append(params.message)
        return ElicitResult(action="accept", content={"ok": True})

    async with (
        no_leaks(),
        Client(hostile.url(tag), mode=era, elicitation_callback=slow, timeout=PATIENT) as client,
    ):
        with anyio.fail_after(BOUND), pytest.raises(MCPTimeoutError, match="no answer within 1s"):
            await client.call_tool("ask_then_silent", {}, read_timeout_seconds=1)
    assert answered == ["Quick?"]


@pytest.mark.parametrize("delay", [0.0, 0.3], ids=["right-behind", "while-asking"])
async def test_a_question_the_server_cancels_cancels_the_callback(
    hostile: HostileServer, tag: str, delay: float
) -> None:
    """The callback would answer after 3 s; the server cancels the question ``delay`` s after asking,
    and then watches for an answer for 5 s: none may come, and the callback must be cancelled. (The
    margins are wide so that a loaded machine, slow to deliver the cancellation, still passes.)"""
    outcome: list[str] = []

    async def answers_soon(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        try:
            await anyio.sleep(3)
        except anyio.get_cancelled_exc_class():
            outcome.append("cancelled")
            raise
        outcome.append("answered")
        return ElicitResult(action="accept", content={"ok": True})

    client = Client(hostile.url(tag), mode="legacy", elicitation_callback=answers_soon, timeout=PATIENT)
    async with no_leaks(), client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("ask_then_cancel", {"delay": delay, "watch": 5})
        assert _text(result) == "answered the cancelled question: False"
        assert "answered" not in outcome
        if delay:
            assert outcome == ["cancelled"]  # it had started: it was cancelled, not left running


async def test_a_question_open_on_one_call_does_not_stop_the_clock_of_another(
    hostile: HostileServer, tag: str, era: str
) -> None:
    """Call A's question stays on screen; call B, to a server that never answers, still times out."""
    release = anyio.Event()

    async def holds(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        await release.wait()
        return ElicitResult(action="decline")

    async with Client(hostile.url(tag), mode=era, elicitation_callback=holds, timeout=PATIENT) as client:
        async with anyio.create_task_group() as group:
            group.start_soon(client.call_tool, "ask_then_silent", {})
            try:
                # B's 1 s clock runs out; a clock stopped by A's question would hang until BOUND.
                with anyio.fail_after(BOUND), pytest.raises(MCPTimeoutError):
                    await client.call_tool("silent", {}, read_timeout_seconds=1)
            finally:
                group.cancel_scope.cancel()
                release.set()


async def test_the_callback_of_a_cancelled_legacy_call_ends_with_it(hostile: HostileServer, tag: str) -> None:
    """The caller gives up on a call whose pushed question is open; the server never sends
    notifications/cancelled. The question's callback must end with the call, not run on."""
    started = anyio.Event()
    ended = anyio.Event()

    async def waits(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        started.set()
        try:
            await anyio.sleep(BOUND * 2)
        finally:
            ended.set()
        return ElicitResult(action="decline")

    async with Client(hostile.url(tag), mode="legacy", elicitation_callback=waits, timeout=5) as client:
        with anyio.move_on_after(BOUND):
            async with anyio.create_task_group() as group:
                group.start_soon(client.call_tool, "ask_then_silent", {})
                await started.wait()
                group.cancel_scope.cancel()
        with anyio.move_on_after(BOUND):  # the callback would otherwise sleep BOUND * 2
            await ended.wait()
        assert ended.is_set()
