"""An answer as a person reads it, the same in every adapter: yes/no, option labels, "(left empty)".

The terminal's summary, the chat's review message and their "Default: ..." lines all show values
this way, and the chat and Textual forms name their options so; kept in one place so that a change
of wording (or of how a hostile label is cleaned) reaches every screen at once. Server text (option
labels, typed strings) goes through ``sanitize``.
"""

from __future__ import annotations

from mcp_client.schema import AnswerValue, FieldKind, FormField
from ui_adapters.text import sanitize

__all__ = ["MAX_SHOWN", "number_text", "option_text", "value_text"]

MAX_SHOWN = 200
"""At most this many characters of one value or label on one line."""


def value_text(form_field: FormField, value: AnswerValue | None) -> str:
    """``value`` as a person reads it: option labels instead of raw values, yes/no for booleans."""
    if value is None:
        return "(left empty)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(option_text(form_field, item) for item in value) if value else "(none)"
    if form_field.kind is FieldKind.SINGLE_CHOICE and isinstance(value, str):
        return option_text(form_field, value)
    return sanitize(str(value), max_length=MAX_SHOWN, single_line=True)


def number_text(number: float) -> str:
    """A schema bound as a person writes it: ``5`` rather than ``5.0``, floats too large to be exact
    kept as Python prints them."""
    if isinstance(number, float) and number.is_integer() and abs(number) < 1e16:
        return str(int(number))
    return str(number)


def option_text(form_field: FormField, value: str) -> str:
    """The label of the option ``value``, cleaned of controls."""
    # A label made only of control characters cleans to nothing: show the (cleaned) option value then.
    label = sanitize(form_field.option_label(value), max_length=MAX_SHOWN, single_line=True)
    return label or sanitize(value, max_length=MAX_SHOWN, single_line=True)
