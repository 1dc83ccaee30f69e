"""A stdio server that dies is started again by the next request (``Client(reconnect=...)``), in both eras.

Real processes, real failures: the server is SIGKILLed (between calls and during one), or crashes at
start every time; the server itself counts how often each tool ran, so that a call is seen to run
once, never silently twice.
"""

from __future__ import annotations

import logging
import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from mcp_client import (
    Client,
    MCPClientError,
    MCPConnectionError,
    Reconnect,
    ServerExitedError,
    StdioServerParameters,
)
from tests.core.helpers import text_of
from tests.hostile._leaks import wait_until
from tests.support.servers import SERVERS_DIR, stdio_command

pytestmark = pytest.mark.anyio

RESTART_SERVER = SERVERS_DIR / "restart_server.py"
BOUND = 60.0
FAST = Reconnect(attempts=5, first_delay=0.05, max_delay=0.5)


class Counters:
    """The files the restart server writes: its starts (one pid a line) and its tool runs; and the
    ones it reads: whom a tool run holds, and the hints of its ``stock`` tool."""

    def __init__(self, folder: Path) -> None:
        self.runs = folder / "runs"
        self.starts = folder / "starts"
        self.hold = folder / "hold"
        self.hints = folder / "hints"

    def env(self, **extra: str) -> dict[str, str]:
        return {
            "RESTART_RUNS": str(self.runs),
            "RESTART_STARTS": str(self.starts),
            "RESTART_HOLD": str(self.hold),
            "RESTART_HINTS": str(self.hints),
            **extra,
        }

    def ran(self, what: str) -> int:
        return self.runs.read_text().split().count(what) if self.runs.exists() else 0

    def started(self) -> int:
        return len(self.starts.read_text().split()) if self.starts.exists() else 0


def _params(counters: Counters, **extra: str) -> StdioServerParameters:
    command, args = stdio_command(RESTART_SERVER)
    return StdioServerParameters(command, args, env=counters.env(**extra))


async def _pid(client: Client) -> int:
    return int(text_of(await client.call_tool("pid", {})))


async def _kill_and_wait(client: Client, pid: int) -> None:
    """SIGKILL the server and wait (bounded) until the client has seen it go."""
    os.kill(pid, signal.SIGKILL)
    events = client._session.transport._events  # type: ignore[attr-defined]  # pyright: ignore
    assert await wait_until(lambda: events.exited is not None, BOUND), "the client never saw the exit"


async def _until(condition: Callable[[], bool], what: str) -> None:
    assert await wait_until(condition, BOUND), f"waited in vain for {what}"


async def test_a_server_killed_between_calls_is_started_again(era: str, tmp_path: Path) -> None:
    counters = Counters(tmp_path)
    reconnects: list[str] = []
    async with Client(_params(counters), mode=era, reconnect=FAST) as client:
        client.on_reconnect = lambda c: reconnects.append(c.server)
        first = await _pid(client)
        await _kill_and_wait(client, first)
        # The side-effect tool was never received by the dead server: it is sent to the new one, once.
        with anyio.fail_after(BOUND):
            result = await client.call_tool("order", {"item": "soup"})
        second = int(text_of(result).rsplit(" ", 1)[1])
        assert second != first
        assert counters.ran("write") == 1
        assert counters.started() == 2
        assert reconnects == [client.server]
        assert client.era == ("legacy" if era == "legacy" else "modern")


async def test_a_side_effect_call_in_flight_is_not_sent_again(era: str, tmp_path: Path) -> None:
    counters = Counters(tmp_path)
    async with Client(_params(counters), mode=era, reconnect=FAST) as client:
        await client.list_tools()  # the client learns the tools' hints
        first = await _pid(client)
        counters.hold.write_text(str(first))
        async with anyio.create_task_group() as group:
            outcome: list[BaseException] = []

            async def call() -> None:
                try:
                    await client.call_tool("order", {"item": "soup"})
                except MCPConnectionError as exc:
                    outcome.append(exc)

            group.start_soon(call)
            await _until(lambda: counters.ran("write") == 1, "the call to run")
            os.kill(first, signal.SIGKILL)
        assert len(outcome) == 1 and isinstance(outcome[0], ServerExitedError)
        assert outcome[0].returncode == -signal.SIGKILL
        assert counters.ran("write") == 1  # not repeated
        assert counters.started() == 1  # and nothing restarted for it
        # The next request starts the server again.
        with anyio.fail_after(BOUND):
            assert await _pid(client) != first
        assert counters.ran("write") == 1


async def test_a_read_only_call_in_flight_is_sent_again(era: str, tmp_path: Path) -> None:
    counters = Counters(tmp_path)
    async with Client(_params(counters), mode=era, reconnect=FAST) as client:
        await client.list_tools()
        first = await _pid(client)
        counters.hold.write_text(str(first))
        async with anyio.create_task_group() as group:
            answers: list[str] = []

            async def call() -> None:
                answers.append(text_of(await client.call_tool("peek", {})))

            group.start_soon(call)
            await _until(lambda: counters.ran("read") == 1, "the call to run")
            os.kill(first, signal.SIGKILL)
        assert counters.ran("read") == 2  # sent once more, to the new server
        assert answers and answers[0].startswith("peeked by ") and answers[0] != f"peeked by {first}"
        assert counters.started() == 2


async def test_an_idempotent_call_in_flight_is_sent_again(era: str, tmp_path: Path) -> None:
    """``idempotentHint`` alone (the tool writes, but writing twice does what writing once does) makes a
    call as safe to send again as ``readOnlyHint`` does."""
    counters = Counters(tmp_path)
    counters.hints.write_text("idempotent")
    async with Client(_params(counters), mode=era, reconnect=FAST) as client:
        (stock,) = [tool for tool in (await client.list_tools()).tools if tool.name == "stock"]
        assert stock.annotations is not None
        assert (stock.annotations["readOnlyHint"], stock.annotations["idempotentHint"]) == (False, True)
        first = await _pid(client)
        counters.hold.write_text(str(first))
        answers: list[str] = []
        async with anyio.create_task_group() as group:

            async def call() -> None:
                answers.append(text_of(await client.call_tool("stock", {"item": "soup"})))

            group.start_soon(call)
            await _until(lambda: counters.ran("stock") == 1, "the call to run")
            os.kill(first, signal.SIGKILL)
        assert counters.ran("stock") == 2  # sent once more, to the new server
        assert counters.started() == 2
        assert answers == [f"stocked soup by {counters.starts.read_text().split()[-1]}"]


async def test_requests_lost_together_restart_the_server_once(era: str, tmp_path: Path) -> None:
    """Five requests meet the dead server at once: one restart brings it back for all of them (the
    others see the connection came back since they failed, and are sent again on it)."""
    counters = Counters(tmp_path)
    async with Client(_params(counters), mode=era, reconnect=FAST) as client:
        first = await _pid(client)
        await _kill_and_wait(client, first)
        pids: list[int] = []
        errors: list[MCPClientError] = []

        async def ask() -> None:
            try:
                pids.append(await _pid(client))
            except MCPClientError as exc:  # a restart per request kills the process another one started
                errors.append(exc)

        with anyio.fail_after(BOUND):
            async with anyio.create_task_group() as group:
                for _ in range(5):
                    group.start_soon(ask)
        assert counters.started() == 2  # the first process and one restart, not one per request
        assert errors == []
        (second,) = set(pids)
        assert len(pids) == 5 and second != first


async def test_reconnect_false_keeps_a_dead_server_dead(tmp_path: Path) -> None:
    counters = Counters(tmp_path)
    async with Client(_params(counters), reconnect=False) as client:
        first = await _pid(client)
        await _kill_and_wait(client, first)
        with anyio.fail_after(BOUND), pytest.raises(ServerExitedError) as caught:
            await client.call_tool("pid", {})
        assert caught.value.returncode == -signal.SIGKILL
        assert counters.started() == 1


async def test_a_server_that_crashes_at_start_is_not_restarted_in_a_tight_loop(
    era: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    counters = Counters(tmp_path)
    policy = Reconnect(attempts=4, first_delay=0.2, max_delay=30.0)
    async with Client(_params(counters, RESTART_CRASH_AFTER="1"), mode=era, reconnect=policy) as client:
        first = await _pid(client)
        await _kill_and_wait(client, first)
        cpu, began = time.process_time(), time.monotonic()
        with anyio.fail_after(BOUND), pytest.raises(ServerExitedError) as caught:
            await client.call_tool("pid", {})
        elapsed, cpu_used = time.monotonic() - began, time.process_time() - cpu
        assert counters.started() == 1 + 4  # bounded: the attempts, no more
        message = str(caught.value)
        assert "4 attempts failed in a row" in message
        assert "boom at start" in message and "boom at start" in caught.value.stderr_tail
        assert caught.value.returncode == 3
        # The waits between attempts: at least half of each ceiling (0.2 + 0.4 + 0.8), never a spin.
        assert elapsed >= 0.7
        assert cpu_used < elapsed  # the client slept, it did not spin
        # The next request within max_delay fails at once, starting nothing.
        with anyio.fail_after(BOUND), pytest.raises(ServerExitedError, match="attempts failed"):
            await client.call_tool("pid", {})
        assert counters.started() == 5


async def test_a_reconnect_logs_a_warning_and_refreshes_the_lists(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    counters = Counters(tmp_path)
    fresh: list[object] = []
    async with Client(_params(counters), reconnect=FAST, list_changed_callback=fresh.append) as client:
        await client.list_tools()
        first = await _pid(client)
        await _kill_and_wait(client, first)
        with caplog.at_level(logging.WARNING, logger="mcp_client.session"), anyio.fail_after(BOUND):
            await client.call_tool("pid", {})
        await _until(lambda: len(fresh) >= 1, "the fresh tool list")
    warnings = [r for r in caplog.records if r.name == "mcp_client.session" and r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "started again" in warnings[0].getMessage() and "its state is new" in warnings[0].getMessage()


def test_each_wait_is_between_half_and_all_of_a_ceiling_that_doubles_up_to_max_delay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The schedule as values (no clock): ``ceiling(n)`` after ``n`` failures is ``first_delay`` doubled
    ``n - 1`` times, capped at ``max_delay``; the jittered ``delay(n)`` spans its lower half to all of it."""
    policy = Reconnect(attempts=5, first_delay=0.5, max_delay=3.0)
    assert [policy.ceiling(n) for n in range(7)] == [0.0, 0.5, 1.0, 2.0, 3.0, 3.0, 3.0]
    assert policy.ceiling(10**6) == 3.0  # no overflow however long the outage
    monkeypatch.setattr(random, "random", lambda: 0.0)
    assert [policy.delay(n) for n in range(1, 6)] == [0.25, 0.5, 1.0, 1.5, 1.5]
    monkeypatch.setattr(random, "random", lambda: 1.0)
    assert [policy.delay(n) for n in range(1, 6)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    assert Reconnect(first_delay=0.0, max_delay=0.0).delay(3) == 0.0


def test_reconnect_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="attempts"):
        Reconnect(attempts=0)
    with pytest.raises(ValueError, match="first_delay"):
        Reconnect(first_delay=-1)
    with pytest.raises(ValueError, match="max_delay"):
        Reconnect(first_delay=5, max_delay=1)
    with pytest.raises(TypeError, match="reconnect"):
        Client(StdioServerParameters("true"), reconnect="yes")  # type: ignore[arg-type]
