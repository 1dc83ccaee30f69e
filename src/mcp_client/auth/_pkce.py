"""PKCE (RFC 7636, method S256) and the ``state`` value of one authorization request. No I/O.

The verifier and the state are secrets of one login: their ``repr`` hides them, and nothing logs them.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class AuthorizationSecrets:
    """The PKCE verifier and challenge, and the ``state``, made fresh for each authorization request."""

    verifier: str = field(repr=False)
    challenge: str
    state: str = field(repr=False)

    @classmethod
    def new(cls) -> AuthorizationSecrets:
        verifier = secrets.token_urlsafe(64)  # 86 characters from the unreserved set (43..128 allowed)
        return cls(verifier=verifier, challenge=s256(verifier), state=secrets.token_urlsafe(32))

    def state_matches(self, returned: str | None) -> bool:
        """Constant-time comparison of the ``state`` that came back with ours."""
        if returned is None:
            return False
        return secrets.compare_digest(returned.encode("utf-8", "surrogatepass"), self.state.encode())


def s256(verifier: str) -> str:
    """``BASE64URL(SHA256(verifier))`` without padding."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
