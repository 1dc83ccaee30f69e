"""DPoP (RFC 9449): proofs that the client holding a token also holds the key the token is bound to.

A proof is a JWT signed with the client's key, its public half in the ``jwk`` header, naming the
request it goes with: ``htm`` (method), ``htu`` (URL without query or fragment), ``iat``, a ``jti``
never used before, the server's ``nonce`` when it asked for one, and ``ath`` (the token's SHA-256)
on requests to the MCP server. One proof per request, never reused.

Nonces (RFC 9449 sections 8 and 9): a server that wants one answers ``use_dpop_nonce`` with a
``DPoP-Nonce`` header (the token endpoint with a 400 and that ``error``; the MCP server with a 401
``DPoP error="use_dpop_nonce"`` challenge). The request is retried once with a new proof carrying
it; a second ``use_dpop_nonce`` for the same request is an ``OAuthError``, not a loop. Nonces are
remembered per origin and replaced by any newer ``DPoP-Nonce`` a response brings.

Signing goes through ``_jose`` (the ``oauth-jwt`` extra), imported when a key is first made.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx2

from mcp_client._errors import OAuthError
from mcp_client.auth import _jose
from mcp_client.auth._challenge import parse_challenges
from mcp_client.auth._records import StoredTokens
from mcp_client.auth._wire import MAX_DOCUMENT_BYTES, HttpResponse

__all__ = [
    "DPoPKey",
    "DPoPNonces",
    "ResourceNonceRetry",
    "htu",
    "is_resource_nonce_challenge",
    "is_token_nonce_error",
    "present_token",
]

NONCE_ERROR = "use_dpop_nonce"
_MAX_NONCE = 1024


def htu(url: str) -> str:
    """The ``htu`` of a request: its URL without query and fragment (RFC 9449 section 4.2)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


class DPoPKey:
    """One DPoP key pair and the proofs it signs.

    ``key``: ``True`` for a fresh P-256 key (ES256), or the application's own key (PEM, ``Path``, JWK
    dict or a cryptography private key). ``generated`` tells whether this object made the key (a
    made key is stored with the tokens it binds; an application's own key is the application's).
    """

    def __init__(self, key: object = True, *, clock: Callable[[], float] = time.time) -> None:
        self.generated = key is True
        self._key: Any = (
            _jose.generate_dpop_key() if key is True else _jose.load_private_key(key, feature="DPoP")
        )
        self.algorithm = _jose.algorithm_for(self._key)
        self._jwk = _jose.public_jwk(self._key)
        self.clock = clock

    @classmethod
    def from_jwk(cls, jwk: Mapping[str, Any]) -> DPoPKey:
        """The key stored with a DPoP-bound token (``StoredTokens.dpop_jwk``)."""
        made = cls(_jose.key_from_jwk(jwk))
        made.generated = True
        return made

    def __repr__(self) -> str:
        return f"DPoPKey(algorithm={self.algorithm!r}, kty={self._jwk.get('kty')!r})"

    def private_jwk(self) -> dict[str, Any]:
        return _jose.private_jwk(self._key)

    @property
    def public_jwk(self) -> dict[str, Any]:
        return dict(self._jwk)

    def proof(
        self, method: str, url: str, *, access_token: str | None = None, nonce: str | None = None
    ) -> str:
        """A fresh proof for one request (``access_token`` given: a request to the resource, with ``ath``)."""
        claims: dict[str, Any] = {
            "jti": secrets.token_urlsafe(24),
            "htm": method.upper(),
            "htu": htu(url),
            "iat": int(self.clock()),
        }
        if nonce:
            claims["nonce"] = nonce
        if access_token is not None:
            digest = hashlib.sha256(access_token.encode("ascii", errors="replace")).digest()
            claims["ath"] = base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
        headers = {"typ": "dpop+jwt", "jwk": self._jwk}
        return _jose.sign(claims, self._key, self.algorithm, headers)


class DPoPNonces:
    """The last ``DPoP-Nonce`` each origin (authorization server, MCP server) sent."""

    def __init__(self) -> None:
        self._nonces: dict[str, str] = {}

    def get(self, url: str) -> str | None:
        return self._nonces.get(_origin(url))

    def remember(self, url: str, headers: Mapping[str, str]) -> bool:
        """Keep the nonce a response from ``url`` carries; True if it brought one."""
        nonce = headers.get("dpop-nonce")
        if not nonce or len(nonce) > _MAX_NONCE or not nonce.isascii() or not nonce.isprintable():
            return False
        self._nonces[_origin(url)] = nonce
        return True


def is_token_nonce_error(response: HttpResponse) -> bool:
    """The token endpoint asks for a nonce: a 400 with ``error=use_dpop_nonce`` (RFC 9449 section 8)."""
    if response.status != 400:
        return False
    try:
        document = json.loads(response.body[:MAX_DOCUMENT_BYTES])
    except (ValueError, RecursionError):
        return False
    return isinstance(document, dict) and document.get("error") == NONCE_ERROR  # pyright: ignore[reportUnknownMemberType]


def is_resource_nonce_challenge(status: int, www_authenticate: tuple[str, ...]) -> bool:
    """The MCP server asks for a nonce: a 401 ``DPoP error="use_dpop_nonce"`` (RFC 9449 section 9)."""
    if status != 401:
        return False
    return any(
        challenge.scheme == "dpop" and challenge.error == NONCE_ERROR
        for challenge in parse_challenges(www_authenticate)
    )


def nonce_loop_error(where: str) -> OAuthError:
    return OAuthError(
        f"{where} asked for a new DPoP nonce again after the retry with the nonce it sent "
        f"({NONCE_ERROR} twice in a row); giving up rather than retrying in a loop"
    )


def present_token(
    request: httpx2.Request, tokens: StoredTokens, key: DPoPKey | None, nonces: DPoPNonces
) -> bool:
    """Put the access token on a request to the MCP server: ``Authorization: DPoP`` with a fresh proof
    for a DPoP-bound token (True), ``Authorization: Bearer`` otherwise (False)."""
    if tokens.token_type == "DPoP":
        if key is None:
            raise OAuthError(
                f"the token for {tokens.resource or request.url} is DPoP-bound, and the key it is bound to "
                "is not available (pass the same dpop= key, or log in again)"
            )
        url = str(request.url)
        request.headers["Authorization"] = f"DPoP {tokens.access_token}"
        request.headers["DPoP"] = key.proof(
            request.method, url, access_token=tokens.access_token, nonce=nonces.get(url)
        )
        return True
    request.headers["Authorization"] = f"Bearer {tokens.access_token}"
    request.headers.pop("DPoP", None)
    return False


class ResourceNonceRetry:
    """The one nonce retry a request to the MCP server may make (RFC 9449 section 9)."""

    def __init__(self, nonces: DPoPNonces) -> None:
        self._nonces = nonces
        self._retried = False

    def should_retry(self, response: httpx2.Response, sent_proof: bool) -> bool:
        """Remember the response's nonce; True if the request must be sent again with it."""
        url = str(response.url)
        got = self._nonces.remember(url, response.headers)
        challenges = tuple(response.headers.get_list("www-authenticate"))
        if not sent_proof or not is_resource_nonce_challenge(response.status_code, challenges):
            return False
        if not got:
            raise OAuthError(f"{url} asked for a DPoP nonce (use_dpop_nonce) but sent no DPoP-Nonce header")
        if self._retried:
            raise nonce_loop_error(url)
        self._retried = True
        return True
