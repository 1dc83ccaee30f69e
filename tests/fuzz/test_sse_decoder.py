"""The sans-IO pieces under the HTTP transport, on bytes alone: ``_sse.SSEDecoder`` and
``_content_encoding.BodyDecoder``.

The SSE decoder must give the same events however the stream is split (a CRLF cut between two
chunks included), agree with a plain whole-stream reading of the WHATWG rules, keep the last event
id across events, and refuse an event or a line over its limit whatever the chunking. The body
decoder must give back exactly what was compressed, in pieces of at most ``PIECE_BYTES``, and turn
any corruption into ``ContentEncodingError``.
"""

from __future__ import annotations

import gzip
import itertools
import re
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_client._transports.content_encoding import PIECE_BYTES, BodyDecoder, ContentEncodingError
from mcp_client._transports.sse import EventTooLarge, ServerSentEvent, SSEDecoder

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LIMIT = 64


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


def _decode(chunks: list[bytes], limit: int = LIMIT) -> tuple[list[ServerSentEvent], bool]:
    """The events of the stream, and whether it was refused as too large (events before still count)."""
    decoder = SSEDecoder(limit)
    events: list[ServerSentEvent] = []
    try:
        for chunk in chunks:
            events.extend(decoder.feed(chunk))
    except EventTooLarge:
        return events, True
    return events, False


def _reference(data: bytes) -> list[ServerSentEvent]:
    """The WHATWG rules read off the whole stream at once (no limits, no chunks)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = re.split(rb"\r\n|\r|\n", data)[:-1]  # the last piece is unterminated: not a line
    events: list[ServerSentEvent] = []
    data_lines: list[bytes] = []
    kind = ""
    last_id: str | None = None
    retry: int | None = None
    seen = False
    for line in lines:
        if not line:
            if seen:
                events.append(ServerSentEvent(b"\n".join(data_lines), kind or "message", last_id, retry))
            data_lines, kind, retry, seen = [], "", None, False
            continue
        if line.startswith(b":"):
            continue
        name, colon, value = line.partition(b":")
        if colon and value.startswith(b" "):
            value = value[1:]
        if name == b"data":
            data_lines.append(value)
            seen = True
        elif name == b"event":
            kind = value.decode("utf-8", "replace")
            seen = True
        elif name == b"id" and b"\0" not in value:
            last_id = value.decode("utf-8", "replace")
            seen = True
        elif name == b"retry" and value.isdigit():
            retry = int(value)
            seen = True
    return events


_FIELD = st.sampled_from([b"data", b"event", b"id", b"retry", b"", b"dat", b"data ", b"x"])
_VALUE = st.binary(max_size=12).filter(lambda v: b"\r" not in v and b"\n" not in v)
_EOL = st.sampled_from([b"\n", b"\r\n", b"\r"])


@st.composite
def streams(draw: st.DrawFn) -> bytes:
    parts: list[bytes] = [b"\xef\xbb\xbf"] if draw(st.booleans()) else []
    for _ in range(draw(st.integers(0, 12))):
        if draw(st.integers(0, 4)) == 0:
            parts.append(draw(_EOL))  # a blank line: the end of an event
            continue
        field = draw(_FIELD)
        separator = draw(st.sampled_from([b":", b": ", b""]))
        value = draw(st.sampled_from([b"12", b"7"])) if field == b"retry" else draw(_VALUE)
        parts.append(field + separator + value + draw(_EOL))
    return b"".join(parts) + (draw(_VALUE) if draw(st.booleans()) else b"")


@FUZZ
@given(streams(), st.lists(st.integers(0, 10_000), max_size=12))
def test_sse_events_do_not_depend_on_the_chunking_and_follow_the_rules(data: bytes, cuts: list[int]) -> None:
    whole, whole_refused = _decode([data], limit=10_000)
    split, split_refused = _decode(_split(data, cuts), limit=10_000)
    assert not whole_refused and not split_refused
    assert split == whole == _reference(data)


def _whatwg(data: bytes) -> list[ServerSentEvent]:
    """The WHATWG "event stream interpretation", transcribed step by step on bytes (no regular
    expression, no splitting helper): read a line up to CR, LF or CRLF; a blank line dispatches; a
    line starting with a colon is a comment; the field name runs to the first colon, the value after
    it loses one leading space. Our two MCP differences are kept: data stays bytes, and an event
    with only an id or a retry is dispatched too (the spec would dispatch nothing for it)."""
    position = 3 if data[:3] == b"\xef\xbb\xbf" else 0
    events: list[ServerSentEvent] = []
    buffer = bytearray()
    has_data = False
    kind = b""
    last_id: bytes | None = None
    retry: int | None = None
    fields = False
    while True:
        line_start = position
        while position < len(data) and data[position] not in (0x0D, 0x0A):
            position += 1
        if position == len(data):
            break  # no line end: an unterminated line (and its event) is never dispatched
        line = data[line_start:position]
        if data[position] == 0x0D and data[position + 1 : position + 2] == b"\n":
            position += 1
        position += 1
        if line == b"":
            if fields:
                data_bytes = bytes(buffer[:-1]) if has_data else b""
                event_id = None if last_id is None else last_id.decode("utf-8", "replace")
                kind_text = kind.decode("utf-8", "replace") or "message"
                events.append(ServerSentEvent(data_bytes, kind_text, event_id, retry))
            buffer.clear()
            has_data, kind, retry, fields = False, b"", None, False
            continue
        if line[0] == 0x3A:
            continue
        colon = line.find(b":")
        if colon < 0:
            name, value = line, b""
        else:
            name, value = line[:colon], line[colon + 1 :]
            if value[:1] == b" ":
                value = value[1:]
        if name == b"event":
            kind, fields = value, True
        elif name == b"data":
            buffer += value + b"\n"
            has_data = fields = True
        elif name == b"id":
            if 0 not in value:
                last_id, fields = value, True
        elif name == b"retry":
            if value and all(0x30 <= byte <= 0x39 for byte in value):
                retry, fields = int(value), True
    return events


_ALPHABET = st.sampled_from(
    [
        b"\n",
        b"\r",
        b"\r\n",
        b":",
        b" ",
        b"data",
        b"event",
        b"id",
        b"retry",
        b"1",
        b"x",
        b"\0",
        b"\xff",
        b"\xc3",
    ]
)


@FUZZ
@given(st.lists(_ALPHABET, max_size=60).map(b"".join), st.lists(st.integers(0, 300), max_size=20))
def test_random_streams_decode_as_the_whatwg_steps_say(data: bytes, cuts: list[int]) -> None:
    """Any bytes at all (not only well-formed fields), cut anywhere: the events the spec's steps give."""
    events, refused = _decode(_split(data, cuts), limit=10_000)
    assert not refused
    assert events == _whatwg(data) == _reference(data)


@FUZZ
@given(
    st.integers(1, 3 * LIMIT), st.lists(st.integers(0, 10_000), max_size=8), st.sampled_from(["data", "x"])
)
def test_an_event_or_a_line_over_the_limit_is_refused_however_it_arrives(
    size: int, cuts: list[int], field: str
) -> None:
    before = b"data: first\n\n"
    data = before + field.encode() + b": " + b"y" * size + b"\n\n"
    events, refused = _decode(_split(data, cuts))
    assert events[:1] == [ServerSentEvent(b"first")]  # what came before is never lost
    if field == "data":
        assert refused == (size > LIMIT)  # a message of exactly the limit is accepted
    else:
        assert refused == (size + 3 > LIMIT + len("data: "))  # other lines: the same allowance


def test_data_lines_join_and_count_against_the_limit_together() -> None:
    events, refused = _decode([b"data: " + b"a" * 31 + b"\ndata: " + b"b" * 32 + b"\n\n"])
    assert not refused and events == [ServerSentEvent(b"a" * 31 + b"\n" + b"b" * 32)]
    assert _decode([b"data: " + b"a" * 32 + b"\ndata: " + b"b" * 32 + b"\n\n"])[1]


def test_the_last_event_id_persists_and_a_priming_event_carries_it() -> None:
    events, _ = _decode([b"id: ev-1\r\nretry: 300\r\ndata:\r\n\r\n", b"data: {}\r\n\r\n"])
    assert events == [
        ServerSentEvent(b"", id="ev-1", retry=300),
        ServerSentEvent(b"{}", id="ev-1"),
    ]


@pytest.mark.parametrize("cut", range(1, 8))
def test_a_crlf_cut_between_chunks_ends_one_line(cut: int) -> None:
    data = b"data: x\r\n\r\ndata: y\r\n\r\n"
    assert _decode([data[: cut + 6], data[cut + 6 :]])[0] == [ServerSentEvent(b"x"), ServerSentEvent(b"y")]


def test_a_huge_retry_is_capped_not_parsed() -> None:
    events, _ = _decode([b"retry: " + b"9" * 50 + b"\n\n"], limit=10_000)
    assert events[0].retry is not None and events[0].retry >= 10**12


def test_one_byte_chunks_cost_no_more_than_one_chunk() -> None:
    """The decoder keeps an unterminated line in one growing buffer: feeding a line byte by byte
    touches each byte a bounded number of times (a quadratic decoder takes minutes here)."""
    line = b"data: " + b"z" * 200_000 + b"\n\n"
    decoder = SSEDecoder(len(line))
    events = [event for i in range(len(line)) for event in decoder.feed(line[i : i + 1])]
    assert events == [ServerSentEvent(b"z" * 200_000)]


# --------------------------------------------------------------------------------- Content-Encoding


def _compress(data: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.compress(data)
    if encoding == "deflate":
        return zlib.compress(data)
    compressor = zlib.compressobj(wbits=-zlib.MAX_WBITS)  # raw deflate, as some servers send it
    return compressor.compress(data) + compressor.flush()


@FUZZ
@given(
    st.binary(max_size=3000) | st.integers(0, 300_000).map(lambda n: b"q" * n),
    st.lists(st.sampled_from(["gzip", "deflate", "raw-deflate"]), max_size=3),
    st.lists(st.integers(0, 100_000), max_size=10),
)
def test_the_body_decoder_gives_back_what_was_compressed_in_bounded_pieces(
    data: bytes, layers: list[str], cuts: list[int]
) -> None:
    body = data
    for encoding in layers:
        body = _compress(body, encoding)
    header = ", ".join("deflate" if e == "raw-deflate" else e for e in layers)
    decoder = BodyDecoder(header)
    pieces = [piece for chunk in _split(body, cuts) for piece in decoder.decode(chunk)]
    assert b"".join(pieces) == data
    if layers:  # (uncompressed chunks pass as they came: the network read already bounded them)
        assert all(0 < len(piece) <= PIECE_BYTES for piece in pieces)


@FUZZ
@given(st.binary(min_size=1, max_size=200), st.sampled_from(["gzip", "deflate", "gzip, gzip"]))
def test_a_body_that_is_not_what_its_header_says_raises_only_our_error(data: bytes, header: str) -> None:
    decoder = BodyDecoder(header)
    try:
        for _ in decoder.decode(data):
            pass
    except ContentEncodingError:
        pass


@pytest.mark.parametrize("header", ["br", "zstd", "compress", "gzip, br", "gzip, gzip, gzip, gzip"])
def test_encodings_the_client_did_not_ask_for_are_refused(header: str) -> None:
    with pytest.raises(ContentEncodingError):
        BodyDecoder(header)


def test_identity_and_no_header_pass_bytes_through() -> None:
    for header in (None, "", "identity", " Identity "):
        decoder = BodyDecoder(header)
        assert decoder.identity
        assert list(decoder.decode(b"abc")) == [b"abc"]
