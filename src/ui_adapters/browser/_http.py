"""Just enough HTTP/1.1 to serve one form to one local browser: read a request, write a response.

The page server only ever talks to a browser on the same machine, for one question, so it needs very
little: one request per connection (every response says ``Connection: close``), bodies sized by
``Content-Length`` (no chunked uploads), and hard limits on everything it reads. Anything outside that
is a ``BadRequest`` answered with a 400, never an exception that escapes. No application logic here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from http import HTTPStatus

import anyio
from anyio.abc import ByteStream
from anyio.streams.buffered import BufferedByteReceiveStream

__all__ = ["MAX_BODY", "MAX_HEAD", "BadRequest", "Request", "read_request", "response_head"]

MAX_HEAD = 16 * 1024
"""Request line and headers, in bytes."""
MAX_BODY = 256 * 1024
"""A form post, in bytes: far more than any elicitation form needs."""


class BadRequest(Exception):
    """The bytes are not a request this server accepts; the message says why (sent to the browser)."""

    def __init__(self, message: str, status: HTTPStatus = HTTPStatus.BAD_REQUEST) -> None:
        super().__init__(message)
        self.status = status


@dataclass(slots=True)
class Request:
    """A parsed request. Header names are lower case; a header sent twice is refused while parsing."""

    method: str
    path: str
    query: str
    headers: dict[str, str] = field(default_factory=dict[str, str])
    body: bytes = b""


async def read_request(reader: BufferedByteReceiveStream, *, max_body: int = MAX_BODY) -> Request:
    """Read one request from ``reader``; ``BadRequest`` for anything malformed or too large (a body over
    ``max_body`` bytes among them).

    ``anyio.IncompleteRead`` / ``anyio.EndOfStream`` mean the browser went away mid-request.
    """
    try:
        head = await reader.receive_until(b"\r\n\r\n", MAX_HEAD)
    except anyio.DelimiterNotFound:
        head = b""
    if not head or len(head) > MAX_HEAD:  # one read may bring more than the limit asked for
        raise BadRequest("request head too large", HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
    try:
        text = head.decode("ascii")
    except UnicodeDecodeError:
        raise BadRequest("request head is not ASCII") from None
    request_line, *header_lines = text.split("\r\n")
    parts = request_line.split(" ")
    if len(parts) != 3 or parts[2] not in ("HTTP/1.1", "HTTP/1.0"):
        raise BadRequest("malformed request line")
    method, target, _version = parts
    if not target.startswith("/"):
        raise BadRequest("only origin-form request targets are served")
    path, _, query = target.partition("?")
    headers: dict[str, str] = {}
    for line in header_lines:
        name, colon, value = line.partition(":")
        if not colon or not name or name != name.strip() or line[0] in " \t":
            raise BadRequest("malformed header line")
        name = name.lower()
        if name in headers:
            raise BadRequest(f"header {name!r} sent twice")
        headers[name] = value.strip(" \t")
    if "transfer-encoding" in headers:
        raise BadRequest("chunked request bodies are not accepted", HTTPStatus.LENGTH_REQUIRED)
    length_text = headers.get("content-length", "0")
    if not length_text.isascii() or not length_text.isdigit():
        raise BadRequest("malformed Content-Length")
    length = int(length_text)
    if length > max_body:
        raise BadRequest("request body too large", HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
    body = await reader.receive_exactly(length) if length else b""
    return Request(method=method, path=path, query=query, headers=headers, body=body)


def response_head(status: HTTPStatus, headers: dict[str, str], *, length: int | None) -> bytes:
    """The status line and headers of a response; ``length=None`` for a stream that ends by closing."""
    lines = [f"HTTP/1.1 {status.value} {status.phrase}"]
    lines.extend(f"{name}: {value}" for name, value in headers.items())
    if length is not None:
        lines.append(f"Content-Length: {length}")
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def send_response(stream: ByteStream, status: HTTPStatus, headers: dict[str, str], body: bytes) -> None:
    """Write a whole response (head and body) in one go."""
    await stream.send(response_head(status, headers, length=len(body)) + body)
