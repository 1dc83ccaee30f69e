"""The identity provider's leg of enterprise-managed authorization (SEP-990): ID token -> ID-JAG.

The person logged in to the company's identity provider (IdP); the app holds their ID token. To reach
an MCP server whose authorization server trusts that IdP, the app asks the IdP's token endpoint for
an Identity Assertion JWT Authorization Grant (ID-JAG) with an RFC 8693 token exchange
(``grant_type=urn:ietf:params:oauth:grant-type:token-exchange``, ``requested_token_type=
urn:ietf:params:oauth:token-type:id-jag``, ``audience`` = the authorization server's issuer,
``resource`` = the MCP server), then presents the ID-JAG to that authorization server with the
JWT-bearer grant (``JWTBearer``). ``IdJagAssertion`` is that first leg as a ``JWTBearer`` assertion
source: a fresh ID-JAG for each token request.
"""

from __future__ import annotations

import inspect
import os
import ssl
from collections.abc import Awaitable, Callable, Sequence
from typing import cast

from mcp_client._connection.http_options import DEFAULT_HTTP_OPTIONS, CertTypes, HttpOptions, ProxyOption
from mcp_client._errors import OAuthError
from mcp_client.auth import _scopes, _tokens, _urls
from mcp_client.auth._loopback import no_browser_step
from mcp_client.auth._records import ClientRegistration
from mcp_client.auth._runner import StepRunner
from mcp_client.auth._storage import InMemoryTokenStorage
from mcp_client.auth._wire import oauth_error_from, read_json_object, server_text

__all__ = ["ID_JAG_TOKEN_TYPE", "IdJagAssertion", "request_id_jag"]

TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_JAG_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id-jag"
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"


async def request_id_jag(
    token_endpoint: str,
    subject_token: str,
    *,
    audience: str,
    resource: str,
    client_id: str,
    client_secret: str | None = None,
    scopes: Sequence[str] | str | None = None,
    subject_token_type: str = ID_TOKEN_TYPE,
    timeout: float = 30.0,  # noqa: ASYNC109 - bounds each HTTP exchange (httpx2's timeout), like OAuth(timeout=)
    verify: bool | str | os.PathLike[str] | ssl.SSLContext = True,
    cert: CertTypes | None = None,
    proxy: ProxyOption | None = None,
    trust_env: bool = True,
) -> str:
    """Exchange ``subject_token`` (the person's ID token) at the IdP's ``token_endpoint`` for an ID-JAG.

    ``audience`` is the issuer of the authorization server that will accept the ID-JAG, ``resource``
    the MCP server; ``client_id`` (and ``client_secret``, sent with HTTP Basic) identify this app at
    the IdP. ``verify``, ``cert``, ``proxy`` and ``trust_env`` reach the IdP as ``Client``'s options of
    the same names reach the MCP server (a company IdP behind a private CA or a proxy). Returns the
    ID-JAG; an ``OAuthError`` with the IdP's ``error`` code if it refuses.
    """
    return await _exchange(
        token_endpoint,
        subject_token,
        audience=audience,
        resource=resource,
        client_id=client_id,
        client_secret=client_secret,
        scopes=scopes,
        subject_token_type=subject_token_type,
        timeout=timeout,
        options=HttpOptions(verify, cert, proxy, trust_env),
    )


async def _exchange(
    token_endpoint: str,
    subject_token: str,
    *,
    audience: str,
    resource: str,
    client_id: str,
    client_secret: str | None,
    scopes: Sequence[str] | str | None,
    subject_token_type: str,
    timeout: float,  # noqa: ASYNC109 - see request_id_jag
    options: HttpOptions,
) -> str:
    _urls.web_url(token_endpoint, "the identity provider's token endpoint")
    form = [
        ("grant_type", TOKEN_EXCHANGE_GRANT),
        ("requested_token_type", ID_JAG_TOKEN_TYPE),
        ("audience", audience),
        ("resource", resource),
        ("subject_token", subject_token),
        ("subject_token_type", subject_token_type),
    ]
    scope = _scopes.join(scopes)
    if scope:
        form.append(("scope", scope))
    method = "client_secret_basic" if client_secret else "none"
    client = ClientRegistration(client_id, client_secret, token_endpoint_auth_method=method)
    request = _tokens._request(token_endpoint, "identity provider's token endpoint", form, client)
    async with options.client(timeout=timeout) as http:
        response = await StepRunner(http, InMemoryTokenStorage(), token_endpoint, no_browser_step).send(
            request
        )
    if response.status != 200:
        raise oauth_error_from(response, "identity provider's token endpoint", (subject_token, client_secret))
    document = read_json_object(response, "token exchange response")
    issued_type = document.get("issued_token_type")
    if issued_type is not None and issued_type != ID_JAG_TOKEN_TYPE:
        raise OAuthError(
            f"the identity provider at {token_endpoint} issued a {server_text(issued_type, limit=80)!r}, "
            f"not an ID-JAG ({ID_JAG_TOKEN_TYPE})"
        )
    id_jag = document.get("access_token")
    if not isinstance(id_jag, str) or not id_jag:
        raise OAuthError(
            f"the token exchange response from {token_endpoint} has no access_token (the ID-JAG)"
        )
    return id_jag


class IdJagAssertion:
    """A ``JWTBearer`` assertion source: a fresh ID-JAG from the IdP for each token request.

    ``id_token`` is the person's ID token, or an async callable returning a current one (the app's
    own IdP login refreshes it). The other arguments are ``request_id_jag``'s. Given to a ``JWTBearer``
    that a ``Client`` uses, the exchange goes out with that client's ``verify``, ``cert``, ``proxy``,
    ``trust_env`` and ``httpx_client_factory``, unless this assertion was given options of its own.
    """

    _http_options: HttpOptions = DEFAULT_HTTP_OPTIONS

    def __init__(
        self,
        token_endpoint: str,
        id_token: str | Callable[[], Awaitable[str]],
        *,
        client_id: str,
        client_secret: str | None = None,
        scopes: Sequence[str] | str | None = None,
        timeout: float = 30.0,
        verify: bool | str | os.PathLike[str] | ssl.SSLContext = True,
        cert: CertTypes | None = None,
        proxy: ProxyOption | None = None,
        trust_env: bool = True,
    ) -> None:
        _urls.web_url(token_endpoint, "the identity provider's token endpoint")
        own = HttpOptions(verify, cert, proxy, trust_env)
        self._own_options = not own.is_default
        if self._own_options:
            self._http_options = own
        self._token_endpoint = token_endpoint
        self._id_token = id_token
        self._client_id = client_id
        self._client_secret = client_secret
        self._scopes = scopes
        self._timeout = timeout

    def use_http_options(self, options: HttpOptions) -> None:
        """Reach the IdP as the MCP requests go (``JWTBearer`` hands over its ``Client``'s options),
        unless this assertion was given options of its own."""
        if not self._own_options:
            self._http_options = options

    def __repr__(self) -> str:
        return f"IdJagAssertion({self._token_endpoint!r}, client_id={self._client_id!r}, id_token=<hidden>)"

    async def __call__(self, audience: str, resource: str) -> str:
        id_token = self._id_token
        if not isinstance(id_token, str):
            pending = cast(object, id_token())
            value = cast(object, await pending if inspect.isawaitable(pending) else pending)
            if not isinstance(value, str) or not value:
                raise OAuthError("the id_token callable of IdJagAssertion returned no ID token")
            id_token = value
        return await _exchange(
            self._token_endpoint,
            id_token,
            audience=audience,
            resource=resource,
            client_id=self._client_id,
            client_secret=self._client_secret,
            scopes=self._scopes,
            subject_token_type=ID_TOKEN_TYPE,
            timeout=self._timeout,
            options=self._http_options,
        )
