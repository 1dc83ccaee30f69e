"""The streamable HTTP transport's redirect policy, and the one exchange that applies it.

An MCP endpoint does not move, and every request carries the user's headers, the session id and
whatever ``Authorization`` the ``auth`` adds. So a redirect to another origin (scheme, host or port)
is never followed, whatever its status; within the same origin only 307 and 308 (which keep the
method and body) are followed, at most ``MAX_REDIRECTS`` times; any other redirect fails the request.
A redirect's own body is never read.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import TracebackType

import httpx2

from mcp_client._connection.shown_url import without_credentials
from mcp_client._errors import ProtocolError

MAX_REDIRECTS = 3
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_SAME_METHOD_REDIRECTS = frozenset({307, 308})
_DEFAULT_PORTS = {"http": 80, "https": 443}


async def open_following(
    client: httpx2.AsyncClient,
    url: str,
    method: str,
    headers: Mapping[str, str],
    content: bytes | None,
    auth: httpx2.Auth | None = None,
) -> httpx2.Response:
    """Send the request to ``url``, following allowed redirects; the final response, body not yet read.

    ``auth``: what each hop is sent with instead of the client's own auth (the URL's credentials,
    ``_connection.url_credentials``); ``None``: the client's.
    """
    current = url
    for _ in range(MAX_REDIRECTS + 1):
        # build_request + send(stream=True), not client.stream(): no generator-based context
        # manager on the hot path (two fewer frames per exchange; see bench/README.md).
        request = client.build_request(method, current, content=content, headers=headers)
        sent_with = httpx2.USE_CLIENT_DEFAULT if auth is None else auth
        response = await client.send(request, stream=True, follow_redirects=False, auth=sent_with)
        location = response.headers.get("location") if response.status_code in _REDIRECTS else None
        if location is None:
            return response
        await response.aclose()
        current = redirect_target(url, method, current, response.status_code, location)
    raise ProtocolError(
        f"{without_credentials(url)} redirected {method} more than {MAX_REDIRECTS} times; an MCP endpoint "
        "does not move: connect to its final URL directly"
    )


def redirect_target(url: str, method: str, current: str, status: int, location: str) -> str:
    """Where a redirect from ``current`` leads, if the policy allows it (``url`` is the endpoint)."""
    endpoint = without_credentials(url)  # the messages name it: never with its user:password
    shown = location if len(location) <= 200 else location[:200] + "..."
    if status not in _SAME_METHOD_REDIRECTS:
        raise ProtocolError(
            f"{endpoint} answered {method} with an HTTP {status} redirect to {shown!r}; the client "
            "follows only 307 and 308 redirects within the same origin: connect to the new URL "
            "directly if the endpoint moved"
        )
    try:
        target = httpx2.URL(current).join(location)
    except (httpx2.InvalidURL, ValueError):
        raise ProtocolError(f"{endpoint} redirected {method} to an invalid URL {shown!r}") from None
    home = _origin(httpx2.URL(url))
    if _origin(target) != home:
        raise ProtocolError(
            f"{endpoint} redirected {method} to another origin ({shown!r}); the client never follows "
            f"a redirect to another origin, so your headers, session id and credentials stay with "
            f"{_origin_text(home)}. If the endpoint really moved, connect to the new URL directly."
        )
    return str(target)


class Exchange:
    """``async with``: the response of ``open_following``, closed on the way out.

    A plain class, not ``@asynccontextmanager``: it is entered once per request, on the hot path.
    """

    __slots__ = ("_auth", "_client", "_content", "_headers", "_method", "_response", "_url")

    def __init__(
        self,
        client: httpx2.AsyncClient,
        url: str,
        method: str,
        headers: Mapping[str, str],
        content: bytes | None,
        auth: httpx2.Auth | None = None,
    ) -> None:
        self._client = client
        self._auth = auth
        self._url = url
        self._method = method
        self._headers = headers
        self._content = content
        self._response: httpx2.Response | None = None

    async def __aenter__(self) -> httpx2.Response:
        response = await open_following(
            self._client, self._url, self._method, self._headers, self._content, self._auth
        )
        self._response = response
        return response

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._response is not None:
            await self._response.aclose()


def _origin(url: httpx2.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port or _DEFAULT_PORTS.get(url.scheme)


def _origin_text(origin: tuple[str, str, int | None]) -> str:
    scheme, host, port = origin
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}:{port}"
