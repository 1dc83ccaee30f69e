"""Fixtures of the MCP Apps tests: the official-SDK apps peer (tests/servers/apps_bridge_server.py) over
HTTP (one process per test session) and stdio (one per client)."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.servers import start_http_server, stdio_command

APPS_BRIDGE_SERVER = Path(__file__).resolve().parents[1] / "servers" / "apps_bridge_server.py"


@pytest.fixture(scope="session")
def apps_bridge_http_url() -> Iterator[str]:
    """The apps peer over streamable HTTP, both eras on one endpoint."""
    with start_http_server(script=APPS_BRIDGE_SERVER) as url:
        yield url


@pytest.fixture(scope="session")
def apps_bridge_stdio_command() -> tuple[str, list[str]]:
    """`(command, args)` starting the apps peer on stdio."""
    return stdio_command(APPS_BRIDGE_SERVER)
