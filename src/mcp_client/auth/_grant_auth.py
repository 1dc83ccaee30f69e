"""What the grants without a person (``ClientCredentials``, ``JWTBearer``) share as ``httpx2.Auth``.

Both keep tokens per MCP server in memory, replace a token close to expiry before the request, present
it (Bearer or DPoP-bound) only to the origin it was issued for, answer a DPoP nonce challenge once, and
on a 401 ask the token endpoint once and retry. Only how a token is fetched differs: a subclass
implements ``_fetch_token``.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, Callable, Generator

import httpx2

from mcp_client._connection.http_options import DEFAULT_HTTP_OPTIONS, HttpOptions
from mcp_client._errors import OAuthError
from mcp_client.auth import _urls
from mcp_client.auth._challenge import Challenge, bearer_challenge
from mcp_client.auth._discovery import Discovery
from mcp_client.auth._dpop import ResourceNonceRetry, present_token
from mcp_client.auth._dpop_option import DPoPOption
from mcp_client.auth._jwt_assertion import ClientAssertion
from mcp_client.auth._loopback import no_browser_step
from mcp_client.auth._oauth import REFRESH_MARGIN_SECONDS, server_key
from mcp_client.auth._records import StoredTokens
from mcp_client.auth._runner import StepRunner
from mcp_client.auth._storage import InMemoryTokenStorage
from mcp_client.auth._token_signing import TokenRequestSigner

__all__ = ["GrantAuth"]


class GrantAuth(httpx2.Auth):
    """The token cache and the 401 / nonce / expiry loop of a grant that needs no browser."""

    requires_request_body = False
    requires_response_body = False

    _http_options: HttpOptions = DEFAULT_HTTP_OPTIONS
    _rejected_after_issue = "rejected the token it had just been issued (401 Unauthorized); giving up"
    """The end of the message when the MCP server refuses a token fresh from the token endpoint."""

    def __init__(
        self, *, dpop: object, private_key: object | None, signing_algorithm: str | None, timeout: float
    ) -> None:
        self._signing = (
            ClientAssertion(private_key, algorithm=signing_algorithm) if private_key is not None else None
        )
        self._dpop = DPoPOption(dpop)
        self._dpop_key = self._dpop.key_for_login()
        self._timeout = timeout
        self._tokens: dict[str, StoredTokens] = {}
        self._discovery: dict[str, Discovery] = {}
        self.clock: Callable[[], float] = time.time

    def use_http_options(self, options: HttpOptions) -> None:
        """Send discovery, registration, token and revocation requests as the MCP requests go.

        ``Client`` calls this with its own ``verify`` / ``cert`` / ``proxy`` / ``httpx_client_factory``, so
        a private CA or a proxy given once reaches the authorization server too.
        """
        self._http_options = options

    def sync_auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, httpx2.Response, None]:
        raise OAuthError(
            f"{type(self).__name__} works with httpx2.AsyncClient only (mcp_client.Client uses one)"
        )
        yield request  # pragma: no cover

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        key = server_key(request.url)
        tokens = self._tokens.get(key)
        if tokens is not None and tokens.expires_within(REFRESH_MARGIN_SECONDS, self.clock()):
            await self._fetch_token(key, None)
        fetched = False
        nonce_retry = ResourceNonceRetry(self._dpop.nonces)
        while True:
            tokens = self._tokens.get(key)
            proof = False
            if tokens is not None and _urls.same_origin(str(request.url), key):
                proof = present_token(request, tokens, self._dpop_key, self._dpop.nonces)
            response = yield request
            if not _urls.same_origin(str(response.url), str(request.url)):
                return
            if nonce_retry.should_retry(response, proof):
                continue
            if response.status_code != 401:
                return
            if fetched:
                raise OAuthError(f"{key} {self._rejected_after_issue}")
            challenge = bearer_challenge(tuple(response.headers.get_list("www-authenticate")))
            await self._fetch_token(key, challenge)
            fetched = True

    async def _fetch_token(self, key: str, challenge: Challenge | None) -> None:
        """Ask the token endpoint for ``key``'s token (``challenge``: the 401's, if one came) and keep it."""
        raise NotImplementedError

    def _runner(self, http: httpx2.AsyncClient, key: str) -> StepRunner:
        """A driver for one token request: no browser, the client assertion and DPoP proof added."""
        signer = TokenRequestSigner(assertion=self._signing, dpop=self._dpop_key, nonces=self._dpop.nonces)
        return StepRunner(http, InMemoryTokenStorage(), key, no_browser_step, signer=signer)

    def _keep(self, key: str, tokens: StoredTokens) -> None:
        self._tokens[key] = self._dpop.bind(tokens, self._dpop_key)
