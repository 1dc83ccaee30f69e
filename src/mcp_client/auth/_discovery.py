"""Find the authorization server of a protected MCP server, and read both metadata documents. No I/O.

Order (MCP authorization spec, both wires):

1. Protected resource metadata (RFC 9728): the ``resource_metadata`` URL from ``WWW-Authenticate``,
   then the path-aware well-known URL, then the root one. Its ``resource`` must name this server
   (RFC 8707, RFC 9728 section 3.3) or the flow stops: a server must not send us to log in for
   another resource.
2. Authorization server metadata (RFC 8414, OpenID Connect Discovery) at the well-known URLs of the
   first listed issuer (``_urls.authorization_server_metadata_urls``). Its ``issuer`` must equal that
   issuer exactly (RFC 8414 section 3.3): no normalization, no trailing-slash forgiveness.
3. No protected resource metadata anywhere (a 2025-03-26 server): the server's origin is the issuer,
   and without metadata there either, ``/authorize``, ``/token`` and ``/register`` on that origin.

Every endpoint taken from a document passes ``_urls.web_url`` (https except loopback).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcp_client._errors import OAuthError
from mcp_client.auth import _urls
from mcp_client.auth._wire import HttpResponse, read_json_object, server_text

_MAX_LIST = 100


@dataclass(frozen=True, slots=True)
class ResourceMetadata:
    """The parts of protected resource metadata the flow uses; ``url`` is where it was found."""

    url: str
    resource: str | None
    authorization_servers: tuple[str, ...]
    scopes_supported: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class ServerMetadata:
    """The parts of authorization server metadata the flow uses.

    ``from_document`` is False for the 2025-03-26 fallback endpoints (no metadata was found).
    """

    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    registration_endpoint: str | None = None
    revocation_endpoint: str | None = None
    scopes_supported: tuple[str, ...] | None = None
    token_endpoint_auth_methods_supported: tuple[str, ...] | None = None
    code_challenge_methods_supported: tuple[str, ...] | None = None
    client_id_metadata_document_supported: bool = False
    iss_parameter_supported: bool = False
    from_document: bool = True


@dataclass(frozen=True, slots=True)
class Discovery:
    """What discovery settled: the resource indicator to request tokens for, and the server to ask."""

    resource: str
    resource_metadata: ResourceMetadata | None
    server: ServerMetadata


# ------------------------------------------------------------------------------ protected resource


def resource_metadata_urls(server_url: str, from_challenge: str | None) -> list[str]:
    """The URLs to try, in order; the challenge's URL is checked here (``OAuthError`` if unusable)."""
    urls: list[str] = []
    if from_challenge is not None:
        urls.append(_urls.web_url(from_challenge, f"the resource_metadata URL that {server_url} sent"))
    for url in _urls.protected_resource_metadata_urls(server_url):
        if url not in urls:
            urls.append(url)
    return urls


def read_resource_metadata(response: HttpResponse, server_url: str) -> ResourceMetadata | None:
    """The metadata in a 200 response; ``None`` (try the next URL) for any 4xx or 3xx.

    A 5xx or 429 says nothing about whether metadata exists: ``OAuthError``, rather than falling back
    to the legacy path. So does a document that is not valid metadata, or one naming another resource.
    """
    if response.status in (429,) or response.status >= 500:
        raise OAuthError(
            f"the protected resource metadata at {response.shown_url} could not be read "
            f"(HTTP {response.status}); try again later"
        )
    if response.status != 200:
        return None
    what = "protected resource metadata"
    document = read_json_object(response, what)
    resource = document.get("resource")
    if resource is not None:
        resource = _urls.web_url(resource, f"the resource named in the {what} at {response.shown_url}")
        if not _urls.resource_covers(resource, server_url):
            raise OAuthError(
                f"the {what} at {response.shown_url} is for {server_text(resource)}, not for {server_url}; "
                "refusing to log in for another resource (RFC 8707)"
            )
    servers = _string_list(document, "authorization_servers", response.shown_url, what)
    if not servers:
        raise OAuthError(f"the {what} at {response.shown_url} names no authorization server")
    checked = tuple(
        _urls.web_url(
            issuer, f"the authorization server named in the {what} at {response.shown_url}", allow_query=False
        )
        for issuer in servers
    )
    return ResourceMetadata(
        url=response.url,
        resource=resource,
        authorization_servers=checked,
        scopes_supported=_scopes(document, "scopes_supported", response.shown_url, what),
    )


def resource_indicator(server_url: str, metadata: ResourceMetadata | None) -> str:
    """The ``resource`` to send (RFC 8707): the metadata's, which covers the server, else the server's."""
    if metadata is not None and metadata.resource is not None:
        return metadata.resource
    return _urls.canonical_resource(server_url)


def legacy_issuer(server_url: str) -> str:
    """With no protected resource metadata (2025-03-26), the server's origin acts as the issuer."""
    return _urls.origin(server_url)


# ---------------------------------------------------------------------------- authorization server


def server_metadata_urls(issuer: str) -> list[str]:
    return _urls.authorization_server_metadata_urls(issuer)


def read_server_metadata(
    response: HttpResponse, expected_issuer: str, *, legacy: bool = False
) -> ServerMetadata | None:
    """The metadata in a 200 response; ``None`` (try the next URL) for a 3xx or 4xx.

    ``OAuthError`` for a 5xx (the server is there but failing), a malformed document, an ``issuer``
    that differs from ``expected_issuer`` (on the ``legacy`` path the origin with a trailing slash is
    the same issuer), endpoints that are not https (except loopback), or no PKCE S256.
    """
    what = "authorization server metadata"
    if response.status >= 500 or response.status == 429:
        raise OAuthError(
            f"the {what} at {response.shown_url} could not be read (HTTP {response.status}); try again later"
        )
    if response.status != 200:
        return None
    document = read_json_object(response, what)
    issuer = document.get("issuer")
    if not isinstance(issuer, str):
        raise OAuthError(f"the {what} at {response.shown_url} has no issuer")
    same = issuer == expected_issuer or (legacy and issuer == expected_issuer + "/")
    if not same:
        raise OAuthError(
            f"the {what} at {response.shown_url} says its issuer is {server_text(issuer)!r}, but it was "
            f"looked up for {expected_issuer!r}; refusing to use it (RFC 8414 section 3.3)"
        )
    where = f"in the {what} of {issuer}"
    methods = _string_list(document, "code_challenge_methods_supported", response.shown_url, what)
    if methods is None or "S256" not in methods:
        raise OAuthError(
            f"the authorization server {issuer} does not list PKCE S256 in code_challenge_methods_supported; "
            "MCP requires it, so the login cannot proceed safely"
        )
    return ServerMetadata(
        issuer=issuer,
        authorization_endpoint=_endpoint(document, "authorization_endpoint", where, required=True),
        token_endpoint=_endpoint(document, "token_endpoint", where, required=True),
        registration_endpoint=_endpoint(document, "registration_endpoint", where),
        revocation_endpoint=_endpoint(document, "revocation_endpoint", where),
        scopes_supported=_scopes(document, "scopes_supported", response.shown_url, what),
        token_endpoint_auth_methods_supported=_tuple(
            _string_list(document, "token_endpoint_auth_methods_supported", response.shown_url, what)
        ),
        code_challenge_methods_supported=tuple(methods),
        client_id_metadata_document_supported=document.get("client_id_metadata_document_supported") is True,
        iss_parameter_supported=document.get("authorization_response_iss_parameter_supported") is True,
    )


def legacy_server_metadata(server_url: str) -> ServerMetadata:
    """The 2025-03-26 default endpoints on the server's origin, when no metadata exists anywhere."""
    base = _urls.origin(server_url)
    return ServerMetadata(
        issuer=base,
        authorization_endpoint=f"{base}/authorize",
        token_endpoint=f"{base}/token",
        registration_endpoint=f"{base}/register",
        from_document=False,
    )


# -------------------------------------------------------------------------------------- helpers


def _endpoint(document: dict[str, Any], key: str, where: str, *, required: bool = False) -> Any:
    value = document.get(key)
    if value is None:
        if required:
            raise OAuthError(f"no {key} {where}")
        return None
    return _urls.web_url(value, f"the {key} {where}")


def _string_list(document: dict[str, Any], key: str, url: str, what: str) -> list[str] | None:
    value = document.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > _MAX_LIST or not all(isinstance(v, str) for v in value):
        raise OAuthError(f"{key} in the {what} at {url} is not a list of strings")
    return list(value)


def _scopes(document: dict[str, Any], key: str, url: str, what: str) -> tuple[str, ...] | None:
    values = _string_list(document, key, url, what)
    if values is None:
        return None
    return tuple(scope for scope in values if scope and " " not in scope)


def _tuple(values: list[str] | None) -> tuple[str, ...] | None:
    return tuple(values) if values is not None else None
