"""A ClientGroup keeps its servers alive: a member that starts late joins by itself, and health() says so.

Real processes: the late member is the restart server, made to crash at start until the test lets it
start (``RESTART_CRASH_AFTER`` counts its starts; the test removes the starts file).
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from mcp_client import ClientGroup, Reconnect
from tests.core.test_reconnect_stdio import Counters
from tests.hostile._leaks import wait_until
from tests.support.servers import SERVERS_DIR, stdio_command

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
