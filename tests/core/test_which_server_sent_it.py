"""Every notice says which server sent it: ``current_server()`` inside the callbacks one app shares.

Two real features servers (tests/servers/features_server.py), one over stdio and one over HTTP on
127.0.0.1, in one ``ClientGroup`` with one ``logging_callback``, one ``message_handler`` and one
``progress_callback``; each records the name ``current_server()`` gives while it runs. The callbacks keep
their signatures (the params alone). And the app of docs/servers.md ("Which server sent it"), run as
written against two studio example servers.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import anyio.lowlevel
import pytest

from mcp_client import Client, ClientGroup, current_server
from mcp_client.types import LoggingMessageNotificationParams, ServerNotification
from tests.core.features import features_server, text_of, wait_for
from tests.support.servers import stdio_command

REPO = Path(__file__).resolve().parents[2]
STUDIO = REPO / "examples" / "servers" / "studio.py"

pytestmark = pytest.mark.anyio


async def test_a_groups_shared_callbacks_hear_which_server_sent_each_notice(
    era: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    command, args = features_stdio_command
    config = {
        "mcpServers": {
            "local": {"command": command, "args": args},
            "remote": {"url": features_http_url},
        }
    }
    logs: list[tuple[str | None, str]] = []
    notices: list[tuple[str | None, str]] = []
    progress: list[tuple[str | None, str | None]] = []

    def on_log(params: LoggingMessageNotificationParams) -> None:  # sync
        logs.append((current_server(), str(params.data)))

    async def on_notice(notice: ServerNotification) -> None:  # async
        await anyio.lowlevel.checkpoint()
        notices.append((current_server(), notice.method))

    def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((current_server(), message))

    async with ClientGroup(
        config,
        mode=era,
        logging_callback=on_log,
        message_handler=on_notice,
        client_options={"log_level": "error"},
    ) as group:
        assert not group.failures
        for name in ("local", "remote"):
            assert text_of(await group.call_tool(f"{name}_chatty")) == "logged"
        await wait_for(logs, 2)
        assert sorted(logs) == [("local", "a error message"), ("remote", "a error message")]

        result = await group.call_tool(
            "remote_count", {"steps": 2, "interval": 0.01}, progress_callback=on_progress
        )
        assert text_of(result) == "counted to 2"
        await wait_for(progress, 2)
        assert progress == [("remote", "step 1 of 2"), ("remote", "step 2 of 2")]

        if era == "legacy":  # 2026-07-28 change notices travel on listen() streams, not the handler
            await group.call_tool("local_shuffle")
            await wait_for(notices, 2)
            assert {server for server, _ in notices} == {"local"}
    assert current_server() is None  # nothing outside a callback


async def test_a_lone_clients_callbacks_hear_the_servers_own_name(
    features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    heard: list[str | None] = []
    server = features_server("stdio", features_http_url, features_stdio_command)
    async with Client(
        server, mode="legacy", logging_callback=lambda _: heard.append(current_server()), log_level="error"
    ) as client:
        await client.call_tool("chatty")
        await wait_for(heard, 1)
    assert heard == ["features"]


def test_the_docs_app_prints_each_line_under_its_servers_name(tmp_path: Path) -> None:
    page = (REPO / "docs" / "servers.md").read_text(encoding="utf-8")
    found = re.search(
        r"tested-by=tests/core/test_which_server_sent_it.py -->\n```python\n(.*?)```", page, re.S
    )
    assert found is not None
    (tmp_path / "app.py").write_text(found.group(1), encoding="utf-8")
    command, _ = stdio_command(STUDIO)  # the interpreter with the official `mcp` SDK
    studios = {name: {"command": command, "args": [str(STUDIO)]} for name in ("paris", "tokyo")}
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": studios}), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "app.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for name in ("paris", "tokyo"):
        assert f"[{name}] warning: video 7: rendering at low quality (disk almost full)" in lines, done.stdout
        assert f"[{name}] pass 1 of 3" in lines, done.stdout
