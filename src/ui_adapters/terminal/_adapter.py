"""``TerminalFormAdapter``: a ready elicitation callback that asks form questions on the terminal.

It decides *where* to ask (a real terminal, plain lines from a pipe, or nowhere), refuses what cannot
be shown safely (URL questions, absurdly large forms), and makes sure two questions never share the
screen; ``_flow`` decides *what* to ask.
"""

from __future__ import annotations

import sys
from typing import Literal, TextIO

import anyio
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from rich.console import Console
from rich.text import Text

from mcp_client import ClientRequestContext, InvalidElicitationSchemaError
from mcp_client.schema import FieldKind, FormSchema
from mcp_client.types import ElicitRequestFormParams, ElicitRequestParams, ElicitResult
from ui_adapters.terminal._flow import Prompter, run_form
from ui_adapters.terminal._interactive import InteractivePrompter
from ui_adapters.terminal._lines import LinePrompter
from ui_adapters.terminal._outcomes import UserCancelled, UserDeclined
from ui_adapters.terminal._screen import server_line
from ui_adapters.text import sanitize

__all__ = ["NonInteractivePolicy", "TerminalFormAdapter"]

WITHDRAWN_NOTICE = (
    "Withdrawn: {server} no longer needs this answer (the call that asked is over: the server went "
    "away or the call was cancelled). Nothing was sent."
)

NonInteractivePolicy = Literal["stdin", "decline", "cancel"]
"""Without a terminal: read answers line by line from ``stdin``, or ``decline`` / ``cancel`` at once."""


class TerminalFormAdapter:
    """An elicitation callback that fills in form questions with a person at a terminal.

    Pass it as ``Client(..., elicitation_callback=TerminalFormAdapter())``. Its ``elicitation_modes``
    is ``{"form"}``, so the client declares form support only; a URL question, should one reach it
    anyway, is declined (route URL questions to a URL adapter).

    For each question it shows a panel naming the server and its message, asks every field with the
    input that fits (live-validated text, yes/no, pick list, checkbox list; defaults pre-filled so Enter
    keeps them), then a review table where the person sends, changes a field, declines or cancels.
    Keys: Enter confirms, Shift-Tab goes back to the previous field, Ctrl-N declines, Esc / Ctrl-C /
    Ctrl-D cancel; while one field is changed from the review, Esc goes back to the review (Ctrl-C still
    cancels). A required yes/no or single choice without a default starts with nothing chosen;
    ``y``/``n`` move to Yes/No and Enter confirms. Concurrent questions are asked one after another,
    each titled "Question i of n". All server text is sanitized and never parsed as markup.

    Where it asks:

    - ``input`` given (a prompt_toolkit ``Input``, e.g. ``create_pipe_input()`` in tests), or stdin is a
      TTY: interactive widgets, drawn on ``output`` (default: the process's terminal).
    - ``line_input`` given (a text stream): plain line mode on that stream (see below).
    - otherwise (stdin is not a TTY) ``non_interactive`` decides: ``"stdin"`` (default) is line mode on
      ``sys.stdin``: prompts on the console, one answer per line, end of input = cancel; ``"decline"`` or
      ``"cancel"`` answer at once without asking. It never waits on a missing terminal.

    ``console`` is the rich console for everything shown (default: stdout when interactive, stderr in
    line mode). Forms with more than ``max_fields`` fields or a field with more than ``max_options``
    options are declined with a message instead of being drawn; long choice lists are paged by
    ``page_size``.
    """

    elicitation_modes: frozenset[str] = frozenset({"form"})

    def __init__(
        self,
        *,
        console: Console | None = None,
        input: Input | None = None,
        output: Output | None = None,
        non_interactive: NonInteractivePolicy = "stdin",
        line_input: TextIO | None = None,
        max_fields: int = 200,
        max_options: int = 10_000,
        page_size: int = 10,
    ) -> None:
        if non_interactive not in ("stdin", "decline", "cancel"):
            raise ValueError(
                f"non_interactive must be 'stdin', 'decline' or 'cancel', not {non_interactive!r}"
            )
        self._console = console
        self._input = input
        self._output = output
        self._non_interactive: NonInteractivePolicy = non_interactive
        self._line_input = line_input
        self._max_fields = max_fields
        self._max_options = max_options
        self._page_size = page_size
        self._lock = anyio.Lock()

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        """Ask ``params`` and return the person's answer (accept with content, decline or cancel)."""
        async with self._lock:
            return await self._ask(context, params)

    async def _ask(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        interactive = self._input is not None or (self._line_input is None and _isatty(sys.stdin))
        console = self._console_for(interactive)
        if not isinstance(params, ElicitRequestFormParams):
            return self._refuse(console, context, "it asks to open a URL; this adapter only fills in forms")
        try:
            schema = params.form
        except InvalidElicitationSchemaError as error:
            return self._refuse(console, context, f"its form cannot be shown: {error}")
        too_big = self._too_big(schema)
        if too_big is not None:
            return self._refuse(console, context, too_big)

        prompter = self._prompter(console, interactive)
        if prompter is None:
            action = "decline" if self._non_interactive == "decline" else "cancel"
            verb = "Declined" if action == "decline" else "Cancelled"
            self._notice(console, context, f"{verb}: no terminal to ask on (non_interactive={action!r}).")
            return ElicitResult(action=action)

        try:
            result = await run_form(prompter, context, params.message, schema)
        except UserDeclined:
            result = ElicitResult(action="decline")
        except UserCancelled:
            result = ElicitResult(action="cancel")
        except anyio.get_cancelled_exc_class():
            # The client withdrew the question: the call that asked is over (its server went away, or
            # the app cancelled it). The form is gone; say so rather than leave the person wondering.
            notice = WITHDRAWN_NOTICE.format(server=sanitize(context.server_name, max_length=200))
            console.print(Text(notice, style="yellow"))
            raise
        outcome = {"accept": "Answer sent.", "decline": "Declined.", "cancel": "Cancelled."}[result.action]
        console.print(Text(outcome, style="bold" if result.action == "accept" else "yellow"))
        return result

    def _prompter(self, console: Console, interactive: bool) -> Prompter | None:
        """How to ask: widgets on a terminal, lines on a stream, or (policy decline/cancel) not at all."""
        if interactive:
            return InteractivePrompter(
                console, input=self._input, output=self._output, page_size=self._page_size
            )
        if self._line_input is not None or self._non_interactive == "stdin":
            return LinePrompter(console, self._line_input or sys.stdin)
        return None

    def _console_for(self, interactive: bool) -> Console:
        if self._console is not None:
            return self._console
        return Console(highlight=False, emoji=False, markup=False, stderr=not interactive)

    def _too_big(self, schema: FormSchema) -> str | None:
        if len(schema.fields) > self._max_fields:
            return f"its form has {len(schema.fields)} fields; at most {self._max_fields} are shown here"
        for field in schema.fields:
            if field.kind in (FieldKind.SINGLE_CHOICE, FieldKind.MULTI_CHOICE):
                if len(field.options) > self._max_options:
                    return (
                        f"one field offers {len(field.options)} choices; "
                        f"at most {self._max_options} are shown here"
                    )
        return None

    def _refuse(self, console: Console, context: ClientRequestContext, why: str) -> ElicitResult:
        self._notice(console, context, f"Declined a question: {why}.")
        return ElicitResult(action="decline")

    @staticmethod
    def _notice(console: Console, context: ClientRequestContext, text: str) -> None:
        line = server_line(context)
        line.append("\n")
        line.append(sanitize(text, max_length=500), style="yellow")
        console.print(line)


def _isatty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):
        return False
