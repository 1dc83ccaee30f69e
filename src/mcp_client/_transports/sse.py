"""A Server-Sent Events decoder with no I/O: bytes in, events out, in linear time and bounded memory.

The HTTP transport feeds it the (decompressed) body of a ``text/event-stream`` reply, chunk by chunk,
however the network split it; ``feed`` returns the events completed by that chunk. It follows the
WHATWG parsing rules (lines end in CR, LF or CRLF, a leading BOM is skipped, ``:`` starts a comment,
one space after the colon is dropped, data lines are joined with LF, an ``id`` with NUL is ignored, the
last event id persists across events, an event still open when the stream ends is discarded) with two
differences that suit MCP:

* ``data`` stays bytes (the message is JSON, parsed straight from UTF-8 by the caller);
* an event is also dispatched when it carries only an ``id`` or ``retry`` (a "priming" event), so the
  caller sees the resume cursor even though the event has no message.

Limits: the data of one event may be at most ``max_event_bytes`` (the message), and no line longer
than that plus its field name, so a server cannot make the decoder buffer without bound; over the
limit ``feed`` raises ``EventTooLarge``. Each byte is looked at a bounded number of times, whatever
the chunking: a message sent one byte per chunk costs the same as one sent whole. Lines are found by
``bytes.splitlines``, which breaks at exactly SSE's line ends (LF, CRLF, a lone CR) in one C pass.

Why a decoder of our own rather than ``httpx-sse``: not speed. At realistic chunk sizes this decoder,
in its earlier regular-expression form, was 1.7-2.8x slower than ``httpx-sse``; splitting bytes made
it 1.3-1.8x faster than that form (20,000 events), which still leaves ``httpx-sse`` ahead. The reason
is bounded memory: ``httpx-sse``'s public API buffers a line or an event with no limit, so a server
could make the client hold an endless line, while this decoder counts the bytes as they arrive and
refuses an event past ``max_event_bytes``. It also takes the raw (decompressed, bounded) body pieces
the transport already reads.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["EventTooLarge", "SSEDecoder", "ServerSentEvent"]

_BOM = b"\xef\xbb\xbf"
_FIELD_SLACK = len(b"data: ")
_RETRY_DIGITS = 12  # more digits would only say "a very long time" (and slow int() down)
_RETRY_MAX = 10**_RETRY_DIGITS


@dataclass(frozen=True, slots=True)
class ServerSentEvent:
    """One dispatched event. ``id`` is the last event id seen on the stream so far (it persists)."""

    data: bytes
    event: str = "message"
    id: str | None = None
    retry: int | None = None


class EventTooLarge(Exception):
    """An event's data, or one line, went over the decoder's limit."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"an SSE event larger than {limit} bytes")
        self.limit = limit


class SSEDecoder:
    """Turns the bytes of one event stream into ``ServerSentEvent``s (see the module docstring)."""

    __slots__ = (
        "_data",
        "_data_size",
        "_event",
        "_has_fields",
        "_head",
        "_last_id",
        "_limit",
        "_line_limit",
        "_partial",
        "_retry",
        "_skip_lf",
    )

    def __init__(self, max_event_bytes: int) -> None:
        self._limit = max_event_bytes
        self._line_limit = max_event_bytes + _FIELD_SLACK
        self._partial = bytearray()  # the unterminated line so far
        self._skip_lf = False  # the last chunk ended in CR: an LF opening the next one ends nothing
        self._head: bytes | None = b""  # the first bytes, until we know whether they are a BOM
        self._data: list[bytes] = []
        self._data_size = 0
        self._event = ""
        self._has_fields = False
        self._last_id: str | None = None
        self._retry: int | None = None

    def feed(self, chunk: bytes) -> Iterator[ServerSentEvent]:
        """Take the next bytes of the stream; yield the events they complete, in order.

        Iterate to the end before feeding more. An event completed before an oversized one is yielded
        before ``EventTooLarge`` is raised, however the bytes were split.
        """
        if self._head is not None:
            chunk = self._strip_bom(chunk)
        if not chunk:
            return
        if self._skip_lf:
            self._skip_lf = False
            if chunk[0] == 0x0A:  # the LF of a CRLF cut between two chunks: it ends nothing
                chunk = chunk[1:]
                if not chunk:
                    return
        # bytes.splitlines breaks at exactly the SSE line ends (LF, CRLF, lone CR), in one C pass.
        lines = chunk.splitlines(keepends=True)
        last = len(lines) - 1
        for index, piece in enumerate(lines):
            tail = piece[-1]
            if tail == 0x0A:
                line = piece[:-2] if piece[-2:] == b"\r\n" else piece[:-1]
            elif tail == 0x0D:
                line = piece[:-1]
                if index == last:
                    self._skip_lf = True  # a lone CR ends this chunk: it may be half of a CRLF
            else:  # the unterminated rest (only ever the last piece): kept for the next chunk
                if len(self._partial) + len(piece) > self._line_limit:
                    raise EventTooLarge(self._limit)
                self._partial += piece
                return
            if self._partial:
                if len(self._partial) + len(line) > self._line_limit:
                    raise EventTooLarge(self._limit)
                self._partial += line
                line = bytes(self._partial)
                self._partial.clear()
            elif len(line) > self._line_limit:
                raise EventTooLarge(self._limit)
            event = self._line(line)
            if event is not None:
                yield event

    # --------------------------------------------------------------------------- internals

    def _strip_bom(self, chunk: bytes) -> bytes:
        assert self._head is not None
        head = self._head + chunk
        if len(head) < len(_BOM) and _BOM.startswith(head):
            self._head = head  # could still be a BOM: wait for more
            return b""
        self._head = None
        return head[len(_BOM) :] if head.startswith(_BOM) else head

    def _line(self, line: bytes) -> ServerSentEvent | None:
        if not line:
            return self._dispatch()
        if line[0] == 0x3A:  # ":" a comment
            return None
        name, colon, value = line.partition(b":")
        if colon and value[:1] == b" ":
            value = value[1:]
        if name == b"data":
            size = self._data_size + len(value) + (1 if self._data else 0)
            if size > self._limit:
                raise EventTooLarge(self._limit)
            self._data.append(value)
            self._data_size = size
            self._has_fields = True
        elif name == b"event":
            self._event = value.decode("utf-8", "replace")
            self._has_fields = True
        elif name == b"id":
            if b"\0" not in value:
                self._last_id = value.decode("utf-8", "replace")
                self._has_fields = True
        elif name == b"retry":
            if value.isdigit():  # ASCII digits only, as the spec says
                self._retry = int(value) if len(value) <= _RETRY_DIGITS else _RETRY_MAX
                self._has_fields = True
        return None

    def _dispatch(self) -> ServerSentEvent | None:
        if not self._has_fields:
            return None
        event = ServerSentEvent(
            data=b"\n".join(self._data),
            event=self._event or "message",
            id=self._last_id,
            retry=self._retry,
        )
        self._data = []
        self._data_size = 0
        self._event = ""
        self._retry = None
        self._has_fields = False
        return event
