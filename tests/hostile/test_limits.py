"""A server that never stops asking is stopped by documented limits, with a clear error.

``input_required_max_rounds`` caps the multi-round-trip loop, ``MAX_QUESTIONS_PER_ROUND`` and
``MAX_REQUEST_STATE_CHARS`` bound one round (``mcp_client._session.input_required``), and
``MAX_PENDING_SERVER_REQUESTS`` (beyond one per call in flight) bounds the questions a legacy server
may push at once (``mcp_client._session.server_messages``). ``requestState`` is echoed only on the call
it came with.
"""

from __future__ import annotations

import anyio
import pytest

from mcp_client import Client, ClientRequestContext
from mcp_client._errors import InputRequiredLimitError, InputRequiredRoundsExceededError
from mcp_client._session.input_required import MAX_QUESTIONS_PER_ROUND, MAX_REQUEST_STATE_CHARS
from mcp_client._session.server_messages import MAX_PENDING_SERVER_REQUESTS
from mcp_client.types import ElicitRequestParams, ElicitResult
from tests.hostile._leaks import no_leaks, wait_until
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 60
MODERN = "2026-07-28"


class Answers:
    """An elicitation callback that accepts ``{"ok": true}``, counting calls and concurrency."""

    def __init__(self, release: anyio.Event | None = None) -> None:
        self.calls = 0
        self.running = 0
        self.most_at_once = 0
        self.release = release

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.calls += 1
        self.running += 1
        self.most_at_once = max(self.most_at_once, self.running)
        try:
            if self.release is not None:
                await self.release.wait()
            return ElicitResult(action="accept", content={"ok": True})
        finally:
            self.running -= 1


def _text(result: object) -> str:
    return result.content[0].text  # type: ignore[attr-defined]


async def test_input_required_forever_stops_at_the_round_cap(hostile: HostileServer, tag: str) -> None:
    answers = Answers()
    async with (
        no_leaks(),
        Client(
            hostile.url(tag),
            mode=MODERN,
            elicitation_callback=answers,
            input_required_max_rounds=3,
            timeout=5,
        ) as client,
    ):
        with anyio.fail_after(BOUND), pytest.raises(InputRequiredRoundsExceededError) as caught:
            await client.call_tool("input_forever", {})
        assert caught.value.rounds == 3
        assert "input_required_max_rounds" in str(caught.value) and "'input_forever'" in str(caught.value)
        assert _text(await client.call_tool("echo", {"text": "after"})) == "after"
    assert answers.calls == 3
    calls = [m for m in hostile.requests(tag) if m.get("method") == "tools/call"]
    assert len(calls) == 4 + 1  # the first call, three retries, then the echo


async def test_request_state_growing_without_bound_is_refused(hostile: HostileServer, tag: str) -> None:
    async with (
        no_leaks(),
        Client(hostile.url(tag), mode=MODERN, input_required_max_rounds=100, timeout=10) as client,
    ):
        with anyio.fail_after(BOUND), pytest.raises(InputRequiredLimitError) as caught:
            await client.call_tool("state_grows", {})
        assert f"limit of {MAX_REQUEST_STATE_CHARS}" in str(caught.value)
    sent = [m["params"].get("requestState") for m in hostile.requests(tag) if m.get("method") == "tools/call"]
    sizes = [s["$len"] if isinstance(s, dict) else len(s or "") for s in sent]
    assert max(sizes) <= MAX_REQUEST_STATE_CHARS  # nothing over the limit ever went back to the server


async def test_thousands_of_questions_in_one_round_are_refused_unasked(
    hostile: HostileServer, tag: str
) -> None:
    answers = Answers()
    async with (
        no_leaks(),
        Client(hostile.url(tag), mode=MODERN, elicitation_callback=answers, timeout=10) as client,
    ):
        with (
            anyio.fail_after(BOUND),
            pytest.raises(InputRequiredLimitError, match=f"limit of {MAX_QUESTIONS_PER_ROUND}"),
        ):
            await client.call_tool("too_many_questions", {"n": 5000})
    assert answers.calls == 0


async def test_a_flood_of_legacy_elicitations_is_bounded(hostile: HostileServer, tag: str) -> None:
    """1000 pushed questions at once for one call: the call explains one of them, and the slack
    (MAX_PENDING_SERVER_REQUESTS) as many more; those reach the callback, the rest are refused with a
    JSON-RPC error at once, and the call still completes."""
    release = anyio.Event()
    answers = Answers(release)
    flood = 1000
    accepted = MAX_PENDING_SERVER_REQUESTS + 1  # one call in flight
    refused_expected = flood - accepted
    results: list[str] = []
    async with (
        no_leaks(),
        Client(hostile.url(tag), mode="legacy", elicitation_callback=answers, timeout=5) as client,
    ):

        async def call() -> None:
            results.append(_text(await client.call_tool("flood_elicitations", {"n": flood})))

        with anyio.fail_after(BOUND):
            async with anyio.create_task_group() as group:
                group.start_soon(call)
                await wait_until(lambda: _refusals(hostile, tag) >= refused_expected, BOUND)
                release.set()
        assert _text(await client.call_tool("echo", {"text": "after"})) == "after"
    assert results == [f"answered={flood} accepted={accepted} refused={refused_expected}"]
    assert answers.calls == accepted
    assert answers.most_at_once == accepted


async def test_a_question_waiting_for_a_slot_takes_the_one_a_new_call_brings(
    hostile: HostileServer, tag: str
) -> None:
    """Server requests run in a slot each: the spare ones (none here) plus one per call of ours in
    flight (``ServerRequestSlots``). Two questions pushed for one call: the first takes its slot, the
    second waits. A call that starts brings a slot, and the waiting question takes it at once, while
    the first is still open (not only once a question ends)."""
    release = anyio.Event()
    messages: list[str] = []

    async def callback(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        messages.append(params.message)
        await release.wait()
        return ElicitResult(action="accept", content={"ok": True})

    results: list[str] = []
    async with Client(hostile.url(tag), mode="legacy", elicitation_callback=callback) as client:
        slots = client._session.transport._http._server_requests  # type: ignore[attr-defined]  # pyright: ignore
        slots._limit = 0  # no spare slot: one per call in flight, so that two questions fill them

        async def flood(count: int) -> None:
            results.append(_text(await client.call_tool("flood_elicitations", {"n": count})))

        with anyio.fail_after(BOUND):
            async with anyio.create_task_group() as group:
                group.start_soon(flood, 2)
                assert await wait_until(lambda: len(messages) == 1 and slots._room is not None, BOUND)
                group.start_soon(flood, 1)  # one more call in flight: one more slot
                assert await wait_until(lambda: len(messages) == 2, BOUND), messages
                assert messages == ["Flood 0", "Flood 1"]  # both of the first call, the first still open
                release.set()
    assert sorted(results) == ["answered=1 accepted=1 refused=0", "answered=2 accepted=2 refused=0"]


def _refusals(hostile: HostileServer, tag: str) -> int:
    return sum(
        1
        for m in hostile.requests(tag)
        if "method" not in m
        and m.get("error", {}).get("message") == "Too many pending requests from this server"
    )


async def test_request_state_never_crosses_calls(hostile: HostileServer, tag: str) -> None:
    """Twenty concurrent calls, each given its own state: every retry carries its own call's state and
    arguments, no first request carries any state, and a later call starts clean."""
    answers = Answers()
    tags = [f"call-{i}" for i in range(20)]
    results: dict[str, str] = {}
    async with (
        no_leaks(),
        Client(hostile.url(tag), mode=MODERN, elicitation_callback=answers, timeout=10) as client,
    ):

        async def call(call_tag: str) -> None:
            results[call_tag] = _text(await client.call_tool("state_tagged", {"tag": call_tag}))

        with anyio.fail_after(BOUND):
            async with anyio.create_task_group() as group:
                for call_tag in tags:
                    group.start_soon(call, call_tag)
            assert (
                _text(await client.call_tool("state_tagged", {"tag": "late"})) == "late: accept {'ok': True}"
            )
    assert results == {t: f"{t}: accept {{'ok': True}}" for t in tags}

    calls = [m["params"] for m in hostile.requests(tag) if m.get("method") == "tools/call"]
    seen_first: set[str] = set()
    ids: list[object] = []
    for params in calls:
        call_tag = params["arguments"]["tag"]
        state = params.get("requestState")
        if call_tag not in seen_first:
            seen_first.add(call_tag)
            assert state is None and "inputResponses" not in params, params
        else:
            assert state is not None and state.startswith(f"state-for-{call_tag}-"), params
            assert set(params["inputResponses"]) == {"confirm"}
    assert len(calls) == 2 * (len(tags) + 1)
    ids = [m["id"] for m in hostile.requests(tag) if m.get("method") == "tools/call"]
    assert len(set(ids)) == len(ids)  # every retry is a new JSON-RPC id
