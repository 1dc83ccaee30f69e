"""The ``Prompter`` for a real terminal: rich for what is shown, prompt_toolkit widgets for what is asked.

Each field gets the input that fits its kind: a live-validated line for text, e-mail, URI, dates and
numbers; a yes/no list for a boolean; a pick list for a single choice; a checkbox list for a multiple
choice. Every widget runs through ``run_application`` (worker thread, clean exit on cancellation).
Once a widget is done it is erased and the answer is printed as one plain line under the field's
introduction, so the scrollback reads as a record of the form. The field's label is in that
introduction (``_screen.field_intro``); the widgets do not repeat it.

What is shown is what will be sent: a field with a default never offers "(leave empty)" (the default
would be sent anyway), and a required yes/no or single choice without a default starts with nothing
chosen, so that Enter alone cannot answer it (a first option such as "delete_all" is never picked for
the person). Shift-Tab steps back to the previous field; while a field is changed from the review, Esc
goes back to the review (see ``_widgets``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeVar

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from rich.console import Console, RenderableType
from rich.text import Text

from mcp_client.schema import FieldKind, FormField
from ui_adapters.terminal._flow import ReviewChoice
from ui_adapters.terminal._outcomes import Back, GoBack
from ui_adapters.terminal._runner import PreRun, run_application
from ui_adapters.terminal._screen import MAX_LABEL, field_label
from ui_adapters.terminal._values import AnswerValue, check_text, display, edit_text
from ui_adapters.terminal._widgets import Picker, text_session
from ui_adapters.text import sanitize

__all__ = ["InteractivePrompter"]

T = TypeVar("T")

_LEAVE_EMPTY = "(leave empty)"


class InteractivePrompter:
    """Asks on a terminal through prompt_toolkit (``input``/``output`` ``None`` = the process's own)."""

    def __init__(
        self, console: Console, *, input: Input | None, output: Output | None, page_size: int
    ) -> None:
        self._console = console
        self._input = input
        self._output = output
        self._page_size = page_size

    def show(self, renderable: RenderableType) -> None:
        self._console.print(renderable)

    async def ask(self, field: FormField, current: AnswerValue | None, back: Back) -> AnswerValue | None:
        try:
            if field.kind is FieldKind.BOOLEAN:
                value = await self._ask_boolean(field, current, back)
            elif field.kind is FieldKind.SINGLE_CHOICE:
                value = await self._ask_choice(field, current, back)
            elif field.kind is FieldKind.MULTI_CHOICE:
                value = await self._ask_checkboxes(field, current, back)
            else:
                value = await self._ask_text(field, current, back)
        except GoBack:
            where = "back to the review, unchanged" if back == "review" else "back to the previous field"
            self._console.print(Text(f"  ← {where}", style="dim"))
            raise
        self._record(field, value)
        return value

    async def review(self, fields: Sequence[FormField]) -> ReviewChoice:
        changes = [(f"Change {index + 1}. {field_label(f)}", index) for index, f in enumerate(fields)]
        choices: list[tuple[str, ReviewChoice]] = [
            ("Send", "send"),
            *changes,
            ("Decline (do not answer)", "decline"),
            ("Cancel", "cancel"),
        ]
        return await self._pick_one("Send these answers?", choices, 0)

    async def confirm(self) -> Literal["accept", "decline", "cancel"]:
        choices: list[tuple[str, Literal["accept", "decline", "cancel"]]] = [
            ("Accept", "accept"),
            ("Decline", "decline"),
            ("Cancel", "cancel"),
        ]
        return await self._pick_one("Your answer", choices, 0)

    # ------------------------------------------------------------------------------------ per kind

    async def _ask_text(
        self, field: FormField, current: AnswerValue | None, back: Back
    ) -> AnswerValue | None:
        session = text_session(
            lambda text: check_text(field, text)[1], back=back, input=self._input, output=self._output
        )
        default = edit_text(field, current)

        async def main(pre_run: PreRun) -> str:
            return await session.prompt_async(default=default, pre_run=pre_run, handle_sigint=False)

        text = await run_application(session.app, main)
        value, _ = check_text(field, text)
        return value

    async def _ask_boolean(
        self, field: FormField, current: AnswerValue | None, back: Back
    ) -> AnswerValue | None:
        choices: list[tuple[str, bool | None]] = [("Yes", True), ("No", False)]
        if _may_leave_empty(field):
            choices.append((_LEAVE_EMPTY, None))
        start: int | None
        if current is True or current is False:
            start = 0 if current else 1
        elif _may_leave_empty(field):
            start = 2  # Enter leaves an optional field empty
        else:
            start = None  # required, no default: nothing chosen until the person picks
        return await self._pick_one(None, choices, start, shortcuts={"y": 0, "n": 1}, back=back)

    async def _ask_choice(
        self, field: FormField, current: AnswerValue | None, back: Back
    ) -> AnswerValue | None:
        choices: list[tuple[str, str | None]] = [
            (sanitize(option.label, max_length=MAX_LABEL, single_line=True) or "(blank)", option.value)
            for option in field.options
        ]
        if _may_leave_empty(field):
            choices.append((_LEAVE_EMPTY, None))
        values = [value for _, value in choices]
        # None is "(leave empty)" when optional; a required field without an answer starts unchosen.
        start = values.index(current) if current in values else None
        return await self._pick_one(None, choices, start, back=back)

    async def _ask_checkboxes(
        self, field: FormField, current: AnswerValue | None, back: Back
    ) -> AnswerValue | None:
        options = field.options
        values = [option.value for option in options]
        chosen = current if isinstance(current, list) else []
        picker = Picker(
            title=None,
            labels=[sanitize(o.label, max_length=MAX_LABEL, single_line=True) or "(blank)" for o in options],
            multi=True,
            ticked={values.index(value) for value in chosen if value in values},
            limit=field.max_items,
            check=lambda indices: self._check_ticked(field, [values[i] for i in indices]),
            page_size=self._page_size,
            back=back,
        )
        indices = await run_application(picker.application(input=self._input, output=self._output))
        if not indices and field.default is None and not field.required:
            return None  # left out; with a default, an empty list is sent as the person's own answer
        return [values[index] for index in indices]

    @staticmethod
    def _check_ticked(field: FormField, chosen: list[str]) -> str | None:
        if not chosen and field.default is None and not field.required:
            return None
        reason = field.check(chosen)
        return sanitize(reason, max_length=200, single_line=True) if reason is not None else None

    async def _pick_one(
        self,
        title: str | None,
        choices: Sequence[tuple[str, T]],
        start: int | None,
        *,
        shortcuts: dict[str, int] | None = None,
        back: Back = None,
    ) -> T:
        picker = Picker(
            title=title,
            labels=[label for label, _ in choices],
            cursor=start,
            shortcuts=shortcuts or {},
            page_size=self._page_size,
            back=back,
        )
        indices = await run_application(picker.application(input=self._input, output=self._output))
        return choices[indices[0]][1]

    def _record(self, field: FormField, value: AnswerValue | None) -> None:
        line = Text("  → ", style="dim")
        line.append(display(field, value), style="green" if value is not None else "dim")
        self._console.print(line)


def _may_leave_empty(field: FormField) -> bool:
    """Whether "(leave empty)" is offered: only when leaving the field out really sends nothing."""
    return not field.required and field.default is None
