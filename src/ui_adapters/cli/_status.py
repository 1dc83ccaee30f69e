"""The activity line of a call (a spinner, or a progress bar once the server reports progress) and the
server's log lines, all on stderr and out of the way whenever a question is on screen.

The line is redrawn by rich from a thread of its own; a form drawn at the same time would be garbled.
``StatusAwareCallback`` wraps the elicitation callback: it pauses the line before the question is shown
and resumes it once the question is answered. Log lines that arrive meanwhile are held and printed
when the question is gone. The line goes to stderr, and only when stderr is a terminal, so piped output
and logs never see it; log lines go to stderr either way. Everything a server wrote is sanitized.
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Generator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TextIO

from rich.text import Text

from mcp_client import ClientRequestContext, ElicitationCallback
from mcp_client.types import ElicitRequestParams, ElicitResult, LoggingMessageNotificationParams
from ui_adapters.text import sanitize

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.live import Live

__all__ = ["ServerLogPrinter", "StatusAwareCallback", "StatusLine", "terminal_ui"]

_BAR_WIDTH = 30
_MAX_MESSAGE = 120
_MAX_LOG = 2000
_LEVEL_STYLES = {
    "debug": "dim",
    "info": "cyan",
    "notice": "cyan",
    "warning": "yellow",
    "error": "red",
    "critical": "bold red",
    "alert": "bold red",
    "emergency": "bold red",
}


class StatusLine:
    """What is happening now, on ``console``: a spinner and a text, or a progress bar. Can be paused."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._live: Live | None = None
        self._paused = 0
        self._text = ""
        self._progress: tuple[float, float | None, str | None] | None = None
        self._held: list[Text] = []
        self._spinner: Any = None

    @contextmanager
    def show(self, text: str) -> Generator[None, None, None]:
        """Show ``text`` with a spinner for the duration of the block (on a terminal only)."""
        if not self._console.is_terminal:
            yield
            return
        from rich.live import Live
        from rich.spinner import Spinner

        self._text, self._progress = text, None
        self._spinner = Spinner("dots")
        live = Live(
            console=self._console,
            transient=True,
            refresh_per_second=12.5,
            get_renderable=self._render,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._live = live
        if not self._paused:
            live.start()
        try:
            yield
        finally:
            self._live = None
            live.stop()
            self._flush()

    def update(self, text: str) -> None:
        """Change the text (a new step: any progress shown so far is cleared)."""
        self._text, self._progress = text, None

    def progress(self, progress: float, total: float | None, message: str | None) -> None:
        """The server's progress for the call: a bar when it gave a total, else a count by the spinner.

        Usable as a ``progress_callback``.
        """
        self._progress = (progress, total, message)

    def print_line(self, line: Text) -> None:
        """Print a line above the status (held while a question is on screen)."""
        if self._paused:
            self._held.append(line)
        else:
            self._console.print(line, soft_wrap=True)

    def pause(self) -> None:
        """Take the status off the screen until the matching ``resume``; pauses nest."""
        self._paused += 1
        if self._paused == 1 and self._live is not None:
            self._live.stop()

    def resume(self) -> None:
        self._paused -= 1
        if self._paused == 0:
            self._flush()
            if self._live is not None:
                self._live.start()

    def _flush(self) -> None:
        held, self._held = self._held, []
        for line in held:
            self._console.print(line, soft_wrap=True)

    def _render(self) -> RenderableType:
        from rich.table import Table

        row = Table.grid(padding=(0, 1))
        text = Text(self._text)
        progress = self._progress
        if progress is None:
            row.add_row(self._spinner, text)
            return row
        done, total, message = progress
        shown = sanitize(message, max_length=_MAX_MESSAGE, single_line=True) if message else ""
        note = Text(shown, style="dim")
        if total is None or not total > 0:
            text.append(f" {done:g}")
            row.add_row(self._spinner, text, note)
            return row
        from rich.progress_bar import ProgressBar

        share = max(0.0, min(done / total, 1.0))
        row.add_row(
            text,
            ProgressBar(total=total, completed=min(done, total), width=_BAR_WIDTH),
            Text(f"{share:>4.0%}"),
            note,
        )
        return row


class ServerLogPrinter:
    """A ``logging_callback`` printing each server log message on stderr, with its level, sanitized."""

    def __init__(self, status: StatusLine) -> None:
        self._status = status

    def __call__(self, params: LoggingMessageNotificationParams) -> None:
        data = params.data if isinstance(params.data, str) else _compact_json(params.data)
        line = Text("server ", style="dim")
        line.append(params.level, style=_LEVEL_STYLES.get(params.level, ""))
        if params.logger:
            line.append(" " + sanitize(params.logger, max_length=80, single_line=True), style="dim")
        line.append(": " + sanitize(data, max_length=_MAX_LOG))
        self._status.print_line(line)


def _compact_json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    except ValueError:
        return repr(value)


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
