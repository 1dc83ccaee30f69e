"""Fixtures for the auth tests: the OAuth-protected MCP server and a scripted "browser"."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import httpx2
import pytest

from tests.support.servers import LOOPBACK, SERVERS_DIR, run_http_server

OAUTH_SERVER = SERVERS_DIR / "oauth_server.py"


def start_oauth_server(*extra: str) -> Iterator[str]:
    """The official SDK's authorization server + a protected MCPServer (tests/servers/oauth_server.py)."""
    argv = lambda port: [  # noqa: E731
        sys.executable,
        str(OAUTH_SERVER),
        "http",
        "--host",
        LOOPBACK,
        "--port",
        str(port),
        *extra,
    ]
    with run_http_server(argv) as url:
        yield url


@pytest.fixture
def oauth_server() -> Iterator[str]:
    """A fresh server per test: its counters (registrations, refreshes...) start at zero."""
    yield from start_oauth_server()


class Browser:
    """An ``authorize`` callback that behaves like a person clicking "Allow": it opens the authorization
    URL (without following redirects) and returns where the server sent the browser back to."""

    def __init__(self) -> None:
        self.opened: list[str] = []
        self.returned: list[str] = []

    async def __call__(self, authorization_url: str) -> str:
        self.opened.append(authorization_url)
        async with httpx2.AsyncClient(follow_redirects=False, timeout=10) as client:
            response = await client.get(authorization_url)
        location = response.headers["location"]
        self.returned.append(location)
        return location


async def no_browser(authorization_url: str) -> str:
    raise AssertionError(f"a login was started, but none was expected: {authorization_url[:80]}")


@pytest.fixture
def browser() -> Browser:
    return Browser()
