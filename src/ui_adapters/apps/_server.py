"""The sockets under ``AppSite``: two loopback listeners (the host origin and the sandbox origin are two
ports of 127.0.0.1), one request per connection, each answered by ``AppSite.respond``.

Kept apart from the routes so another server (an ASGI app) can serve the same site. The loop itself
(accepting, reading a request in time, a browser that goes away) is the browser pages' (``_loopback``).
"""

from __future__ import annotations

import functools
import logging
import socket

import anyio
import anyio.abc
from anyio.abc import ByteStream
from anyio.streams.buffered import BufferedByteReceiveStream

from ui_adapters.apps._site import MAX_MESSAGES_BODY, AppSite, Response
from ui_adapters.browser._http import BadRequest, response_head
from ui_adapters.browser._loopback import (
    accept_forever,
    listen,
    read_in_time,
    serve_connection,
    until_hung_up,
)

__all__ = ["listen_loopback", "serve_forever"]

logger = logging.getLogger("ui_adapters.apps")


def listen_loopback() -> socket.socket:
    """A non-blocking TCP socket on 127.0.0.1, on a port the system picks."""
    return listen("127.0.0.1", backlog=64)


async def serve_forever(site: AppSite, listener: socket.socket, handlers: anyio.abc.TaskGroup) -> None:
    """Accept connections on ``listener`` and answer each with ``site`` in ``handlers`` until cancelled."""
    await accept_forever(listener, functools.partial(_serve_connection, site), handlers)


async def _serve_connection(site: AppSite, stream: ByteStream) -> None:
    serve = functools.partial(_serve_one, site)
    await serve_connection(stream, serve, logger, "the MCP Apps host failed to answer a request")


async def _serve_one(site: AppSite, stream: ByteStream) -> None:
    reader = BufferedByteReceiveStream(stream)
    try:
        request = await read_in_time(reader, max_body=MAX_MESSAGES_BODY)
    except BadRequest as exc:
        body = (str(exc) + "\n").encode()
        await stream.send(response_head(exc.status, {"Content-Type": "text/plain"}, length=len(body)) + body)
        return
    if request is None:
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
            await until_hung_up(reader)
            tg.cancel_scope.cancel()

        async def run() -> None:
            await body(stream.send)
            tg.cancel_scope.cancel()

        tg.start_soon(until_gone)
        tg.start_soon(run)
