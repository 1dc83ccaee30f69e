"""One form field as Textual widgets, and the value a person gave in them.

Each kind gets Textual's own widget: ``Input`` (text, e-mail, link, numbers, dates) validated as it is
typed by the same reader the chat adapter uses (``1,200``, ``24 Dec``), ``Select`` for a choice,
``SelectionList`` for several, ``Switch`` for a yes/no with a default. A yes/no without a default is a
``Select`` of Yes/No that starts with nothing chosen: a switch would have to start on one side, and
choosing for the user is what the terminal and chat adapters never do.

Option labels are the server's text: they go to the widgets as rich ``Text`` (plain, never parsed), because
``Select`` and ``SelectionList`` read a ``str`` label as Textual markup, where ``[/x]`` raises
``MarkupError`` and ``[@click=app.quit]`` becomes a link that runs an action of the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from rich.text import Text
from textual.validation import ValidationResult, Validator
from textual.widget import Widget
from textual.widgets import Input, Select, SelectionList, Switch

from mcp_client.schema import AnswerValue, FieldKind, FormField
from ui_adapters._answer_text import option_text as _option_label
from ui_adapters.chat._dates import DateOffer, date_offer
from ui_adapters.chat._reading import read_answer
from ui_adapters.text import sanitize

__all__ = ["FieldInput", "Missing"]

_MAX_LABEL = 200


class Missing:
    """The person left the field empty (different from ``False`` or ``[]``)."""


MISSING = Missing()


class _FieldValidator(Validator):
    def __init__(self, form_field: FormField) -> None:
        super().__init__()
        self.form_field = form_field

    def validate(self, value: str) -> ValidationResult:
        if not value.strip():
            if self.form_field.required and self.form_field.default is None:
                return self.failure("this field is required")
            return self.success()
        try:
            read_answer(self.form_field, value, now=datetime.now().astimezone(), zone=_local_zone())
        except ValueError as error:
            return self.failure(sanitize(str(error), max_length=200, single_line=True))
        return self.success()


def _local_zone() -> Any:
    return datetime.now().astimezone().tzinfo


@dataclass
class FieldInput:
    """A field and the widget that asks for it; ``value()`` reads what the person gave."""

    form_field: FormField
    widget: Widget

    @classmethod
    def build(cls, form_field: FormField, widget_id: str) -> FieldInput:
        kind = form_field.kind
        default = form_field.default
        widget: Widget
        if kind is FieldKind.BOOLEAN and default is not None:
            widget = Switch(value=bool(default), id=widget_id)
        elif kind is FieldKind.BOOLEAN:
            widget = Select[bool]([("Yes", True), ("No", False)], prompt="Choose yes or no", id=widget_id)
        elif kind is FieldKind.SINGLE_CHOICE:
            options = [
                (Text(_option_label(form_field, option.value)), option.value) for option in form_field.options
            ]
            initial: str | Any = default if isinstance(default, str) else Select.NULL
            widget = Select[str](options, prompt="Choose one", value=initial, id=widget_id)
        elif kind is FieldKind.MULTI_CHOICE:
            chosen = set(default) if isinstance(default, list) else set()
            widget = SelectionList[str](
                *[
                    (Text(_option_label(form_field, option.value)), option.value, option.value in chosen)
                    for option in form_field.options
                ],
                id=widget_id,
            )
        else:
            widget = Input(
                value=_edit_text(default),
                placeholder=_placeholder(form_field),
                validators=[_FieldValidator(form_field)],
                id=widget_id,
            )
        return cls(form_field, widget)

    def value(self) -> AnswerValue | Missing:
        """The value given (``MISSING`` for an empty field); ``ValueError`` with the reason if it is not
        one the field takes."""
        widget = self.widget
        form_field = self.form_field
        if isinstance(widget, Switch):
            return widget.value
        if isinstance(widget, Select):
            chosen = cast(Select[Any], widget).value
            return MISSING if chosen is Select.NULL else cast(AnswerValue, chosen)
        if isinstance(widget, SelectionList):
            return list(cast(SelectionList[str], widget).selected)
        text = cast(Input, widget).value
        if not text.strip():
            return MISSING
        return read_answer(form_field, text, now=datetime.now().astimezone(), zone=_local_zone())


def field_label(form_field: FormField) -> str:
    """The field's title, else its property name (both the server's: cleaned of controls, one line)."""
    label = sanitize(form_field.label, max_length=_MAX_LABEL, single_line=True) or sanitize(
        form_field.name, max_length=_MAX_LABEL, single_line=True
    )
    return label if form_field.required else f"{label} (optional)"


def _edit_text(value: AnswerValue | None) -> str:
    if value is None or isinstance(value, list | bool):
        return ""
    return str(value)


def _placeholder(form_field: FormField) -> str:
    if form_field.kind is FieldKind.DATE or form_field.kind is FieldKind.DATE_TIME:
        return _date_placeholder(date_offer(with_time=form_field.kind is FieldKind.DATE_TIME))
    return {
        FieldKind.EMAIL: "name@example.com",
        FieldKind.URI: "https://…",
        FieldKind.INTEGER: "a whole number",
        FieldKind.NUMBER: "a number",
    }.get(form_field.kind, "")


def _date_placeholder(offer: DateOffer) -> str:
    """Only the dates the installed reader reads: words with ``dateparser``, else the ISO format named."""
    return f"{offer.what}: {', '.join(offer.examples)}" if offer.in_words else offer.sentence
