"""URL rules of the OAuth flow, with no I/O: what may be fetched, what is one origin, where metadata lives.

Every URL the flow is about to fetch, or to send a person to, passes ``web_url`` first: only http and
https, https except to this machine (loopback), no user info, no fragment, nothing a browser and
``urllib`` would read differently. A hostile metadata document naming ``file:`` or ``javascript:``
ends in an ``OAuthError`` here, before anything is fetched.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import SplitResult, urlsplit, urlunsplit

from mcp_client._errors import OAuthError

MAX_URL_LENGTH = 4096
_DEFAULT_PORTS = {"http": 80, "https": 443}
_FORBIDDEN = re.compile(r"[\x00-\x20\x7f\\]")


def is_loopback_host(host: str | None) -> bool:
    """True for ``localhost`` (and ``*.localhost``), 127.0.0.0/8 and ``::1``."""
    if not host:
        return False
    host = host.lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _split(url: object, what: str) -> SplitResult:
    if not isinstance(url, str) or not url:
        raise OAuthError(f"{what} is not a URL")
    if len(url) > MAX_URL_LENGTH:
        raise OAuthError(f"{what} is longer than {MAX_URL_LENGTH} characters")
    if _FORBIDDEN.search(url):
        raise OAuthError(f"{what} contains spaces, control characters or backslashes: {url[:200]!r}")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError on a malformed port)
    except ValueError:
        raise OAuthError(f"{what} is not a valid URL: {url[:200]!r}") from None
    return parts


def web_url(url: object, what: str, *, allow_query: bool = True) -> str:
    """``url`` if the flow may fetch it (or send a browser to it), else an ``OAuthError`` saying why.

    ``what`` names the URL in the message ("the token endpoint in the metadata of X").
    """
    parts = _split(url, what)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        shown = f"{scheme}:" if scheme else "no scheme"
        raise OAuthError(f"{what} uses {shown}; only https (or http to this machine) is allowed")
    if not parts.hostname:
        raise OAuthError(f"{what} has no host: {str(url)[:200]!r}")
    if parts.username is not None or parts.password is not None:
        raise OAuthError(f"{what} carries a user name or password, which is not allowed")
    if parts.fragment:
        raise OAuthError(f"{what} has a fragment (#...), which is not allowed")
    if parts.query and not allow_query:
        raise OAuthError(f"{what} has a query (?...), which is not allowed")
    if scheme == "http" and not is_loopback_host(parts.hostname):
        raise OAuthError(f"{what} uses plain http to {parts.hostname}; OAuth endpoints must use https")
    return str(url)


def origin(url: str) -> str:
    """``scheme://host[:port]``, lower-cased, default port dropped: what "same origin" compares."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is None or port == _DEFAULT_PORTS.get(scheme):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def same_origin(a: str, b: str) -> bool:
    return origin(a) == origin(b)


def canonical_resource(server_url: str) -> str:
    """The server's URL as an RFC 8707 resource indicator: lower-case scheme and host, no fragment,
    no trailing slash on an empty path."""
    parts = urlsplit(server_url)
    path = parts.path if parts.path not in ("", "/") else ""
    return urlunsplit((parts.scheme.lower(), origin(server_url).split("://", 1)[1], path, parts.query, ""))


def resource_covers(resource: str, server_url: str) -> bool:
    """True when ``resource`` (from protected resource metadata) names ``server_url`` or a parent of it:
    same origin, and its path is the server's path or a whole-segment prefix of it (RFC 9728 section 3.3,
    RFC 8707)."""
    try:
        if not same_origin(resource, server_url):
            return False
        wanted = urlsplit(resource).path.rstrip("/")
        actual = urlsplit(server_url).path.rstrip("/")
    except ValueError:
        return False
    return actual == wanted or actual.startswith(wanted + "/")


def protected_resource_metadata_urls(server_url: str) -> list[str]:
    """RFC 9728 well-known URLs for ``server_url``: path-aware first (if it has a path), then the root."""
    parts = urlsplit(server_url)
    base = f"{parts.scheme}://{parts.netloc}"
    path = parts.path.rstrip("/")
    urls = [f"{base}/.well-known/oauth-protected-resource{path}"] if path else []
    urls.append(f"{base}/.well-known/oauth-protected-resource")
    return urls


def authorization_server_metadata_urls(issuer: str) -> list[str]:
    """Where an issuer's metadata may live, in order (RFC 8414 section 3.1, OpenID Connect Discovery).

    An issuer with a path: OAuth path-inserted, OpenID path-inserted, OpenID path-appended; a root
    issuer: OAuth, then OpenID. The root of an issuer with a path is never tried: it belongs to
    another tenant.
    """
    parts = urlsplit(issuer)
    base = f"{parts.scheme}://{parts.netloc}"
    path = parts.path.rstrip("/")
    if not path:
        return [f"{base}/.well-known/oauth-authorization-server", f"{base}/.well-known/openid-configuration"]
    return [
        f"{base}/.well-known/oauth-authorization-server{path}",
        f"{base}/.well-known/openid-configuration{path}",
        f"{base}{path}/.well-known/openid-configuration",
    ]
