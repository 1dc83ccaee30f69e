"""Serve a small ASGI app on 127.0.0.1 inside the test's own event loop (uvicorn, a free port).

For the hostile servers of the auth tests: each is a few Starlette routes written in the test, with
lists that record what the client sent. Loopback only; the server stops when the block ends.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import uvicorn
from starlette.requests import Request


@dataclass
class Seen:
    """What one server received: (method, path, headers, body) per request."""

    requests: list[tuple[str, str, dict[str, str], bytes]] = field(default_factory=list)

    async def record(self, request: Request) -> bytes:
        body = await request.body()
        self.requests.append((request.method, request.url.path, dict(request.headers), body))
        return body

    def paths(self) -> list[str]:
        return [path for _, path, _, _ in self.requests]

    def authorization_headers(self) -> list[str]:
        return [headers["authorization"] for _, _, headers, _ in self.requests if "authorization" in headers]


@asynccontextmanager
async def serve(app: Any, *, tls: tuple[str, str] | None = None) -> AsyncIterator[str]:
    """Run ``app`` until the block ends; yields ``http://127.0.0.1:PORT`` (``https://`` with ``tls``,
    a ``(certfile, keyfile)`` pair, e.g. issued by a throwaway trustme CA)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    certfile, keyfile = tls if tls is not None else (None, None)
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="error", lifespan="off", ssl_certfile=certfile, ssl_keyfile=keyfile)
    )
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve, [sock])
        with anyio.fail_after(10):
            while not server.started:  # noqa: ASYNC110 - uvicorn only exposes a flag
                await anyio.sleep(0.01)
        try:
            yield f"{'https' if tls is not None else 'http'}://127.0.0.1:{port}"
        finally:
            server.should_exit = True
