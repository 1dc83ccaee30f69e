"""A status line with a spinner while a call runs, out of the way whenever a question is on screen.

The spinner is redrawn by rich from a thread of its own; a form drawn at the same time would be
garbled. ``StatusAwareCallback`` wraps the elicitation callback: it pauses the status line before the
question is shown and resumes it once the question is answered. The status goes to stderr, and only
when stderr is a terminal, so piped output and logs never see it.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Generator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

from rich.text import Text

from mcp_client import ClientRequestContext, ElicitationCallback
from mcp_client.types import ElicitRequestParams, ElicitResult

if TYPE_CHECKING:
    from rich.console import Console
    from rich.status import Status

__all__ = ["StatusAwareCallback", "StatusLine", "terminal_ui"]


class StatusLine:
    """A rich status (spinner and text) on ``console`` that can be paused and resumed."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._status: Status | None = None
        self._paused = 0

    @contextmanager
    def show(self, text: str) -> Generator[None, None, None]:
        """Show ``text`` with a spinner for the duration of the block (on a terminal only)."""
        if not self._console.is_terminal:
            yield
            return
        status = self._console.status(Text(text), spinner="dots")
        self._status = status
        if not self._paused:
            status.start()
        try:
            yield
        finally:
            self._status = None
            status.stop()

    def update(self, text: str) -> None:
        """Change the text (no-op when nothing is shown)."""
        if self._status is not None:
            self._status.update(Text(text))

    def pause(self) -> None:
        """Take the status off the screen until the matching ``resume``; pauses nest."""
        self._paused += 1
        if self._paused == 1 and self._status is not None:
            self._status.stop()

    def resume(self) -> None:
        self._paused -= 1
        if self._paused == 0 and self._status is not None:
            self._status.start()


class StatusAwareCallback:
    """An elicitation callback that pauses ``status`` around ``inner`` (and declares ``inner``'s modes)."""

    def __init__(self, inner: ElicitationCallback, status: StatusLine) -> None:
        self._inner = inner
        self.status = status

    @property
    def elicitation_modes(self) -> frozenset[str]:
        modes = getattr(self._inner, "elicitation_modes", None)
        return frozenset({"form", "url"}) if modes is None else frozenset(str(m) for m in modes)

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.status.pause()
        try:
            return await self._inner(context, params)
        finally:
            self.status.resume()

    async def on_elicitation_complete(self, elicitation_id: str) -> None:
        """Forward a legacy completion notice to the wrapped callback, if it listens for them."""
        listener = getattr(self._inner, "on_elicitation_complete", None) or getattr(
            self._inner, "elicitation_complete_callback", None
        )
        if listener is None:
            return
        self.status.pause()  # the URL adapter prints a line when a step is done
        try:
            outcome = listener(elicitation_id)
            if inspect.isawaitable(outcome):
                await outcome
        finally:
            self.status.resume()

    elicitation_complete_callback = on_elicitation_complete


def terminal_ui(status_console: Console) -> StatusAwareCallback:
    """The CLI's elicitation callback: terminal forms and URL consent, pausing the status line.

    Forms go to ``TerminalFormAdapter`` (widgets on a terminal; plain lines read from stdin when stdin
    is not a terminal, so a piped run never hangs), links to ``UrlAdapter``. Questions are drawn on
    stdout only when both stdin and stdout are the terminal; otherwise on stderr, so that
    ``mcp-client call ... > result.txt`` or ``| jq`` gets the tool's result and nothing else.
    """
    from prompt_toolkit.output import create_output
    from rich.console import Console

    from ui_adapters.routing import ElicitationRouter
    from ui_adapters.terminal import TerminalFormAdapter
    from ui_adapters.url import UrlAdapter

    stream = sys.stdout if _isatty(sys.stdin) and _isatty(sys.stdout) else sys.stderr
    console = Console(file=stream, highlight=False, emoji=False, markup=False)
    screen = create_output(stdout=stream)
    router = ElicitationRouter(
        form=TerminalFormAdapter(console=console, output=screen),
        url=UrlAdapter(console=console, output=screen),
    )
    return StatusAwareCallback(router, StatusLine(status_console))


def _isatty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):
        return False
