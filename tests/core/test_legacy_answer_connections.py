"""A legacy call's pushed question answered over streamable HTTP reuses the client's connections.

Against the official ``mcp`` 2.3.0 server (tests/servers/guide_server.py), through a small TCP proxy
on 127.0.0.1 that counts the connections the client opens. The server often writes the call's result
before it acknowledges the answer's POST with 202; a client that then cancels its answer's exchange
closes that connection, and the next call opens a new one (issue 43: 64 of 110 legacy elicitation
calls did). The proxy holds each ``202 Accepted`` back a little, so that the result always comes
first here. Once the first call has opened what a call needs (its stream, its answer's POST and the
session's GET stream), no further call may open another.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit

import anyio
import anyio.abc
import pytest

from mcp_client import Client
from tests.core.helpers import accept, text_of

pytestmark = pytest.mark.anyio

BOUND = 60
CALLS = 8


ACK_DELAY = 0.2
"""How long the proxy holds each ``202 Accepted``, so that the call's result surely comes first."""


class CountingProxy:
    """Forwards every TCP connection to ``upstream``, holding back each ``202 Accepted`` for
    ``ACK_DELAY`` seconds; counts the connections accepted and the acknowledgements held (``holding``)."""

    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.accepted = 0
        self.holding = 0
        self._released = anyio.Event()  # set each time the proxy lets a held acknowledgement go

    async def serve(self, client: anyio.abc.SocketStream) -> None:
        self.accepted += 1
        async with client, await anyio.connect_tcp(*self.upstream) as server:
            async with anyio.create_task_group() as group:

                async def pipe(source: anyio.abc.SocketStream, sink: anyio.abc.SocketStream) -> None:
                    try:
                        async for chunk in source:
                            if source is server and chunk.startswith(b"HTTP/1.1 202"):
                                self.holding += 1
                                try:
                                    await anyio.sleep(ACK_DELAY)
                                finally:
                                    self.holding -= 1
                                    self._released.set()
                                    self._released = anyio.Event()
                            await sink.send(chunk)
                    except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                        pass
                    finally:
                        group.cancel_scope.cancel()  # one side hung up: so does the other

                group.start_soon(pipe, client, server)
                group.start_soon(pipe, server, client)

    async def settled(self) -> None:
        """Until no acknowledgement is held back (the last answer's POST is over)."""
        while self.holding:
            await self._released.wait()


@asynccontextmanager
async def counting_proxy(url: str) -> AsyncIterator[tuple[str, CountingProxy]]:
    """A proxy in front of ``url``: the URL to use instead, and the proxy (its ``accepted`` count)."""
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    proxy = CountingProxy(parts.hostname, parts.port)
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
    port = listener.extra(anyio.abc.SocketAttribute.local_port)
    async with listener, anyio.create_task_group() as group:
        group.start_soon(listener.serve, proxy.serve)
        try:
            yield urlunsplit(parts._replace(netloc=f"127.0.0.1:{port}")), proxy
        finally:
            group.cancel_scope.cancel()


async def test_a_legacy_elicitation_call_opens_no_new_connection(guide_http_url: str) -> None:
    callback = accept(confirm=True)
    async with counting_proxy(guide_http_url) as (url, proxy):
        async with Client(url, mode="legacy", elicitation_callback=callback, timeout=BOUND) as client:
            with anyio.fail_after(BOUND):
                result = await client.call_tool("delete_folder", {"path": "/tmp/old"})
                assert text_of(result) == "deleted /tmp/old"
                await proxy.settled()
                before = proxy.accepted
                for _ in range(CALLS):
                    result = await client.call_tool("delete_folder", {"path": "/tmp/old"})
                    assert text_of(result) == "deleted /tmp/old"
                    # The answer's POST ends after the call (its 202 is held back): a call starting
                    # before it is over would rightly need another connection for its own answer.
                    await proxy.settled()
                opened = proxy.accepted - before
    assert len(callback.questions) == CALLS + 1  # every call asked, and got its answer
    assert opened == 0, f"{opened} new TCP connections over {CALLS} legacy elicitation calls"
