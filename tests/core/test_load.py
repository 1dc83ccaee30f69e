"""Hundreds of calls at once, each asking one question: every question answered, none refused.

A web app shares one ``Client`` among its users, and each user's call may ask a question. The
server's questions belong to our calls, so how many calls are in flight must never be a reason to
refuse or drop one (issue 32): the bound on a server's open questions is one per call of ours in
flight plus a fixed slack (``MAX_PENDING_SERVER_REQUESTS``; the flood tests in ``tests/hostile`` keep
it). Over stdio, reading the server's stdout never waits on what we write to its stdin, nor the
reverse; over HTTP, the answers always find a connection (our pool has no cap, and a user's capped
pool is split so that calls cannot take the connections the answers need).

Real servers: the official ``mcp`` server (``guide_server.py``), over HTTP and stdio, in both eras.
Every wait is bounded generously: the machine may be busy.
"""

from __future__ import annotations

from typing import Any

import anyio
import httpx2
import pytest

from mcp_client import Client, MCPConnectionError, StdioServerParameters
from mcp_client.types import ElicitResult
from tests.core.helpers import server_for, text_of

pytestmark = pytest.mark.anyio

BOUND = 240.0
"""Seconds any one test may take: hundreds of calls on a busy two-core machine, with room to spare."""
GATHER_WAIT = 60.0
"""The most a ``Person(gather=...)`` holds its answers: the questions it waits for are refused else."""


def _folder(params: Any) -> int:
    return int(params.message.split("/srv/f")[1].split("?")[0])


class Person:
    """Answers each question after ``delay`` seconds: yes for even folders, no for odd ones.

    ``one_at_a_time`` makes it a single person, who answers one question before reading the next.
    ``gather`` holds every answer until that many questions are open at once (at most ``GATHER_WAIT``
    seconds): however slow the machine, the server then has that many questions open together, which
    is what a bound on open questions refuses.
    """

    def __init__(self, delay: float = 0.05, one_at_a_time: bool = False, gather: int = 0) -> None:
        self.delay = delay
        self.asked = 0
        self.most_at_once = 0
        self._open = 0
        self._lock = anyio.Lock() if one_at_a_time else None
        self._gather = gather
        self._gathered = anyio.Event()

    async def __call__(self, context: Any, params: Any) -> ElicitResult:
        self.asked += 1
        if self.asked >= self._gather:
            self._gathered.set()
        with anyio.move_on_after(GATHER_WAIT):
            await self._gathered.wait()
        if self._lock is not None:
            async with self._lock:
                return await self._answer(params)
        return await self._answer(params)

    async def _answer(self, params: Any) -> ElicitResult:
        self._open += 1
        self.most_at_once = max(self.most_at_once, self._open)
        try:
            await anyio.sleep(self.delay)
            return ElicitResult(action="accept", content={"confirm": _folder(params) % 2 == 0})
        finally:
            self._open -= 1


def _expected(n: int) -> dict[int, str]:
    return {i: (f"deleted /srv/f{i}" if i % 2 == 0 else f"kept /srv/f{i} (not confirmed)") for i in range(n)}


async def _many_calls(client: Client, n: int) -> dict[int, str]:
    """``n`` calls of ``delete_folder`` at once, each asking; what each call answered (or raised)."""
    results: dict[int, str] = {}

    async def one(i: int) -> None:
        try:
            results[i] = text_of(await client.call_tool("delete_folder", {"path": f"/srv/f{i}"}))
        except Exception as exc:  # every failure is kept, to show them all at once
            results[i] = f"{type(exc).__name__}: {exc}"

    with anyio.fail_after(BOUND):
        async with anyio.create_task_group() as group:
            for i in range(n):
                group.start_soon(one, i)
    return results


def _failures(results: dict[int, str], n: int) -> list[str]:
    expected = _expected(n)
    return sorted({text for i, text in results.items() if text != expected[i]})[:5]


@pytest.mark.slow
async def test_two_hundred_legacy_http_calls_each_asking(guide_http_url: str) -> None:
    """Was: 12-61 of the 200 refused with "Too many pending requests from this server" (-32600)."""
    person = Person(gather=150)
    async with Client(guide_http_url, mode="legacy", elicitation_callback=person) as client:
        results = await _many_calls(client, 200)
    assert _failures(results, 200) == []
    assert results == _expected(200)
    assert person.asked == 200
    assert person.most_at_once >= 150


@pytest.mark.slow
async def test_two_hundred_2026_07_28_http_calls_each_asking(guide_http_url: str) -> None:
    person = Person(gather=150)
    async with Client(guide_http_url, mode="2026-07-28", elicitation_callback=person) as client:
        results = await _many_calls(client, 200)
    assert _failures(results, 200) == []
    assert results == _expected(200)
    assert person.asked == 200


@pytest.mark.slow
@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_three_hundred_stdio_calls_each_asking(guide_stdio_command: tuple[str, list[str]]) -> None:
    """Was: some refused (-32600), and past 64 open questions the transport dropped the rest
    unanswered, so their calls waited out their deadline (80-113 of 300 ``MCPTimeoutError``)."""
    command, args = guide_stdio_command
    person = Person(gather=200)
    async with Client(
        StdioServerParameters(command, args), mode="legacy", elicitation_callback=person
    ) as client:
        results = await _many_calls(client, 300)
    assert _failures(results, 300) == []
    assert results == _expected(300)
    assert person.asked == 300
    assert person.most_at_once >= 200


async def test_sixty_calls_wait_on_one_person(
    transport: str, era: str, guide_http_url: str, guide_stdio_command: tuple[str, list[str]]
) -> None:
    """One person answers sixty questions one at a time: all sixty wait their turn, none refused, and
    the time they wait for the person does not count against the calls' timeout."""
    person = Person(delay=0.01, one_at_a_time=True)
    server = server_for(transport, guide_http_url, guide_stdio_command)
    async with Client(server, mode=era, elicitation_callback=person, timeout=60) as client:
        results = await _many_calls(client, 60)
    assert _failures(results, 60) == []
    assert results == _expected(60)
    assert person.asked == 60
    assert person.most_at_once == 1


# ------------------------------------------------------------ a user's own pool with a cap


def _capped_pool(max_connections: int, pool_timeout: float | None) -> Any:
    def factory(
        headers: dict[str, str] | None = None,
        timeout: httpx2.Timeout | None = None,
        auth: httpx2.Auth | None = None,
    ) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(
            headers=headers,
            auth=auth,
            timeout=httpx2.Timeout(30.0, read=None, pool=pool_timeout),
            limits=httpx2.Limits(max_connections=max_connections),
        )

    return factory


@pytest.mark.slow
async def test_a_user_pool_smaller_than_the_calls_still_answers_every_question(guide_http_url: str) -> None:
    """Was: 100 calls on a 20-connection pool held all 20 with their reply streams, the answers
    waited for a connection behind them, and every call ended in MCPTimeoutError. Now calls take at
    most what leaves room for the answers, and the rest wait their turn."""
    person = Person(delay=0.01)
    async with Client(
        guide_http_url,
        mode="legacy",
        elicitation_callback=person,
        httpx_client_factory=_capped_pool(20, None),
        timeout=120,
    ) as client:
        results = await _many_calls(client, 100)
    assert _failures(results, 100) == []
    assert results == _expected(100)


async def test_a_user_pool_that_cannot_hold_the_calls_fails_naming_the_limit(guide_http_url: str) -> None:
    """Calls that find no connection left within the pool's timeout fail at once with what to raise,
    instead of holding the connections the answers need until every call times out."""
    release = anyio.Event()

    async def slow_person(context: Any, params: Any) -> ElicitResult:
        await release.wait()
        return ElicitResult(action="accept", content={"confirm": True})

    results: dict[int, str] = {}
    all_refused = anyio.Event()  # 12 calls, 5 connections for calls (8, less 2 for answers and 1 GET)
    async with Client(
        guide_http_url,
        mode="legacy",
        elicitation_callback=slow_person,
        httpx_client_factory=_capped_pool(8, 0.5),
        timeout=120,
    ) as client:

        async def one(i: int) -> None:
            try:
                results[i] = text_of(await client.call_tool("delete_folder", {"path": f"/srv/f{i}"}))
            except MCPConnectionError as exc:
                results[i] = str(exc)
                if len(results) == 7:
                    all_refused.set()

        with anyio.fail_after(BOUND):
            async with anyio.create_task_group() as group:
                for i in range(12):
                    group.start_soon(one, i)
                await all_refused.wait()
                release.set()
    refused = [text for text in results.values() if not text.startswith("deleted")]
    assert len(refused) == 7
    assert "httpx2.Limits(max_connections=8)" in refused[0]
    assert "Raise max_connections above the calls you run at once plus 3" in refused[0]
    answered = {i: text for i, text in results.items() if text.startswith("deleted")}
    assert answered == {i: f"deleted /srv/f{i}" for i in answered}
    assert len(answered) == 5


async def test_a_user_pool_too_small_for_one_call_and_its_answer_is_refused_at_connect(
    guide_http_url: str,
) -> None:
    with pytest.raises(MCPConnectionError, match=r"allows 2 connection\(s\).*needs at least 3"):
        async with Client(guide_http_url, mode="legacy", httpx_client_factory=_capped_pool(2, 1.0)):
            pass
