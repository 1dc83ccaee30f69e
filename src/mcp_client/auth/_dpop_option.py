"""The ``dpop=`` option of the auth objects: which key binds the next tokens, and the nonces seen.

``dpop=False`` (the default): no proofs, except for tokens stored earlier as DPoP-bound (their key is
stored with them, so they keep working). ``dpop=True``: a fresh ES256 key for each login, stored with
the tokens it binds. ``dpop=<key>``: the application's own key (PEM, ``Path``, JWK dict or key
object), loaded once, here, so a bad key fails when the auth object is made and not mid-request; it
is never written to the token storage.
"""

from __future__ import annotations

from mcp_client._errors import OAuthError
from mcp_client.auth import _jose
from mcp_client.auth._dpop import DPoPKey, DPoPNonces
from mcp_client.auth._records import StoredTokens

__all__ = ["DPoPOption"]


class DPoPOption:
    def __init__(self, dpop: object) -> None:
        self.enabled = dpop is not False and dpop is not None
        if self.enabled:
            _jose.require("DPoP")  # a missing extra fails here, when the option is given
        self.nonces = DPoPNonces()
        self._app_key = DPoPKey(dpop) if self.enabled and dpop is not True else None

    def key_for_login(self) -> DPoPKey | None:
        """The key a new login binds its tokens to, or ``None`` without DPoP."""
        if self._app_key is not None:
            return self._app_key
        return DPoPKey() if self.enabled else None

    def key_for_stored(self, tokens: StoredTokens) -> DPoPKey | None:
        """The key stored tokens are bound to: the one stored with them, else the application's own."""
        if tokens.dpop_jwk is not None:
            return DPoPKey.from_jwk(tokens.dpop_jwk)
        if tokens.token_type == "DPoP":
            return self._app_key
        return self._app_key if self.enabled else None

    @staticmethod
    def bind(tokens: StoredTokens, key: DPoPKey | None) -> StoredTokens:
        """``tokens`` with the key they are bound to, when this client made that key."""
        if tokens.token_type == "DPoP" and key is None:
            raise OAuthError(
                f"the token endpoint {tokens.token_endpoint} issued a DPoP-bound token, but this client "
                "sent no DPoP proof (RFC 9449 section 5 forbids that); refusing a token it cannot use"
            )
        if tokens.token_type == "DPoP" and key is not None and key.generated:
            return tokens.with_changes(dpop_jwk=key.private_jwk())
        return tokens.with_changes(dpop_jwk=None) if tokens.dpop_jwk is not None else tokens
