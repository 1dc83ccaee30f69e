"""Fixtures for the interop tests: two third-party MCP servers, each run once per test session on loopback.

* ``fastmcp_url``: ``tests/interop/fastmcp_server.py`` under FastMCP 4.1.6 (its own venv), streamable
  HTTP at ``http://127.0.0.1:<port>/mcp``; serves both protocol eras from that one endpoint.
* ``everything_url``: ``@modelcontextprotocol/server-everything`` (TypeScript SDK, handshake era only),
  ``node --require loopback_only.cjs dist/index.js streamableHttp`` with ``PORT=0``; the preload pins the
  listen address to 127.0.0.1 (the server alone would bind every interface).
* ``fastmcp_server`` / ``everything_server``: ``(pid, url)`` of those same processes, to inspect sockets.
* ``fastmcp_stdio_command`` / ``everything_stdio_command``: ``(command, args)`` for a stdio run; the client
  under test spawns and reaps that process itself.

A peer that is not installed makes its tests fail with the install command (``scripts/install_peers.py``),
never skip.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.interop import _peers


@pytest.fixture
def anyio_backend() -> str:
    """Interop tests run on asyncio; the few that also run on trio parametrize this themselves."""
    return "asyncio"


@pytest.fixture(scope="session")
def fastmcp_stdio_command() -> tuple[str, list[str]]:
    python = _peers.require_installed(_peers.FASTMCP_PYTHON, "fastmcp 4.1.6 (its venv)")
    return str(python), [str(_peers.FASTMCP_SERVER), "stdio"]


@pytest.fixture(scope="session")
def fastmcp_server() -> Iterator[tuple[int, str]]:
    """``(pid, url)`` of the running FastMCP peer (the pid lets a test inspect its sockets)."""
    python = _peers.require_installed(_peers.FASTMCP_PYTHON, "fastmcp 4.1.6 (its venv)")
    cmd = [str(python), str(_peers.FASTMCP_SERVER), "http"]
    with _peers.running_peer(cmd, ready_pattern=r"LISTENING (\d+)") as (process, port):
        _peers.wait_http_ready(port)
        yield process.pid, f"http://{_peers.LOOPBACK}:{port}/mcp"


@pytest.fixture(scope="session")
def fastmcp_url(fastmcp_server: tuple[int, str]) -> str:
    return fastmcp_server[1]


@pytest.fixture(scope="session")
def fastmcp_tasks_stdio_command() -> tuple[str, list[str]]:
    python = _peers.require_installed(_peers.FASTMCP_TASKS_PYTHON, "fastmcp-tasks 4.1.4 (its venv)")
    return str(python), [str(_peers.FASTMCP_TASKS_SERVER), "stdio"]


@pytest.fixture(scope="session")
def everything_stdio_command() -> tuple[str, list[str]]:
    entry = _peers.require_installed(_peers.EVERYTHING_ENTRY, "@modelcontextprotocol/server-everything")
    return _peers.require_node(), [str(entry), "stdio"]


@pytest.fixture(scope="session")
def everything_server() -> Iterator[tuple[int, str]]:
    """``(pid, url)`` of the running server-everything (the pid lets a test inspect its sockets)."""
    entry = _peers.require_installed(_peers.EVERYTHING_ENTRY, "@modelcontextprotocol/server-everything")
    cmd = [_peers.require_node(), "--require", str(_peers.LOOPBACK_PRELOAD), str(entry), "streamableHttp"]
    with _peers.running_peer(
        cmd, ready_pattern=r"MCP_PEER_LISTENING 127\.0\.0\.1:(\d+)", env={"PORT": "0"}, cwd=entry.parent
    ) as (process, port):
        yield process.pid, f"http://{_peers.LOOPBACK}:{port}/mcp"


@pytest.fixture(scope="session")
def everything_url(everything_server: tuple[int, str]) -> str:
    return everything_server[1]


@pytest.fixture(scope="session")
def fastmcp_sse_url() -> Iterator[str]:
    """The FastMCP peer serving the older HTTP+SSE transport; the event stream's URL."""
    python = _peers.require_installed(_peers.FASTMCP_PYTHON, "fastmcp 4.1.6 (its venv)")
    cmd = [str(python), str(_peers.FASTMCP_SERVER), "sse"]
    with _peers.running_peer(cmd, ready_pattern=r"LISTENING (\d+)") as (_process, port):
        _peers.wait_http_ready(port, "/sse-health-probe")
        yield f"http://{_peers.LOOPBACK}:{port}/sse"


@pytest.fixture(scope="session")
def everything_sse_url() -> Iterator[str]:
    """server-everything's ``sse`` mode (the older HTTP+SSE transport); the event stream's URL."""
    entry = _peers.require_installed(_peers.EVERYTHING_ENTRY, "@modelcontextprotocol/server-everything")
    cmd = [_peers.require_node(), "--require", str(_peers.LOOPBACK_PRELOAD), str(entry), "sse"]
    with _peers.running_peer(
        cmd, ready_pattern=r"MCP_PEER_LISTENING 127\.0\.0\.1:(\d+)", env={"PORT": "0"}, cwd=entry.parent
    ) as (_process, port):
        yield f"http://{_peers.LOOPBACK}:{port}/sse"
