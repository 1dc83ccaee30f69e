"""A ClientGroup keeps its servers alive: a member that starts late joins by itself, one that crashes
mid-run comes back, the others keep working throughout, and health() says so at each step.

Real processes: the late member is the restart server, made to crash at start until the test lets it
start (``RESTART_CRASH_AFTER`` counts its starts; the test removes the starts file).
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import anyio
import pytest

from mcp_client import ClientGroup, Reconnect, ServerHealth
from tests.core.helpers import text_of
from tests.core.test_reconnect_stdio import Counters
from tests.hostile._leaks import wait_until
from tests.support.servers import LOOPBACK, SERVERS_DIR, refused_loopback_port, stdio_command

pytestmark = pytest.mark.anyio

RESTART_SERVER = SERVERS_DIR / "restart_server.py"
BOUND = 90.0


async def test_a_member_that_starts_late_joins_and_health_shows_each_step(tmp_path: Path) -> None:
    steady, late = Counters(tmp_path / "steady"), Counters(tmp_path / "late")
    (tmp_path / "steady").mkdir()
    (tmp_path / "late").mkdir()
    late.starts.write_text("0\n")  # one start counted already: it crashes at start until removed
    command, args = stdio_command(RESTART_SERVER)
    config = {
        "mcpServers": {
            "steady": {"command": command, "args": args, "env": steady.env()},
            "late": {"command": command, "args": args, "env": late.env(RESTART_CRASH_AFTER="1")},
        }
    }
    changes: list[object] = []
    policy = Reconnect(attempts=3, first_delay=0.1, max_delay=0.5)
    async with ClientGroup(
        config, message_handler=changes.append, client_options={"reconnect": policy}
    ) as group:
        assert "late" in group.failures and "boom at start" in str(group.failures["late"])
        names = [tool.name for tool in await group.list_tools()]
        assert "steady_pid" in names and not [n for n in names if n.startswith("late_")]
        health = await group.health()
        assert health["steady"].state == "connected"
        assert health["late"].state in ("reconnecting", "failed") and health["late"].attempt >= 1
        with pytest.raises(KeyError, match="late"):
            await group.call_tool("late_pid", {})
        late.starts.unlink()  # let it start
        assert await wait_until(lambda: "late" in group.clients, BOUND)
        with anyio.fail_after(BOUND):
            names = [tool.name for tool in await group.list_tools()]
            assert "late_pid" in names
            assert (await group.call_tool("late_pid", {})).content
            assert (await group.health())["late"].state == "connected"
        assert "late" not in group.failures
        assert any(getattr(c, "method", None) == "notifications/tools/list_changed" for c in changes)


async def test_one_member_crashes_mid_run_one_starts_late_and_the_others_keep_working(tmp_path: Path) -> None:
    """The issue's check: a group of three; "late" crashes at start until let, "crashy" is killed mid-run
    and crashes at start until let; "steady" answers every call throughout; health() shows each step."""
    folders = {name: tmp_path / name for name in ("steady", "crashy", "late")}
    for folder in folders.values():
        folder.mkdir()
    steady, crashy, late = (Counters(folder) for folder in folders.values())
    late.starts.write_text("0\n")  # crashes at start until the test removes its starts file
    command, args = stdio_command(RESTART_SERVER)
    config = {
        "mcpServers": {
            "steady": {"command": command, "args": args, "env": steady.env()},
            # Its first start is let through; any start after it crashes, until the file is removed.
            "crashy": {"command": command, "args": args, "env": crashy.env(RESTART_CRASH_AFTER="1")},
            "late": {"command": command, "args": args, "env": late.env(RESTART_CRASH_AFTER="1")},
        }
    }
    policy = Reconnect(attempts=3, first_delay=0.1, max_delay=0.5)
    steady_answers: list[str] = []
    steady_failures: list[BaseException] = []
    done = anyio.Event()

    async with ClientGroup(config, client_options={"reconnect": policy}) as group:

        async def keep_calling_steady() -> None:
            while not done.is_set():
                try:
                    steady_answers.append(text_of(await group.call_tool("steady_pid", {})))
                except Exception as exc:  # every failure is the finding
                    steady_failures.append(exc)
                await anyio.sleep(0.05)

        async def health_becomes(name: str, states: tuple[str, ...], saying: str = "") -> ServerHealth:
            with anyio.fail_after(BOUND):
                while True:
                    health = (await group.health())[name]
                    if health.state in states and saying in (health.reason or ""):
                        return health
                    await anyio.sleep(0.1)

        async with anyio.create_task_group() as background:
            background.start_soon(keep_calling_steady)

            # Step 1: steady and crashy connected, late down and tried again in the background.
            health = await group.health()
            assert health["steady"].state == "connected" and health["crashy"].state == "connected"
            assert health["late"].state in ("reconnecting", "failed")
            crashy_pid = int(text_of(await group.call_tool("crashy_pid", {})))

            # Step 2: crashy is killed mid-run, and cannot start again: health says so, steady works on.
            os.kill(crashy_pid, signal.SIGKILL)
            # (On a busy machine the first look may be a ping that timed out while the server was
            # starting again: the reason comes with the next attempt.)
            down = await health_becomes("crashy", ("reconnecting", "failed"), saying="boom at start")
            assert down.state in ("reconnecting", "failed"), down
            assert (await group.health())["steady"].state == "connected"

            # Step 3: late may start: it joins by itself, its tools appear.
            late.starts.unlink()
            await health_becomes("late", ("connected",))
            names = [tool.name for tool in await group.list_tools()]
            assert "late_pid" in names and "steady_pid" in names
            assert text_of(await group.call_tool("late_pid", {})).isdigit()

            # Step 4: crashy may start again: the next look (or call) brings it back, a new process.
            crashy.starts.unlink()
            await health_becomes("crashy", ("connected",))
            assert int(text_of(await group.call_tool("crashy_pid", {}))) != crashy_pid

            done.set()
        assert steady_failures == [], steady_failures
        assert len(steady_answers) >= 3 and len(set(steady_answers)) == 1  # one process, never restarted


async def test_a_reconnect_cut_short_by_a_health_look_is_taken_up_by_the_next_look(tmp_path: Path) -> None:
    """health() bounds each server's ping (5 s); a ping that finds the server gone starts the reconnect,
    and the bound may cut it short between two attempts. The next look must take it up where it
    stopped, not report "reconnecting" for ever without trying (a CI failure of the test above)."""
    crashy = Counters(tmp_path)
    command, args = stdio_command(RESTART_SERVER)
    config = {
        "mcpServers": {
            "crashy": {"command": command, "args": args, "env": crashy.env(RESTART_CRASH_AFTER="1")}
        }
    }
    # Many attempts, each wait (4-8 s) longer than what is left of the first look's bound after the
    # first attempt: that look can only end with the reconnect cut short.
    policy = Reconnect(attempts=10, first_delay=8.0, max_delay=8.0)
    async with ClientGroup(config, client_options={"reconnect": policy}) as group:
        pid = int(text_of(await group.call_tool("crashy_pid", {})))
        os.kill(pid, signal.SIGKILL)
        first = (await group.health())["crashy"]
        # "failed" only where the first attempt alone outlasted the bound (a very busy machine)
        assert first.state in ("reconnecting", "failed"), first
        crashy.starts.unlink()  # the next start is let through
        health = first
        with anyio.fail_after(BOUND):
            while health.state != "connected":
                health = (await group.health())["crashy"]
        assert int(text_of(await group.call_tool("crashy_pid", {}))) != pid
        assert crashy.started() == 1  # the start after the file was removed: the one that stayed up


async def test_a_member_reads_failed_at_the_failure_that_uses_up_its_attempts() -> None:
    """Issue 42: with ``attempts=2`` a member that never connects reads "reconnecting" after its first
    failure and "failed" after its second, not one failure later; each look's ``next_delay`` is the
    wait the schedule gave that failure (half to all of ``ceiling(attempt)``)."""
    policy = Reconnect(attempts=2, first_delay=1.0, max_delay=60.0)  # 0.5-1 s, then 1-2 s, then 2-4 s
    seen: dict[int, ServerHealth] = {}
    with refused_loopback_port() as port:
        config = {"mcpServers": {"gone": {"url": f"http://{LOOPBACK}:{port}/mcp"}}}
        async with ClientGroup(config, client_options={"reconnect": policy}) as group:
            with anyio.fail_after(BOUND):
                while max(seen, default=0) < policy.attempts:
                    health = (await group.health())["gone"]
                    seen.setdefault(health.attempt, health)
                    await anyio.sleep(0.02)
    assert seen[1].state == "reconnecting", seen
    assert seen[2].state == "failed", seen
    for attempt in (1, 2):
        delay = seen[attempt].next_delay
        assert delay is not None and policy.ceiling(attempt) / 2 <= delay <= policy.ceiling(attempt)
        assert str(port) in (seen[attempt].reason or "")
