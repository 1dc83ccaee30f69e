"""Request clocks: a question stops its own request's clock only; a login stops them all.

Unit tests on ``mcp_client._timeouts`` (no server): deadlines are read, never waited for.
"""

from __future__ import annotations

import math

import anyio
import pytest

from mcp_client._timeouts import RequestDeadlines, waiting_on_a_person

pytestmark = pytest.mark.anyio


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
