"""``private_key_jwt`` client authentication (RFC 7523 section 2.2, OpenID Connect Core section 9).

Instead of a secret, every token request carries ``client_assertion_type`` =
``urn:ietf:params:oauth:client-assertion-type:jwt-bearer`` and ``client_assertion``: a JWT the
client signs afresh for that request, with ``iss`` = ``sub`` = its ``client_id``, ``aud`` = the
authorization server's issuer identifier (RFC 7523bis), ``iat``, a short ``exp`` and a ``jti`` never
used before, so a captured assertion is useless a minute later and cannot be replayed.

The key is PEM text, a ``Path`` to a PEM file (refused if others can read it), a JWK dict, a
cryptography key object, or an async callable ``sign(claims) -> jwt`` for a key that never leaves an
HSM or a cloud KMS. Signing uses ``_jose`` (the ``oauth-jwt`` extra).
"""

from __future__ import annotations

import inspect
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, cast

from mcp_client._errors import OAuthError
from mcp_client.auth import _jose

__all__ = ["ASSERTION_LIFETIME_SECONDS", "CLIENT_ASSERTION_TYPE", "ClientAssertion", "ClientAssertionSigner"]

CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
ASSERTION_LIFETIME_SECONDS = 60

ClientAssertionSigner = Callable[[dict[str, Any]], Awaitable[str]]
"""``async sign(claims) -> compact JWT``: signs the given claims with a key held elsewhere (HSM, KMS)."""


class ClientAssertion:
    """Makes the ``client_assertion`` of each token request for one client key."""

    def __init__(
        self,
        key: object,
        *,
        algorithm: str | None = None,
        key_id: str | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._signer: ClientAssertionSigner | None = None
        self._key: Any = None
        if callable(key) and not isinstance(key, str | bytes | Mapping):
            self._signer = key  # pyright: ignore[reportAttributeAccessIssue]
        else:
            self._key = _jose.load_private_key(key, feature="private_key_jwt")
            _jose.algorithm_for(self._key, chosen=algorithm)  # a key no algorithm fits fails here
        self._algorithm = algorithm
        self._key_id = key_id
        self.clock = clock

    def __repr__(self) -> str:
        held = "callable signer" if self._signer is not None else type(self._key).__name__
        return f"ClientAssertion({held}, algorithm={self._algorithm!r})"

    def claims(self, client_id: str, audience: str) -> dict[str, Any]:
        now = int(self.clock())
        return {
            "iss": client_id,
            "sub": client_id,
            "aud": audience,
            "iat": now,
            "exp": now + ASSERTION_LIFETIME_SECONDS,
            "jti": secrets.token_urlsafe(24),
        }

    async def make(self, client_id: str, audience: str, allowed: tuple[str, ...] | None = None) -> str:
        """A fresh signed assertion for one token request to the server whose issuer is ``audience``."""
        claims = self.claims(client_id, audience)
        if self._signer is not None:
            try:
                pending = cast(object, self._signer(claims))
                signed = cast(object, await pending if inspect.isawaitable(pending) else pending)
            except OAuthError:
                raise
            except Exception as exc:
                raise OAuthError(f"the client assertion signer failed: {type(exc).__name__}: {exc}") from exc
            if not isinstance(signed, str) or signed.count(".") != 2:
                raise OAuthError(
                    "the client assertion signer must return a compact JWT (three dot-separated parts)"
                )
            return signed
        algorithm = _jose.algorithm_for(self._key, allowed, self._algorithm)
        headers: dict[str, Any] = {"typ": "JWT"}
        if self._key_id:
            headers["kid"] = self._key_id
        return _jose.sign(claims, self._key, algorithm, headers)
