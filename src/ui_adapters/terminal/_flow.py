"""The course of one form question, the same whether it is asked with widgets or line by line.

Show the question, ask every field in order (defaults pre-filled; a prompt may step back to the
previous field), then a review step that repeats until the person sends, declines or cancels: a summary
table and a choice of "send", "change field N", "decline" or "cancel". Stepping back while changing a
field returns to the review with the answer as it was. Nothing is sent before that choice, and nothing
invalid is ever sent: each answer is checked as it is typed and the whole answer once more
(``FormSchema.validate_content``) before it leaves. How a prompt looks is the ``Prompter``'s business.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from rich.console import RenderableType
from rich.text import Text

from mcp_client import ClientRequestContext, InvalidElicitationContentError
from mcp_client.schema import FormField, FormSchema
from mcp_client.types import ElicitResult
from ui_adapters.terminal._outcomes import Back, GoBack
from ui_adapters.terminal._screen import field_intro, question_panel, review_table
from ui_adapters.terminal._values import AnswerValue
from ui_adapters.text import sanitize

__all__ = ["Prompter", "ReviewChoice", "run_form"]

ReviewChoice = int | Literal["send", "decline", "cancel"]
"""What the person chose at the review step; an int is the 0-based index of a field to change."""


class Prompter(Protocol):
    """One way of asking: prompt_toolkit widgets, or plain lines on a pipe.

    Every ``async`` method may raise ``UserDeclined`` or ``UserCancelled``.
    """

    def show(self, renderable: RenderableType) -> None:
        """Print something above the prompts (the question panel, a field's introduction, a table)."""
        ...

    async def ask(self, field: FormField, current: AnswerValue | None, back: Back) -> AnswerValue | None:
        """A valid answer for ``field`` (``None``: left empty, only for optional fields).

        ``current`` is pre-filled, so that Enter keeps it. ``back`` says where the person may step back
        to; a prompt that offers it raises ``GoBack`` when they do.
        """
        ...

    async def review(self, fields: Sequence[FormField]) -> ReviewChoice:
        """Send, change a field (its index), decline or cancel; the table was just shown."""
        ...

    async def confirm(self) -> Literal["accept", "decline", "cancel"]:
        """The answer to a question without fields."""
        ...


async def run_form(
    prompter: Prompter, context: ClientRequestContext, message: str, schema: FormSchema
) -> ElicitResult:
    """Ask the whole question and return what the person decided (``UserDeclined``/``UserCancelled``
    raised by a prompt propagate to the caller)."""
    fields = schema.fields
    prompter.show(question_panel(context, message, len(fields)))
    if schema.is_confirmation:
        action = await prompter.confirm()
        return ElicitResult(action=action, content={} if action == "accept" else None)

    answers: dict[str, AnswerValue | None] = {field.name: field.default for field in fields}
    index = 0
    while index < len(fields):
        field = fields[index]
        back: Back = "previous" if index > 0 else None
        try:
            answers[field.name] = await _ask(prompter, field, answers[field.name], index, len(fields), back)
        except GoBack:
            index = max(0, index - 1)
            continue
        index += 1

    while True:
        prompter.show(review_table(fields, answers))
        choice = await prompter.review(fields)
        if choice == "decline":
            return ElicitResult(action="decline")
        if choice == "cancel":
            return ElicitResult(action="cancel")
        if choice == "send":
            content = {name: value for name, value in answers.items() if value is not None}
            try:
                checked = schema.validate_content(content)
            except InvalidElicitationContentError as error:
                prompter.show(Text(sanitize(str(error), max_length=500), style="red"))
                continue
            return ElicitResult(action="accept", content=dict(checked))
        field = fields[choice]
        try:
            answers[field.name] = await _ask(
                prompter, field, answers[field.name], choice, len(fields), "review"
            )
        except GoBack:
            pass  # back to the review, the answer as it was


async def _ask(
    prompter: Prompter, field: FormField, current: AnswerValue | None, index: int, total: int, back: Back
) -> AnswerValue | None:
    prompter.show(field_intro(field, index + 1, total))
    return await prompter.ask(field, current, back)
