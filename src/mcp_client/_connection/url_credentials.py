"""A server URL's ``user:password@``, taken out of the URL and sent as HTTP Basic auth by the client itself.

httpx2 would read the userinfo of a URL it is handed and send it as Basic auth, but it also writes every
request's URL, userinfo and all, into its own INFO log line (``HTTP Request: POST
http://user:s3cret@host/mcp "HTTP/1.1 200 OK"``, logger ``httpx2``). So the HTTP transports (streamable
HTTP, HTTP+SSE, the fallback between them) never hand it that URL: ``take_credentials`` splits it into
the URL without ``user:password@`` (what every request goes to) and an ``httpx2.BasicAuth`` with the
user and password percent-decoded, as httpx2 decodes them; ``request_auth`` says what each request
sends with.

The rule is httpx2's own, kept: an auth of the client (the app's ``auth=``, or the auth of its own
``http_client``) wins, and the URL's credentials are then not sent at all. Redirects never take them to
another origin: the transports follow none there (``_transports.http_redirects``), and an HTTP+SSE
endpoint on another origin is refused.
"""

from __future__ import annotations

import httpx2

from mcp_client._connection.shown_url import without_credentials

__all__ = ["request_auth", "take_credentials"]


def take_credentials(url: str) -> tuple[str, httpx2.BasicAuth | None]:
    """``url`` without its ``user:password@``, and those credentials as Basic auth (``None``: none given).

    A URL httpx2 cannot parse is kept as given: sending it fails as it always did (httpx2's message
    names a position, never the password). ``http://@host`` carries no credentials, as for httpx2.
    """
    bare = without_credentials(url)
    if bare == url:
        return url, None
    try:
        parsed = httpx2.URL(url)
    except httpx2.InvalidURL:
        return url, None
    if not (parsed.username or parsed.password):
        return bare, None
    return bare, httpx2.BasicAuth(parsed.username, parsed.password)


def request_auth(url_auth: httpx2.BasicAuth | None, client: httpx2.AsyncClient) -> httpx2.Auth | None:
    """The auth each request of ``client`` is sent with: the URL's credentials when the client has no auth
    of its own; ``None`` (the client's own auth) otherwise."""
    return url_auth if client.auth is None else None
