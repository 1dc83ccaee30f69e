"""``BrowserFormAdapter``: each form question as a page in the person's own browser.

For desktop and notebook users, where a terminal form would be out of place: the question opens as a
page served by a short-lived server of ours on loopback (one per question, on a port the system
picks, gone as soon as the question is settled). The page is the form with native inputs; the answer
comes back as an ordinary form post and is validated again here with the same form model before the
client gets it. Closing the tab cancels the question; so does the timeout.
"""

from __future__ import annotations

import inspect
import ipaddress
import logging
import math
import socket
import sys
import webbrowser
from collections.abc import Callable

import anyio
import anyio.abc

from mcp_client import ClientRequestContext
from mcp_client.types import ElicitRequestFormParams, ElicitRequestParams, ElicitResult
from ui_adapters.broker.pending import PendingQuestion
from ui_adapters.browser._loopback import accept_forever, listen
from ui_adapters.browser._site import PageSite, QuestionSite

__all__ = ["BrowserFormAdapter"]

logger = logging.getLogger("ui_adapters.browser")

_FLUSH_SECONDS = 5.0
"""After the question is settled, how long a request still being answered may take to finish."""


class BrowserFormAdapter:
    """An elicitation callback that asks each form question in a browser page on this computer.

    * ``open_browser(url)``: opens the page (sync or async); default ``webbrowser.open``, and if no
      browser can be started the link is printed on stderr. Pass your own to embed the page (a
      notebook's IFrame, a desktop app's web view) or to drive it in tests.
    * ``host``: the loopback address to serve on: ``"127.0.0.1"`` (default), ``"::1"`` or
      ``"localhost"``. Anything else is refused: the page is for the person at this computer only.
    * ``timeout``: seconds before an unanswered question is cancelled (``None``: no limit); closing
      the page's tab cancels it after ``closed_tab_grace`` seconds (a reload in that time does not).

    It declares form mode only: pair it with a URL adapter in an ``ElicitationRouter`` for links. A
    URL question that reaches it anyway is declined.
    """

    elicitation_modes: frozenset[str] = frozenset({"form"})

    def __init__(
        self,
        open_browser: Callable[[str], object] | None = None,
        host: str = "127.0.0.1",
        *,
        timeout: float | None = 600.0,
        closed_tab_grace: float = 3.0,
    ) -> None:
        check_page_times(timeout, closed_tab_grace)
        self._bind_host, self._url_host = loopback(host)
        self.open_browser = open_browser
        self.timeout = timeout
        self.closed_tab_grace = closed_tab_grace

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        if not isinstance(params, ElicitRequestFormParams):
            return ElicitResult(action="decline")
        question = PendingQuestion(context, params, timeout=self.timeout)
        assert question.form is not None
        listener = listen(self._bind_host)
        try:
            port = int(listener.getsockname()[1])
            site = QuestionSite(question, question.form, authority=f"{self._url_host}:{port}")
            async with anyio.create_task_group() as tg:
                background = anyio.CancelScope()
                tg.start_soon(run_site, site, listener, tg, background, self.closed_tab_grace)
                try:
                    unopened = (
                        f"Open this page to answer the question from {question.server_name}: {site.url}"
                    )
                    await open_page(self.open_browser, site.url, unopened)
                    with anyio.move_on_after(self.timeout if self.timeout is not None else math.inf):
                        await question.wait()
                    question.settle(ElicitResult(action="cancel"), "timed-out")
                finally:
                    # Stop accepting; let a response still being written (the "sent" page) finish.
                    background.cancel()
                    tg.cancel_scope.deadline = anyio.current_time() + _FLUSH_SECONDS
        finally:
            question.withdraw()
            listener.close()
        return question.result or ElicitResult(action="cancel")


async def open_page(open_browser: Callable[[str], object] | None, url: str, unopened: str) -> None:
    """Show the page at ``url``: through the app's ``open_browser`` hook (awaited if it returns an
    awaitable), else in the system browser; where no browser starts, ``unopened`` (a line that names the
    page and its URL) is printed to stderr, so the person can open it by hand."""
    if open_browser is not None:
        outcome = open_browser(url)
        if inspect.isawaitable(outcome):
            await outcome
        return
    opened = await anyio.to_thread.run_sync(webbrowser.open, url, abandon_on_cancel=True)
    if not opened:
        print(unopened, file=sys.stderr, flush=True)


async def run_site(
    site: PageSite,
    listener: socket.socket,
    handlers: anyio.abc.TaskGroup,
    scope: anyio.CancelScope,
    closed_tab_grace: float,
) -> None:
    """Accept connections (each served in ``handlers``) and watch for the tab closing, until ``scope``
    is cancelled."""
    with scope:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_watch_tab, site, closed_tab_grace)
            await accept_forever(listener, site.handle, handlers)


async def _watch_tab(site: PageSite, closed_tab_grace: float) -> None:
    """Abandon the page's item when every copy of its page has been closed for ``closed_tab_grace``."""
    presence = site.presence
    item = site.item
    while item.is_pending:
        if not presence.abandoned:
            await presence.changed()
            continue
        with anyio.move_on_after(closed_tab_grace):
            while presence.abandoned:
                await presence.changed()
        if presence.abandoned:
            site.abandon()
            return


def check_page_times(timeout: float | None, closed_tab_grace: float) -> None:
    """The ``timeout`` and ``closed_tab_grace`` of a page (a form or an approval), or ``ValueError``."""
    if timeout is not None and (not timeout > 0 or math.isinf(timeout)):
        raise ValueError(f"timeout must be a positive number of seconds or None; got {timeout!r}")
    if not closed_tab_grace >= 0:
        raise ValueError(f"closed_tab_grace must be 0 or more seconds; got {closed_tab_grace!r}")


def loopback(host: str, who: str = "BrowserFormAdapter") -> tuple[str, str]:
    """``(address to bind, host for the URL)``; ``ValueError`` for anything not on loopback."""
    if host == "localhost":
        return "127.0.0.1", "localhost"
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        address = None
    if address is None or not address.is_loopback:
        raise ValueError(
            f"{who} serves its pages on loopback only; host must be 127.0.0.1, ::1 or localhost, not {host!r}"
        )
    if address.version == 6:
        return str(address), f"[{address}]"
    return str(address), str(address)
