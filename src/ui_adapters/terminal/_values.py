"""Between typed text and answers: check what a person typed, and show an answer back as text.

Kept apart from the widgets so that the interactive prompts and the plain line mode accept exactly the
same input and explain a mistake with the same words. Conversion and constraints (length, format,
bounds, number of items) belong to ``parse_typed`` / ``FormField.check``.
"""

from __future__ import annotations

from mcp_client.schema import AnswerValue, FieldKind, FormField
from ui_adapters._answer_text import MAX_SHOWN as _MAX_SHOWN
from ui_adapters._answer_text import number_text as _number
from ui_adapters._answer_text import value_text as display
from ui_adapters.terminal._typed_text import parse_typed
from ui_adapters.text import sanitize

__all__ = ["AnswerValue", "check_text", "default_text", "display", "edit_text", "hint"]


def check_text(field: FormField, text: str) -> tuple[AnswerValue | None, str | None]:
    """``(value, None)`` if ``text`` is an acceptable answer for ``field``, else ``(None, reason)``.

    Blank text means "no answer": the field's default when it has one (the client would send it anyway,
    so that is what the person is shown), else left out for an optional field and a reason for a
    required one. Conversion is ``parse_typed``'s and constraints ``FormField.check``'s, so both
    prompters read text the same way; the reason is made safe to show (it may quote server text).
    """
    try:
        value = parse_typed(field, text)
    except ValueError as error:
        return None, sanitize(str(error), max_length=_MAX_SHOWN, single_line=True)
    if value is None and field.default is not None:
        return field.default, None
    if value is None and field.required:
        return None, "this field is required"
    return value, None


def edit_text(field: FormField, value: AnswerValue | None) -> str:
    """The text that, typed into ``field``, gives ``value`` back (used to pre-fill a prompt)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(value)
    return str(value)


def default_text(field: FormField) -> str | None:
    """The field's default as a person reads it (an option's label, yes/no), or ``None`` if it has none."""
    return None if field.default is None else display(field, field.default)


def hint(field: FormField) -> str | None:
    """A short description of what the field accepts, built from its kind and constraints."""
    parts: list[str] = []
    kind_hints = {
        FieldKind.EMAIL: "an e-mail address",
        FieldKind.URI: "a URI",
        FieldKind.DATE: "a date, YYYY-MM-DD",
        FieldKind.DATE_TIME: "a date and time, YYYY-MM-DDTHH:MM:SS with a timezone",
        FieldKind.INTEGER: "a whole number",
        FieldKind.NUMBER: "a number",
    }
    if field.kind in kind_hints:
        parts.append(kind_hints[field.kind])
    if field.min_length is not None and field.max_length is not None:
        parts.append(f"{field.min_length}-{field.max_length} characters")
    elif field.min_length is not None:
        parts.append(f"at least {field.min_length} characters")
    elif field.max_length is not None:
        parts.append(f"at most {field.max_length} characters")
    if field.minimum is not None and field.maximum is not None:
        parts.append(f"from {_number(field.minimum)} to {_number(field.maximum)}")
    elif field.minimum is not None:
        parts.append(f"at least {_number(field.minimum)}")
    elif field.maximum is not None:
        parts.append(f"at most {_number(field.maximum)}")
    if field.kind is FieldKind.MULTI_CHOICE:
        low, high = field.min_items, field.max_items
        if low is not None and high is not None:
            parts.append(f"choose {low} to {high}" if low != high else f"choose exactly {low}")
        elif low is not None:
            parts.append(f"choose at least {low}")
        elif high is not None:
            parts.append(f"choose at most {high}")
        if not low and field.required and field.default is None:
            parts.append("choosing none is an answer too")  # required means present, not non-empty
    return ", ".join(parts) or None
