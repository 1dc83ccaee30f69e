"""The seam between the client and the wire: ``mcp_client.Transport``, public, and knowing no protocol era.

A transport moves JSON-RPC messages (plain dicts, ``Message``) between the client and one server. The
client (its session) calls ``open`` once, then ``request`` and ``send`` as often as it needs, then
``aclose``; the transport calls back into the client only through the ``ServerMessageSink`` it was
opened with. Everything the client needs to know about the transport is a member of ``Transport``,
documented there; everything the transport needs to know about a request (may its reply stream be
resumed, which protocol version is spoken) comes with the request. Which protocol era is spoken is
the client's business: a transport never reads it from the headers it is given.

Server requests are handled in at most ``MAX_SERVER_REQUESTS_IN_FLIGHT`` tasks at once beyond one per
request of ours in flight (``ServerRequestSlots``): every question that one of our calls explains finds a
slot, and a server that floods requests nobody asked for and never reads our answers costs a bounded
number of tasks and buffered writes, not one per request. Past the bound, a transport whose answers
travel apart from what it reads (HTTP) stops reading until a slot frees; one whose reading and writing
share a pipe with the server (stdio) must keep reading, or both sides could wait on each other for
ever, so it drops the excess request unanswered (a server that far behind would not read the answer).

See ``docs/transports.md`` ("Writing a transport") for a complete in-memory transport.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol, runtime_checkable

import anyio

from mcp_client._errors import RequestStreamLost
from mcp_client._protocol.jsonrpc import Message, RequestId

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "MAX_SERVER_REQUESTS_IN_FLIGHT",
    "Message",
    "RequestId",
    "RequestStreamLost",
    "ServerMessageSink",
    "ServerRequestSlots",
    "Spawn",
    "Transport",
]

DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024
"""The largest single message (JSON body, SSE event, stdio line) a transport accepts by default."""
MAX_SERVER_REQUESTS_IN_FLIGHT = 64
"""Server requests handled at once beyond one per request of ours in flight (``ServerRequestSlots``)."""


class ServerMessageSink(Protocol):
    """Where a transport hands every message the server sends on its own (requests and notifications).

    ``related_request`` is the id of our request the message came with, when the transport knows it
    (an HTTP reply stream belongs to one request), else ``None``: a question the server pushes then
    belongs to every request in flight. Awaiting it for a server *request* may take as long as a person
    takes to answer, so a transport runs those through ``Spawn`` (a task of the client's) and awaits
    notifications inline, in the order the server sent them.
    """

    async def __call__(self, message: Message, related_request: RequestId | None = None) -> None: ...


Spawn = Callable[[Callable[[], Awaitable[None]]], None]
"""Starts background work in the client's task group: ``spawn(async_function)``; it never blocks.

The client owns the task (it is cancelled when the client closes) and logs what it raises.
"""


@runtime_checkable
class Transport(Protocol):
    """What the ``Client`` needs from a connection to one server (pass one as ``Client(transport)``).

    Implement ``open``, ``request``, ``send`` and ``aclose``. The properties say what the client would
    otherwise have to guess; subclass ``Transport`` to inherit the defaults written here (``label`` is
    the class name, every other property is ``False``, ``0.0`` or ``None``), or implement every member.
    ``StreamableHTTPTransport`` and ``StdioTransport`` are the two the package ships.
    """

    @property
    def label(self) -> str:
        """Names the server (a URL, a command line) in errors and in ``ClientRequestContext.server``."""
        return type(self).__name__

    @property
    def kind(self) -> str:
        """What carries the messages, as ``Client.transport_kind`` shows it: ``"http"`` (streamable
        HTTP), ``"sse"`` (the older HTTP+SSE), ``"stdio"``, ``"in-process"``; ``"custom"`` by default."""
        return "custom"

    @property
    def cancels_by_closing(self) -> bool:
        """True when abandoning ``request`` (closing its stream) tells the server the request is
        cancelled, so that a 2026-07-28 client need not send ``notifications/cancelled``."""
        return False

    @property
    def sends_headers(self) -> bool:
        """True when the HTTP headers the era builds for each message are used (worth building)."""
        return False

    @property
    def startup_grace(self) -> float:
        """Seconds a first answer may take beyond the client's ``timeout`` while the server starts (a
        subprocess's cold start); ``0.0`` for a server that is already running."""
        return 0.0

    @property
    def may_ignore_unknown_requests(self) -> bool:
        """True when a server may stay silent on a method it does not know (legacy stdio servers do),
        so that the era probe's timeout means "legacy server" rather than "server down"."""
        return False

    @property
    def binds_waits(self) -> bool:
        """True when the transport waits for each reply on an ``asyncio`` future that it hands to the
        request's clock, so the client needs no cancel scope per request (the stdio transport on
        asyncio). Leave it ``False``: the client then bounds each ``request`` with a cancel scope."""
        return False

    @property
    def backlogged(self) -> bool:
        """True while the server is not reading what the client writes (a stdio server whose stdin is
        full): the client then skips work that would only wait for its deadline."""
        return False

    @property
    def session_id(self) -> str | None:
        """The transport's session (HTTP ``Mcp-Session-Id``), if any; shown as ``Client.session_id``."""
        return None

    async def open(self, spawn: Spawn, on_message: ServerMessageSink) -> None:
        """Connect, once, before any other call. Keep ``on_message`` for every message the server
        sends on its own (see ``ServerMessageSink``), and ``spawn`` to run server requests in tasks
        of the client's. Raise ``MCPConnectionError`` if the server cannot be reached."""
        ...

    async def request(
        self,
        message: Message,
        headers: Mapping[str, str],
        *,
        resumable: bool = True,
        protocol_version: str | None = None,
    ) -> Message:
        """Send one request and return the server's response to it: a ``result`` or an ``error``
        message, with the request's id.

        Server messages that arrive while it waits go to ``on_message``. ``headers`` are the HTTP
        headers the era wants on this message (ignore them if the wire has none). ``resumable`` says
        whether a reply stream that drops before the answer may be resumed (the legacy era's HTTP
        streams may); when it may not, raise ``RequestStreamLost`` and the client sends the request
        again, once. ``protocol_version`` is the version spoken, when one is settled (for what the
        transport sends on its own, such as HTTP's standalone GET stream).

        Report a failure the server reported at the protocol level (an HTTP 4xx) as a JSON-RPC
        ``error`` response: the era negotiation reads those as evidence (the specification's
        versioning rules say the fallback to the handshake must not hang on one error code). Raise
        ``MCPConnectionError`` when the connection fails, ``ProtocolError`` when the server sends
        something that is not JSON-RPC. The client bounds the call with its own deadline: do not add
        one.
        """
        ...

    async def send(
        self, message: Message, headers: Mapping[str, str], *, protocol_version: str | None = None
    ) -> None:
        """Send a notification, or our response to a server's request; no answer is awaited.

        ``headers`` and ``protocol_version`` as for ``request``. A server that refuses it is logged,
        not raised; raise ``MCPConnectionError`` only when the connection itself failed.
        """
        ...

    async def aclose(self) -> None:
        """End the connection (the HTTP session's DELETE, the end of the subprocess). Called once, also
        after a failed ``open``; it must not raise for a connection that is already gone."""
        ...


class ServerRequestSlots:
    """Server requests handled at once: ``limit`` plus one per request of ours in flight.

    A server asks its questions on behalf of our calls: a hundred calls in flight may each have one
    question open, and none of them must be dropped for want of a slot. What no call of ours explains
    (a server pushing requests nobody asked for) gets ``limit`` slots, so a flood with no call in flight
    costs a bounded number of tasks. ``in_flight`` says how many requests of ours wait for an answer
    (the transport's own count); a transport that counts none gets ``limit``. A handler's task frees its
    slot when done.

    ``spawn`` waits for a free slot (back-pressure); ``try_spawn`` does not, and says whether it started.
    A transport whose ``spawn`` may wait calls ``more_room`` when a request of its own starts.
    """

    __slots__ = ("_in_flight", "_limit", "_room", "_running")

    def __init__(
        self, limit: int = MAX_SERVER_REQUESTS_IN_FLIGHT, in_flight: Callable[[], int] | None = None
    ) -> None:
        self._limit = limit
        self._in_flight = in_flight
        self._running = 0
        self._room: anyio.Event | None = None  # set when a slot frees or more requests of ours start

    @property
    def running(self) -> int:
        """The server requests being handled now."""
        return self._running

    def _full(self) -> bool:
        in_flight = self._in_flight
        return self._running >= self._limit + (in_flight() if in_flight is not None else 0)

    async def spawn(self, spawn: Spawn, handler: Callable[[], Awaitable[None]]) -> None:
        while self._full():
            if self._room is None:
                self._room = anyio.Event()
            await self._room.wait()
        self._start(spawn, handler)

    def try_spawn(self, spawn: Spawn, handler: Callable[[], Awaitable[None]]) -> bool:
        if self._full():
            return False
        self._start(spawn, handler)
        return True

    def more_room(self) -> None:
        """Wake the ``spawn`` calls waiting for a slot, to look again (a slot freed, or a call started)."""
        room, self._room = self._room, None
        if room is not None:
            room.set()

    def _start(self, spawn: Spawn, handler: Callable[[], Awaitable[None]]) -> None:
        async def run() -> None:
            try:
                await handler()
            finally:
                self._running -= 1
                self.more_room()

        self._running += 1
        try:
            spawn(run)
        except BaseException:
            self._running -= 1
            raise
