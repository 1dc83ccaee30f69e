"""Reading streamable HTTP bodies within bounds: whole bodies, and the one SSE event reader.

Every byte of a body counts against ``max_message_bytes`` as it arrives, before and after
``Content-Encoding`` is undone (``content_encoding``, which never inflates more than a piece at a
time): a JSON body, an acknowledgement or an error body may be that large; an SSE stream may run for
ever but no single event may be larger (``sse``).

``EventReader`` is the one reader of SSE events, for a request's reply stream and for the standalone
GET stream alike: it undoes the encoding, decodes the events, keeps the resume cursor
(``StreamCursor``: the last usable event id and the server's ``retry:`` delay) and hands over the
data of each event that has some (a priming event is a cursor only).
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator

import httpx2

from mcp_client._connection.http_options import untrusted_certificate_advice
from mcp_client._errors import MCPConnectionError, ProtocolError
from mcp_client._transports.content_encoding import BodyDecoder, ContentEncodingError
from mcp_client._transports.sse import EventTooLarge, ServerSentEvent, SSEDecoder

logger = logging.getLogger("mcp_client.http")

DEFAULT_RETRY_MS = 1000
_MAX_RETRY_MS = 60_000
_EVENT_ID = re.compile(r"[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?")
"""An SSE event id that can go back in a ``Last-Event-ID`` header; other ids are not used as cursors."""

_IDENTITY = BodyDecoder(None)
"""The decoder of every uncompressed body (it has no state): most bodies, built once."""


class StreamCursor:
    """Where an SSE stream can be resumed from: the last usable event id, and the server's retry delay.

    ``events`` counts the events read, so that a reconnecting loop can tell a stream that gave
    something from one that gave nothing.
    """

    __slots__ = ("events", "last_id", "retry_ms")

    def __init__(self) -> None:
        self.last_id: str | None = None
        self.retry_ms = DEFAULT_RETRY_MS
        self.events = 0

    def advance(self, event_id: str) -> None:
        """Take ``event_id`` as the resume cursor if it can travel in a ``Last-Event-ID`` header."""
        if not event_id:
            return
        if _EVENT_ID.fullmatch(event_id):
            self.last_id = event_id
        else:
            logger.debug("ignoring an SSE event id that cannot be sent back: %.80r", event_id)


class EventReader:
    """The SSE events of one response, bounded, with their ids and retry delays kept in ``cursor``.

    ``feed(raw)`` takes the raw bytes as they arrive and yields the data of each complete event.
    """

    __slots__ = ("_body", "_cursor", "_events", "_url")

    def __init__(self, response: httpx2.Response, url: str, max_bytes: int, cursor: StreamCursor) -> None:
        self._url = url
        self._body = body_decoder(response, url)
        self._events = SSEDecoder(max_bytes)
        self._cursor = cursor

    def feed(self, raw: bytes) -> Iterator[bytes]:
        for event in self.events(raw):
            if event.data:  # else a priming event: a cursor only
                yield event.data

    def events(self, raw: bytes) -> Iterator[ServerSentEvent]:
        """Every complete event, with its name (the HTTP+SSE transport tells ``endpoint`` from
        ``message`` by it); the cursor is kept as by ``feed``."""
        cursor = self._cursor
        try:
            pieces = (raw,) if self._body.identity else self._body.decode(raw)
            for piece in pieces:
                for event in self._events.feed(piece):
                    cursor.events += 1
                    if event.retry is not None:
                        cursor.retry_ms = max(0, min(event.retry, _MAX_RETRY_MS))
                    if event.id is not None:
                        cursor.advance(event.id)
                    yield event
        except EventTooLarge as exc:
            raise ProtocolError(f"{self._url} sent an SSE event larger than {exc.limit} bytes") from None
        except ContentEncodingError as exc:
            raise ProtocolError(f"{self._url}: {exc}") from None


async def read_limited(response: httpx2.Response, url: str, max_bytes: int) -> bytes:
    """The whole body, refused as soon as it passes ``max_bytes``, on the wire or decoded."""
    decoder = body_decoder(response, url)
    chunks: list[bytes] = []
    wire = 0
    size = 0
    if decoder.identity:  # the common case: count the bytes, no decoding generator per chunk
        async for raw in response.aiter_raw():
            wire += len(raw)
            if wire > max_bytes:
                raise too_large(url, max_bytes)
            chunks.append(raw)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    try:
        async for raw in response.aiter_raw():
            wire += len(raw)
            if wire > max_bytes:
                raise too_large(url, max_bytes)
            for piece in decoder.decode(raw):
                size += len(piece)
                if size > max_bytes:
                    raise too_large(url, max_bytes)
                chunks.append(piece)
    except ContentEncodingError as exc:
        raise ProtocolError(f"{url}: {exc}") from None
    return b"".join(chunks)


def too_large(url: str, max_bytes: int) -> ProtocolError:
    return ProtocolError(
        f"{url} sent a message larger than {max_bytes} bytes; "
        "raise Client(max_message_bytes=...) if that is expected"
    )


def body_decoder(response: httpx2.Response, url: str) -> BodyDecoder:
    encoding = response.headers.get("content-encoding")
    if not encoding:
        return _IDENTITY
    try:
        return BodyDecoder(encoding)
    except ContentEncodingError as exc:
        raise ProtocolError(f"{url}: {exc}") from None


def is_event_stream(response: httpx2.Response) -> bool:
    return response.headers.get("content-type", "").partition(";")[0].strip().lower() == "text/event-stream"


def connection_error(url: str, exc: httpx2.HTTPError) -> MCPConnectionError:
    """What a failed connection to ``url`` is, in words: unreachable (check the server and URL), or lost."""
    advice = untrusted_certificate_advice(exc)
    if advice is not None:
        return MCPConnectionError(f"could not connect to {url} ({exc}): {advice}")
    if isinstance(exc, httpx2.ConnectError | httpx2.ConnectTimeout):
        return MCPConnectionError(
            f"could not connect to {url} ({_what_happened(exc)}); "
            "check that the server is running and the URL is right"
        )
    return MCPConnectionError(f"the connection to {url} failed: {exc or type(exc).__name__}")


def _what_happened(exc: httpx2.HTTPError) -> str:
    """The operating system's word for a failed connect (``connection refused``, ``no route to host``),
    found under the wrappers' "All connection attempts failed"; else the exception as it says itself.

    A refused connection must read as refused: one server of hundreds failing at once should not look
    like a timeout or a mystery.
    """
    if isinstance(exc, httpx2.ConnectTimeout):
        return f"no connection within the timeout: {exc}" if str(exc) else "no connection within the timeout"
    cause: BaseException | None = exc
    seen = 0
    while cause is not None and seen < 10:  # httpx2 -> httpcore2 -> anyio -> the OS error
        if isinstance(cause, OSError) and cause.errno is not None and cause.errno > 0:
            return os.strerror(cause.errno).lower()  # asyncio's own strerror is "Connect call failed"
        cause = cause.__cause__ or cause.__context__
        seen += 1
    return str(exc) or type(exc).__name__
