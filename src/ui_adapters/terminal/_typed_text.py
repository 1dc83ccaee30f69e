"""What a person typed, turned into a field's value: the one text reader for widgets and line mode.

A terminal only has text. ``"42"`` must become ``42``, ``"yes"`` ``True``, ``"2"`` the second option of
a choice, ``"a, c"`` two options of a multi choice. The form model (``mcp_client.schema``) knows
nothing of typing: it judges values. This module turns text into a value, then asks the field
(``FormField.check``) whether the value fits.
"""

from __future__ import annotations

from mcp_client.schema import AnswerValue, FieldKind, FormField

__all__ = ["parse_typed"]

_TRUE_WORDS = frozenset({"y", "yes", "true", "t", "1", "on"})
_FALSE_WORDS = frozenset({"n", "no", "false", "f", "0", "off"})
_STRING_KINDS = frozenset(
    {FieldKind.TEXT, FieldKind.EMAIL, FieldKind.URI, FieldKind.DATE, FieldKind.DATE_TIME}
)
_MAX_OPTIONS_SHOWN = 10


def parse_typed(field: FormField, text: str) -> AnswerValue | None:
    """``field``'s value for the typed ``text``; ``None`` for blank text (the person left it empty).

    Plain text is kept as typed; other strings are stripped. A boolean takes yes/no words, a number
    ``42`` or ``4.5`` (``42.0`` is a whole number), a choice an option's value, its label ignoring case,
    or its 1-based number, and a multi choice a comma-separated list of those. Raises ``ValueError``
    with a readable reason ("must be at least 18") when the text does not convert or does not fit.
    """
    if not text.strip():
        return None
    value = _convert(field, text)
    reason = field.check(value)
    if reason is not None:
        raise ValueError(reason)
    return value


def _convert(field: FormField, text: str) -> AnswerValue:
    kind = field.kind
    if kind is FieldKind.TEXT:
        return text
    stripped = text.strip()
    if kind in _STRING_KINDS:
        return stripped
    if kind is FieldKind.BOOLEAN:
        word = stripped.lower()
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
        raise ValueError("must be yes or no")
    if kind is FieldKind.INTEGER or kind is FieldKind.NUMBER:
        return _number(field, stripped)
    if kind is FieldKind.SINGLE_CHOICE:
        return _option(field, stripped)
    pieces = [piece.strip() for piece in stripped.split(",")]
    return [_option(field, piece) for piece in pieces if piece]


def _number(field: FormField, text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        raise ValueError(
            "must be a whole number, like 42" if field.kind is FieldKind.INTEGER else "must be a number"
        ) from None
    if field.kind is FieldKind.INTEGER and number.is_integer():
        return int(number)
    return number


def _option(field: FormField, text: str) -> str:
    options = field.options
    for option in options:
        if option.value == text:
            return option.value
    folded = text.casefold()
    for option in options:
        if option.value.casefold() == folded or option.label.casefold() == folded:
            return option.value
    if text.isascii() and text.isdigit() and len(text) <= 6 and 1 <= int(text) <= len(options):
        return options[int(text) - 1].value
    shown = ", ".join(repr(option.value) for option in options[:_MAX_OPTIONS_SHOWN])
    more = len(options) - _MAX_OPTIONS_SHOWN
    listed = f"{shown} and {more} more" if more > 0 else shown
    raise ValueError(f"{text!r} is not one of the options: {listed}")
