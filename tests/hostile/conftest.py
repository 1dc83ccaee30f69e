"""Fixtures for the hostile-server tests: the raw HTTP server with its access log, the stdio script."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from mcp_client import StdioServerParameters
from tests.support.servers import LOOPBACK, run_http_server

STDIO_BACKENDS = ["asyncio", "trio", "asyncio-transport-stdout"]
"""The stdio transport's three ways of reading the server: its own stdout pipe on asyncio (POSIX), the
subprocess transport's (as on Windows), and anyio's process streams (trio)."""

HERE = Path(__file__).resolve().parent
HTTP_SCRIPT = HERE / "hostile_http_server.py"
STDIO_SCRIPT = HERE / "hostile_stdio_server.py"


@dataclass
class HostileServer:
    """The hostile HTTP server: ``url(tag)`` is its MCP endpoint for one test, ``entries(tag)`` its log."""

    base: str
    log_path: Path

    def url(self, tag: str) -> str:
        return f"{self.base}/mcp?t={quote(tag)}"

    def entries(self, tag: str | None = None) -> list[dict[str, Any]]:
        lines = self.log_path.read_text(encoding="utf-8").splitlines() if self.log_path.exists() else []
        found = [json.loads(line) for line in lines if line.strip()]
        if tag is None:
            return found
        marker = f"t={quote(tag)}"
        return [e for e in found if marker in e.get("path", "") or marker in e.get("tag", "")]

    def requests(self, tag: str) -> list[dict[str, Any]]:
        """The JSON-RPC messages the client POSTed under ``tag``, in order."""
        return [
            e["body"]
            for e in self.entries(tag)
            if e.get("method") == "POST" and isinstance(e.get("body"), dict)
        ]


@pytest.fixture(scope="session")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostileServer]:
    log_path = tmp_path_factory.mktemp("hostile") / "access.jsonl"
    argv = lambda port: [  # noqa: E731
        sys.executable,
        str(HTTP_SCRIPT),
        "http",
        "--host",
        LOOPBACK,
        "--port",
        str(port),
        "--log",
        str(log_path),
    ]
    with run_http_server(argv, path="") as base:
        yield HostileServer(base, log_path)


@pytest.fixture
def tag(request: pytest.FixtureRequest) -> str:
    """A tag unique to this test (and parameters), to find its lines in the access log."""
    return request.node.name


def hostile_stdio() -> StdioServerParameters:
    return StdioServerParameters(sys.executable, [str(STDIO_SCRIPT), "stdio"])


def stdio_backend(backend: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The ``anyio_backend`` for one of ``STDIO_BACKENDS``, setting up the stdout path it names."""
    if backend == "asyncio-transport-stdout":
        from mcp_client._transports import stdio_asyncio as _stdio_asyncio

        monkeypatch.setattr(_stdio_asyncio, "DIRECT_STDOUT", False)
        return "asyncio"
    return backend
