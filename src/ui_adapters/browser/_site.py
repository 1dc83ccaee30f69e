"""The pages of one question, and the checks every request passes before it is served.

One ``QuestionSite`` exists per question, on its own loopback port, reachable under a fresh
unguessable path token. Every request, the page itself included, must name this server in its
``Host`` header (a DNS-rebinding page on another name is refused) and use the token (anything else is
a 404). The answer must be posted with this page's CSRF token, from this origin. Responses carry a
strict Content-Security-Policy: nothing may load from anywhere, and only scripts and styles that carry
this response's nonce run.

Routes, under ``/<token>``: ``GET`` the form (or what became of the question), ``POST`` the answer,
``GET /<token>/events`` an event stream the page keeps open: while one is open the tab is there, and
when the question is closed elsewhere the page is told.
"""

from __future__ import annotations

import hmac
import logging
import secrets
from http import HTTPStatus
from typing import Protocol

import anyio
from anyio.abc import ByteStream
from anyio.streams.buffered import BufferedByteReceiveStream

from mcp_client.schema import FormSchema
from mcp_client.types import ElicitResult
from ui_adapters.broker.pending import PendingQuestion
from ui_adapters.browser._http import BadRequest, Request, response_head, send_response
from ui_adapters.browser._loopback import read_in_time, serve_connection, until_hung_up
from ui_adapters.browser._page import render_closed, render_form, render_notice
from ui_adapters.browser._submission import Submission, parse_submission, read_answer

__all__ = ["PageSite", "Presence", "QuestionSite", "Settles"]

logger = logging.getLogger("ui_adapters.browser")


class Presence:
    """How many copies of the page hold their event stream open: none after some means the tab closed."""

    def __init__(self) -> None:
        self.open_pages = 0
        self.ever_open = False
        self._changed = anyio.Event()

    @property
    def abandoned(self) -> bool:
        """True when a page was open and none is now."""
        return self.ever_open and self.open_pages == 0

    def enter(self) -> None:
        self.open_pages += 1
        self.ever_open = True
        self._signal()

    def leave(self) -> None:
        self.open_pages -= 1
        self._signal()

    async def changed(self) -> None:
        """Wait for the next page to open or close."""
        await self._changed.wait()

    def _signal(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()


class Settles(Protocol):
    """What a site serves a page for: a question or an approval that is settled once, then closed."""

    @property
    def status(self) -> str: ...

    @property
    def is_pending(self) -> bool: ...

    async def wait(self) -> object: ...


class PageSite:
    """The machinery every page of ours shares: the token path, the Host check, the event stream, the
    headers. A subclass serves the page (``_page``), takes the post (``_post``, after checking the CSRF
    token and the origin itself) and says what a closed tab means (``abandon``)."""

    def __init__(self, item: Settles, *, authority: str) -> None:
        self.item = item
        self.authority = authority
        """``host:port`` as the page's URL has it: the only ``Host`` header served."""
        self.token = secrets.token_urlsafe(24)
        self.csrf = secrets.token_urlsafe(24)
        self.presence = Presence()

    def abandon(self) -> None:
        """Every copy of the page was closed: settle the item as a person walking away would."""
        raise NotImplementedError

    async def _page(self, stream: ByteStream, request: Request) -> None:
        raise NotImplementedError

    async def _post(self, stream: ByteStream, request: Request) -> None:
        raise NotImplementedError

    @property
    def url(self) -> str:
        return f"http://{self.authority}/{self.token}"

    @property
    def origin(self) -> str:
        return f"http://{self.authority}"

    async def handle(self, stream: ByteStream) -> None:
        """Serve one connection (one request); never raises for anything a browser can send."""
        await serve_connection(stream, self._handle, logger, "the question page failed to answer a request")

    def csrf_matches(self, token: str) -> bool:
        """The posted token is this page's (compared in constant time)."""
        return hmac.compare_digest(token.encode(), self.csrf.encode())

    def same_origin(self, request: Request) -> bool:
        """No ``Origin`` (an old browser, a plain form post) or this page's own."""
        origin = request.headers.get("origin")
        return origin is None or origin.lower() == self.origin.lower()

    async def _handle(self, stream: ByteStream) -> None:
        reader = BufferedByteReceiveStream(stream)
        try:
            request = await read_in_time(reader)
        except BadRequest as exc:
            await self._plain(stream, exc.status, str(exc))
            return
        if request is None:
            return
        host = request.headers.get("host", "")
        if host.lower() != self.authority.lower():
            await self._plain(
                stream, HTTPStatus.MISDIRECTED_REQUEST, "This page is only served as " + self.origin + "."
            )
            return
        base = "/" + self.token
        if _same(request.path, base):
            if request.method in ("GET", "HEAD"):
                await self._page(stream, request)
            elif request.method == "POST":
                await self._post(stream, request)
            else:
                await self._plain(
                    stream, HTTPStatus.METHOD_NOT_ALLOWED, "Use GET or POST.", allow="GET, HEAD, POST"
                )
        elif _same(request.path, base + "/events"):
            if request.method == "GET":
                await self._events(stream, reader)
            else:
                await self._plain(stream, HTTPStatus.METHOD_NOT_ALLOWED, "Use GET.", allow="GET")
        else:
            await self._plain(stream, HTTPStatus.NOT_FOUND, "Not found.")

    async def _events(self, stream: ByteStream, reader: BufferedByteReceiveStream) -> None:
        """Hold an event stream open until the tab goes away or the question is closed."""
        headers = {
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        }
        self.presence.enter()
        try:
            await stream.send(response_head(HTTPStatus.OK, headers, length=None) + b"retry: 1000\n\n")
            async with anyio.create_task_group() as tg:

                async def until_gone() -> None:
                    await until_hung_up(reader)
                    tg.cancel_scope.cancel()

                async def until_closed() -> None:
                    await self.item.wait()
                    await stream.send(f"event: closed\ndata: {self.item.status}\n\n".encode())
                    tg.cancel_scope.cancel()

                tg.start_soon(until_gone)
                tg.start_soon(until_closed)
        finally:
            self.presence.leave()

    async def _html(
        self, stream: ByteStream, status: HTTPStatus, body: str, nonce: str, *, head_only: bool = False
    ) -> None:
        headers = {
            "Content-Type": "text/html; charset=utf-8",
            "Content-Security-Policy": (
                f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
                "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
            ),
            **_COMMON_HEADERS,
        }
        encoded = body.encode("utf-8")
        if head_only:
            await stream.send(response_head(status, headers, length=len(encoded)))
        else:
            await send_response(stream, status, headers, encoded)

    async def _plain(
        self, stream: ByteStream, status: HTTPStatus, text: str, *, allow: str | None = None
    ) -> None:
        headers = {
            "Content-Type": "text/plain; charset=utf-8",
            "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
            **_COMMON_HEADERS,
        }
        if allow is not None:
            headers["Allow"] = allow
        await send_response(stream, status, headers, (text + "\n").encode("utf-8"))


class QuestionSite(PageSite):
    """Serves one question's pages; see the module docstring for the routes and checks."""

    def __init__(self, question: PendingQuestion, form: FormSchema, *, authority: str) -> None:
        super().__init__(question, authority=authority)
        self.question = question
        self.form = form

    def abandon(self) -> None:
        self.question.settle(ElicitResult(action="cancel"))

    # ------------------------------------------------------------------------------------ routes

    async def _page(self, stream: ByteStream, request: Request) -> None:
        nonce = _nonce()
        if self.question.is_pending:
            body = self._form_page(nonce)
        else:
            body = render_closed(self.question, nonce=nonce)
        await self._html(stream, HTTPStatus.OK, body, nonce, head_only=request.method == "HEAD")

    async def _post(self, stream: ByteStream, request: Request) -> None:
        if not self.same_origin(request):
            await self._plain(stream, HTTPStatus.FORBIDDEN, "Answers are accepted from this page only.")
            return
        try:
            submission = parse_submission(request.headers.get("content-type"), request.body)
        except BadRequest as exc:
            await self._plain(stream, exc.status, str(exc))
            return
        nonce = _nonce()
        if not self.csrf_matches(submission.csrf):
            await self._html(
                stream,
                HTTPStatus.FORBIDDEN,
                render_notice(
                    "This form is out of date",
                    "The answer did not come from the current page of this question. Reload the page "
                    "and answer again.",
                    nonce=nonce,
                ),
                nonce,
            )
            return
        question = self.question
        if not question.is_pending:
            await self._html(stream, HTTPStatus.CONFLICT, render_closed(question, nonce=nonce), nonce)
            return
        if submission.action != "accept":
            question.settle(ElicitResult(action=submission.action))
            await self._html(stream, HTTPStatus.OK, render_closed(question, nonce=nonce), nonce)
            return
        content, errors = read_answer(self.form, submission)
        if errors:
            body = self._form_page(nonce, submission=submission, errors=errors)
            await self._html(stream, HTTPStatus.UNPROCESSABLE_ENTITY, body, nonce)
            return
        # The answer passed the form model; the client checks it once more before sending.
        question.settle(question.check_answer(content))
        await self._html(stream, HTTPStatus.OK, render_closed(question, nonce=nonce), nonce)

    # ----------------------------------------------------------------------------------- helpers

    def _form_page(
        self, nonce: str, *, submission: Submission | None = None, errors: dict[str, str] | None = None
    ) -> str:
        return render_form(
            self.question,
            self.form,
            nonce=nonce,
            csrf=self.csrf,
            action="/" + self.token,
            events="/" + self.token + "/events",
            submission=submission,
            errors=errors,
        )


_COMMON_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # "no-referrer" would make the browser send "Origin: null"
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def _same(path: str, expected: str) -> bool:
    """Compare a request path with a secret one in constant time."""
    return hmac.compare_digest(path.encode("utf-8", "surrogateescape"), expected.encode())


def _nonce() -> str:
    return secrets.token_urlsafe(18)
