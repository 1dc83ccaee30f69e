"""Ask the person at the terminal for a line or a yes/no, without blocking the event loop.

On a terminal, prompt_toolkit draws the prompt: natively on asyncio (``prompt_async``), in a worker
thread on any other anyio backend (trio). Ctrl-C raises ``KeyboardInterrupt`` and end of input
``EOFError``, as in ``input()``; the terminal is restored either way. The keys are the forms' keys: Esc
cancels like Ctrl-C, Ctrl-N answers "no" (decline), and a hint line above the prompt says so. A typed
``y`` is confirmed with Enter, as in a form's yes/no.

When stdin is not a terminal (a pipe, a file, a CI job) and no prompt_toolkit ``input`` was given, the
question is printed as plain text and one plain line is read from stdin, as the forms' line mode does:
prompt_toolkit would warn "Input is not a terminal" and draw its redraw sequences into a log.
"""

from __future__ import annotations

import sys
from typing import TextIO

import anyio
import anyio.to_thread
import sniffio
from prompt_toolkit import PromptSession
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style
from rich.console import Console
from rich.text import Text

__all__ = ["YES_NO_HINT", "ask_yes_no", "prompt_line", "read_plain_line", "stdin_is_terminal"]

_YES = frozenset({"y", "yes"})
YES_NO_HINT = "y yes · Enter/n/Ctrl-N no · Esc/Ctrl-C cancel"
_STYLE = Style.from_dict({"hint": "#888888"})
_MAX_LINE = 1_000_000


def stdin_is_terminal() -> bool:
    """Whether stdin is a terminal a prompt can be drawn on (False for a pipe, a file, a closed stdin)."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):
        return False


def _line_mode(input: Input | None) -> bool:
    """Plain lines instead of prompt_toolkit: no ``input`` was given and stdin is no terminal."""
    return input is None and not stdin_is_terminal()


async def read_plain_line(
    question: str, *, console: Console | None = None, stream: TextIO | None = None
) -> str:
    """Print ``question`` (on ``console``, default stderr) and read one line from ``stream`` (stdin).

    The line is read in a worker thread, so the event loop never blocks, and abandoned if the caller is
    cancelled. Raises ``EOFError`` at the end of input, as ``input()`` does; the line ending is removed.
    The forms' line mode (``terminal._lines``) reads the same way.
    """
    shown = console if console is not None else Console(stderr=True, highlight=False, markup=False)
    shown.print(Text(question), end="")
    shown.file.flush()
    source = stream if stream is not None else sys.stdin
    line: str = await anyio.to_thread.run_sync(source.readline, _MAX_LINE, abandon_on_cancel=True)
    shown.print()  # a pipe does not echo the answer: end the question's line, as a terminal would
    if line == "":
        raise EOFError
    return line.rstrip("\r\n")


def _keys(*, decline: bool) -> KeyBindings:
    keys = KeyBindings()

    @keys.add("escape", eager=True)
    def _cancel(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
        if event.app.future is not None and not event.app.future.done():
            event.app.exit(exception=KeyboardInterrupt())

    if decline:

        @keys.add("c-n")
        def _decline(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
            if event.app.future is not None and not event.app.future.done():
                event.app.exit(result="n")

    return keys


async def prompt_line(
    question: str,
    *,
    hint: str | None = None,
    input: Input | None = None,
    output: Output | None = None,
    default: str = "",
    decline_key: bool = False,
    console: Console | None = None,
) -> str:
    """The line the user typed after ``question`` (plain text, shown as is: sanitize it first).

    ``hint`` is shown on the line above the question; ``default`` is already typed in, for the user to
    edit. Esc raises ``KeyboardInterrupt`` (cancel), as in a form; with ``decline_key``, Ctrl-N returns
    ``"n"`` (no / decline), also as in a form. Without a terminal (see the module) the question goes to
    ``console`` (default stderr) and a plain line is read from stdin; ``default`` is then not typed in.
    """
    if _line_mode(input):
        return await read_plain_line(question, console=console)
    message: StyleAndTextTuples = [("", question)]
    if hint:
        message.insert(0, ("class:hint", hint + "\n"))
    session: PromptSession[str] = PromptSession(
        message, input=input, output=output, key_bindings=_keys(decline=decline_key), style=_STYLE
    )
    if sniffio.current_async_library() == "asyncio":
        return await session.prompt_async(default=default)
    return await anyio.to_thread.run_sync(lambda: session.prompt(default=default))


async def ask_yes_no(question: str, *, input: Input | None = None, output: Output | None = None) -> bool:
    """True only for "y" or "yes"; anything else, Enter alone, Ctrl-C and end of input mean No."""
    try:
        answer = await prompt_line(question, hint=YES_NO_HINT, input=input, output=output, decline_key=True)
    except (KeyboardInterrupt, EOFError):
        return False
    return answer.strip().lower() in _YES
