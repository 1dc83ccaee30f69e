"""The ``Prompter`` for when there is no terminal: plain lines in, plain text out.

Used when stdin is not a TTY (a pipe, a file, a CI job) and the adapter's ``non_interactive`` policy is
``"stdin"``. Prompts go to the console (stderr by default, so stdout stays clean), answers are read one
line at a time in a worker thread so the event loop never blocks, and the end of input cancels the
question: a closed pipe can never hang the client.

Answering: type the value and press Enter. An empty line keeps the pre-filled value (or leaves an
optional field empty); ``-`` empties an optional field that has no default (a default would be sent
anyway). Yes/no takes y/yes/n/no; a choice takes its
number, its value or its label; several choices are separated by commas. At the review step: Enter or
``s`` sends, a field number changes that field, ``d`` declines, ``c`` cancels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TextIO

import anyio.to_thread
from rich.console import Console, RenderableType
from rich.text import Text

from mcp_client.schema import FieldKind, FormField
from ui_adapters.terminal._flow import ReviewChoice
from ui_adapters.terminal._outcomes import Back, UserCancelled
from ui_adapters.terminal._screen import MAX_LABEL, field_label
from ui_adapters.terminal._values import AnswerValue, check_text, default_text, display, edit_text
from ui_adapters.text import sanitize

__all__ = ["LinePrompter"]

_MAX_LISTED = 50
_MAX_LINE = 1_000_000


class LinePrompter:
    """Asks line by line: prompts printed on ``console``, answers read from ``stream``."""

    def __init__(self, console: Console, stream: TextIO) -> None:
        self._console = console
        self._stream = stream

    def show(self, renderable: RenderableType) -> None:
        self._console.print(renderable)

    async def ask(self, field: FormField, current: AnswerValue | None, back: Back) -> AnswerValue | None:
        # ``back`` is not offered here: a piped answers file is read in order, one line per field.
        if field.kind in (FieldKind.SINGLE_CHOICE, FieldKind.MULTI_CHOICE):
            self._list_options(field)
        suffix = self._prompt_suffix(field, current)
        while True:
            line = await self._read_line(f"{field_label(field)}{' *' if field.required else ''}{suffix}: ")
            if line == "" and current is not None:
                return current
            if line.strip() == "-" and not field.required:
                if field.default is None:
                    return None
                self._complain(f"this field's default ({default_text(field)}) is sent if it is left empty")
                continue
            if line == "" and field.kind is FieldKind.MULTI_CHOICE and field.required:
                reason = field.check([])
                if reason is None:
                    return []
                self._complain(reason)
                continue
            value, reason = check_text(field, line)
            if reason is None:
                return value
            self._complain(reason)

    async def review(self, fields: Sequence[FormField]) -> ReviewChoice:
        while True:
            change = "1 = change it" if len(fields) == 1 else f"1-{len(fields)} = change that field"
            line = await self._read_line(f"Send? Enter/s = send, {change}, d = decline, c = cancel: ")
            answer = line.strip().lower()
            if answer in ("", "s", "send"):
                return "send"
            if answer in ("d", "decline"):
                return "decline"
            if answer in ("c", "cancel"):
                return "cancel"
            if answer.isdigit() and 1 <= int(answer) <= len(fields):
                return int(answer) - 1
            self._complain(
                "type s, d, c or 1"
                if len(fields) == 1
                else f"type s, d, c or a number from 1 to {len(fields)}"
            )

    async def confirm(self) -> Literal["accept", "decline", "cancel"]:
        while True:
            answer = (await self._read_line("Accept? y = accept, d = decline, c = cancel: ")).strip().lower()
            if answer in ("y", "yes", "a", "accept"):
                return "accept"
            if answer in ("d", "n", "no", "decline"):
                return "decline"
            if answer in ("c", "cancel"):
                return "cancel"
            self._complain("type y, d or c")

    def _prompt_suffix(self, field: FormField, current: AnswerValue | None) -> str:
        if field.kind is FieldKind.BOOLEAN:
            shown = " [y/n]"
        elif field.kind is FieldKind.MULTI_CHOICE:
            shown = " [numbers, comma-separated]"
        elif field.kind is FieldKind.SINGLE_CHOICE:
            shown = f" [1-{len(field.options)}]"
        else:
            shown = ""
        if current is not None:
            plain = isinstance(current, bool | list) or field.kind is FieldKind.SINGLE_CHOICE
            kept = display(field, current) if plain else edit_text(field, current)
            shown += f" (Enter keeps {sanitize(kept, max_length=80, single_line=True)})"
        return shown

    def _list_options(self, field: FormField) -> None:
        for number, option in enumerate(field.options[:_MAX_LISTED], start=1):
            label = sanitize(option.label, max_length=MAX_LABEL, single_line=True) or "(blank)"
            self._console.print(Text(f"    {number}) {label}"))
        hidden = len(field.options) - _MAX_LISTED
        if hidden > 0:
            self._console.print(Text(f"    ... and {hidden} more (type a number or a name)", style="dim"))

    def _complain(self, reason: str) -> None:
        self._console.print(Text(f"  ✗ {sanitize(reason, max_length=200, single_line=True)}", style="red"))

    async def _read_line(self, prompt: str) -> str:
        """One line of input, without its line ending; ``UserCancelled`` at the end of input."""
        self._console.print(Text(prompt), end="")
        self._console.file.flush()
        line = await anyio.to_thread.run_sync(self._stream.readline, _MAX_LINE, abandon_on_cancel=True)
        self._console.print()  # a pipe does not echo the answer: end the prompt's line
        if line == "":
            raise UserCancelled
        return line.rstrip("\r\n")
