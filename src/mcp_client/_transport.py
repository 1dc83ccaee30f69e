"""The seam between the client and the wire: one small interface that knows nothing of protocol eras.

A transport moves JSON-RPC messages (plain dicts). The client calls:

* ``open(spawn, on_message)`` once. ``on_message(message, related_request)`` is awaited for every
  message the server sends that is not the response to one of our requests (server requests and
  notifications); the transport must not wait for it to finish when it may take long, so it runs it
  through ``spawn`` (which starts it in the client's task group) for server *requests*, and may await
  it inline for notifications. ``related_request`` is the id of our request the message came with,
  when the transport knows it (an HTTP reply stream belongs to one request), else ``None``.
* ``request(message, headers)`` sends one request and returns the server's response message (a
  ``result`` or an ``error`` dict, with our id). Server messages that arrive while it waits go to
  ``on_message``. A transport reports protocol-level HTTP failures as JSON-RPC error responses
  (as PROTOCOL.md section 7 asks) and connection failures as ``MCPConnectionError``.
* ``send(message, headers)`` sends a notification or a response to a server request.
* ``aclose()`` ends the connection (DELETE of the HTTP session, end of the subprocess).

``headers`` are HTTP headers the era wants on this message; a transport without headers ignores them.
``label`` names the server (URL or command line) in errors and in ``ClientRequestContext``.
``cancels_by_closing`` is true when abandoning ``request`` (closing its stream) tells the server the
request is cancelled, so a 2026-07-28 client need not send ``notifications/cancelled``.

A transport raises ``RequestStreamLost`` when a request's reply stream ended before the answer and the
protocol version offers no way to resume it (2026-07-28): the client re-issues the request, once.
Server requests are handled in at most ``MAX_SERVER_REQUESTS_IN_FLIGHT`` tasks at once
(``ServerRequestSlots``), so a server that floods requests and never reads our answers costs a bounded
number of tasks and buffered writes, not one per request. Past the bound, a transport whose answers
travel apart from what it reads (HTTP) stops reading until a slot frees; one whose reading and writing
share a pipe with the server (stdio) must keep reading, or both sides could wait on each other for
ever, so it drops the excess request unanswered (a server that far behind would not read the answer).

What the client would otherwise have to guess from the transport's class, the transport says itself:
``sends_headers`` (are the era's HTTP headers worth building), ``startup_grace`` (seconds a first
answer may take beyond ``timeout`` while the server starts, as a subprocess does), and
``may_ignore_unknown_requests`` (a server may stay silent on a method it does not know, as legacy
stdio servers do; an HTTP server always answers). ``session_id`` is the transport's session, if any.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, runtime_checkable

import anyio

Message = dict[str, Any]
RequestId = int | str

DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024
"""The largest single message (JSON body, SSE event, stdio line) a transport accepts by default."""
MAX_SERVER_REQUESTS_IN_FLIGHT = 64
"""Server requests handled at once; the elicitation callbacks among them are capped lower (32)."""


class MessageHandler(Protocol):
    """Receives what the server sends on its own; ``related_request`` as described above."""

    async def __call__(self, message: Message, related_request: RequestId | None = None) -> None: ...


Spawn = Callable[[Callable[[], Awaitable[None]]], None]


@runtime_checkable
class Transport(Protocol):
    """What the ``Client`` needs from a connection to one server. See the module docstring."""

    @property
    def label(self) -> str: ...

    @property
    def cancels_by_closing(self) -> bool: ...

    @property
    def sends_headers(self) -> bool: ...

    @property
    def startup_grace(self) -> float: ...

    @property
    def may_ignore_unknown_requests(self) -> bool: ...

    @property
    def session_id(self) -> str | None: ...

    async def open(self, spawn: Spawn, on_message: MessageHandler) -> None: ...

    async def request(self, message: Message, headers: Mapping[str, str]) -> Message: ...

    async def send(self, message: Message, headers: Mapping[str, str]) -> None: ...

    async def aclose(self) -> None: ...


class ServerRequestSlots:
    """At most ``limit`` server requests handled at once; a handler's task frees its slot when done.

    ``spawn`` waits for a free slot (back-pressure); ``try_spawn`` does not, and says whether it started.
    """

    __slots__ = ("_slots",)

    def __init__(self, limit: int = MAX_SERVER_REQUESTS_IN_FLIGHT) -> None:
        self._slots = anyio.Semaphore(limit)

    async def spawn(self, spawn: Spawn, handler: Callable[[], Awaitable[None]]) -> None:
        await self._slots.acquire()
        self._start(spawn, handler)

    def try_spawn(self, spawn: Spawn, handler: Callable[[], Awaitable[None]]) -> bool:
        try:
            self._slots.acquire_nowait()
        except anyio.WouldBlock:
            return False
        self._start(spawn, handler)
        return True

    def _start(self, spawn: Spawn, handler: Callable[[], Awaitable[None]]) -> None:
        async def run() -> None:
            try:
                await handler()
            finally:
                self._slots.release()

        try:
            spawn(run)
        except BaseException:
            self._slots.release()
            raise
