"""The bodies an app's auth flow asked to read (``requires_response_body``), read so the client can too.

httpx2 honours the flag by reading the whole response before the flow sees it, the last one included:
the response the client then gets is spent, and the transport, which streams every body (an SSE reply
above all), fails with ``StreamConsumed``. Reading it here instead keeps both readers whole:

- the body is read once, raw, within ``max_message_bytes`` on the wire and once decoded (as the
  transport reads bodies: a compressed 401 cannot inflate without bound), and the connection released;
- the flow is shown a copy holding that body (``response.content``, ``.json()``, ``.text``);
- the response httpx2 hands on is given the same raw bytes back as its stream, so the transport reads
  it as if from the wire, its own limits and decoding unchanged.

A successful event stream (2xx ``text/event-stream``) is not read: it is the server's answer, which may
run on while the server asks the client questions, and reading it to its end first would wait for ever
or buffer without bound. The flow gets it unread (``content`` raises ``httpx2.ResponseNotRead``): a flow
reads bodies to decide on a retry, and a streaming answer is no challenge.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

import httpx2

from mcp_client._connection.shown_url import without_credentials
from mcp_client._errors import ProtocolError
from mcp_client._transports.content_encoding import BodyDecoder, ContentEncodingError

__all__ = ["readable_response"]


async def readable_response(response: httpx2.Response, max_bytes: int) -> httpx2.Response:
    """What the flow is sent for ``response``: a read copy, or ``response`` itself (see the docstring)."""
    stream = response.stream
    if (
        (response.is_success and _is_event_stream(response))
        or response.is_stream_consumed
        or response.is_closed
        or not isinstance(stream, httpx2.AsyncByteStream)
    ):
        return response  # a streaming answer, or one somebody read already: as it is
    raw = await _read_raw(stream, response, max_bytes)
    elapsed = getattr(stream, "elapsed", None)  # httpx2 times a response by its stream, now closed
    response.stream = httpx2.ByteStream(raw)  # the transport reads these bytes as if from the wire
    seen = httpx2.Response(
        response.status_code,
        headers=response.headers,
        stream=httpx2.ByteStream(raw),
        request=response.request,
        extensions=response.extensions,
        history=response.history,
        default_encoding=response.default_encoding,
    )
    await seen.aread()  # decoded by httpx2: already measured within max_bytes
    if elapsed is not None:
        response.elapsed = seen.elapsed = elapsed
    return seen


async def _read_raw(stream: httpx2.AsyncByteStream, response: httpx2.Response, max_bytes: int) -> bytes:
    """The body as it came, refused once it passes ``max_bytes`` on the wire or decoded."""
    where = without_credentials(str(response.request.url.copy_with(query=None, fragment=None)))
    try:
        decoder = BodyDecoder(response.headers.get("content-encoding"))
    except ContentEncodingError as exc:
        await stream.aclose()
        raise ProtocolError(f"{where}: {exc}") from None
    chunks: list[bytes] = []
    wire = size = 0
    pieces = stream.__aiter__()
    try:
        async for chunk in pieces:
            wire += len(chunk)
            if not decoder.identity:
                for piece in decoder.decode(chunk):
                    size += len(piece)
                    if size > max_bytes:
                        raise _too_large(where, max_bytes)
            if wire > max_bytes:
                raise _too_large(where, max_bytes)
            chunks.append(chunk)
    except ContentEncodingError as exc:
        raise ProtocolError(f"{where}: {exc}") from None
    finally:
        if isinstance(pieces, AsyncGenerator):
            await pieces.aclose()
        await stream.aclose()
    return b"".join(chunks)


def _too_large(where: str, max_bytes: int) -> ProtocolError:
    return ProtocolError(
        f"{where} sent a body larger than {max_bytes} bytes for the auth flow to read "
        "(it sets requires_response_body); raise Client(max_message_bytes=...) if that is expected"
    )


def _is_event_stream(response: httpx2.Response) -> bool:
    return response.headers.get("content-type", "").partition(";")[0].strip().lower() == "text/event-stream"
