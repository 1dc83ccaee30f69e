"""``browser_approval()``: the app asks in a browser page whether a tool call may run.

An ``approval_callback`` (``Client(..., tool_policy=..., approval_callback=browser_approval())``) on the
browser form's page machinery (``_site.PageSite``): one short-lived server of ours on loopback per
approval, an unguessable path, the ``Host`` header checked on every request (DNS rebinding), the
decision accepted only as a form post with this page's CSRF token from this origin, a strict
Content-Security-Policy. The page says the app asks, shows the call (server, tool, arguments folded,
the server's title and description quoted as its claims), four buttons and a note. Closing the tab,
or the timeout, denies the call.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from http import HTTPStatus
from urllib.parse import parse_qs

import anyio
from anyio.abc import ByteStream

from mcp_client import ApprovalRequest, ApprovalResult, ClientRequestContext
from ui_adapters.broker.approval import PendingApproval, no_answer_within
from ui_adapters.browser._adapter import check_page_times, loopback, open_page, run_site
from ui_adapters.browser._approval_page import CHOICE_VALUES, render_approval, render_approval_closed
from ui_adapters.browser._http import BadRequest, Request
from ui_adapters.browser._loopback import listen
from ui_adapters.browser._page import render_notice
from ui_adapters.browser._site import PageSite

__all__ = ["BrowserApproval", "browser_approval"]

_FLUSH_SECONDS = 5.0
_MAX_NOTE = 2000


class ApprovalSite(PageSite):
    """Serves one approval's page; the routes and checks are ``PageSite``'s."""

    def __init__(self, approval: PendingApproval, *, authority: str) -> None:
        super().__init__(approval, authority=authority)
        self.approval = approval

    def abandon(self) -> None:
        self.approval.settle(ApprovalResult(decision="deny", note="the approval page was closed"))

    async def _page(self, stream: ByteStream, request: Request) -> None:
        nonce = _nonce()
        if self.approval.is_pending:
            body = render_approval(
                self.approval,
                nonce=nonce,
                csrf=self.csrf,
                action="/" + self.token,
                events="/" + self.token + "/events",
            )
        else:
            body = render_approval_closed(self.approval, nonce=nonce)
        await self._html(stream, HTTPStatus.OK, body, nonce, head_only=request.method == "HEAD")

    async def _post(self, stream: ByteStream, request: Request) -> None:
        if not self.same_origin(request):
            await self._plain(stream, HTTPStatus.FORBIDDEN, "Decisions are accepted from this page only.")
            return
        try:
            choice, csrf, note = _parse(request)
        except BadRequest as exc:
            await self._plain(stream, exc.status, str(exc))
            return
        nonce = _nonce()
        if not self.csrf_matches(csrf):
            notice = render_notice(
                "This page is out of date",
                "The decision did not come from the current page of this tool call. Reload the page "
                "and decide again.",
                nonce=nonce,
            )
            await self._html(stream, HTTPStatus.FORBIDDEN, notice, nonce)
            return
        approval = self.approval
        if not approval.is_pending:
            await self._html(
                stream, HTTPStatus.CONFLICT, render_approval_closed(approval, nonce=nonce), nonce
            )
            return
        if choice == "once" or choice == "session" or choice == "always":
            result = ApprovalResult(decision="allow", remember=choice, note=note)
        else:
            result = ApprovalResult(decision="deny", note=note)
        approval.settle(result)
        await self._html(stream, HTTPStatus.OK, render_approval_closed(approval, nonce=nonce), nonce)


class BrowserApproval:
    """An ``approval_callback`` that asks about each tool call in a browser page on this computer.

    ``open_browser``, ``host``, ``timeout`` and ``closed_tab_grace`` as for ``BrowserFormAdapter``: the
    page opens with ``webbrowser.open`` (or your hook: a notebook's IFrame, a desktop web view, a test),
    is served on loopback only, and a call nobody decides within ``timeout`` seconds, or whose page is
    closed, is denied (a timeout as ``ApprovalResult(asked=False, note="nobody answered within 600s")``:
    nobody decided).
    """

    def __init__(
        self,
        open_browser: Callable[[str], object] | None = None,
        host: str = "127.0.0.1",
        *,
        timeout: float | None = 600.0,
        closed_tab_grace: float = 3.0,
    ) -> None:
        check_page_times(timeout, closed_tab_grace)
        self._bind_host, self._url_host = loopback(host, "browser_approval")
        self.open_browser = open_browser
        self.timeout = timeout
        self.closed_tab_grace = closed_tab_grace

    async def __call__(self, context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        approval = PendingApproval(context, request, timeout=self.timeout)
        listener = listen(self._bind_host)
        try:
            port = int(listener.getsockname()[1])
            site = ApprovalSite(approval, authority=f"{self._url_host}:{port}")
            async with anyio.create_task_group() as tg:
                background = anyio.CancelScope()
                tg.start_soon(run_site, site, listener, tg, background, self.closed_tab_grace)
                try:
                    unopened = f"Open this page to allow or deny a tool call: {site.url}"
                    await open_page(self.open_browser, site.url, unopened)
                    with anyio.move_on_after(self.timeout if self.timeout is not None else math.inf):
                        await approval.wait()
                    # Nobody decided: the refusal must not say the user refused it (asked=False).
                    approval.settle(
                        ApprovalResult(decision="deny", note=no_answer_within(self.timeout), asked=False),
                        "timed-out",
                    )
                finally:
                    background.cancel()
                    tg.cancel_scope.deadline = anyio.current_time() + _FLUSH_SECONDS
        finally:
            approval.withdraw()
            listener.close()
        return approval.result or ApprovalResult(decision="deny")


def browser_approval(
    open_browser: Callable[[str], object] | None = None,
    host: str = "127.0.0.1",
    *,
    timeout: float | None = 600.0,
    closed_tab_grace: float = 3.0,
) -> BrowserApproval:
    """A ready ``approval_callback`` asking in a browser page (see ``BrowserApproval``)."""
    return BrowserApproval(open_browser, host, timeout=timeout, closed_tab_grace=closed_tab_grace)


def _parse(request: Request) -> tuple[str, str, str | None]:
    """``(choice, csrf, note)`` of a form post; ``BadRequest`` for anything else."""
    content_type = request.headers.get("content-type") or ""
    if content_type.split(";")[0].strip().lower() != "application/x-www-form-urlencoded":
        raise BadRequest("the decision must be posted as application/x-www-form-urlencoded")
    try:
        values = parse_qs(request.body.decode("utf-8"), keep_blank_values=True, max_num_fields=10)
    except (UnicodeDecodeError, ValueError):
        raise BadRequest("the posted form is not valid UTF-8 form data") from None
    choices = values.get("choice", [])
    if len(choices) != 1 or choices[0] not in (*CHOICE_VALUES, "deny"):
        raise BadRequest("the post must say which button was pressed: once, session, always or deny")
    tokens = values.get("csrf", [])
    notes = values.get("note", [])
    note = notes[0].strip()[:_MAX_NOTE] if len(notes) == 1 else ""
    return choices[0], tokens[0] if len(tokens) == 1 else "", note or None


def _nonce() -> str:
    return secrets.token_urlsafe(18)
