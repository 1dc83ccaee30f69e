"""What happens to a legacy server's pushed question, and to our answer, when the call ends (issue 43).

* An answer being sent is never cancelled: the server answers the call as soon as the answer arrives,
  before it acknowledges the answer's POST (here 0.5 s later); the client still waits for that 202
  instead of hanging up on the exchange (which closed a connection per call).
* The refusal edge: a callback still waiting on a person is cancelled when its call ends (the server
  answered it without waiting) or is cancelled, and the server gets no answer.
* Two questions pushed at once on one call's stream are both open at once, and both answered.
"""

from __future__ import annotations

import anyio
import pytest

from mcp_client import Client, ClientRequestContext
from mcp_client.types import ElicitRequestParams, ElicitResult
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 15


def _text(result: object) -> str:
    return result.content[0].text  # type: ignore[attr-defined]


async def _accept(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    return ElicitResult(action="accept", content={"ok": True})


async def test_an_answer_being_sent_is_not_cancelled_when_the_call_ends(
    hostile: HostileServer, tag: str
) -> None:
    url = hostile.url(tag) + "&slow_ack=1"
    async with Client(url, mode="legacy", elicitation_callback=_accept, timeout=BOUND) as client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("ask_then_answer", {})
            assert _text(result) == "action=accept"  # the call is over; its answer's 202 is not yet
            acks: list[dict[str, object]] = []
            while not acks:  # the server logs the exchange when it sends the 202 (0.5 s later)
                await anyio.sleep(0.05)
                acks = [e for e in hostile.entries(tag) if e.get("event") == "answer-ack"]
    assert acks[0]["client_waited"] is True, "the client hung up on its answer before the 202"


async def _answers_of(hostile: HostileServer, tag: str) -> list[dict[str, object]]:
    return [m for m in hostile.requests(tag) if "method" not in m]


class WaitingPerson:
    """An elicitation callback waiting on a person who does not answer in time: notes in ``outcome``
    whether it was ``cancelled`` or (wrongly let run) ``answered``; ``started`` and ``ended`` are set
    when it is called and when it stops."""

    def __init__(self) -> None:
        self.started, self.ended = anyio.Event(), anyio.Event()
        self.outcome: list[str] = []

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.started.set()
        try:
            await anyio.sleep(BOUND * 2)
        except anyio.get_cancelled_exc_class():
            self.outcome.append("cancelled")
            raise
        finally:
            self.ended.set()
        self.outcome.append("answered")
        return ElicitResult(action="decline")


async def test_a_callback_waiting_on_a_person_is_cancelled_when_its_call_ends(
    hostile: HostileServer, tag: str
) -> None:
    waits = WaitingPerson()
    async with Client(hostile.url(tag), mode="legacy", elicitation_callback=waits, timeout=BOUND) as client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("ask_and_move_on", {})
            assert _text(result) == "moved on"
            assert waits.started.is_set()
            await waits.ended.wait()
        await anyio.sleep(0.2)  # an answer, wrongly sent, would reach the log by now
    assert waits.outcome == ["cancelled"]
    assert await _answers_of(hostile, tag) == []


async def test_a_callback_waiting_on_a_person_is_cancelled_with_its_call(
    hostile: HostileServer, tag: str
) -> None:
    waits = WaitingPerson()
    async with Client(hostile.url(tag), mode="legacy", elicitation_callback=waits, timeout=BOUND) as client:
        with anyio.fail_after(BOUND):
            async with anyio.create_task_group() as group:
                group.start_soon(client.call_tool, "ask_then_silent", {})
                await waits.started.wait()
                group.cancel_scope.cancel()
            await waits.ended.wait()
        await anyio.sleep(0.2)
    assert waits.outcome == ["cancelled"]
    assert await _answers_of(hostile, tag) == []


async def test_two_questions_pushed_at_once_are_both_open_and_both_answered(
    hostile: HostileServer, tag: str
) -> None:
    """The callback answers only once both questions are open: answered one after the other, the
    first would wait for ever for the second."""
    asked: list[str] = []
    both_open = anyio.Event()

    async def waits_for_both(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params.message)
        if len(asked) == 2:
            both_open.set()
        await both_open.wait()
        if params.message == "First?":
            return ElicitResult(action="accept", content={"ok": True})
        return ElicitResult(action="decline")

    client = Client(hostile.url(tag), mode="legacy", elicitation_callback=waits_for_both, timeout=BOUND)
    async with client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("ask_two_at_once", {})
    assert _text(result) == "actions=accept,decline"
    assert sorted(asked) == ["First?", "Second?"]
