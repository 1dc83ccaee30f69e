"""The thin driver of era negotiation: runs the handshake, the probe or the adoption ``mode`` asks for.

The decisions it carries out (``after_probe``, ``after_initialize_error``, ``check_legacy_version``)
live in ``_protocol.version_choice`` and do no I/O. ``Negotiator`` sends over a ``Wire`` (the session's one
request path) and returns the ``Era``; the session calls it again to restart a legacy session the
server forgot.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Protocol

from mcp_client._connection.transport import Message, Transport
from mcp_client._errors import (
    MCPConnectionError,
    MCPError,
    MCPTimeoutError,
    ProtocolError,
    UnsupportedProtocolVersionError,
)
from mcp_client._protocol import eras as _eras
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._protocol.server_description import ServerDescription
from mcp_client._protocol.version_choice import (
    Adopt,
    Decision,
    Fallback,
    ProbeAgain,
    after_initialize_error,
    after_probe,
    check_legacy_version,
)
from mcp_client._protocol.versions import LATEST_LEGACY, LATEST_MODERN, MODE_AUTO, MODE_LEGACY

logger = logging.getLogger("mcp_client")


# ------------------------------------------------------------------------------------------ the driver


class Wire(Protocol):
    """What the driver needs from the session: its request path, one notification, the era to use."""

    async def roundtrip(
        self,
        method: str,
        params: dict[str, Any] | None,
        headers: Mapping[str, str],
        *,
        grace: float = 0.0,
        resumable: bool = True,
        protocol_version: str | None = None,
    ) -> Message | None:
        """Send a request; its reply, or ``None`` if none came in time (at least ``grace`` seconds)."""
        ...

    async def notify(
        self, message: Message, headers: Mapping[str, str], *, protocol_version: str | None = None
    ) -> None: ...

    def use(self, era: _eras.Era) -> None:
        """Speak ``era`` from now on (called as soon as it is settled, before any notification)."""
        ...


class Negotiator:
    """Runs the handshake, the probe or the adoption that ``mode`` asks for, and returns the ``Era``.

    What the server says about itself goes into ``description``.
    """

    def __init__(
        self,
        wire: Wire,
        transport: Transport,
        description: ServerDescription,
        capabilities: Mapping[str, Any],
        client_info: Mapping[str, Any],
        timeout: float,
    ) -> None:
        self._wire = wire
        self._transport = transport
        self._description = description
        self._capabilities = dict(capabilities)
        self._client_info = dict(client_info)
        self.connect_timeout = max(timeout, transport.startup_grace)
        """The first answer of a subprocess may wait for its cold start."""

    async def connect(self, mode: str, prior: Adopt | None = None) -> _eras.Era:
        """Settle the era ``mode`` leads to; failures become ``MCPConnectionError`` naming what was tried.

        ``prior`` (a stored ``server/discover`` result, read by ``_version_choice.prior_discover``) is
        adopted with no traffic: its capabilities and server info are known at once.
        """
        if prior is not None:
            return self.adopt(prior.version, prior.discover)
        try:
            if mode == MODE_LEGACY:
                era = await self.handshake()
            elif mode == MODE_AUTO:
                era = await self._auto()
            else:
                era = self.adopt(mode, None)
        except (MCPError, ProtocolError) as exc:
            if isinstance(exc, UnsupportedProtocolVersionError):
                raise
            tried = {
                MODE_LEGACY: "the initialize handshake",
                MODE_AUTO: "server/discover, then initialize",
            }.get(mode, f"protocol {mode}")
            raise MCPConnectionError(
                f"could not connect to {self._transport.label} (tried {tried}): {exc}"
            ) from exc
        assert isinstance(era, _eras.LegacyEra | _eras.ModernEra)
        return era

    def adopt(self, version: str, discover: dict[str, Any] | None) -> _eras.ModernEra:
        """Speak modern ``version`` from now on (no traffic)."""
        self._description.protocol_version = version
        if discover is not None:
            self._description.absorb(discover)
            self._description.discover = discover
        era = _eras.ModernEra(version, self._capabilities, self._client_info)
        self._wire.use(era)
        return era

    async def _auto(self) -> _eras.Era:
        version = LATEST_MODERN
        probed_again = False
        while True:
            decision = await self._probe(version)
            if isinstance(decision, Adopt):
                return self.adopt(decision.version, decision.discover)
            if isinstance(decision, ProbeAgain) and not probed_again:
                version, probed_again = decision.version, True
                continue
            reason = decision.reason if isinstance(decision, Fallback) else "no mutual version"
            logger.debug("%s: falling back to the initialize handshake: %s", self._transport.label, reason)
            outcome = await self._initialize(allow_probe_again=not probed_again)
            if not isinstance(outcome, ProbeAgain):
                return outcome
            version, probed_again = outcome.version, True

    async def _probe(self, version: str) -> Decision:
        era = _eras.ModernEra(version, self._capabilities, self._client_info)
        params, headers = era.prepare("server/discover", None)
        limit = self.connect_timeout
        reply = await self._wire.roundtrip(
            "server/discover",
            params,
            headers,
            grace=limit,
            resumable=era.resumes_streams,
            protocol_version=era.protocol_version,
        )
        if reply is None:
            if not self._transport.may_ignore_unknown_requests:
                raise MCPTimeoutError(
                    f"{self._transport.label} did not answer server/discover within {limit:g}s"
                )
            return Fallback("server/discover got no answer (a legacy stdio server stays silent)")
        return after_probe(reply, version)

    async def handshake(self) -> _eras.LegacyEra:
        """Run ``initialize`` (a new legacy session) and return the legacy era."""
        outcome = await self._initialize(allow_probe_again=False)
        assert isinstance(outcome, _eras.LegacyEra)
        return outcome

    async def _initialize(self, *, allow_probe_again: bool) -> _eras.LegacyEra | ProbeAgain:
        params = {
            "protocolVersion": LATEST_LEGACY,
            "capabilities": self._capabilities,
            "clientInfo": self._client_info,
        }
        limit = self.connect_timeout
        reply = await self._wire.roundtrip("initialize", params, {}, grace=limit)
        if reply is None:
            raise MCPTimeoutError(f"{self._transport.label} did not answer initialize within {limit:g}s")
        error = reply.get("error")
        if isinstance(error, dict):
            if allow_probe_again and (again := after_initialize_error(error)) is not None:
                return again
            raise _jsonrpc.error_from(error)
        result = reply["result"]
        version = check_legacy_version(result.get("protocolVersion"))
        era = _eras.LegacyEra(version)
        self._description.protocol_version = version
        self._description.absorb(result)
        self._wire.use(era)  # server requests may follow at once, before `initialized` is acknowledged
        await self._wire.notify(
            _jsonrpc.notification("notifications/initialized"),
            era.notification_headers("notifications/initialized"),
        )
        return era
