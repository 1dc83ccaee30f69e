"""What a login leaves behind: the tokens, and the client registration they were obtained with.

Both are frozen values that storage keeps (``to_dict`` / ``from_dict``, plain JSON types). Their
``repr`` never shows a token or a secret, so they are safe in logs, tracebacks and debuggers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Self

__all__ = ["ClientRegistration", "Revocation", "StoredTokens"]


@dataclass(frozen=True, slots=True)
class StoredTokens:
    """Tokens for one MCP server, with what is needed to refresh them after a restart.

    ``expires_at`` is the absolute expiry (seconds since the epoch), so stored tokens stay meaningful
    across restarts; ``None`` when the server gave no lifetime. ``issuer`` is the authorization server
    that issued them and ``client_id`` the client they were issued to (``client_auth_method`` is how that
    client authenticates token requests); ``token_endpoint`` and ``revocation_endpoint`` come from that
    server's metadata; ``resource`` is the RFC 8707 resource they were requested for.
    """

    access_token: str = field(repr=False)
    token_type: str = "Bearer"
    refresh_token: str | None = field(default=None, repr=False)
    scope: str | None = None
    expires_at: float | None = None
    issuer: str | None = None
    client_id: str | None = None
    client_auth_method: str | None = None
    resource: str | None = None
    token_endpoint: str | None = None
    revocation_endpoint: str | None = None
    dpop_jwk: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)
    """For a ``DPoP`` token made with a key this client generated: that private key (a JWK), kept with
    the token it binds so a restart can still use and refresh it."""

    def expires_within(self, seconds: float, now: float) -> bool:
        """True if the access token has expired, or will within ``seconds`` of ``now``."""
        return self.expires_at is not None and now + seconds >= self.expires_at

    @property
    def can_refresh(self) -> bool:
        return bool(self.refresh_token and self.token_endpoint)

    def with_changes(self, **changes: Any) -> StoredTokens:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "access_token": self.access_token,
            "token_type": self.token_type,
            "refresh_token": self.refresh_token,
            "scope": self.scope,
            "expires_at": self.expires_at,
            "issuer": self.issuer,
            "client_id": self.client_id,
            "client_auth_method": self.client_auth_method,
            "resource": self.resource,
            "token_endpoint": self.token_endpoint,
            "revocation_endpoint": self.revocation_endpoint,
        }
        if self.dpop_jwk is not None:
            record["dpop_jwk"] = dict(self.dpop_jwk)
        return record

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild from ``to_dict`` output; ``ValueError`` if it does not hold a usable record."""
        dpop_jwk = data.get("dpop_jwk")
        if dpop_jwk is not None and not isinstance(dpop_jwk, Mapping):
            raise ValueError("stored tokens with a DPoP key that is not a JWK object")
        access_token = data.get("access_token")
        if not isinstance(access_token, str) or not access_token:
            raise ValueError("stored tokens without an access token")
        expires_at = data.get("expires_at")
        if expires_at is not None and (
            not isinstance(expires_at, int | float)
            or isinstance(expires_at, bool)
            or not math.isfinite(expires_at)
        ):
            raise ValueError("stored tokens with an invalid expiry")
        return cls(
            access_token=access_token,
            token_type=_optional_str(data, "token_type") or "Bearer",
            refresh_token=_optional_str(data, "refresh_token"),
            scope=_optional_str(data, "scope"),
            expires_at=float(expires_at) if expires_at is not None else None,
            issuer=_optional_str(data, "issuer"),
            client_id=_optional_str(data, "client_id"),
            client_auth_method=_optional_str(data, "client_auth_method"),
            resource=_optional_str(data, "resource"),
            token_endpoint=_optional_str(data, "token_endpoint"),
            revocation_endpoint=_optional_str(data, "revocation_endpoint"),
            dpop_jwk=dict(dpop_jwk) if dpop_jwk is not None else None,  # pyright: ignore[reportUnknownArgumentType]
        )


@dataclass(frozen=True, slots=True)
class ClientRegistration:
    """The client's identity at one authorization server (``issuer``).

    ``token_endpoint_auth_method`` is how token requests authenticate: ``"none"`` (a public client),
    ``"client_secret_basic"`` or ``"client_secret_post"``. ``redirect_uri`` is the one registered.
    ``client_secret_expires_at`` (epoch seconds, ``None`` or 0 for never) tells when to register again.
    """

    client_id: str
    client_secret: str | None = field(default=None, repr=False)
    token_endpoint_auth_method: str = "none"
    redirect_uri: str | None = None
    issuer: str | None = None
    client_secret_expires_at: float | None = None

    def secret_expired(self, now: float) -> bool:
        expires = self.client_secret_expires_at
        return bool(self.client_secret and expires and now >= expires)

    def to_dict(self) -> dict[str, Any]:
        return {
            "client_id": self.client_id,
            "client_secret": self.client_secret,
            "token_endpoint_auth_method": self.token_endpoint_auth_method,
            "redirect_uri": self.redirect_uri,
            "issuer": self.issuer,
            "client_secret_expires_at": self.client_secret_expires_at,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild from ``to_dict`` output; ``ValueError`` if it does not hold a usable record."""
        client_id = data.get("client_id")
        if not isinstance(client_id, str) or not client_id:
            raise ValueError("a stored client registration without a client_id")
        expires = data.get("client_secret_expires_at")
        if expires is not None and (not isinstance(expires, int | float) or isinstance(expires, bool)):
            raise ValueError("a stored client registration with an invalid secret expiry")
        return cls(
            client_id=client_id,
            client_secret=_optional_str(data, "client_secret"),
            token_endpoint_auth_method=_optional_str(data, "token_endpoint_auth_method") or "none",
            redirect_uri=_optional_str(data, "redirect_uri"),
            issuer=_optional_str(data, "issuer"),
            client_secret_expires_at=float(expires) if expires is not None else None,
        )


def _optional_str(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"stored field {key!r} is not a string")
    return value


@dataclass(frozen=True, slots=True)
class Revocation:
    """What the authorization server answered when asked to revoke one server's tokens (RFC 7009).

    ``revoked`` names the tokens it revoked (``"refresh token"``, ``"access token"``); ``refused`` pairs
    each token it refused with its error code (``unsupported_token_type``, ``invalid_client``...) or
    ``"HTTP <status>"``; ``not_tried`` says why nothing was sent (no saved login, no revocation endpoint,
    the server could not be reached). ``expires_at`` is when the access token stops working by itself.
    A token that was not revoked stays valid until it expires, even after ``logout`` forgets it here.
    """

    revoked: tuple[str, ...] = ()
    refused: tuple[tuple[str, str], ...] = ()
    not_tried: str | None = None
    expires_at: float | None = None

    @property
    def complete(self) -> bool:
        """True when every token was revoked."""
        return bool(self.revoked) and not self.refused and self.not_tried is None
