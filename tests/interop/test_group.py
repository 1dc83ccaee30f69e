"""``ClientGroup`` against real servers of four kinds at once, with one question UI for all of them.

The group holds server-everything over stdio and over streamable HTTP, the FastMCP peer over HTTP, and our
bistro example over stdio (the official SDK, legacy era, asks a form question), plus entries that cannot
work: a command that does not exist and a server that needs a login the group cannot get. The broken
ones are reported in ``failures``; the rest work.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_client import ClientGroup, ClientStateError, MCPConnectionError
from mcp_client.types import ElicitResult, TextContent
from tests.interop import _peers
from ui_adapters.canned import CannedAnswers

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 120.0
BISTRO = _peers.REPO / "examples" / "servers" / "bistro.py"


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


MEMORY_ENTRY = _peers.PEERS / "memory/node_modules/@modelcontextprotocol/server-memory/dist/index.js"


def in_process_server() -> Any:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("local-notes")

    @server.tool()
    def note(text: str) -> str:
        return f"noted: {text}"

    return server


@pytest.fixture
def config(
    everything_stdio_command: tuple[str, list[str]],
    everything_url: str,
    everything_sse_url: str,
    fastmcp_url: str,
    tmp_path: Path,
) -> dict[str, Any]:
    node, args = everything_stdio_command
    memory = str(_peers.require_installed(MEMORY_ENTRY, "@modelcontextprotocol/server-memory"))
    graph_file = str(tmp_path / "graph.json")
    return {
        "mcpServers": {
            "memory": {
                "command": node,
                "args": [memory],
                "env": {"MEMORY_FILE_PATH": graph_file},
            },
            "everything_sse": {"type": "sse", "url": everything_sse_url, "include_tools": ["echo"]},
            "local": {"server": in_process_server()},
            "everything": {"command": node, "args": args, "include_tools": ["echo", "trigger-*", "get-sum"]},
            "everything_http": {
                "type": "http",
                "url": everything_url,
                "mode": "legacy",
                "exclude_tools": ["*"],
            },
            "fastmcp": {"url": fastmcp_url, "tool_prefix": "fm.", "rename_tools": {"echo": "fm_say"}},
            "bistro": {"command": sys.executable, "args": [str(BISTRO)], "mode": "legacy"},
            "broken": {"command": "/no/such/mcp-server"},
            "private": {"url": "http://127.0.0.1:9/mcp", "auth": "oauth"},
        }
    }


async def test_every_server_connects_and_broken_ones_are_reported(config: dict[str, Any]) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with ClientGroup(config) as group:
            assert sorted(group.clients) == [
                "bistro", "everything", "everything_http", "everything_sse", "fastmcp", "local", "memory",
            ]  # fmt: skip
            assert group["everything_sse"].transport_kind == "sse"
            assert group["local"].transport_kind == "in-process"
            assert sorted(group.failures) == ["broken", "private"]
            assert "/no/such/mcp-server" in str(group.failures["broken"])
            assert "ClientGroup(oauth=" in str(group.failures["private"])
            with pytest.raises(ClientStateError, match=r"server 'broken' is not connected.*group.connect"):
                group["broken"]
            assert group["everything_http"].era == "legacy"

            tools = {tool.name: tool for tool in await group.list_tools()}
            assert "everything_echo" in tools and "everything_get-sum" in tools
            assert not [name for name in tools if name.startswith("everything_http_")]  # all excluded
            assert "everything_get-env" not in tools  # not included
            assert "fm_say" in tools and tools["fm_say"].original_name == "echo"
            assert "fm.count" in tools and tools["fm.count"].server == "fastmcp"
            assert "bistro_book_table" in tools

            echoed = await group.call_tool("everything_echo", {"message": "hi from a group"})
            assert "hi from a group" in text_of(echoed)
            said = await group.call_tool("fm_say", {"text": "routed"})
            assert text_of(said) == "routed"
            booked = await group.call_tool("bistro_book_table", {"date": "2026-01-02", "party_size": 2})
            assert "Booked for 2026-01-02" in text_of(booked)
            graph = await group.call_tool("memory_read_graph", {})
            assert '"entities"' in text_of(graph)
            over_sse = await group.call_tool("everything_sse_echo", {"message": "over sse"})
            assert "over sse" in text_of(over_sse)
            assert text_of(await group.call_tool("local_note", {"text": "hi"})) == "noted: hi"
            with pytest.raises(KeyError, match="no tool named 'nope'"):
                await group.call_tool("nope", {})


async def test_questions_from_two_servers_reach_one_callback_with_the_config_name(
    config: dict[str, Any],
) -> None:
    answers = CannedAnswers(
        by_message={
            r"No tables": ElicitResult(
                action="accept", content={"accept_alternative": True, "date": "2025-12-27"}
            ),
        },
        fields={"name": "Ada"},
        defaults=True,
    )
    servers = {name: config["mcpServers"][name] for name in ("everything", "bistro")}
    with anyio.fail_after(TEST_TIMEOUT):
        async with ClientGroup({"mcpServers": servers}, elicitation_callback=answers) as group:
            assert not group.failures
            booked = await group.call_tool("bistro_book_table", {"date": "2025-12-25", "party_size": 4})
            assert "Booked for 2025-12-27" in text_of(booked)
            await group.call_tool("everything_trigger-elicitation-request", {})
    asked_by = [question.context.server_name for question in answers.questions]
    assert asked_by == ["bistro", "everything"]


async def test_servers_connect_concurrently(tmp_path: Path) -> None:
    """Each server waits, before it serves, until the other one has started: one by one, neither could."""
    marks = tmp_path

    def waiting(me: str, other: str) -> dict[str, Any]:
        script = (
            "import pathlib, sys, time, runpy\n"
            f"pathlib.Path({str(marks / me)!r}).touch()\n"
            "for _ in range(1200):\n"
            f"    if pathlib.Path({str(marks / other)!r}).exists(): break\n"
            "    time.sleep(0.05)\n"
            "else:\n"
            "    sys.exit('the other server never started')\n"
            f"sys.argv = [{str(BISTRO)!r}]\n"
            f"runpy.run_path({str(BISTRO)!r}, run_name='__main__')\n"
        )
        return {"command": sys.executable, "args": ["-c", script], "mode": "legacy"}

    config = {"mcpServers": {"a": waiting("a", "b"), "b": waiting("b", "a")}}
    with anyio.fail_after(TEST_TIMEOUT):
        async with ClientGroup(config, connect_timeout=90) as group:
            assert not group.failures
            assert sorted(group.clients) == ["a", "b"]


async def test_servers_added_removed_and_retried_at_run_time(
    config: dict[str, Any], everything_url: str
) -> None:
    servers = {"fastmcp": config["mcpServers"]["fastmcp"], "broken": config["mcpServers"]["broken"]}
    with anyio.fail_after(TEST_TIMEOUT):
        async with ClientGroup({"mcpServers": servers}) as group:
            assert list(group.failures) == ["broken"]
            with pytest.raises(MCPConnectionError, match="could not start the server command"):
                await group.connect("broken")
            client = await group.add("late", {"url": everything_url})
            assert group["late"] is client
            assert "late_echo" in [tool.name for tool in await group.list_tools()]
            await group.remove("fastmcp")
            assert "fastmcp" not in group
            assert not [tool for tool in await group.list_tools() if tool.server == "fastmcp"]
            fresh = await group.connect("late")
            assert fresh is group["late"] and fresh is not client


def test_the_docs_app_answers_two_servers_questions_in_one_terminal_ui(
    tmp_path: Path, fastmcp_stdio_command: tuple[str, list[str]]
) -> None:
    """The app of docs/servers.md and README.md, run as written, with answers typed on a piped stdin."""
    import re
    import subprocess

    apps = []
    for page in ("docs/servers.md", "README.md"):
        text = (_peers.REPO / page).read_text(encoding="utf-8")
        match = re.search(r"tested-by=tests/interop/test_group.py -->\n```python\n(.*?)```", text, re.S)
        assert match is not None, page
        apps.append(match.group(1))
    assert apps[0] == apps[1]  # the README shows the same app as its page
    (tmp_path / "app.py").write_text(apps[0], encoding="utf-8")
    python, args = fastmcp_stdio_command
    servers = {
        "bistro": {"command": sys.executable, "args": [str(BISTRO)], "mode": "legacy"},
        "notes": {"command": python, "args": args},
    }
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "app.py"],
        cwd=tmp_path,
        input="y\n2025-12-27\n\n",  # accept the alternative, its date, then Enter sends the review
        capture_output=True,
        text=True,
        timeout=TEST_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "bistro_book_table" in done.stdout and "notes_echo" in done.stdout
    assert "[SUCCESS] Booked for 2025-12-27 hello" in done.stdout
    assert "Server bistro" in done.stdout + done.stderr  # the form says which server asks
