"""Negotiation of the protocol era: plain decisions on the server's replies, and the thin driver.

``mode="auto"`` probes ``server/discover`` at the newest modern version and reads the reply with
``after_probe``; a legacy server's refusal of any kind means "use the handshake". Only a server that
lists modern versions and none we speak aborts the connect. See PROTOCOL.md section 1.4.

The decisions (``after_probe``, ``after_initialize_error``, ``check_legacy_version``) do no I/O and are
tested on captured bytes. ``Negotiator`` carries them out over a ``Wire`` (the session) and returns
the ``Era``; the session calls it again to restart a legacy session the server forgot.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from mcp_client import _eras, _jsonrpc
from mcp_client._errors import (
    MCPConnectionError,
    MCPError,
    MCPTimeoutError,
    ProtocolError,
    UnsupportedProtocolVersionError,
)
from mcp_client._server_description import ServerDescription
from mcp_client._transport import Message, Transport
from mcp_client._versions import LATEST_LEGACY, LATEST_MODERN, LEGACY_VERSIONS, MODERN_VERSIONS

logger = logging.getLogger("mcp_client")


@dataclass(frozen=True)
class Adopt:
    """Speak ``version`` (modern); ``discover`` is the server's DiscoverResult."""

    version: str
    discover: dict[str, Any]


@dataclass(frozen=True)
class ProbeAgain:
    """Probe once more at ``version``, which both sides speak."""

    version: str


@dataclass(frozen=True)
class Fallback:
    """Use the ``initialize`` handshake; ``reason`` says why, for logs and errors."""

    reason: str


Decision = Adopt | ProbeAgain | Fallback


def _supported(data: Any) -> list[str]:
    supported = data.get("supported") if isinstance(data, dict) else None
    if not isinstance(supported, list):
        return []
    return [v for v in supported if isinstance(v, str)]  # pyright: ignore[reportUnknownVariableType]


def _newest_mutual(versions: list[str]) -> str | None:
    return next((v for v in MODERN_VERSIONS if v in versions), None)


def after_probe(reply: dict[str, Any], offered: str) -> Decision:
    """What to do after the ``server/discover`` probe at ``offered`` got ``reply`` (a JSON-RPC response)."""
    error = reply.get("error")
    if isinstance(error, dict):
        if error.get("code") == _jsonrpc.UNSUPPORTED_PROTOCOL_VERSION:
            supported = _supported(error.get("data"))  # pyright: ignore[reportUnknownMemberType]
            mutual = _newest_mutual(supported)
            if mutual is not None:  # even the version we offered: the caller retries once only
                return ProbeAgain(mutual)
            if supported and not any(v in LEGACY_VERSIONS for v in supported):
                raise UnsupportedProtocolVersionError(
                    f"the server speaks only {', '.join(supported)}; this client speaks "
                    f"{', '.join(MODERN_VERSIONS + LEGACY_VERSIONS)}. Upgrade mcp_client or the server.",
                    offered=list(MODERN_VERSIONS),
                    supported=supported,
                )
        message = error.get("message", "")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        return Fallback(f"server/discover failed ({error.get('code')}: {message})")  # pyright: ignore[reportUnknownMemberType]
    result = reply.get("result")
    if not isinstance(result, dict):
        return Fallback("server/discover returned no result")
    versions = result.get("supportedVersions")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    if not isinstance(versions, list):
        return Fallback("server/discover returned no supportedVersions")
    mutual = _newest_mutual([v for v in versions if isinstance(v, str)])  # pyright: ignore[reportUnknownVariableType]
    if mutual is None:
        return Fallback("the server advertises no modern version this client speaks")
    return Adopt(mutual, result)  # pyright: ignore[reportUnknownArgumentType]


def after_initialize_error(error: dict[str, Any]) -> ProbeAgain | None:
    """An ``initialize`` refused with ``-32022`` naming a modern version we speak: probe again once."""
    if error.get("code") != _jsonrpc.UNSUPPORTED_PROTOCOL_VERSION:
        return None
    mutual = _newest_mutual(_supported(error.get("data")))
    return ProbeAgain(mutual) if mutual is not None else None


def check_legacy_version(version: object) -> str:
    """The version an ``initialize`` result names if we speak it, else ``UnsupportedProtocolVersionError``."""
    if isinstance(version, str) and version in LEGACY_VERSIONS:
        return version
    raise UnsupportedProtocolVersionError(
        f"the server answered initialize with protocol version {version!r}, which this client does not "
        f"speak (it speaks {', '.join(LEGACY_VERSIONS)} by handshake)",
        offered=list(LEGACY_VERSIONS),
        supported=[version] if isinstance(version, str) else [],
    )


# ------------------------------------------------------------------------------------------ the driver


class Wire(Protocol):
    """What the driver needs from the session: one request with its own time limit, one notification."""

    async def exchange(
        self, method: str, params: dict[str, Any] | None, headers: Mapping[str, str], limit: float
    ) -> Message | None:
        """Send a request; its reply, or ``None`` if none came within ``limit`` seconds."""
        ...

    async def notify(self, message: Message, headers: Mapping[str, str]) -> None: ...

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

    async def connect(self, mode: str) -> _eras.Era:
        """Settle the era ``mode`` leads to; failures become ``MCPConnectionError`` naming what was tried."""
        try:
            if mode == "legacy":
                era = await self.handshake()
            elif mode == "auto":
                era = await self._auto()
            else:
                era = self.adopt(mode, None)
        except (MCPError, ProtocolError) as exc:
            if isinstance(exc, UnsupportedProtocolVersionError):
                raise
            tried = {"legacy": "the initialize handshake", "auto": "server/discover, then initialize"}.get(
                mode, f"protocol {mode}"
            )
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
        reply = await self._wire.exchange("server/discover", params, headers, limit)
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
        reply = await self._wire.exchange("initialize", params, {}, limit)
        if reply is None:
            raise MCPTimeoutError(f"{self._transport.label} did not answer initialize within {limit:g}s")
        error = reply.get("error")
        if isinstance(error, dict):
            if allow_probe_again and (again := after_initialize_error(error)) is not None:  # pyright: ignore[reportUnknownArgumentType]
                return again
            raise _jsonrpc.error_from(error)  # pyright: ignore[reportUnknownArgumentType]
        result = reply["result"]
        version = check_legacy_version(result.get("protocolVersion"))
        era = _eras.LegacyEra(version)
        self._description.protocol_version = version
        self._description.absorb(result)
        self._wire.use(era)  # server requests may follow at once, before `initialized` is acknowledged
        await self._wire.notify(
            _jsonrpc.notification("notifications/initialized"), era.notification_headers("")
        )
        return era
