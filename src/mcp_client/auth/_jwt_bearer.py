"""``JWTBearer``: the JWT-bearer grant (RFC 7523 section 2.1) as an httpx2.Auth, for identities a
platform or an enterprise already vouches for.

The client presents an assertion it got elsewhere and gets an access token for the MCP server:

- workload identity federation: the assertion is the platform's token for this workload (a
  Kubernetes service account token, a cloud instance identity...); the client is often public
  (``client_id`` only, token endpoint auth ``none``);
- enterprise-managed authorization (SEP-990): the assertion is an ID-JAG that the company's identity
  provider issued for this authorization server in exchange for the user's ID token
  (``IdJagAssertion`` does that RFC 8693 leg).

``assertion`` is a string, or an async callable ``(audience, resource) -> assertion`` asked afresh for
every token request: ``audience`` is the authorization server's issuer, ``resource`` the MCP server.
The authorization server is found by the usual discovery (protected resource metadata, then its
metadata) or pinned with ``issuer=``. The client authenticates with ``client_secret``
(``client_secret_basic``, or ``client_secret_post`` where the server takes only that), with
``private_key`` (``private_key_jwt``), or not at all (``client_id`` alone: ``none``); ``auth_method``
says which explicitly. A refusal is an ``OAuthError`` carrying the server's ``error`` code; there is
never a fallback to another grant.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Generator, Sequence
from typing import cast

from mcp_client._connection.http_options import HttpOptions
from mcp_client._errors import OAuthError
from mcp_client.auth import _flow, _scopes, _tokens, _urls
from mcp_client.auth._challenge import Challenge
from mcp_client.auth._discovery import Discovery, read_server_metadata, server_metadata_urls
from mcp_client.auth._grant_auth import GrantAuth
from mcp_client.auth._records import ClientRegistration, StoredTokens
from mcp_client.auth._wire import HttpRequest, get_json, oauth_error_from

__all__ = ["JWT_BEARER_GRANT", "AssertionSource", "JWTBearer"]

JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
AUTH_METHODS = ("client_secret_basic", "client_secret_post", "private_key_jwt", "none")

AssertionSource = str | Callable[[str, str], Awaitable[str]]
"""The assertion itself, or ``async (audience, resource) -> assertion``, asked for each token request."""


class JWTBearer(GrantAuth):
    """``Client(url, auth=JWTBearer(assertion, client_id=...))``: tokens for an assertion (RFC 7523 2.1).

    ``scopes`` are requested as given; ``None`` asks for what the server's challenge or metadata names.
    ``dpop=True`` (or a key) binds the tokens to a DPoP key (RFC 9449). Failures end in ``OAuthError``;
    neither the assertion nor a secret ever appears in a message or a repr.
    """

    _rejected_after_issue = "rejected the token it had just been issued for the assertion (401); giving up"

    def use_http_options(self, options: HttpOptions) -> None:
        """Send token requests as the MCP requests go (``Client`` hands over its CA bundle, proxy...); an
        assertion source that makes requests of its own (``IdJagAssertion``) gets them too."""
        super().use_http_options(options)
        forward = getattr(self._assertion, "use_http_options", None)
        if callable(forward):
            forward(options)

    def __init__(
        self,
        assertion: AssertionSource,
        *,
        client_id: str | None = None,
        client_secret: str | None = None,
        private_key: object | None = None,
        signing_algorithm: str | None = None,
        auth_method: str | None = None,
        issuer: str | None = None,
        scopes: Sequence[str] | str | None = None,
        dpop: object = False,
        timeout: float = 30.0,
    ) -> None:
        if not isinstance(assertion, str) and not callable(assertion):
            raise TypeError("assertion must be a string or an async callable (audience, resource) -> str")
        if isinstance(assertion, str) and not assertion:
            raise ValueError("assertion must not be empty")
        if (client_secret is not None or private_key is not None) and not client_id:
            raise ValueError("client_secret and private_key need the client_id they belong to")
        if client_secret is not None and private_key is not None:
            raise ValueError("pass client_secret or private_key, not both")
        if auth_method is not None and auth_method not in AUTH_METHODS:
            raise ValueError(f"auth_method must be one of {', '.join(AUTH_METHODS)}; got {auth_method!r}")
        if auth_method in ("client_secret_basic", "client_secret_post") and client_secret is None:
            raise ValueError(f"auth_method={auth_method!r} needs client_secret")
        if auth_method == "private_key_jwt" and private_key is None:
            raise ValueError("auth_method='private_key_jwt' needs private_key")
        if issuer is not None:
            _urls.web_url(issuer, "the issuer given to JWTBearer", allow_query=False)
        super().__init__(
            dpop=dpop, private_key=private_key, signing_algorithm=signing_algorithm, timeout=timeout
        )
        self._assertion = assertion
        self._client_id = client_id
        self._client_secret = client_secret
        self._auth_method = auth_method
        self._issuer = issuer
        selected = _scopes.join(scopes)
        self._scopes = tuple(selected.split()) if selected else (() if scopes is not None else None)

    def __repr__(self) -> str:
        held = ", client_secret=<hidden>" if self._client_secret is not None else ""
        held += ", private_key=<hidden>" if self._signing is not None else ""
        return f"JWTBearer(client_id={self._client_id!r}{held}, assertion=<hidden>)"

    # ------------------------------------------------------------------------------------ internals

    async def _fetch_token(self, key: str, challenge: Challenge | None) -> None:
        async with self._http_options.client(timeout=self._timeout) as http:
            runner = self._runner(http, key)
            discovery = self._discovery.get(key)
            if discovery is None:
                discovery = await runner.run(self._discover(key, challenge))
                self._discovery[key] = discovery
            assertion = await self._current_assertion(discovery.server.issuer, discovery.resource)
            resource_scopes = (
                discovery.resource_metadata.scopes_supported if discovery.resource_metadata else None
            )
            scope = _scopes.select(
                self._scopes, challenge.scope if challenge else None, resource_scopes, None
            )
            client = self._client(discovery)
            tokens = await runner.run(jwt_bearer_grant(discovery, client, assertion, scope, self.clock))
        self._keep(key, tokens)

    def _discover(self, key: str, challenge: Challenge | None) -> Generator[_flow.Step, object, Discovery]:
        if self._issuer is None:
            return (yield from _flow.discover(key, challenge, answered_401=True))
        for url in server_metadata_urls(self._issuer):
            response = yield from _flow.fetch(get_json(url, "authorization server metadata"))
            server = read_server_metadata(response, self._issuer)
            if server is not None:
                return Discovery(_urls.canonical_resource(key), None, server)
        raise OAuthError(f"the authorization server {self._issuer} publishes no metadata")

    async def _current_assertion(self, audience: str, resource: str) -> str:
        source = self._assertion
        if isinstance(source, str):
            return source
        try:
            pending = cast(object, source(audience, resource))
            value = cast(object, await pending if inspect.isawaitable(pending) else pending)
        except OAuthError:
            raise
        except Exception as exc:
            raise OAuthError(f"the assertion callable failed: {type(exc).__name__}: {exc}") from exc
        if not isinstance(value, str) or not value:
            raise OAuthError(
                f"the assertion callable returned {type(value).__name__}, not an assertion string"
            )
        return value

    def _client(self, discovery: Discovery) -> ClientRegistration | None:
        if not self._client_id:
            return None
        method = self._auth_method
        if method is None:
            if self._signing is not None:
                method = "private_key_jwt"
            elif self._client_secret is not None:
                supported = discovery.server.token_endpoint_auth_methods_supported or ()
                only_post = "client_secret_post" in supported and "client_secret_basic" not in supported
                method = "client_secret_post" if only_post else "client_secret_basic"
            else:
                method = "none"
        return ClientRegistration(
            client_id=self._client_id,
            client_secret=self._client_secret,
            token_endpoint_auth_method=method,
            issuer=discovery.server.issuer,
        )


def jwt_bearer_grant(
    discovery: Discovery,
    client: ClientRegistration | None,
    assertion: str,
    scope: str | None,
    clock: Callable[[], float],
) -> Generator[_flow.Step, object, StoredTokens]:
    """The token request of the JWT-bearer grant, and its answer as ``StoredTokens``."""
    server = discovery.server
    form = [("grant_type", JWT_BEARER_GRANT), ("assertion", assertion), ("resource", discovery.resource)]
    if scope:
        form.append(("scope", scope))
    if client is None:
        request = HttpRequest(
            "POST", server.token_endpoint, "token endpoint", headers=_tokens._FORM_HEADERS, form=tuple(form)
        )
    else:
        request = _tokens._request(server.token_endpoint, "token endpoint", form, client)
    response = yield from _flow.fetch(request)
    if response.status != 200:
        secrets = (assertion, client.client_secret if client is not None else None)
        raise oauth_error_from(response, "token endpoint", secrets)
    return _tokens.read_tokens(
        response,
        request,
        now=clock(),
        issuer=server.issuer,
        client=client or ClientRegistration(client_id="", issuer=server.issuer),
        resource=discovery.resource,
        token_endpoint=server.token_endpoint,
        revocation_endpoint=server.revocation_endpoint,
        requested_scope=scope,
    )
