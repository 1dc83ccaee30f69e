"""Undoing an HTTP body's ``Content-Encoding`` in bounded pieces, with no I/O.

httpx2 decompresses a whole network chunk at once before anyone can count the bytes: a kilobyte of
``Content-Encoding: gzip, gzip`` becomes a gigabyte in one call. Here every layer hands on at most
``PIECE_BYTES`` at a time, so the caller counts (and refuses) decompressed bytes as they appear and
never holds more than a piece per layer beyond what it decided to keep.

Supported: ``gzip`` (and ``x-gzip``), ``deflate`` (zlib-wrapped or raw, as servers send both) and
``identity``, stacked up to ``MAX_LAYERS`` deep; these are what the client advertises in
``Accept-Encoding``. Anything else, or a body that is not what its header claims, raises
``ContentEncodingError``. Bytes after the end of a compressed stream are ignored (and not kept).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

__all__ = ["ACCEPT_ENCODING", "MAX_LAYERS", "PIECE_BYTES", "BodyDecoder", "ContentEncodingError"]

ACCEPT_ENCODING = "gzip, deflate"
"""What the client asks for: exactly what ``BodyDecoder`` can undo within bounds."""

PIECE_BYTES = 64 * 1024
MAX_LAYERS = 3


class ContentEncodingError(Exception):
    """The body's Content-Encoding is unsupported, or the body is not what the header says."""


class _Layer:
    """One zlib stream, decompressed at most ``PIECE_BYTES`` at a time."""

    __slots__ = ("_decompressor", "_head", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        wbits = zlib.MAX_WBITS | 16 if name == "gzip" else zlib.MAX_WBITS
        self._decompressor = zlib.decompressobj(wbits)
        # "deflate" should be zlib-wrapped, but some servers send raw deflate: its first two bytes tell.
        self._head: bytes | None = b"" if name == "deflate" else None

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self._head is not None:
            data = self._head + data
            if len(data) < 2:
                self._head = data
                return
            self._head = None
            if not _zlib_header(data):
                self._decompressor = zlib.decompressobj(-zlib.MAX_WBITS)
        decompressor = self._decompressor
        while not decompressor.eof:
            try:
                piece = decompressor.decompress(data, PIECE_BYTES)
            except zlib.error as exc:
                raise ContentEncodingError(
                    f"the body claims Content-Encoding {self._name!r} but is not {self._name} data ({exc})"
                ) from None
            if piece:
                yield piece
            if len(piece) < PIECE_BYTES:
                return  # zlib took all the input and has nothing more to give until the next chunk
            data = decompressor.unconsumed_tail  # a full piece: ask again, even with no input left


def _zlib_header(data: bytes) -> bool:
    """Whether ``data`` starts like a zlib stream (RFC 1950: method 8, header check a multiple of 31)."""
    return data[0] & 0x0F == 8 and data[0] >> 4 <= 7 and ((data[0] << 8) | data[1]) % 31 == 0


class BodyDecoder:
    """Decodes one body: ``decode(chunk)`` yields pieces of at most ``PIECE_BYTES``.

    ``content_encoding`` is the response's header value (``None`` or empty for none).
    """

    __slots__ = ("_layers",)

    def __init__(self, content_encoding: str | None) -> None:
        names = [part.strip().lower() for part in (content_encoding or "").split(",")]
        names = ["gzip" if name == "x-gzip" else name for name in names if name and name != "identity"]
        unknown = sorted({name for name in names if name not in ("gzip", "deflate")})
        if unknown:
            raise ContentEncodingError(
                f"the body has Content-Encoding {', '.join(unknown)}, which the client did not ask for "
                f"(it accepts {ACCEPT_ENCODING})"
            )
        if len(names) > MAX_LAYERS:
            raise ContentEncodingError(
                f"the body is compressed {len(names)} times over (Content-Encoding {content_encoding!r}); "
                f"the client undoes at most {MAX_LAYERS} layers"
            )
        # The header lists encodings in the order they were applied: undo them from the last.
        self._layers = [_Layer(name) for name in reversed(names)]

    @property
    def identity(self) -> bool:
        """True when the body is not compressed at all (``decode`` hands chunks on as they are)."""
        return not self._layers

    def decode(self, chunk: bytes) -> Iterator[bytes]:
        if not self._layers:
            if chunk:
                yield chunk
            return
        yield from self._through(chunk, 0)

    def _through(self, data: bytes, depth: int) -> Iterator[bytes]:
        if depth == len(self._layers):
            yield data
            return
        for piece in self._layers[depth].feed(data):
            yield from self._through(piece, depth + 1)
