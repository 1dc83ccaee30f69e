"""The authorization request a browser is sent to, and the redirect it comes back with. No I/O.

The redirect is checked before its code is used: an ``error`` ends the login (the person declined,
or the server refused); ``state`` must equal ours (constant-time comparison); ``iss`` (RFC 9207),
when present, must equal the issuer by simple string comparison, and must be present when the
server's metadata says it sends it.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from mcp_client._errors import OAuthError
from mcp_client.auth._discovery import ServerMetadata
from mcp_client.auth._pkce import AuthorizationSecrets
from mcp_client.auth._scopes import OFFLINE_ACCESS
from mcp_client.auth._wire import server_text

_MAX_REDIRECT_LENGTH = 16 * 1024


def authorization_url(
    server: ServerMetadata,
    *,
    client_id: str,
    redirect_uri: str,
    secrets: AuthorizationSecrets,
    scope: str | None,
    resource: str,
) -> str:
    """The authorization endpoint with the request's parameters added to any it already has."""
    params = [
        ("response_type", "code"),
        ("client_id", client_id),
        ("redirect_uri", redirect_uri),
        ("state", secrets.state),
        ("code_challenge", secrets.challenge),
        ("code_challenge_method", "S256"),
        ("resource", resource),
    ]
    if scope:
        params.append(("scope", scope))
        if OFFLINE_ACCESS in scope.split():
            params.append(("prompt", "consent"))  # OpenID Connect: offline_access needs consent
    parts = urlsplit(server.authorization_endpoint)
    existing = parse_qsl(parts.query, keep_blank_values=True)
    taken = {name for name, _ in params}
    query = urlencode([(k, v) for k, v in existing if k not in taken] + params)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


def read_redirect(redirect_url: str, secrets: AuthorizationSecrets, server: ServerMetadata) -> str:
    """The authorization code in the URL the browser was sent back to, after every check."""
    if not isinstance(redirect_url, str) or not redirect_url.strip():  # pyright: ignore[reportUnnecessaryIsInstance]
        raise OAuthError("the login returned no redirect URL")
    if len(redirect_url) > _MAX_REDIRECT_LENGTH:
        raise OAuthError("the redirect URL is too long to be a genuine authorization response")
    text = redirect_url.strip()
    parts = urlsplit(text) if "://" in text else urlsplit("x:?" + text.lstrip("?"))
    params: dict[str, str] = {}
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        params.setdefault(name, value)
    error = params.get("error")
    if error is not None:
        detail = server_text(params.get("error_description"))
        suffix = f": {detail}" if detail else ""
        raise OAuthError(
            f"the authorization server {server.issuer} did not authorize the client "
            f"({server_text(error, limit=80)}{suffix})",
            error=server_text(error, limit=80) or None,
        )
    if not secrets.state_matches(params.get("state")):
        raise OAuthError(
            "the redirect did not carry the state of this login (a stale or forged response); log in again"
        )
    iss = params.get("iss")
    if iss is not None and iss != server.issuer:
        raise OAuthError(
            f"the authorization response names issuer {server_text(iss)!r}, not {server.issuer!r}; "
            "refusing it (RFC 9207: it may come from a mix-up attack)"
        )
    if iss is None and server.iss_parameter_supported:
        raise OAuthError(
            f"the authorization server {server.issuer} says it sends 'iss' in its responses, but this one "
            "has none; refusing it (RFC 9207)"
        )
    code = params.get("code")
    if not code:
        raise OAuthError("the redirect URL carries no authorization code")
    return code
