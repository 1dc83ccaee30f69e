"""Read one line from the person at the terminal, without blocking the event loop.

prompt_toolkit runs natively on asyncio (``prompt_async``); on any other anyio backend (trio) it runs
its own loop in a worker thread. Ctrl-C raises ``KeyboardInterrupt`` and end of input ``EOFError``,
as in ``input()``; the terminal is restored either way. The keys are the forms' keys: Esc cancels like
Ctrl-C, Ctrl-N answers "n" (decline), and a hint line above the prompt says so.
"""

from __future__ import annotations

import anyio
import sniffio
from prompt_toolkit import PromptSession
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

__all__ = ["YES_NO_HINT", "ask_yes_no", "prompt_line"]

_YES = frozenset({"y", "yes"})
YES_NO_HINT = "y yes · Enter/n/Ctrl-N no · Esc/Ctrl-C cancel"
_STYLE = Style.from_dict({"hint": "#888888"})


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
) -> str:
    """The line the user typed after ``question`` (plain text, shown as is: sanitize it first).

    ``hint`` is shown on the line above the question; ``default`` is already typed in, for the user to
    edit. Esc raises ``KeyboardInterrupt`` (cancel), as in a form; with ``decline_key``, Ctrl-N returns
    ``"n"`` (no / decline), also as in a form.
    """
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
