"""Room in a user's own connection pool for the answers to the server's questions.

Over streamable HTTP a call holds one connection while its reply stream is open, and the answer to a
question the server asks on that stream goes out on another. The pool the ``Client`` builds has no cap
on connections, so answers always find one. A pool the user made (``httpx_client_factory``, or a
transport given its own ``http_client``) may have one: with as many calls waiting as it allows, every
connection is held by a stream that waits for an answer that cannot be sent, and nothing moves until
the deadlines end it all (the official client dies here with ``PoolTimeout``).

``PoolSplit`` splits such a pool: a few connections are kept for answers (and one for the session's
GET stream); calls take the rest, and a call that finds none free waits as httpx2 would have made it
wait (the client's ``pool`` timeout), then fails with an error that names the limit and the fix.
"""

from __future__ import annotations

import math

import anyio
import httpx2

from mcp_client._errors import MCPConnectionError

MAX_ANSWER_CONNECTIONS = 16
"""Answers POSTed at once, at most (a pool of ours keeps this many sends in flight)."""
_STANDALONE_STREAMS = 1  # the legacy session's GET stream holds one connection for its lifetime
_MIN_CONNECTIONS = 3  # one call, one answer, the GET stream


def pool_limit(client: httpx2.AsyncClient) -> int | None:
    """The most connections ``client``'s pool opens, ``None`` when it opens as many as asked (or we
    cannot tell: a custom transport)."""
    pool = getattr(getattr(client, "_transport", None), "_pool", None)
    limit = getattr(pool, "_max_connections", None)
    if not isinstance(limit, int) or limit >= 2**31:
        return None
    return limit


class PoolSplit:
    """The calls and the answers of one transport, kept apart in a pool of ``limit`` connections."""

    __slots__ = ("_calls", "_url", "_wait", "answers", "calls", "limit")

    def __init__(
        self, url: str, limit: int, pool_timeout: float | None, fallback_timeout: float | None
    ) -> None:
        if limit < _MIN_CONNECTIONS:
            raise MCPConnectionError(
                f"the httpx2 client for {url} allows {limit} connection(s) at once "
                f"(httpx2.Limits(max_connections={limit})); MCP over HTTP needs at least {_MIN_CONNECTIONS}: "
                "a call's reply stream holds one while the answer to the server's question needs another, "
                "and the session's GET stream one more. Raise max_connections, or leave "
                "httpx_client_factory out so the Client builds a pool without that cap"
            )
        self._url = url
        self.limit = limit
        self.answers = max(1, min(MAX_ANSWER_CONNECTIONS, limit // 4))
        """Connections kept for answers (and notifications)."""
        self.calls = limit - self.answers - _STANDALONE_STREAMS
        """Requests of ours open at once; the next one waits for one of them to end."""
        self._calls = anyio.Semaphore(self.calls)
        wait = pool_timeout if pool_timeout is not None else fallback_timeout
        self._wait = math.inf if wait is None else wait

    async def acquire(self) -> None:
        """Take a call's connection, waiting at most the pool timeout; else say which limit to raise."""
        with anyio.move_on_after(self._wait):
            await self._calls.acquire()
            return
        raise MCPConnectionError(
            f"{self.calls} calls to {self._url} are already waiting for their answers, as many as the httpx2 "
            f"client's pool can hold (httpx2.Limits(max_connections={self.limit}), less {self.answers} kept "
            "for the answers to the server's questions and one for the session's stream): no connection "
            f"freed within {self._wait:g}s. Raise max_connections above the calls you run at once plus "
            f"{self.answers + _STANDALONE_STREAMS}, or leave httpx_client_factory out so the Client "
            "builds a pool without that cap"
        )

    def release(self) -> None:
        self._calls.release()
