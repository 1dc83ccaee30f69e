"""Token requests (authorization code, refresh, client credentials, revocation) and token responses. No I/O.

Token requests carry ``resource`` (RFC 8707) and authenticate the client the way it is registered:
``client_secret_basic`` (HTTP Basic with the form-encoded id and secret, RFC 6749 section 2.3.1),
``client_secret_post`` (both in the form), ``private_key_jwt`` (a signed ``client_assertion``, added
by the driver: see ``_token_signing``) or ``none`` (only ``client_id``). Tokens of type ``Bearer``
and ``DPoP`` (RFC 9449, bound to the client's key) are accepted. A response becomes
``StoredTokens`` with an absolute expiry; a refresh that brings no new refresh token keeps the old
one, and one without ``scope`` keeps the old scope (RFC 6749 sections 5.1 and 6).
"""

from __future__ import annotations

import base64
from urllib.parse import quote

from mcp_client._errors import OAuthError
from mcp_client.auth._records import ClientRegistration, StoredTokens
from mcp_client.auth._wire import (
    HttpRequest,
    HttpResponse,
    oauth_error_from,
    read_json_object,
    read_seconds,
    server_text,
)

_TOKEN_TYPES = {"bearer": "Bearer", "dpop": "DPoP"}
_FORM_HEADERS = (("content-type", "application/x-www-form-urlencoded"), ("accept", "application/json"))


def _request(url: str, purpose: str, form: list[tuple[str, str]], client: ClientRegistration) -> HttpRequest:
    headers = list(_FORM_HEADERS)
    form.append(("client_id", client.client_id))
    method = client.token_endpoint_auth_method
    if method == "client_secret_basic" and client.client_secret:
        pair = f"{quote(client.client_id, safe='')}:{quote(client.client_secret, safe='')}"
        headers.append(("authorization", "Basic " + base64.b64encode(pair.encode()).decode("ascii")))
    elif method == "client_secret_post" and client.client_secret:
        form.append(("client_secret", client.client_secret))
    elif method == "private_key_jwt":
        # The driver signs the assertion (asynchronously: the key may live in a KMS) and adds it.
        audience = client.issuer or url
        return HttpRequest(
            "POST", url, purpose, headers=tuple(headers), form=tuple(form), client_assertion_audience=audience
        )
    return HttpRequest("POST", url, purpose, headers=tuple(headers), form=tuple(form))


def code_exchange(
    token_endpoint: str,
    client: ClientRegistration,
    *,
    code: str,
    verifier: str,
    redirect_uri: str,
    resource: str,
) -> HttpRequest:
    form = [
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", redirect_uri),
        ("code_verifier", verifier),
        ("resource", resource),
    ]
    return _request(token_endpoint, "token endpoint", form, client)


def refresh(tokens: StoredTokens, client: ClientRegistration) -> HttpRequest:
    if not tokens.refresh_token or not tokens.token_endpoint:
        raise OAuthError("these tokens cannot be refreshed (no refresh token or token endpoint)")
    form = [("grant_type", "refresh_token"), ("refresh_token", tokens.refresh_token)]
    if tokens.resource:
        form.append(("resource", tokens.resource))
    return _request(tokens.token_endpoint, "token endpoint", form, client)


def client_credentials(
    token_endpoint: str, client: ClientRegistration, *, scope: str | None, resource: str
) -> HttpRequest:
    form = [("grant_type", "client_credentials"), ("resource", resource)]
    if scope:
        form.append(("scope", scope))
    return _request(token_endpoint, "token endpoint", form, client)


def revocation(endpoint: str, client: ClientRegistration, token: str, hint: str) -> HttpRequest:
    """RFC 7009 revocation of one token (``hint`` is ``refresh_token`` or ``access_token``)."""
    return _request(endpoint, "revocation endpoint", [("token", token), ("token_type_hint", hint)], client)


def read_tokens(
    response: HttpResponse,
    request: HttpRequest,
    *,
    now: float,
    issuer: str | None,
    client: ClientRegistration,
    resource: str | None,
    token_endpoint: str,
    revocation_endpoint: str | None,
    requested_scope: str | None,
    previous: StoredTokens | None = None,
) -> StoredTokens:
    """The tokens in a token endpoint response, or an ``OAuthError`` (with the OAuth ``error`` code)."""
    if response.status != 200:
        raise oauth_error_from(response, "token endpoint", request.secrets())
    document = read_json_object(response, "token response")
    access_token = document.get("access_token")
    if not isinstance(access_token, str) or not access_token:
        raise OAuthError(f"the token response from {response.shown_url} has no access_token")
    token_type = document.get("token_type")
    if not isinstance(token_type, str) or token_type.lower() not in _TOKEN_TYPES:
        shown = server_text(token_type, limit=40)
        raise OAuthError(
            f"the token endpoint at {response.shown_url} issued a token of type {shown!r}; "
            "only Bearer and DPoP (RFC 9449) are supported"
        )
    expires_in = read_seconds(
        document.get("expires_in"), f"the expires_in of the token response from {response.shown_url}"
    )
    expires_at = now + max(0.0, expires_in) if expires_in is not None else None
    refresh_token = document.get("refresh_token")
    if not isinstance(refresh_token, str) or not refresh_token:
        refresh_token = previous.refresh_token if previous is not None else None
    scope = document.get("scope")
    if not isinstance(scope, str):
        scope = previous.scope if previous is not None else requested_scope
    return StoredTokens(
        access_token=access_token,
        token_type=_TOKEN_TYPES[token_type.lower()],
        refresh_token=refresh_token,
        scope=" ".join(scope.split()) or None if scope else None,
        expires_at=expires_at,
        issuer=issuer,
        client_id=client.client_id,
        client_auth_method=client.token_endpoint_auth_method,
        resource=resource,
        token_endpoint=token_endpoint,
        revocation_endpoint=revocation_endpoint,
    )
