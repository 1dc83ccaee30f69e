"""A URL that may serve either HTTP transport: streamable HTTP first, the older HTTP+SSE on refusal.

The spec's backwards-compatibility rule (2025-03-26 "Transports", backwards compatibility): a client
that wants to reach both kinds of server POSTs its ``initialize`` to the URL; when that is refused with
HTTP 400, 404 or 405, it sends a ``GET`` to the same URL, and if an event stream opens whose first event
is ``endpoint``, the server speaks the older transport, used from then on. Only ``initialize`` (the
handshake era's first message) triggers it: a 2026-07-28 ``server/discover`` probe refused by a server
of the handshake era is expected, and the probe's own fallback sends ``initialize`` next.

When neither works, the error the caller sees says what was tried: the POST's status and why the
event stream was not an HTTP+SSE one.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from mcp_client._connection.http_auth import HttpAuth
from mcp_client._connection.http_options import HttpOptions
from mcp_client._connection.shown_url import without_credentials
from mcp_client._connection.transport import (
    DEFAULT_MAX_MESSAGE_BYTES,
    Message,
    ServerMessageSink,
    Spawn,
    Transport,
)
from mcp_client._errors import MCPConnectionError, ProtocolError
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._transports.delegating import DelegatingTransport
from mcp_client._transports.http import StreamableHTTPTransport
from mcp_client._transports.http_sse import SSETransport

__all__ = ["HttpTransportWithFallback"]

logger = logging.getLogger("mcp_client.http")

_FALLBACK_STATUSES = frozenset({400, 404, 405})


class HttpTransportWithFallback(DelegatingTransport):
    """Streamable HTTP at ``url``, switching to HTTP+SSE when the server refuses ``initialize`` there.

    ``kind`` says which transport is in use (``"http"`` or ``"sse"``).
    """

    def __init__(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        auth: HttpAuth | None = None,
        timeout: float | None = 30.0,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        http_options: HttpOptions | None = None,
    ) -> None:
        self.url = url
        self._shown = without_credentials(url)  # what names the server: never its password
        self._options: dict[str, Any] = {
            "headers": headers,
            "auth": auth,
            "timeout": timeout,
            "max_message_bytes": max_message_bytes,
            "http_options": http_options,
        }
        self._http = StreamableHTTPTransport(url, **self._options)
        self._carrier: Transport = self._http
        self._spawn: Spawn | None = None
        self._on_message: ServerMessageSink | None = None
        self._tried_sse = False
        self._sse_failure = ""

    @property
    def kind(self) -> str:
        return self._carrier.kind

    @property
    def label(self) -> str:
        return self._shown

    async def open(self, spawn: Spawn, on_message: ServerMessageSink) -> None:
        self._spawn, self._on_message = spawn, on_message
        await self._http.open(spawn, on_message)

    async def request(
        self,
        message: Message,
        headers: Mapping[str, str],
        *,
        resumable: bool = True,
        protocol_version: str | None = None,
    ) -> Message:
        reply = await self._carrier.request(
            message, headers, resumable=resumable, protocol_version=protocol_version
        )
        status = self._http.initialize_refused_with
        if (
            self._carrier is self._http
            and not self._tried_sse
            and message.get("method") == "initialize"
            and "error" in reply
            and status in _FALLBACK_STATUSES
        ):
            self._tried_sse = True
            sse = await self._open_sse(status)
            if sse is None:
                return _explained(reply, status, self._sse_failure)
            return await sse.request(message, headers, protocol_version=protocol_version)
        return reply

    async def aclose(self) -> None:
        await self._carrier.aclose()

    async def _open_sse(self, status: int | None) -> SSETransport | None:
        assert self._spawn is not None and self._on_message is not None
        sse = SSETransport(self.url, **self._options)
        try:
            await sse.open(self._spawn, self._on_message)
        except (MCPConnectionError, ProtocolError) as exc:
            self._sse_failure = str(exc)
            await sse.aclose()
            return None
        logger.debug(
            "%s refused initialize with HTTP %s and serves the older HTTP+SSE transport: using it",
            self._shown,
            status,
        )
        await self._http.aclose()
        self._carrier = sse
        return sse


def _explained(reply: Message, status: int | None, sse_failure: str) -> Message:
    """The refusal, saying both transports were tried."""
    error = reply.get("error")
    if not isinstance(error, dict):
        return reply
    text = (
        f"{error.get('message', '')} (tried streamable HTTP: HTTP {status}; then the older HTTP+SSE "
        f"transport: {sse_failure})"
    )
    return _jsonrpc.error_response(reply.get("id"), error.get("code", _jsonrpc.INTERNAL_ERROR), text)  # type: ignore[arg-type]
