"""A transport that carries its messages over another one, and says what that one says.

``HttpTransportWithFallback`` (streamable HTTP, or HTTP+SSE after a refusal) and
``InProcessTransport`` (streamable HTTP over an in-process ASGI bridge) add their own opening and
closing around an inner transport; whether abandoning a request cancels it, the session id, and the
messages themselves are the inner transport's. Written once here so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping

from mcp_client._connection.transport import Message, Transport

__all__ = ["DelegatingTransport"]


class DelegatingTransport(Transport):
    """Forwards ``request``, ``send`` and the wire's properties to ``_carrier`` (set by the subclass;
    it may change, as when the fallback switches to HTTP+SSE). Both carriers are HTTP: headers are sent."""

    _carrier: Transport

    @property
    def cancels_by_closing(self) -> bool:
        return self._carrier.cancels_by_closing

    @property
    def sends_headers(self) -> bool:
        return True

    @property
    def session_id(self) -> str | None:
        return self._carrier.session_id

    async def request(
        self,
        message: Message,
        headers: Mapping[str, str],
        *,
        resumable: bool = True,
        protocol_version: str | None = None,
    ) -> Message:
        return await self._carrier.request(
            message, headers, resumable=resumable, protocol_version=protocol_version
        )

    async def send(
        self, message: Message, headers: Mapping[str, str], *, protocol_version: str | None = None
    ) -> None:
        await self._carrier.send(message, headers, protocol_version=protocol_version)
