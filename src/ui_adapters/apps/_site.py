"""The host's HTTP: a request in, a response out, with no socket in sight (``AppSite.respond``).

Two origins serve the views. The *host origin* serves each view's host page (``GET /<token>``), takes
the view's messages (``POST /<token>/messages``, JSON ``{"csrf": ..., "messages": [...]}``, only from the
host origin, with the page's CSRF token) and streams the host's messages back
(``GET /<token>/events``, ``text/event-stream``). The *sandbox origin* serves only each view's sandbox
proxy (``GET /<sandbox_token>``), under the view's own Content-Security-Policy, framable only by the host
page. Which origin a request is for is read from its ``Host`` header, which must name one of the two
exactly (a DNS-rebinding page on another name is refused, as the browser form does); paths are
unguessable tokens, anything else is a 404.

The socket server (``_server``) and an ASGI wrapper both only turn ``Request``s into calls of ``respond``
and write the ``Response`` back: its ``body``, or for an event stream its ``stream(write)``.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus

from ui_adapters.apps._channel import ViewChannel
from ui_adapters.apps._page import render_host_page, render_notice, render_proxy
from ui_adapters.browser._http import Request

__all__ = ["MAX_MESSAGES_BODY", "AppSite", "Response", "StreamBody", "Write"]

MAX_MESSAGES_BODY = 8 * 1024 * 1024
"""One batch of a view's messages, in bytes (a view's ``ui/message`` may carry an image)."""
BATCH = 64
"""Messages the page sends in one request."""

Write = Callable[[bytes], Awaitable[None]]
StreamBody = Callable[[Write], Awaitable[None]]


@dataclass(slots=True)
class Response:
    """What to send back: ``status``, ``headers`` and ``body``, or for an event stream ``stream``, which
    writes chunks with the ``write`` it is given until it returns (then the response ends)."""

    status: HTTPStatus
    headers: dict[str, str] = field(default_factory=dict[str, str])
    body: bytes = b""
    stream: StreamBody | None = None


_COMMON = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


class AppSite:
    """The views' routes on the two origins; ``add`` and ``remove`` a ``ViewChannel``."""

    def __init__(
        self,
        *,
        host_authority: str,
        sandbox_authority: str,
        scheme: str = "http",
        frame_ancestors: Sequence[str] = (),
    ) -> None:
        if host_authority.lower() == sandbox_authority.lower():
            raise ValueError("the host page and the views' sandbox need two different origins")
        self.host_authority = host_authority
        self.sandbox_authority = sandbox_authority
        self.scheme = scheme
        self.frame_ancestors: tuple[str, ...] = tuple(frame_ancestors)
        """Origins allowed to frame the host page (a web app that embeds it); none by default."""
        self._views: list[ViewChannel] = []

    @property
    def host_origin(self) -> str:
        return f"{self.scheme}://{self.host_authority}"

    @property
    def sandbox_origin(self) -> str:
        return f"{self.scheme}://{self.sandbox_authority}"

    def page_url(self, view: ViewChannel) -> str:
        return f"{self.host_origin}/{view.token}"

    def proxy_url(self, view: ViewChannel) -> str:
        return f"{self.sandbox_origin}/{view.sandbox_token}"

    def add(self, view: ViewChannel) -> None:
        self._views.append(view)

    def remove(self, view: ViewChannel) -> None:
        if view in self._views:
            self._views.remove(view)

    # ------------------------------------------------------------------ routing

    async def respond(self, request: Request) -> Response:
        """The response to one request; never raises for anything a browser can send."""
        host = request.headers.get("host", "").lower()
        if host == self.host_authority.lower():
            return self._host_route(request)
        if host == self.sandbox_authority.lower():
            return self._sandbox_route(request)
        return _plain(HTTPStatus.MISDIRECTED_REQUEST, f"This server only answers as {self.host_origin}.")

    def _host_route(self, request: Request) -> Response:
        token, _, rest = request.path[1:].partition("/")
        view = _find(self._views, token, lambda v: v.token)
        if view is None or rest not in ("", "messages", "events"):
            return _plain(HTTPStatus.NOT_FOUND, "Not found.")
        if rest == "":
            if request.method not in ("GET", "HEAD"):
                return _plain(HTTPStatus.METHOD_NOT_ALLOWED, "Use GET.", allow="GET, HEAD")
            response = self._page(view)
            if request.method == "HEAD":
                response.headers["Content-Length"] = str(len(response.body))
                response.body = b""
            return response
        if rest == "messages":
            if request.method != "POST":
                return _plain(HTTPStatus.METHOD_NOT_ALLOWED, "Use POST.", allow="POST")
            return self._messages(view, request)
        if request.method != "GET":
            return _plain(HTTPStatus.METHOD_NOT_ALLOWED, "Use GET.", allow="GET")
        return self._events(view)

    def _sandbox_route(self, request: Request) -> Response:
        view = _find(self._views, request.path[1:], lambda v: v.sandbox_token)
        if view is None:
            return _plain(HTTPStatus.NOT_FOUND, "Not found.", frame_ancestors=self._proxy_ancestors())
        if request.method not in ("GET", "HEAD"):
            return _plain(HTTPStatus.METHOD_NOT_ALLOWED, "Use GET.", allow="GET, HEAD")
        body = render_proxy(host_origin=self.host_origin, sandbox="allow-scripts", allow=view.allow).encode()
        headers = {
            "Content-Type": "text/html; charset=utf-8",
            "Content-Security-Policy": view.proxy_csp,
            **_COMMON,
            "Referrer-Policy": "no-referrer",
        }
        if request.method == "HEAD":
            headers["Content-Length"] = str(len(body))
            body = b""
        return Response(HTTPStatus.OK, headers, body)

    def _proxy_ancestors(self) -> Sequence[str]:
        return (self.host_origin,)

    # ------------------------------------------------------------------ host routes

    def _page(self, view: ViewChannel) -> Response:
        nonce = secrets.token_urlsafe(18)
        if view.closed.is_set():
            body = render_notice(view.title, view.closed_text, nonce=nonce)
        else:
            base = "/" + view.token
            body = render_host_page(
                title=view.title,
                server=view.server,
                theme=view.theme,
                nonce=nonce,
                proxy_url=self.proxy_url(view),
                allow=view.allow,
                border=view.border,
                config={
                    "sandboxOrigin": self.sandbox_origin,
                    "messages": base + "/messages",
                    "events": base + "/events",
                    "csrf": view.csrf,
                    "batch": BATCH,
                    "maxQueued": 4 * BATCH,
                },
            )
        ancestors = " ".join(self.frame_ancestors) or "'none'"
        headers = {
            "Content-Type": "text/html; charset=utf-8",
            "Content-Security-Policy": (
                f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
                f"connect-src 'self'; frame-src {self.sandbox_origin}; form-action 'none'; "
                f"base-uri 'none'; frame-ancestors {ancestors}"
            ),
            **_COMMON,
            "Cross-Origin-Opener-Policy": "same-origin",
        }
        if not self.frame_ancestors:
            headers["X-Frame-Options"] = "DENY"
        return Response(HTTPStatus.OK, headers, body.encode("utf-8"))

    def _messages(self, view: ViewChannel, request: Request) -> Response:
        origin = request.headers.get("origin")
        if origin is None or origin.lower() != self.host_origin.lower():
            return _plain(HTTPStatus.FORBIDDEN, "Messages are accepted from the view's page only.")
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return _plain(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "Send JSON.")
        try:
            batch = json.loads(request.body)
        except ValueError:
            return _plain(HTTPStatus.BAD_REQUEST, "The body is not JSON.")
        if not isinstance(batch, dict):
            return _plain(HTTPStatus.BAD_REQUEST, "Send an object with csrf and messages.")
        csrf = batch.get("csrf")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        messages = batch.get("messages")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        if not isinstance(csrf, str) or not hmac.compare_digest(csrf.encode(), view.csrf.encode()):
            return _plain(HTTPStatus.FORBIDDEN, "This page is out of date: reload it.")
        if not isinstance(messages, list) or len(messages) > 4 * BATCH:  # pyright: ignore[reportUnknownArgumentType]
            return _plain(HTTPStatus.BAD_REQUEST, f"messages must be a list of at most {4 * BATCH}.")
        queued = view.accept(messages)  # pyright: ignore[reportUnknownArgumentType]
        body = json.dumps({"queued": queued}).encode()
        return Response(HTTPStatus.OK, {"Content-Type": "application/json", **_COMMON}, body)

    def _events(self, view: ViewChannel) -> Response:
        async def stream(write: Write) -> None:
            await write(b"retry: 1000\n\n")
            await view.pump(write)

        headers = {"Content-Type": "text/event-stream", **_COMMON}
        return Response(HTTPStatus.OK, headers, stream=stream)


def _find(views: list[ViewChannel], token: str, key: Callable[[ViewChannel], str]) -> ViewChannel | None:
    """The view whose secret ``key`` is ``token``, compared in constant time."""
    found = None
    presented = token.encode("utf-8", "surrogateescape")
    for view in views:
        if hmac.compare_digest(presented, key(view).encode()):
            found = view
    return found


def _plain(
    status: HTTPStatus, text: str, *, allow: str | None = None, frame_ancestors: Sequence[str] = ()
) -> Response:
    headers = {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Security-Policy": "default-src 'none'; frame-ancestors "
        + (" ".join(frame_ancestors) or "'none'"),
        **_COMMON,
    }
    if allow is not None:
        headers["Allow"] = allow
    return Response(status, headers, (text + "\n").encode("utf-8"))
