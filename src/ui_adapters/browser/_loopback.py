"""The loop under every page server of ours on loopback: listen, accept, read one request in time, let go.

The browser pages (``_site``: one question or approval per server) and the MCP Apps host
(``ui_adapters.apps._server``: the host origin and the sandbox origin) answer different routes over the
same loop, so it is written once, here; ``_http`` reads and writes the bytes. One request per connection.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import anyio
import anyio.abc
from anyio.abc import ByteStream
from anyio.streams.buffered import BufferedByteReceiveStream

from ui_adapters.browser._http import MAX_BODY, Request, read_request

__all__ = ["accept_forever", "listen", "read_in_time", "serve_connection", "until_hung_up"]

REQUEST_SECONDS = 10.0
"""How long a browser may take to send one request."""


def listen(address: str, *, backlog: int = 16) -> socket.socket:
    """A non-blocking TCP socket listening on ``address`` (a loopback IP), on a port the system picks."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.bind((address, 0))
        listener.listen(backlog)
        listener.setblocking(False)
    except BaseException:
        listener.close()
        raise
    return listener


async def accept_forever(
    listener: socket.socket,
    serve: Callable[[ByteStream], Coroutine[Any, Any, None]],
    handlers: anyio.abc.TaskGroup,
) -> None:
    """Accept connections on ``listener`` and ``serve`` each in ``handlers``, until cancelled.

    It waits for the socket to be readable and accepts by itself: cancelling a pending
    ``loop.sock_accept`` races with a connection arriving in the same loop iteration on Python 3.11
    (``InvalidStateError`` in the event loop), and a browser does open spare connections.
    """
    while True:
        await anyio.wait_readable(listener)
        try:
            connection, _address = listener.accept()
        except (BlockingIOError, InterruptedError):
            continue
        handlers.start_soon(serve, await anyio.abc.SocketStream.from_socket(connection))


async def serve_connection(
    stream: ByteStream,
    serve: Callable[[ByteStream], Awaitable[None]],
    logger: logging.Logger,
    failure: str,
) -> None:
    """``serve`` one connection, then close it; never raises for anything a browser can send.

    A browser that goes away mid-answer is not an error; anything else is logged (``failure`` on
    ``logger``, with the traceback) and the connection closed, so one bad request stops no server.
    """
    async with stream:
        try:
            await serve(stream)
        except (
            anyio.EndOfStream,
            anyio.IncompleteRead,
            anyio.BrokenResourceError,
            anyio.ClosedResourceError,
        ):
            pass  # the browser went away
        except Exception:
            logger.exception(failure)


async def read_in_time(reader: BufferedByteReceiveStream, *, max_body: int = MAX_BODY) -> Request | None:
    """The request on ``reader``, or ``None`` when the browser took more than ``REQUEST_SECONDS`` to send
    it (nothing is answered then). ``BadRequest`` as ``read_request`` raises it."""
    try:
        with anyio.fail_after(REQUEST_SECONDS):
            return await read_request(reader, max_body=max_body)
    except TimeoutError:
        return None


async def until_hung_up(reader: BufferedByteReceiveStream) -> None:
    """Return once the browser closes the connection (whatever it sends meanwhile is dropped)."""
    try:
        while True:
            await reader.receive()
    except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError):
        pass
