"""The browser step of an OAuth login, in the terminal: ``authorize=`` for ``mcp_client.auth.OAuth``.

::

    from mcp_client.auth import FileTokenStorage, OAuth
    from ui_adapters.login import browser_login

    auth = OAuth("My App", authorize=browser_login(), storage=FileTokenStorage())

``mcp_client.auth`` has no user interface: without an ``authorize`` callback a login ends in an
``OAuthError`` that points here. ``BrowserLogin`` shows the login page's link exactly as the URL
adapter shows links (the real host highlighted, warnings for deceptive links), asks before opening
the system browser, and then waits for the browser to come back on the loopback redirect URI. On a
machine with no browser (an SSH session, a container) it says so, and the person opens the link on
any device and pastes back the address the browser ends up on; the listener keeps waiting too, for
those who forwarded the port. The ``state`` of the login is checked before anything is accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final
from urllib.parse import parse_qs, urlsplit

import anyio
import sniffio
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from rich.console import Console
from rich.text import Text

from mcp_client import OAuthError
from mcp_client.auth import login_reason
from ui_adapters._terminal_prompt import prompt_line
from ui_adapters._url_safety import UrlInspection, inspect_url
from ui_adapters.login._listener import RedirectListener, listen_for_redirect
from ui_adapters.text import sanitize
from ui_adapters.url import browser_available, default_open_browser, print_link

__all__ = ["BrowserLogin", "browser_login"]

_YES: Final = frozenset({"y", "yes"})
_MAX_PASTES: Final = 5
_MAX_NAME: Final = 200


class BrowserLogin:
    """An ``authorize`` callback that logs a person in through their browser, from the terminal.

    ``server`` names what is being logged in to in the heading (optional). ``open_browser`` opens a
    URL and says whether it could (default: the system browser, never a text browser in this
    terminal); ``print_only`` never opens anything. ``timeout`` bounds the wait for the person (seconds,
    ``None`` for no bound). ``console``, ``input`` and ``output`` are as for ``UrlAdapter``. Declining,
    Ctrl-C, end of input and the timeout end the login with an ``OAuthError``.
    """

    def __init__(
        self,
        *,
        server: str | None = None,
        console: Console | None = None,
        input: Input | None = None,
        output: Output | None = None,
        open_browser: Callable[[str], bool] | None = None,
        print_only: bool = False,
        timeout: float | None = 300.0,
    ) -> None:
        self.server = server
        self._console = console if console is not None else Console(stderr=True, highlight=False)
        self._input = input
        self._output = output
        self._open_browser = open_browser
        self._print_only = print_only
        self._timeout = timeout

    async def __call__(self, authorization_url: str) -> str:
        inspection = inspect_url(authorization_url)
        if inspection.refusal is not None:
            self._show(authorization_url, inspection)
            self._console.print(Text.assemble(("✗ Not opened: ", "bold red"), inspection.refusal))
            raise OAuthError(f"the login page's link was refused: {inspection.refusal}")
        query = parse_qs(urlsplit(authorization_url).query)
        redirect_uri = query.get("redirect_uri", [""])[0]
        state = query.get("state", [None])[0]
        async with listen_for_redirect(redirect_uri, state) as listener:
            # The link is shown once the listener is up: a quick browser must find it listening.
            self._show(authorization_url, inspection)
            opened = await self._maybe_open(authorization_url)
            self._explain_wait(opened, listener, redirect_uri)
            redirect = ""
            with anyio.move_on_after(self._timeout) as waiting:
                redirect = await self._wait(listener, state)
            if waiting.cancelled_caught:
                self._console.print(Text("No login arrived in time.", style="yellow"))
                raise OAuthError(f"no login arrived within {self._timeout:g} seconds; try again")
        self._console.print(Text("✓ The browser came back; finishing the login…", style="green"))
        return redirect

    # ---------------------------------------------------------------------------------------- screen

    def _show(self, url: str, inspection: UrlInspection) -> None:
        name = sanitize(self.server or "", max_length=_MAX_NAME, single_line=True)
        title = f"Log in to {name}" if name else "Log in"
        self._console.rule(Text(title), align="left", style="cyan")
        reason = login_reason()  # why now: a first login, a refused saved login, more permission...
        why = reason.describe() if reason is not None else "This server needs you to log in."
        self._console.print(Text(why + " The login page is:"))
        print_link(self._console, url, inspection)

    async def _maybe_open(self, url: str) -> bool:
        can_open = self._open_browser is not None or browser_available()
        if self._print_only or not can_open:
            return False
        try:
            answer = await prompt_line(
                "Open the login page in your browser? [y/N] ",
                input=self._input,
                output=self._output,
                console=self._console,
            )
        except (KeyboardInterrupt, EOFError):
            raise self._cancelled() from None
        if answer.strip().lower() not in _YES:
            self._console.print(Text("Not opened.", style="dim"))
            return False
        opener = self._open_browser or default_open_browser
        try:
            # webbrowser may start a process and wait for it: keep it off the event loop.
            return bool(await anyio.to_thread.run_sync(opener, url))
        except Exception:  # a broken opener must not end the login: the link is on screen
            return False

    def _explain_wait(self, opened: bool, listener: RedirectListener | None, redirect_uri: str) -> None:
        console = self._console
        if opened:
            console.print(
                Text("Opened in your browser. Log in there; this terminal waits for it.", style="green")
            )
            return
        if not self._print_only and self._open_browser is None and not browser_available():
            console.print(Text("No browser can be opened on this machine.", style="bold"))
        console.print(
            Text(
                "Open the link above in a browser on any device and log in. The browser then goes to an "
                f"address starting with {redirect_uri or 'the redirect URI'}; it may show an error page "
                "there. Copy that whole address from its address bar and paste it here."
            ),
            soft_wrap=False,
        )

    # ------------------------------------------------------------------------------------------ wait

    async def _wait(self, listener: RedirectListener | None, state: str | None) -> str:
        asyncio = sniffio.current_async_library() == "asyncio"
        if listener is not None and not asyncio:
            return await listener.wait()  # a prompt in a worker thread could not be taken back
        if listener is None:
            return await self._paste(state)
        result: list[str] = []
        failure: list[OAuthError] = []
        async with anyio.create_task_group() as tg:

            async def from_browser() -> None:
                result.append(await listener.wait())
                tg.cancel_scope.cancel()

            async def from_person() -> None:
                try:
                    result.append(await self._paste(state))
                except OAuthError as exc:  # raised below, not wrapped in an ExceptionGroup
                    failure.append(exc)
                tg.cancel_scope.cancel()

            tg.start_soon(from_browser)
            tg.start_soon(from_person)
        if failure:
            raise failure[0]
        return result[0]

    async def _paste(self, state: str | None) -> str:
        for _ in range(_MAX_PASTES):
            try:
                line = await prompt_line(
                    "Paste the address here (Ctrl-C cancels): ",
                    input=self._input,
                    output=self._output,
                    console=self._console,
                )
            except (KeyboardInterrupt, EOFError):
                raise self._cancelled() from None
            text = line.strip()
            if not text:
                continue
            params = parse_qs(urlsplit(text).query if "?" in text else text)
            if "code" not in params and "error" not in params:
                self._console.print(
                    Text("That is not the address the login sent the browser to (it has no code).", "yellow")
                )
                continue
            if state is not None and params.get("state", [None])[0] != state:
                self._console.print(Text("That address belongs to another login attempt.", style="yellow"))
                continue
            return text
        raise OAuthError("the login was abandoned: no usable address was pasted")

    def _cancelled(self) -> OAuthError:
        self._console.print(Text("Login cancelled.", style="yellow"))
        return OAuthError("the login was cancelled", error="cancelled")


def browser_login(**options: object) -> BrowserLogin:
    """``BrowserLogin(**options)``: the terminal browser step for ``OAuth(authorize=...)``."""
    return BrowserLogin(**options)  # type: ignore[arg-type]
