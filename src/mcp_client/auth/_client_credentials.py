"""``ClientCredentials``: machine-to-machine authorization (``client_credentials`` grant) as an httpx.Auth.

No person and no browser: on a 401 the flow discovers the authorization server (as ``OAuth`` does),
asks its token endpoint for a token with the client's own credentials, and retries the request once.
A token close to expiry is replaced before the request. Tokens live in memory only.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, Callable, Generator, Sequence

import httpx

from mcp_client._errors import OAuthError
from mcp_client._http_options import DEFAULT_HTTP_OPTIONS, HttpOptions
from mcp_client.auth import _flow, _scopes, _urls
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

__all__ = ["ClientCredentials"]


class ClientCredentials(httpx.Auth):
    """``Client(url, auth=ClientCredentials(client_id, client_secret))`` for a service, not a person.

    ``scopes`` are requested as given; ``None`` asks for what the server's challenge or metadata names.
    The client authenticates with HTTP Basic unless the server supports only ``client_secret_post``;
    with ``private_key`` instead of a secret, with a signed ``private_key_jwt`` assertion on every
    token request (see ``OAuth`` for the key forms). ``dpop=True`` (or a key) binds the tokens to a
    DPoP key (RFC 9449). Both need the ``oauth-jwt`` extra.
    Failures end in ``OAuthError``; the secret never appears in a message or a repr.
    """

    requires_request_body = False
    requires_response_body = False

    _http_options: HttpOptions = DEFAULT_HTTP_OPTIONS

    def use_http_options(self, options: HttpOptions) -> None:
        """Send discovery, registration, token and revocation requests as the MCP requests go.

        ``Client`` calls this with its own ``verify`` / ``cert`` / ``proxy`` / ``httpx_client_factory``, so
        a private CA or a proxy given once reaches the authorization server too.
        """
        self._http_options = options

    def __init__(
        self,
        client_id: str,
        client_secret: str | None = None,
        scopes: Sequence[str] | str | None = None,
        *,
        timeout: float = 30.0,
        private_key: object | None = None,
        signing_algorithm: str | None = None,
        dpop: object = False,
    ) -> None:
        if not client_id:
            raise ValueError("client_id must not be empty")
        if (client_secret is None) == (private_key is None):
            raise ValueError("ClientCredentials needs a client_secret or a private_key (one of them)")
        self._client_id = client_id
        self._client_secret = client_secret
        self._assertion = (
            ClientAssertion(private_key, algorithm=signing_algorithm) if private_key is not None else None
        )
        self._dpop = DPoPOption(dpop)
        self._dpop_key = self._dpop.key_for_login()
        selected = _scopes.join(scopes)
        self._scopes = tuple(selected.split()) if selected else (() if scopes is not None else None)
        self._timeout = timeout
        self._tokens: dict[str, StoredTokens] = {}
        self._discovery: dict[str, Discovery] = {}
        self.clock: Callable[[], float] = time.time

    def __repr__(self) -> str:
        held = "client_secret=<hidden>" if self._client_secret is not None else "private_key=<hidden>"
        return f"ClientCredentials(client_id={self._client_id!r}, {held})"

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        raise OAuthError("ClientCredentials works with httpx.AsyncClient only (mcp_client.Client uses one)")
        yield request  # pragma: no cover

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        key = server_key(request.url)
        tokens = self._tokens.get(key)
        if tokens is not None and tokens.expires_within(REFRESH_MARGIN_SECONDS, self.clock()):
            await self._fetch_token(key, None, known=self._discovery.get(key))
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
                raise OAuthError(
                    f"{key} rejected the token it had just been issued (401 Unauthorized); giving up"
                )
            challenge = bearer_challenge(tuple(response.headers.get_list("www-authenticate")))
            await self._fetch_token(key, challenge, known=None)
            fetched = True

    async def _fetch_token(self, key: str, challenge: Challenge | None, *, known: Discovery | None) -> None:
        request = _flow.ClientCredentialsRequest(
            server_url=key,
            client_id=self._client_id,
            client_secret=self._client_secret,
            scopes=self._scopes,
            clock=self.clock,
            challenge=challenge,
            known=known,
            private_key_jwt=self._assertion is not None,
        )
        signer = TokenRequestSigner(assertion=self._assertion, dpop=self._dpop_key, nonces=self._dpop.nonces)
        async with self._http_options.client(timeout=self._timeout) as http:
            runner = StepRunner(http, InMemoryTokenStorage(), key, no_browser_step, signer=signer)
            tokens, discovery = await runner.run(_flow.client_credentials(request))
        self._tokens[key] = self._dpop.bind(tokens, self._dpop_key)
        self._discovery[key] = discovery
