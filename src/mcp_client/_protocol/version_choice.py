"""Which protocol version to speak, decided from the server's replies alone (no I/O).

``mode="auto"`` probes ``server/discover`` at the newest modern version; ``after_probe`` reads the reply: a
legacy server's refusal of any kind means "use the handshake", and only a server that lists modern versions
and none we speak aborts the connect (the 2026-07-28 spec, "Lifecycle: version negotiation").
``after_initialize_error`` and ``check_legacy_version`` read the handshake's reply. The same reading serves a
modern session that the server asks to change version (``-32022``, read by ``ModernEra.recovery``). These
decisions are tested on captured bytes; ``_protocol.negotiation`` carries them out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcp_client._errors import UnsupportedProtocolVersionError
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._protocol.versions import LEGACY_VERSIONS, MODERN_VERSIONS


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


def supported_versions(data: Any) -> list[str]:
    """The versions a ``-32022`` error's ``data.supported`` lists (strings only)."""
    supported = data.get("supported") if isinstance(data, dict) else None
    if not isinstance(supported, list):
        return []
    return [v for v in supported if isinstance(v, str)]


def newest_mutual(versions: list[str]) -> str | None:
    """The newest modern version both sides speak, if any."""
    return next((v for v in MODERN_VERSIONS if v in versions), None)


def no_version_in_common(supported: list[str]) -> UnsupportedProtocolVersionError | None:
    """The error for a server that lists versions, none of them ours, and no handshake version either."""
    if supported and not any(v in LEGACY_VERSIONS for v in supported):
        return UnsupportedProtocolVersionError(
            f"the server speaks only {', '.join(supported)}; this client speaks "
            f"{', '.join(MODERN_VERSIONS + LEGACY_VERSIONS)}. Upgrade mcp_client or the server.",
            offered=list(MODERN_VERSIONS),
            supported=supported,
        )
    return None


def after_probe(reply: dict[str, Any], offered: str) -> Decision:
    """What to do after the ``server/discover`` probe at ``offered`` got ``reply`` (a JSON-RPC response)."""
    error = reply.get("error")
    if isinstance(error, dict):
        if error.get("code") == _jsonrpc.UNSUPPORTED_PROTOCOL_VERSION:
            supported = supported_versions(error.get("data"))
            mutual = newest_mutual(supported)
            if mutual is not None:  # even the version we offered: the caller retries once only
                return ProbeAgain(mutual)
            unsupported = no_version_in_common(supported)
            if unsupported is not None:
                raise unsupported
        message = error.get("message", "")
        return Fallback(f"server/discover failed ({error.get('code')}: {message})")
    result = reply.get("result")
    if not isinstance(result, dict):
        return Fallback("server/discover returned no result")
    versions = result.get("supportedVersions")
    if not isinstance(versions, list):
        return Fallback("server/discover returned no supportedVersions")
    mutual = newest_mutual([v for v in versions if isinstance(v, str)])
    if mutual is None:
        return Fallback("the server advertises no modern version this client speaks")
    return Adopt(mutual, result)


def prior_discover(discover: object) -> Adopt:
    """The era a stored ``server/discover`` result settles, with no traffic (``Client(prior_discover=...)``).

    ``discover`` is the result as a dict, or a pydantic model of it (ours or the official SDK's). Raises
    ``ValueError`` for one that is not a discover result or shares no modern version with this client.
    """
    if hasattr(discover, "model_dump"):
        discover = discover.model_dump(by_alias=True, mode="json", exclude_none=True)  # type: ignore[union-attr]
    if not isinstance(discover, dict):
        raise ValueError(
            f"prior_discover must be a server/discover result (a dict); got {type(discover).__name__}"
        )
    versions = discover.get("supportedVersions")
    if not isinstance(versions, list):
        raise ValueError("prior_discover has no supportedVersions list: is it a server/discover result?")
    mutual = newest_mutual([v for v in versions if isinstance(v, str)])
    if mutual is None:
        raise ValueError(
            f"prior_discover lists {', '.join(map(str, versions)) or 'no versions'}; this client speaks "
            f"{', '.join(MODERN_VERSIONS)} for a stored discover result (use mode='legacy' without it)"
        )
    return Adopt(mutual, dict(discover))


def after_initialize_error(error: dict[str, Any]) -> ProbeAgain | None:
    """An ``initialize`` refused with ``-32022`` naming a modern version we speak: probe again once."""
    if error.get("code") != _jsonrpc.UNSUPPORTED_PROTOCOL_VERSION:
        return None
    mutual = newest_mutual(supported_versions(error.get("data")))
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
