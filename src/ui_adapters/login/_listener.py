"""Catch the browser coming back from a login: a tiny HTTP listener on the loopback redirect URI.

RFC 8252 section 7.3: a native app receives the authorization response on ``http://127.0.0.1:PORT/...``.
This listener answers only that path, only on loopback, only a GET that carries ``code`` or
``error`` with this login's ``state`` (anything else gets a 4xx and waiting goes on: a stray request
from another local program cannot end or spoil the login). The page it shows is fixed text: nothing
the authorization server sent is echoed into it.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator
from urllib.parse import parse_qs, urlsplit

import anyio
import anyio.abc

__all__ = ["RedirectListener", "listen_for_redirect"]

_MAX_REQUEST_HEAD = 16 * 1024
_READ_SECONDS = 10.0
_LOOPBACK_HOSTS = {"127.0.0.1": "127.0.0.1", "localhost": "127.0.0.1", "[::1]": "::1", "::1": "::1"}

_DONE_PAGE = (
    "<!doctype html><html><head><meta charset='utf-8'><title>mcp-client</title></head>"
    "<body style='font-family: sans-serif; margin: 3em'><h2>Login received</h2>"
    "<p>You can close this tab and go back to the terminal.</p></body></html>"
)


class RedirectListener:
    """Waits for one authorization response on the loopback redirect URI; see ``listen_for_redirect``."""

    def __init__(
        self, redirect_uri: str, state: str | None, listener: anyio.abc.Listener[anyio.abc.SocketStream]
    ) -> None:
        parts = urlsplit(redirect_uri)
        self.redirect_uri = redirect_uri
        self._origin = f"{parts.scheme}://{parts.netloc}"
        self._path = parts.path or "/"
        self._state = state
        self._listener = listener
        self._result: str | None = None
        self._done = anyio.Event()

    async def wait(self) -> str:
        """The full URL the browser was redirected to, once it came."""
        await self._done.wait()
        assert self._result is not None
        return self._result

    async def serve(self) -> None:
        """Answer connections until the authorization response came (each reply is sent before that)."""
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._listener.serve, self._handle, tg)
            await self._done.wait()
            tg.cancel_scope.cancel()

    async def _handle(self, connection: anyio.abc.SocketStream) -> None:
        async with connection:
            head = b""
            with anyio.move_on_after(_READ_SECONDS):
                while b"\r\n\r\n" not in head and len(head) <= _MAX_REQUEST_HEAD:
                    try:
                        head += await connection.receive(4096)
                    except (anyio.EndOfStream, anyio.BrokenResourceError):
                        return
            status, page, target = self._judge(head)
            body = page.encode()
            reply = (
                f"HTTP/1.1 {status}\r\ncontent-type: text/html; charset=utf-8\r\n"
                f"content-length: {len(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n"
            ).encode() + body
            with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                await connection.send(reply)
            if target is not None and not self._done.is_set():
                self._result = self._origin + target
                self._done.set()

    def _judge(self, head: bytes) -> tuple[str, str, str | None]:
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != "GET" or not parts[2].startswith("HTTP/1."):
            return "400 Bad Request", "Bad request.", None
        target = parts[1]
        path, _, query = target.partition("?")
        if path != self._path:
            return "404 Not Found", "Not found.", None
        params = parse_qs(query)
        if "code" not in params and "error" not in params:
            return "400 Bad Request", "This is not an authorization response.", None
        if self._state is not None and params.get("state", [None])[0] != self._state:
            return "400 Bad Request", "This is not the answer to the login in progress.", None
        return "200 OK", _DONE_PAGE, target


@contextlib.asynccontextmanager
async def listen_for_redirect(
    redirect_uri: str, state: str | None
) -> AsyncGenerator[RedirectListener | None]:
    """Listen on ``redirect_uri`` for the block; ``None`` if it is not a loopback http URI with a port we
    can bind (the person then pastes the URL instead)."""
    parts = urlsplit(redirect_uri)
    host = _LOOPBACK_HOSTS.get(parts.netloc.rsplit(":", 1)[0].lower()) if parts.scheme == "http" else None
    try:
        port = parts.port
    except ValueError:
        port = None
    if host is None or port is None:
        yield None
        return
    try:
        socket_listener = await anyio.create_tcp_listener(local_host=host, local_port=port, reuse_port=False)
    except OSError:
        yield None
        return
    failure: Exception | None = None
    async with socket_listener, anyio.create_task_group() as tg:
        listener = RedirectListener(redirect_uri, state, socket_listener)
        tg.start_soon(listener.serve)
        try:
            yield listener
        except Exception as exc:  # re-raised below as it is, not wrapped in an ExceptionGroup
            failure = exc
        finally:
            tg.cancel_scope.cancel()
    if failure is not None:
        raise failure
