"""Read one line from the person at the terminal, without blocking the event loop.

prompt_toolkit runs natively on asyncio (``prompt_async``); on any other anyio backend (trio) it runs
its own loop in a worker thread. Ctrl-C raises ``KeyboardInterrupt`` and end of input ``EOFError``,
as in ``input()``; the terminal is restored either way.
"""

from __future__ import annotations

import anyio
import sniffio
from prompt_toolkit import PromptSession
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

__all__ = ["ask_yes_no", "prompt_line"]

_YES = frozenset({"y", "yes"})


async def prompt_line(
    question: str, *, input: Input | None = None, output: Output | None = None, default: str = ""
) -> str:
    """The line the user typed after ``question`` (plain text, shown as is: sanitize it first).

    ``default`` is already typed in, for the user to edit.
    """
    session: PromptSession[str] = PromptSession(input=input, output=output)
    if sniffio.current_async_library() == "asyncio":
        return await session.prompt_async(question, default=default)
    return await anyio.to_thread.run_sync(lambda: session.prompt(question, default=default))


async def ask_yes_no(question: str, *, input: Input | None = None, output: Output | None = None) -> bool:
    """True only for "y" or "yes"; anything else, Enter alone, Ctrl-C and end of input mean No."""
    try:
        answer = await prompt_line(question, input=input, output=output)
    except (KeyboardInterrupt, EOFError):
        return False
    return answer.strip().lower() in _YES
