"""What a chat shows for one step of a question: ``ChatMessage``, and the words of each step.

Kept apart from the state machine (``_form``) so the wording can be read in one place. Every message
starts with the server's name; server text (the question, labels, help, option labels) is cleaned of
control and bidi characters (``ui_adapters.text.sanitize``) and must still be shown as text, never as
markup or HTML.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from mcp_client.schema import AnswerValue, FieldKind, FormField
from ui_adapters._answer_text import number_text as _number
from ui_adapters._answer_text import option_text as _option_label
from ui_adapters._answer_text import value_text as describe_value
from ui_adapters.chat._dates import date_offer
from ui_adapters.text import sanitize

__all__ = ["ChatMessage", "ChatStep", "describe_value", "field_prompt", "review_prompt"]

ChatStep = Literal["field", "review", "confirm", "url", "approval", "done"]
"""Where a conversation is: asking a field, showing every answer before sending, a confirm-only
question, a link question, the app's approval of a tool call (``ChatForm.for_approval``), or ended."""

_MAX_LABEL = 200
_MAX_TEXT = 2000
_OPTIONS_LISTED = 25


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One message to post in the conversation.

    ``text`` is the whole message (plain text, server name first). ``choices`` are quick replies as
    ``(label, value)`` pairs: show them as buttons where the platform has them and send ``value`` back
    through ``ChatForm.reply`` when one is tapped (typing works too). For a link question ``url`` is the
    link, ``url_host`` the host a browser would really contact, ``url_warnings`` sentences about what
    could mislead, and ``url_refusal`` why it must not be opened (then no choice accepts it): show the
    link as text and open it only after the user accepts. ``error`` is why the last reply was not taken
    (also in ``text``). ``field`` names the field being asked, ``step`` says which kind of step this is.
    """

    text: str
    server_name: str
    step: ChatStep
    choices: tuple[tuple[str, str], ...] = ()
    field: str | None = None
    error: str | None = None
    url: str | None = None
    url_host: str | None = None
    url_warnings: tuple[str, ...] = ()
    url_refusal: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The message as JSON-ready data (``choices`` as ``[{"label", "value"}]``)."""
        return {
            "text": self.text,
            "server_name": self.server_name,
            "step": self.step,
            "choices": [{"label": label, "value": value} for label, value in self.choices],
            "field": self.field,
            "error": self.error,
            "url": self.url,
            "url_host": self.url_host,
            "url_warnings": list(self.url_warnings),
            "url_refusal": self.url_refusal,
        }


def label_of(form_field: FormField) -> str:
    """The field's title, else its property name: both server text, so both cleaned."""
    return sanitize(form_field.label, max_length=_MAX_LABEL, single_line=True) or sanitize(
        form_field.name, max_length=_MAX_LABEL, single_line=True
    )


def field_prompt(
    form_field: FormField, *, position: int, count: int, editing: bool
) -> tuple[list[str], tuple[tuple[str, str], ...]]:
    """The lines asking for ``form_field`` and its quick replies."""
    place = f" ({position} of {count})" if count > 1 else ""
    optional = "" if form_field.required else " (optional)"
    lines = [f"{label_of(form_field)}{optional}{place}"]
    if form_field.help:
        lines.append(sanitize(form_field.help, max_length=_MAX_TEXT))
    lines.append(_expected(form_field))
    choices = list(_field_choices(form_field))
    if form_field.default is not None:
        shown = describe_value(form_field, form_field.default)
        lines.append(f'Default: {shown} (reply "default" to keep it).')
        if form_field.kind not in (FieldKind.BOOLEAN, FieldKind.SINGLE_CHOICE):
            choices.append((f"Keep {shown}", "default"))
    if not form_field.required:
        lines.append('Reply "skip" to leave it empty.')
        choices.append(("Skip", "skip"))
    if editing:
        lines.append('Reply "back" to keep the answer you had.')
    return lines, tuple(choices)


def review_prompt(
    fields: tuple[FormField, ...], content: Mapping[str, AnswerValue]
) -> tuple[list[str], tuple[tuple[str, str], ...]]:
    """The last step: every value as it will be sent, and the replies that send, change or stop."""
    lines = ["Send these answers?"]
    for number, form_field in enumerate(fields, start=1):
        lines.append(
            f"{number}. {label_of(form_field)}: {describe_value(form_field, content.get(form_field.name))}"
        )
    lines.append('Reply "send" to send them, a number to change that answer, "decline" or "cancel".')
    return lines, (("Send", "send"), ("Decline", "decline"), ("Cancel", "cancel"))


def _field_choices(form_field: FormField) -> tuple[tuple[str, str], ...]:
    if form_field.kind is FieldKind.BOOLEAN:
        return _marked(form_field, (("Yes", True, "yes"), ("No", False, "no")))
    if form_field.kind is FieldKind.SINGLE_CHOICE:
        return _marked(
            form_field,
            tuple(
                (_option_label(form_field, option.value), option.value, option.value)
                for option in form_field.options
            ),
        )
    if form_field.kind is FieldKind.MULTI_CHOICE:
        choices = tuple(
            (_option_label(form_field, option.value), option.value) for option in form_field.options
        )
        if not form_field.min_items:
            choices += (("None", "none"),)
        return choices
    return ()


def _marked(
    form_field: FormField, options: tuple[tuple[str, object, str], ...]
) -> tuple[tuple[str, str], ...]:
    """Quick replies with the schema's default marked, never pre-chosen: the user still taps one."""
    return tuple(
        (
            f"{label} (default)" if form_field.default is not None and value == form_field.default else label,
            reply,
        )
        for label, value, reply in options
    )


def _expected(form_field: FormField) -> str:
    kind = form_field.kind
    if kind is FieldKind.BOOLEAN:
        return "Answer yes or no."
    if kind is FieldKind.SINGLE_CHOICE or kind is FieldKind.MULTI_CHOICE:
        listed = [
            f"{number}. {_option_label(form_field, option.value)}"
            for number, option in enumerate(form_field.options[:_OPTIONS_LISTED], start=1)
        ]
        more = len(form_field.options) - _OPTIONS_LISTED
        if more > 0:
            listed.append(f"... and {more} more")
        how = "Choose one" if kind is FieldKind.SINGLE_CHOICE else _how_many(form_field)
        return f"{how} (name or number): " + "; ".join(listed)
    parts = {
        FieldKind.TEXT: "Type your answer",
        FieldKind.EMAIL: "Type an e-mail address",
        FieldKind.URI: "Type a link, like https://example.com",
        FieldKind.INTEGER: "Type a whole number",
        FieldKind.NUMBER: "Type a number",
    }
    if kind is FieldKind.DATE or kind is FieldKind.DATE_TIME:  # only the dates the installed reader reads
        text = f"Type {date_offer(with_time=kind is FieldKind.DATE_TIME).sentence}"
    else:
        text = parts[kind]
    low, high = form_field.minimum, form_field.maximum
    if low is not None and high is not None:
        text += f" from {_number(low)} to {_number(high)}"
    elif low is not None:
        text += f", at least {_number(low)}"
    elif high is not None:
        text += f", at most {_number(high)}"
    if form_field.max_length is not None:
        text += f" (at most {form_field.max_length} characters)"
    return text + "."


def _how_many(form_field: FormField) -> str:
    low, high = form_field.min_items, form_field.max_items
    if low is not None and high is not None:
        return f"Choose {low} to {high}, separated by commas" if low != high else f"Choose exactly {low}"
    if low:
        return f"Choose at least {low}, separated by commas"
    if high is not None:
        return f"Choose at most {high}, separated by commas"
    return 'Choose any, separated by commas, or "none"'
