"""Ask a person, in the terminal, whether to open the web page a server wants them to visit.

URL-mode elicitation sends the user out of band (a payment page, an OAuth sign-in), so the client must
never fetch the link itself, must show the full link with its real host, must warn about links built
to deceive, and must open it only after explicit consent (MCP spec, "Elicitation", URL mode). The
judging is done by ``ui_adapters._url_safety``; this module shows its verdict and asks.

``accept`` only means "the user agreed to open it". In the legacy era the server finishes the step only
after that answer, so the callback returns right after consent; waiting for the server's
``notifications/elicitation/complete`` is separate (``on_elicitation_complete``, ``wait_for_completion``).
"""

from __future__ import annotations

import os
import sys
import webbrowser
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import anyio
import sniffio
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from rich.console import Console
from rich.text import Text

from mcp_client import ClientRequestContext
from mcp_client.types import ElicitRequestParams, ElicitRequestURLParams, ElicitResult
from ui_adapters._terminal_prompt import prompt_line
from ui_adapters._url_safety import MAX_URL_LENGTH, UrlInspection, inspect_url, visible_url
from ui_adapters.text import sanitize

__all__ = ["UrlAdapter", "browser_available", "default_open_browser", "print_link"]

_MAX_MESSAGE: Final = 4000
_MAX_NAME: Final = 200
_MAX_SHOWN_URL: Final = 300
_MAX_REMEMBERED: Final = 256
_YES: Final = frozenset({"y", "yes"})
_NO: Final = frozenset({"", "n", "no"})
_MAX_ATTEMPTS: Final = 3
_CONSENT_KEYS: Final = "y open it · Enter/n/Ctrl-N do not · Esc/Ctrl-C cancel"
_DONE_KEYS: Final = "Enter/y go on · n/Ctrl-N/Esc/Ctrl-C stop"


@dataclass(slots=True)
class _Pending:
    """A legacy URL elicitation awaiting the server's completion notification."""

    host: str | None
    event: anyio.Event


def browser_available() -> bool:
    """False where no graphical browser can open: Linux without a display (SSH) and without ``$BROWSER``."""
    return not sys.platform.startswith("linux") or any(
        os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")
    )


def default_open_browser(url: str) -> bool:
    """Open ``url`` in a new tab of the system browser; ``False`` when there is no graphical browser.

    ``webbrowser`` falls back to text browsers (lynx, w3m) when no display is set, which would take over
    the very terminal the client runs in; on such a machine (an SSH session, say) the link is printed
    instead. Setting ``$BROWSER`` overrides the guess.
    """
    if not browser_available():
        return False
    return webbrowser.open(url, new=2)


def print_link(console: Console, url: str, inspection: UrlInspection | None = None) -> None:
    """Show a link the way every adapter here does: the full link, then its real host highlighted, then
    the warnings; a refused link only with its hidden characters spelled out. ``inspection`` is the
    link's judgement when already made (``None``: judged here)."""
    if inspection is None:
        inspection = inspect_url(url)
    if inspection.refusal is not None:
        shown = visible_url(url, max_length=_MAX_SHOWN_URL)
        console.print(Text.assemble(("Link (hidden characters spelled out): ", "dim"), shown), soft_wrap=True)
        return
    # The full link on one logical line (soft wrap: no inserted breaks, so it copies intact), then the
    # host alone, highlighted: the one thing to check before saying yes.
    console.print(Text.assemble(("Link: ", "dim"), url), soft_wrap=True)
    site = Text.assemble(("Site: ", "dim"), (f" {inspection.host} ", "bold black on yellow"))
    if inspection.unicode_host is not None:
        site.append(f"  (displayed as {inspection.unicode_host})", style="dim")
    console.print(site, soft_wrap=True)
    for warning in inspection.warnings:
        console.print(Text.assemble(("⚠ ", "bold yellow"), (warning.message, "yellow")))


class UrlAdapter:
    """Elicitation callback for URL questions: show the link, warn, ask (default No), open on consent.

    Returns ``accept`` after consent (the link is opened with ``open_browser``, or only printed when
    ``print_only`` is set or no browser could be opened), ``decline`` when the user says no or the link
    is refused (a scheme other than http/https, hidden characters, longer than ``max_url_length``...),
    and ``cancel`` on Ctrl-C or end of input. It never fetches the link.

    ``console`` receives the output (a rich ``Console``); ``input``/``output`` are prompt_toolkit's (tests
    pass ``create_pipe_input()`` and ``DummyOutput()``). Questions are asked one at a time. The
    prompt runs natively on asyncio; on other anyio backends it runs in a worker thread.

    Pass ``adapter.on_elicitation_complete`` as the client's ``elicitation_complete_callback`` to learn
    when a legacy server says the out-of-band step is done; ``wait_for_completion`` waits for that.
    After consent to a legacy link, the adapter says the server will report when the step is done;
    ``announce_completion=False`` leaves that out, for programs that may be gone by then (a one-shot
    command). ``wait_until_done`` is the step after a ``-32042`` error: the person says when they are
    done (or the server confirms), then the program calls the tool again.
    """

    elicitation_modes: frozenset[str] = frozenset({"url"})

    def __init__(
        self,
        *,
        console: Console | None = None,
        input: Input | None = None,
        output: Output | None = None,
        open_browser: Callable[[str], bool] | None = None,
        print_only: bool = False,
        max_url_length: int = MAX_URL_LENGTH,
        completion_timeout: float | None = None,
        announce_completion: bool = True,
    ) -> None:
        self._console = console if console is not None else Console(highlight=False)
        self._input = input
        self._output = output
        self._open_browser = open_browser if open_browser is not None else default_open_browser
        self._print_only = print_only
        self._max_url_length = max_url_length
        self._completion_timeout = completion_timeout
        self._announce_completion = announce_completion
        self._lock: anyio.Lock | None = None
        # Legacy elicitation ids the user consented to (or someone waits for); bounded, oldest dropped.
        self._pending: OrderedDict[str, _Pending] = OrderedDict()

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        if not isinstance(params, ElicitRequestURLParams):
            self._console.print(Text("A form question reached the link handler; it was declined.", "red"))
            return ElicitResult(action="decline")
        async with self._terminal():
            return await self._ask(context, params)

    async def on_elicitation_complete(self, elicitation_id: str) -> None:
        """The server says the step behind ``elicitation_id`` is done: stop waiting for it.

        Unknown and already completed ids are ignored, as the spec requires.
        """
        entry = self._pending.get(elicitation_id)
        if entry is None or entry.event.is_set():
            return
        entry.event.set()
        line = Text("✓ ", style="green")
        line.append(entry.host or "The site", style="bold")
        line.append(" is done (the server confirmed it).")
        self._console.print(line)

    elicitation_complete_callback = on_elicitation_complete

    def is_complete(self, elicitation_id: str) -> bool:
        """True once the server has confirmed ``elicitation_id`` (legacy completion notification)."""
        entry = self._pending.get(elicitation_id)
        return entry is not None and entry.event.is_set()

    async def wait_for_completion(self, elicitation_id: str, *, stop_key: bool = True) -> bool:
        """Wait until the server confirms ``elicitation_id``; True if it did, False if we stopped waiting.

        Shows "waiting for <host>…"; with ``stop_key`` the user can press Enter (or Ctrl-C) to stop
        waiting, and the adapter's ``completion_timeout`` (if set) bounds the wait; an enclosing
        ``anyio.move_on_after`` works too. Useful after a ``-32042`` error, before calling the tool again.
        Already confirmed: returns True at once. The stop key needs asyncio; elsewhere it just waits.
        """
        entry = self._remember(elicitation_id, None)
        host, event = entry.host or "the site", entry.event
        if event.is_set():
            return True
        with anyio.move_on_after(self._completion_timeout):
            if stop_key and sniffio.current_async_library() == "asyncio":
                # The stop prompt owns the terminal: another question from this adapter waits for it.
                async with self._terminal():
                    await self._wait_or_key(host, event)
            else:
                self._console.print(Text(f"Waiting for {host}…", style="dim"))
                await event.wait()
        return event.is_set()

    async def wait_until_done(self, elicitation_ids: Sequence[str], *, then: str) -> bool:
        """Ask the person to say when they are done with the links just opened; True to go on.

        Shows "When you are done, press Enter to <then>" (with the usual keys: n, Ctrl-N, Esc and
        Ctrl-C stop). True on Enter or y, or as soon as the server confirms every one of
        ``elicitation_ids`` (legacy completion notifications); False when the person stops or the
        input ends.
        """
        events = [self._remember(elicitation_id, None).event for elicitation_id in elicitation_ids]
        if events and all(event.is_set() for event in events):
            return True
        confirmed = False
        answer: str | None = None
        async with self._terminal(), anyio.create_task_group() as group:

            async def all_confirmed() -> None:
                nonlocal confirmed
                for event in events:
                    await event.wait()
                confirmed = True
                group.cancel_scope.cancel()

            if events:
                group.start_soon(all_confirmed)
            try:
                answer = await self._prompt(f"When you are done, press Enter to {then}. ", hint=_DONE_KEYS)
            except (KeyboardInterrupt, EOFError):
                answer = None
            group.cancel_scope.cancel()
        if confirmed:
            return True
        return answer is not None and answer.strip().lower() in _YES | {""}

    # ------------------------------------------------------------------------------------------ internals

    async def _ask(self, context: ClientRequestContext, params: ElicitRequestURLParams) -> ElicitResult:
        inspection = inspect_url(params.url, max_length=self._max_url_length)
        self._show_question(context, params, inspection)
        if inspection.refusal is not None:
            line = Text("✗ Not opened: ", style="bold red")
            line.append(inspection.refusal)
            self._console.print(line)
            return ElicitResult(action="decline")

        try:
            consented = await self._consent()
        except (KeyboardInterrupt, EOFError):
            self._console.print(Text("Cancelled.", style="yellow"))
            return ElicitResult(action="cancel")
        if not consented:
            self._console.print(Text("Not opened.", style="dim"))
            return ElicitResult(action="decline")

        await self._open(params.url)
        self._announce_wait(context, params, inspection)
        return ElicitResult(action="accept")

    def _show_question(
        self, context: ClientRequestContext, params: ElicitRequestURLParams, inspection: UrlInspection
    ) -> None:
        name = sanitize(context.server_name, max_length=_MAX_NAME, single_line=True) or "(unnamed server)"
        console = self._console
        console.rule(Text(f"{name} asks you to open a web page"), align="left", style="cyan")
        console.print(Text(sanitize(params.message, max_length=_MAX_MESSAGE) or "(no message)"))
        console.print()
        print_link(console, params.url, inspection)

    async def _consent(self, question: str | None = None) -> bool:
        """Ask yes/no, default No; raise KeyboardInterrupt / EOFError when the user backs out.

        ``y`` is confirmed with Enter, as a form's yes/no is: a key that answered at once would leave
        the Enter of a habitual "y, Enter" to the next prompt ("press Enter when you are done", which
        would then call the tool again before the page was visited).
        """
        if question is None:  # ``question``: another thing to open (a tool's view, ``app_offer``)
            question = "Open this link in your browser? [y/N] "
            if self._print_only:
                question = "Will you open this link yourself? [y/N] "
        for _ in range(_MAX_ATTEMPTS):
            answer = (await self._prompt(question, hint=_CONSENT_KEYS)).strip().lower()
            if answer in _YES:
                return True
            if answer in _NO:
                return False
            self._console.print(Text("Please answer y (open it) or n (do not).", style="yellow"))
        return False

    async def _open(self, url: str) -> None:
        opened = False
        if not self._print_only:
            try:
                # webbrowser may start a process and wait for it: keep it off the event loop.
                opened = await anyio.to_thread.run_sync(self._open_browser, url)
            except Exception:  # a broken opener must not lose the user's consent
                opened = False
        if opened:
            self._console.print(Text("Opened in your browser.", style="green"))
            return
        prefix = "Open this link in your browser:" if self._print_only else "No browser could be opened."
        if not self._print_only:
            prefix += " Open this link yourself:"
        self._console.print(Text(prefix, style="bold"))
        self._console.print(Text(url), soft_wrap=True)

    def _announce_wait(
        self, context: ClientRequestContext, params: ElicitRequestURLParams, inspection: UrlInspection
    ) -> None:
        name = sanitize(context.server_name, max_length=_MAX_NAME, single_line=True) or "the server"
        if params.elicitation_id is None:
            self._console.print(
                Text(f"When you have finished on {inspection.host}, {name} will be asked again.", "dim")
            )
            return
        self._remember(params.elicitation_id, inspection.host)
        if self._announce_completion:
            self._console.print(
                Text(f"⏳ Waiting for {inspection.host}… {name} will say when the step is done.", "dim")
            )

    def _remember(self, elicitation_id: str, host: str | None) -> _Pending:
        """The pending entry for ``elicitation_id``, made if new; the host is filled in once known."""
        entry = self._pending.get(elicitation_id)
        if entry is None:
            entry = self._pending[elicitation_id] = _Pending(host, anyio.Event())
        elif entry.host is None:
            entry.host = host
        self._pending.move_to_end(elicitation_id)
        while len(self._pending) > _MAX_REMEMBERED:
            self._pending.popitem(last=False)
        return entry

    async def _wait_or_key(self, host: str, event: anyio.Event) -> None:
        async with anyio.create_task_group() as tg:

            async def _stop_when_done() -> None:
                await event.wait()
                tg.cancel_scope.cancel()

            tg.start_soon(_stop_when_done)
            try:
                await self._prompt(f"Waiting for {host}… press Enter to stop waiting. ")
            except (KeyboardInterrupt, EOFError):
                pass
            tg.cancel_scope.cancel()

    async def _prompt(self, question: str, *, hint: str | None = None) -> str:
        return await prompt_line(
            question,
            hint=hint,
            input=self._input,
            output=self._output,
            decline_key=True,
            console=self._console,
        )

    def _terminal(self) -> anyio.Lock:
        """One question at a time: two prompts at once would garble the terminal."""
        if self._lock is None:
            self._lock = anyio.Lock()
        return self._lock
