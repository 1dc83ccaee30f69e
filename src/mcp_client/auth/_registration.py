"""Who the client is at an authorization server. No I/O.

Order (MCP authorization spec): a pre-registered client (``OAuth(client_id=...)``); else a Client ID
Metadata Document (``client_metadata_url``, used as the ``client_id``) where the server advertises
``client_id_metadata_document_supported``; else a registration stored for this issuer; else dynamic
client registration (RFC 7591) at the server's ``registration_endpoint``.

How token requests authenticate follows what the server registered (``token_endpoint_auth_method``
in its answer), else what we asked for: ``none`` (a public client using PKCE) where the server lists
it, else the first of ``client_secret_basic`` / ``client_secret_post`` in the server's own list (the
RFC 8414 default, ``client_secret_basic``, when it gives none).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

from mcp_client._errors import OAuthError
from mcp_client.auth import _urls
from mcp_client.auth._discovery import ServerMetadata
from mcp_client.auth._records import ClientRegistration
from mcp_client.auth._wire import (
    HttpRequest,
    HttpResponse,
    oauth_error_from,
    read_json_object,
    read_seconds,
    server_text,
)

SUPPORTED_AUTH_METHODS = ("none", "client_secret_basic", "client_secret_post")
_SECRET_METHODS = ("client_secret_basic", "client_secret_post")


@dataclass(frozen=True, slots=True)
class ClientSettings:
    """What the application configured about its client identity (see ``OAuth``)."""

    client_name: str
    scopes: tuple[str, ...] | None = None
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    client_metadata_url: str | None = None
    redirect_uri: str | None = None
    private_key_jwt: bool = False
    """The client authenticates with a signed assertion (``OAuth(private_key=...)``), not a secret."""


def pre_registered(settings: ClientSettings, server: ServerMetadata) -> ClientRegistration | None:
    """The application's own client, if it configured one."""
    if settings.client_id is None:
        return None
    method = "none"
    if settings.private_key_jwt:
        method = "private_key_jwt"
    elif settings.client_secret is not None:
        supported = server.token_endpoint_auth_methods_supported
        method = "client_secret_basic"
        if (
            supported is not None
            and "client_secret_basic" not in supported
            and "client_secret_post" in supported
        ):
            method = "client_secret_post"
    return ClientRegistration(
        client_id=settings.client_id,
        client_secret=settings.client_secret,
        token_endpoint_auth_method=method,
        redirect_uri=settings.redirect_uri,
        issuer=server.issuer,
    )


def metadata_document_client(settings: ClientSettings, server: ServerMetadata) -> ClientRegistration | None:
    """The Client ID Metadata Document URL as ``client_id``, where the server accepts one."""
    if settings.client_metadata_url is None or not server.client_id_metadata_document_supported:
        return None
    return ClientRegistration(
        client_id=settings.client_metadata_url,
        token_endpoint_auth_method="none",
        redirect_uri=settings.redirect_uri,
        issuer=server.issuer,
    )


def stored_is_usable(stored: ClientRegistration | None, settings: ClientSettings, now: float) -> bool:
    """A stored registration is reused unless its secret expired or the redirect URI changed."""
    if stored is None or stored.secret_expired(now):
        return False
    if settings.redirect_uri is not None and stored.redirect_uri != settings.redirect_uri:
        return False
    return stored.token_endpoint_auth_method in SUPPORTED_AUTH_METHODS


def auth_method_to_request(supported: Sequence[str] | None, issuer: str) -> str:
    """The ``token_endpoint_auth_method`` to ask for in a registration."""
    if supported is None:
        return "client_secret_basic"  # RFC 8414 section 2: the default when the list is omitted
    if "none" in supported:
        return "none"  # a public client: an app on a device cannot keep a secret anyway
    for method in supported:  # else the server's own order of preference
        if method in SUPPORTED_AUTH_METHODS:
            return method
    listed = ", ".join(server_text(m, limit=40) for m in supported[:5]) or "nothing"
    raise OAuthError(
        f"the authorization server {issuer} authenticates token requests only with {listed}, which this "
        "client does not support; register a client there and pass OAuth(client_id=..., client_secret=...)"
    )


def application_type(redirect_uri: str) -> str:
    """``native`` for loopback or custom-scheme redirects (apps on a device), ``web`` for https sites."""
    try:
        parts = urlsplit(redirect_uri)
    except ValueError:
        return "native"
    if parts.scheme == "https" and not _urls.is_loopback_host(parts.hostname):
        return "web"
    return "native"


def registration_request(
    server: ServerMetadata, settings: ClientSettings, redirect_uri: str, scope: str | None
) -> HttpRequest:
    """The RFC 7591 registration request (``OAuthError`` if the server offers no registration).

    It names the ``scope`` of the login it is made for: some authorization servers (the official MCP
    SDK's) let a client ask only for the scopes it registered. Others keep the MCP scopes as resource
    scopes and refuse a registration naming them; ``refused_for_scope`` tells that answer, and the
    flow registers again without ``scope`` (``without_scope``).
    """
    if server.registration_endpoint is None:
        raise OAuthError(
            f"the authorization server {server.issuer} offers no dynamic client registration, and no client "
            "was configured; register one there and pass OAuth(client_id=..., client_secret=...)"
        )
    method = auth_method_to_request(server.token_endpoint_auth_methods_supported, server.issuer)
    body: dict[str, Any] = {
        "client_name": settings.client_name,
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": method,
        "application_type": application_type(redirect_uri),
    }
    if scope:
        body["scope"] = scope
    return HttpRequest(
        "POST",
        server.registration_endpoint,
        "registration endpoint",
        headers=(("content-type", "application/json"), ("accept", "application/json")),
        json_body=body,
    )


def without_scope(request: HttpRequest) -> HttpRequest | None:
    """The same registration request with no ``scope``; ``None`` if it named none."""
    body = dict(request.json_body or {})
    if body.pop("scope", None) is None:
        return None
    return replace(request, json_body=body)


def refused_for_scope(response: HttpResponse) -> bool:
    """A registration refused over its metadata or scope (RFC 7591 ``invalid_client_metadata``)."""
    if response.status != 400:
        return False
    return oauth_error_from(response, "registration endpoint").error in (
        "invalid_client_metadata",
        "invalid_scope",
    )


def read_registration(
    response: HttpResponse, request: HttpRequest, server: ServerMetadata, redirect_uri: str
) -> ClientRegistration:
    """The registration the server granted; ``OAuthError`` if refused or unusable by this client."""
    if response.status not in (200, 201):
        raise oauth_error_from(response, "registration endpoint")
    document = read_json_object(response, "registration response")
    client_id = document.get("client_id")
    if not isinstance(client_id, str) or not client_id:
        raise OAuthError(f"the registration response from {response.shown_url} has no client_id")
    secret = document.get("client_secret")
    if secret is not None and not isinstance(secret, str):
        raise OAuthError(f"the registration response from {response.shown_url} has a malformed client_secret")
    requested = (request.json_body or {}).get("token_endpoint_auth_method", "none")
    method = document.get("token_endpoint_auth_method", requested)
    if method not in SUPPORTED_AUTH_METHODS:
        raise OAuthError(
            f"the authorization server {server.issuer} registered this client for token endpoint "
            f"authentication {server_text(method, limit=40)!r}, which this client does not support"
        )
    if method in _SECRET_METHODS and not secret:
        raise OAuthError(
            f"the authorization server {server.issuer} registered this client for {method} but sent no "
            "client_secret"
        )
    expires = read_seconds(
        document.get("client_secret_expires_at"),
        f"the client_secret_expires_at of the registration response from {response.shown_url}",
    )
    return ClientRegistration(
        client_id=client_id,
        client_secret=secret if method in _SECRET_METHODS else None,
        token_endpoint_auth_method=method,
        redirect_uri=redirect_uri,
        issuer=server.issuer,
        client_secret_expires_at=expires if expires is not None and expires > 0 else None,
    )
