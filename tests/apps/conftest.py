"""Fixtures of the MCP Apps tests: ``tests/servers/apps_server.py`` (the official SDK's ``Apps``) over
HTTP (one per session) and stdio (one per client), and the npm example servers (``tests/support/ext_apps``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcp_client import StdioServerParameters
from tests.support.servers import PEER_PYTHON, SERVERS_DIR, start_http_server

APPS_SERVER = SERVERS_DIR / "apps_server.py"
WIRE_TEE = Path(__file__).resolve().parent / "wire_tee.py"


def apps_stdio() -> StdioServerParameters:
    """A fresh apps server process over stdio (its ``ran()`` starts empty)."""
    return StdioServerParameters(PEER_PYTHON, [str(APPS_SERVER), "stdio"])


def recorded_apps_stdio(journal: Path) -> StdioServerParameters:
    """The apps server over stdio, every byte the client sends it copied into ``journal``."""
    return StdioServerParameters(
        PEER_PYTHON, [str(WIRE_TEE), str(journal), PEER_PYTHON, str(APPS_SERVER), "stdio"]
    )


@pytest.fixture(scope="session")
def apps_http_url() -> Iterator[str]:
    with start_http_server(script=APPS_SERVER) as url:
        yield url


@pytest.fixture
def apps_server(transport: str, apps_http_url: str) -> Any:
    """The apps server over each transport (a test that takes it runs over HTTP and stdio)."""
    return apps_http_url if transport == "http" else apps_stdio()


# ``AppBridge``'s peer: tests/servers/apps_bridge_server.py (a view, app-only, model-only, a tool that asks).
APPS_BRIDGE_SERVER = SERVERS_DIR / "apps_bridge_server.py"


@pytest.fixture(scope="session")
def apps_bridge_http_url() -> Iterator[str]:
    """The apps bridge peer over streamable HTTP, both eras on one endpoint."""
    with start_http_server(script=APPS_BRIDGE_SERVER) as url:
        yield url


@pytest.fixture(scope="session")
def apps_bridge_stdio_command() -> tuple[str, list[str]]:
    """`(command, args)` starting the apps bridge peer on stdio."""
    return PEER_PYTHON, [str(APPS_BRIDGE_SERVER), "stdio"]
