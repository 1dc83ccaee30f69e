"""Servers in the same process: an ASGI app (or a server object's own app) reached with no socket.

``Client(server)`` accepts the official SDK's ``MCPServer`` (and its ``FastMCP`` alias) and fastmcp's
``FastMCP``: the server's own streamable HTTP ASGI app is driven in this process, so both protocol eras,
elicitation, sampling, roots, progress and cancellation work exactly as over the network, with no port
opened and no subprocess. ``InProcessTransport(app)`` does the same for any ASGI app that serves
streamable HTTP (Starlette, FastAPI, Quart, ... with an MCP endpoint mounted at ``path``).

Why the app and not the server's internals: the HTTP app is the one surface every Python MCP server
framework exposes and keeps stable, and it carries both eras. Nothing of the official SDK or fastmcp is
imported here; a server object is recognised by the method that builds its app.

``httpx2.ASGITransport`` cannot serve here: it reads the whole response before returning it, and an MCP
reply stream stays open while the server asks its questions. The bridge below streams instead: each
request runs the app in a task of the client's (``spawn``), the response starts as soon as the app sends
its headers, and closing the response tells the app the client went away (``http.disconnect``). The
app's lifespan (the official server starts its session manager there) runs from ``open`` to ``aclose``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, MutableMapping
from typing import Any

import anyio
import httpx2
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from mcp_client._connection.http_auth import HttpAuth, as_httpx2_auth
from mcp_client._connection.transport import DEFAULT_MAX_MESSAGE_BYTES, ServerMessageSink, Spawn
from mcp_client._errors import MCPConnectionError
from mcp_client._transports.delegating import DelegatingTransport
from mcp_client._transports.http import StreamableHTTPTransport

__all__ = ["InProcessTransport", "asgi_app_of"]

logger = logging.getLogger("mcp_client.in_process")

ASGIApp = Callable[
    [MutableMapping[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
    Awaitable[None],
]

_ORIGIN = "http://127.0.0.1:8000"
"""The origin the app is told it serves (the official server only accepts loopback Host headers)."""
_LIFESPAN_SECONDS = 30.0
_BODY_BUFFER = 32


def asgi_app_of(server: object) -> tuple[ASGIApp, str] | None:
    """``(app, label)`` for a server object whose streamable HTTP app we know how to build, else ``None``.

    Recognised by method, not by import: ``streamable_http_app()`` (the official SDK's ``MCPServer``),
    ``http_app()`` (fastmcp's ``FastMCP``).
    """
    name = getattr(server, "name", None) or type(server).__name__
    build = getattr(server, "streamable_http_app", None)
    if callable(build) and type(server).__module__.startswith("mcp."):
        app: ASGIApp = build()  # type: ignore[assignment]
        return app, f"in-process server {name!r}"
    build = getattr(server, "http_app", None)
    if callable(build) and type(server).__module__.startswith("fastmcp"):
        app: ASGIApp = build(path="/mcp")  # type: ignore[assignment, no-redef]
        return app, f"in-process server {name!r}"
    return None


class InProcessTransport(DelegatingTransport):
    """A streamable HTTP connection to an ASGI app in this process: ``Client(InProcessTransport(app))``.

    ``app`` is an ASGI application serving MCP's streamable HTTP at ``path``, or a server object that
    ``Client(server)`` recognises (see the module docstring). ``headers`` and ``auth`` apply to every
    request, as over the network. ``lifespan=False`` skips the app's lifespan (for an app whose lifespan
    something else already runs).
    """

    def __init__(
        self,
        app: ASGIApp | object,
        *,
        path: str = "/mcp",
        headers: Mapping[str, str] | None = None,
        auth: HttpAuth | None = None,
        timeout: float | None = 30.0,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        lifespan: bool = True,
        label: str | None = None,
    ) -> None:
        known = asgi_app_of(app)
        if known is not None:
            app, default_label = known
        elif callable(app):
            default_label = f"in-process app {getattr(app, '__name__', type(app).__name__)}"
        else:
            raise TypeError(
                f"{type(app).__name__} is neither an ASGI app nor a server object mcp_client knows "
                "(the official SDK's MCPServer, fastmcp's FastMCP)"
            )
        self._bridge = _ASGIBridge(app, lifespan=lifespan)  # type: ignore[arg-type]
        self._label = label or default_label
        client = httpx2.AsyncClient(
            transport=self._bridge,
            auth=as_httpx2_auth(auth, max_body_bytes=max_message_bytes),  # a given client keeps its auth
            timeout=httpx2.Timeout(timeout, read=None),
            follow_redirects=False,
        )
        self._http = StreamableHTTPTransport(
            _ORIGIN + path,
            headers=headers,
            timeout=timeout,
            max_message_bytes=max_message_bytes,
            http_client=client,
            label=self._label,  # not the made-up origin the app is told it serves
        )
        self._client = client
        self._carrier = self._http

    # ------------------------------------------------------------------ Transport interface

    @property
    def kind(self) -> str:
        return "in-process"

    @property
    def label(self) -> str:
        return self._label

    async def open(self, spawn: Spawn, on_message: ServerMessageSink) -> None:
        self._bridge.spawn = spawn
        await self._bridge.start()
        await self._http.open(spawn, on_message)

    async def aclose(self) -> None:
        try:
            await self._http.aclose()
        finally:
            try:
                await self._client.aclose()
            finally:
                await self._bridge.stop()


class _ASGIBridge(httpx2.AsyncBaseTransport):
    """An httpx2 transport that runs an ASGI app per request and streams its response back."""

    def __init__(self, app: ASGIApp, *, lifespan: bool) -> None:
        self.app = app
        self.spawn: Spawn | None = None
        self._lifespan = lifespan
        self._state: dict[str, Any] = {}
        self._shutdown = anyio.Event()
        self._lifespan_done = anyio.Event()
        self._started = False

    async def start(self) -> None:
        if not self._lifespan or self._started:
            return
        self._started = True
        spawn = self._require_spawn()
        started = anyio.Event()
        failure: list[str] = []
        sent_startup = False

        async def receive() -> dict[str, Any]:
            nonlocal sent_startup
            if not sent_startup:
                sent_startup = True
                return {"type": "lifespan.startup"}
            await self._shutdown.wait()
            return {"type": "lifespan.shutdown"}

        async def send(message: Mapping[str, Any]) -> None:
            kind = message.get("type")
            if kind == "lifespan.startup.failed":
                failure.append(str(message.get("message", "")))
                started.set()
            elif kind == "lifespan.startup.complete":
                started.set()

        async def run() -> None:
            scope = {
                "type": "lifespan",
                "asgi": {"version": "3.0", "spec_version": "2.0"},
                "state": self._state,
            }
            try:
                await self.app(scope, receive, send)
            except Exception as exc:  # an app without lifespan support raises on the scope type
                if not started.is_set():
                    logger.debug("the in-process app has no lifespan: %s", exc)
            finally:
                started.set()
                self._lifespan_done.set()

        spawn(run)
        with anyio.move_on_after(_LIFESPAN_SECONDS) as waiting:
            await started.wait()
        if waiting.cancelled_caught:
            raise MCPConnectionError(f"the in-process app did not start within {_LIFESPAN_SECONDS:g} s")
        if failure:
            raise MCPConnectionError(f"the in-process app failed to start: {failure[0] or 'no reason given'}")

    async def stop(self) -> None:
        if not self._started:
            return
        self._shutdown.set()
        with anyio.CancelScope(shield=True), anyio.move_on_after(_LIFESPAN_SECONDS):
            await self._lifespan_done.wait()

    def _require_spawn(self) -> Spawn:
        if self.spawn is None:
            raise MCPConnectionError("the in-process transport is not open")
        return self.spawn

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        spawn = self._require_spawn()
        body = await request.aread()
        chunks_in: MemoryObjectSendStream[bytes]
        chunks_out: MemoryObjectReceiveStream[bytes]
        chunks_in, chunks_out = anyio.create_memory_object_stream[bytes](_BODY_BUFFER)
        head = anyio.Event()
        status: list[int] = []
        response_headers: list[tuple[bytes, bytes]] = []
        disconnected = anyio.Event()
        sent_body = False

        async def receive() -> dict[str, Any]:
            nonlocal sent_body
            if not sent_body:
                sent_body = True
                return {"type": "http.request", "body": body, "more_body": False}
            await disconnected.wait()
            return {"type": "http.disconnect"}

        async def send(message: Mapping[str, Any]) -> None:
            kind = message.get("type")
            if kind == "http.response.start":
                status.append(int(message["status"]))
                response_headers.extend((bytes(k), bytes(v)) for k, v in message.get("headers", ()))
                head.set()
            elif kind == "http.response.body":
                chunk = bytes(message.get("body", b""))
                if chunk and not disconnected.is_set():
                    try:
                        await chunks_in.send(chunk)
                    except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                        disconnected.set()
                if not message.get("more_body", False):
                    await chunks_in.aclose()

        url = request.url
        scope: dict[str, Any] = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": request.method,
            "scheme": url.scheme,
            "path": url.path,
            "raw_path": url.raw_path.split(b"?")[0],
            "query_string": url.query,
            "root_path": "",
            "headers": [(k.lower(), v) for k, v in request.headers.raw],
            "client": ("127.0.0.1", 50000),
            "server": (url.host, url.port or 80),
            "state": dict(self._state),
        }
        scope_holder = anyio.CancelScope()

        async def run() -> None:
            with scope_holder:
                try:
                    await self.app(scope, receive, send)
                except Exception as exc:
                    logger.debug("the in-process app failed on %s %s: %s", request.method, url.path, exc)
                    if not head.is_set():
                        status.append(500)
                        response_headers.append((b"content-type", b"text/plain"))
                        head.set()
                        await chunks_in.send(f"the in-process app failed: {exc}".encode())
                finally:
                    head.set()
                    await chunks_in.aclose()

        spawn(run)
        await head.wait()
        if not status:
            status.append(500)

        async def closed() -> None:
            disconnected.set()
            await chunks_out.aclose()

        return httpx2.Response(
            status[0], headers=response_headers, stream=_Body(chunks_out, closed), request=request
        )


class _Body(httpx2.AsyncByteStream):
    def __init__(
        self, chunks: MemoryObjectReceiveStream[bytes], on_close: Callable[[], Awaitable[None]]
    ) -> None:
        self._chunks = chunks
        self._on_close = on_close

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._chunks:
            yield chunk

    async def aclose(self) -> None:
        await self._on_close()
