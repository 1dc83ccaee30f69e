"""Request clocks: a question stops its own request's clock only; a login stops them all.

Unit tests on ``mcp_client._session.timeouts`` (no server): deadlines are read, never waited for.
"""

from __future__ import annotations

import math

import anyio
import anyio.abc
import pytest

from mcp_client._session.timeouts import RequestDeadlines, waiting_on_a_person

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    """The watchdog uses each backend's own clock and scope class: both backends run these."""
    return request.param


async def test_pausing_one_clock_leaves_the_others_running() -> None:
    deadlines = RequestDeadlines(5.0)
    with deadlines.clock(1) as a, deadlines.clock(2) as b:
        clock_a = deadlines.active[1]
        clock_a.pause()
        clock_a.pause()  # two questions of the same request
        assert a.deadline == math.inf and b.deadline < math.inf
        clock_a.resume()
        assert a.deadline == math.inf  # one question still open
        before = anyio.current_time()
        clock_a.resume()
        assert before + 5.0 <= a.deadline < math.inf  # a fresh timeout after the last answer


async def test_a_login_stops_every_clock_even_new_ones_but_not_a_question() -> None:
    deadlines = RequestDeadlines(5.0)
    with deadlines.clock(1) as a:
        deadlines.active[1].pause()  # a question of request 1 is open
        with deadlines.paused():
            assert a.deadline == math.inf
            with deadlines.clock(2) as b:
                assert b.deadline == math.inf  # started during the login
        assert a.deadline == math.inf  # the question is still open: still stopped
        deadlines.active[1].resume()
        assert a.deadline < math.inf


async def test_waiting_on_a_person_finds_the_deadlines_of_the_request_being_sent() -> None:
    deadlines = RequestDeadlines(5.0)
    with waiting_on_a_person():
        pass  # outside any request: a no-op
    with deadlines.clock(1) as a:
        with waiting_on_a_person():
            assert a.deadline == math.inf
        assert a.deadline < math.inf


async def test_on_end_runs_once_when_the_request_is_over() -> None:
    deadlines = RequestDeadlines(None)
    ended: list[int] = []
    with deadlines.clock(7) as scope:
        assert scope.deadline == math.inf  # timeout=None: no deadline at all
        clock = deadlines.active[7]
        clock.on_end = [lambda: ended.append(7)]
    assert ended == [7] and 7 not in deadlines.active
    clock.pause()
    clock.resume()  # a question answered after its request ended: harmless


# ------------------------------------------------------------------ the watchdog (one per session)


async def _watched(deadlines: RequestDeadlines, tg: anyio.abc.TaskGroup) -> anyio.CancelScope:
    """Start the watchdog in ``tg``; cancelling the returned scope stops only the watchdog."""
    scope = anyio.CancelScope()

    async def watch() -> None:
        with scope:
            await deadlines.watch()

    tg.start_soon(watch)
    await anyio.sleep(0.01)  # let it start
    return scope


async def test_the_watchdog_cancels_a_request_past_its_deadline() -> None:
    deadlines = RequestDeadlines(0.2)
    async with anyio.create_task_group() as tg:
        await _watched(deadlines, tg)
        with anyio.fail_after(10):  # a bound for the test, not a timing assertion
            with deadlines.clock(1) as clock:
                assert clock._scope.deadline == math.inf  # the watchdog keeps time, not a timer
                await anyio.sleep(30)
        assert 1 not in deadlines.active
        tg.cancel_scope.cancel()


async def test_a_shorter_timeout_wakes_the_watchdog_sleeping_for_a_later_one() -> None:
    deadlines = RequestDeadlines(60)
    timed_out: list[int] = []
    async with anyio.create_task_group() as tg:
        await _watched(deadlines, tg)

        async def request(request_id: int, seconds: float | None) -> None:
            with deadlines.clock(request_id, timeout=seconds):
                await anyio.sleep(30)
            timed_out.append(request_id)

        tg.start_soon(request, 1, None)  # the watchdog now sleeps until this one's deadline (60 s)
        await anyio.sleep(0.05)
        with anyio.fail_after(10):
            await request(2, 0.2)
        assert timed_out == [2] and 1 in deadlines.active
        tg.cancel_scope.cancel()


async def test_a_paused_clock_does_not_expire_and_a_resumed_one_does() -> None:
    deadlines = RequestDeadlines(0.2)
    async with anyio.create_task_group() as tg:
        await _watched(deadlines, tg)
        with anyio.fail_after(10):
            with deadlines.clock(1) as clock:
                clock.pause()
                await anyio.sleep(0.5)  # past the timeout: a question is open, nothing happens
                assert not clock._scope.cancel_called
                clock.resume()
                await anyio.sleep(30)
        tg.cancel_scope.cancel()


async def test_clocks_keep_their_own_time_once_the_watchdog_stops() -> None:
    deadlines = RequestDeadlines(0.3)
    async with anyio.create_task_group() as tg:
        watchdog = await _watched(deadlines, tg)
        with anyio.fail_after(10):
            with deadlines.clock(1) as clock:
                assert clock._scope.deadline == math.inf
                watchdog.cancel()  # the session closes
                await anyio.sleep(0.05)
                assert clock._scope.deadline == clock.deadline < math.inf
                await anyio.sleep(30)
            assert clock._scope.cancelled_caught  # its own deadline, not the test's bound


async def test_a_clock_started_before_the_watchdog_keeps_its_own_timer_when_paused() -> None:
    deadlines = RequestDeadlines(0.2)
    async with anyio.create_task_group() as tg:
        with anyio.fail_after(10):
            with deadlines.clock(1) as clock:  # no watchdog yet: the scope has the deadline
                assert clock._scope.deadline < math.inf
                await _watched(deadlines, tg)
                with deadlines.paused():  # an OAuth login, say
                    assert clock._scope.deadline == math.inf
                    await anyio.sleep(0.5)
                assert clock._scope.deadline < math.inf
                assert not clock._scope.cancel_called
                await anyio.sleep(30)
            assert clock._scope.cancelled_caught
        tg.cancel_scope.cancel()
