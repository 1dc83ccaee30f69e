"""The sockets under ``AppSite``: two loopback listeners (the host origin and the sandbox origin are two
ports of 127.0.0.1), one request per connection, each answered by ``AppSite.respond``.

Kept apart from the routes so another server (an ASGI app) can serve the same site.
"""

from __future__ import annotations

import logging
import socket

import anyio
import anyio.abc
from anyio.abc import ByteStream
from anyio.streams.buffered import BufferedByteReceiveStream

from ui_adapters.apps._site import MAX_MESSAGES_BODY, AppSite, Response
from ui_adapters.browser._http import BadRequest, read_request, response_head

__all__ = ["listen_loopback", "serve_forever"]

logger = logging.getLogger("ui_adapters.apps")

_REQUEST_SECONDS = 10.0
"""How long a browser may take to send one request."""


def listen_loopback() -> socket.socket:
    """A non-blocking TCP socket on 127.0.0.1, on a port the system picks."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        listener.setblocking(False)
    except BaseException:
        listener.close()
        raise
    return listener


async def serve_forever(site: AppSite, listener: socket.socket, handlers: anyio.abc.TaskGroup) -> None:
    """Accept connections on ``listener`` and serve each in ``handlers`` until cancelled.

    As the browser form does, it waits for the socket to be readable and accepts by itself (a pending
    ``sock_accept`` cancelled while a connection arrives breaks the event loop on Python 3.11).
    """
    while True:
        await anyio.wait_readable(listener)
        try:
            connection, _address = listener.accept()
        except (BlockingIOError, InterruptedError):
            continue
        handlers.start_soon(_serve_connection, site, await anyio.abc.SocketStream.from_socket(connection))


async def _serve_connection(site: AppSite, stream: ByteStream) -> None:
    async with stream:
        try:
            await _serve_one(site, stream)
        except (
            anyio.EndOfStream,
            anyio.IncompleteRead,
            anyio.BrokenResourceError,
            anyio.ClosedResourceError,
        ):
            pass  # the browser went away
        except Exception:
            logger.exception("the MCP Apps host failed to answer a request")


async def _serve_one(site: AppSite, stream: ByteStream) -> None:
    reader = BufferedByteReceiveStream(stream)
    try:
        with anyio.fail_after(_REQUEST_SECONDS):
            request = await read_request(reader, max_body=MAX_MESSAGES_BODY)
    except TimeoutError:
        return
    except BadRequest as exc:
        body = (str(exc) + "\n").encode()
        await stream.send(response_head(exc.status, {"Content-Type": "text/plain"}, length=len(body)) + body)
        return
    response = await site.respond(request)
    await write_response(stream, reader, response)


async def write_response(stream: ByteStream, reader: BufferedByteReceiveStream, response: Response) -> None:
    """Send ``response``; an event stream runs until it ends or the browser closes the connection."""
    if response.stream is None:
        length = None if "Content-Length" in response.headers else len(response.body)
        await stream.send(response_head(response.status, response.headers, length=length) + response.body)
        return
    await stream.send(response_head(response.status, response.headers, length=None))
    body = response.stream
    async with anyio.create_task_group() as tg:

        async def until_gone() -> None:
            try:
                while True:
                    await reader.receive()
            except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError):
                pass
            tg.cancel_scope.cancel()

        async def run() -> None:
            await body(stream.send)
            tg.cancel_scope.cancel()

        tg.start_soon(until_gone)
        tg.start_soon(run)
