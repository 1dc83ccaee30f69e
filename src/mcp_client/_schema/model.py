"""The normalized form model: ``FormSchema`` of ``FormField`` s, and how an answer is checked against it.

Built by ``_schema.parse`` from a raw ``requested_schema`` (the parser depends on this model, never the
other way round) and re-exported, with its policies documented, by the public ``mcp_client.schema``.
Everything here is about values: what a field accepts (``check``), how defaults fill an answer
(``fill_defaults``) and whether a whole answer may be sent (``validate_content``). How a person types
a value is the adapters' business.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from mcp_client._errors import InvalidElicitationContentError
from mcp_client._schema.formats import is_date, is_date_time, is_email, is_uri

__all__ = ["AnswerValue", "FieldKind", "FormField", "FormSchema", "Option"]

AnswerValue = str | int | float | bool | list[str]
"""One field's value in an answer: text, a number, yes/no, or the chosen values of a multiple choice."""


class FieldKind(enum.Enum):
    """What kind of input a field wants; one per PrimitiveSchemaDefinition shape."""

    TEXT = "text"
    EMAIL = "email"
    URI = "uri"
    DATE = "date"
    DATE_TIME = "date-time"
    INTEGER = "integer"
    NUMBER = "number"
    BOOLEAN = "boolean"
    SINGLE_CHOICE = "single-choice"
    MULTI_CHOICE = "multi-choice"


_STRING_KINDS = frozenset(
    {FieldKind.TEXT, FieldKind.EMAIL, FieldKind.URI, FieldKind.DATE, FieldKind.DATE_TIME}
)
# What each format check says when it fails, phrased to follow "must".
_FORMAT_CHECKS = {
    FieldKind.EMAIL: (is_email, "be an e-mail address like name@example.com"),
    FieldKind.URI: (is_uri, "be a URI with a scheme, like https://example.com"),
    FieldKind.DATE: (is_date, "be a date like 2025-12-26 (YYYY-MM-DD)"),
    FieldKind.DATE_TIME: (is_date_time, "be a date and time with a time zone, like 2025-12-26T18:30:00Z"),
}
_MAX_OPTIONS_SHOWN = 10


@dataclass(frozen=True, slots=True)
class Option:
    """One choice of a single- or multi-choice field: the value sent on the wire and the label shown."""

    value: str
    label: str


@dataclass(frozen=True, slots=True)
class FormField:
    """One property of the form, normalized.

    ``label`` is the property's ``title``, else its name; ``help`` its ``description``. ``default`` is
    ``None`` when the schema gives none (or gives one that does not fit the field, which is dropped).
    Constraints that do not apply to the kind are ``None``.
    """

    name: str
    kind: FieldKind
    label: str
    help: str | None = None
    required: bool = False
    default: AnswerValue | None = None
    min_length: int | None = None
    max_length: int | None = None
    minimum: float | None = None
    maximum: float | None = None
    min_items: int | None = None
    max_items: int | None = None
    options: tuple[Option, ...] = ()
    # Each option's label by its value, built once: a form may carry thousands of options and every
    # screen names each of them, so a lookup must not walk the list (the first of equal values wins).
    _labels: Mapping[str, str] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        labels: dict[str, str] = {}
        for option in self.options:
            labels.setdefault(option.value, option.label)
        object.__setattr__(self, "_labels", labels)

    def check(self, value: object) -> str | None:
        """Why ``value`` is not a valid answer for this field, or ``None`` if it is.

        The reason is a short sentence a person can read ("must be at most 20 characters"). Adapters use
        it for live validation; ``FormSchema.validate_content`` uses it before sending. ``None`` stands
        for "left out": fine for an optional field, "is required" for a required one.
        """
        problem = self._problem(value)
        return None if problem is None else problem[1]

    def rule_broken(self, value: object) -> str | None:
        """The JSON Schema keyword that ``value`` breaks (``"maxLength"``, ``"format"``, ``"enum"``...)."""
        problem = self._problem(value)
        return None if problem is None else problem[0]

    def option_label(self, value: str) -> str:
        """The label shown for the option ``value`` (the value itself if no option has it); constant time."""
        return self._labels.get(value, value)

    def _problem(self, value: object) -> tuple[str, str] | None:
        """``(rule, reason)`` for the first rule ``value`` breaks, or ``None``."""
        if value is None:
            return ("required", "is required") if self.required else None
        kind = self.kind
        if kind in _STRING_KINDS:
            return self._string_problem(value)
        if kind is FieldKind.BOOLEAN:
            return (
                None
                if isinstance(value, bool)
                else ("type", f"must be true or false, not {_type_name(value)}")
            )
        if kind is FieldKind.INTEGER or kind is FieldKind.NUMBER:
            return self._number_problem(value)
        if kind is FieldKind.SINGLE_CHOICE:
            if not isinstance(value, str):
                return ("type", f"must be one of the options (a string), not {_type_name(value)}")
            if value not in self._labels:
                return ("enum", f"must be one of: {self._options_text()}")
            return None
        return self._multi_problem(value)

    def _string_problem(self, value: object) -> tuple[str, str] | None:
        if not isinstance(value, str):
            return ("type", f"must be text (a string), not {_type_name(value)}")
        if self.min_length is not None and len(value) < self.min_length:
            return ("minLength", f"must be at least {_count(self.min_length, 'character')}")
        if self.max_length is not None and len(value) > self.max_length:
            return ("maxLength", f"must be at most {_count(self.max_length, 'character')}")
        format_check = _FORMAT_CHECKS.get(self.kind)
        if format_check is not None and not format_check[0](value):
            return ("format", f"must {format_check[1]}")
        return None

    def _number_problem(self, value: object) -> tuple[str, str] | None:
        integer = self.kind is FieldKind.INTEGER
        wanted = "a whole number" if integer else "a number"
        if isinstance(value, bool) or not isinstance(value, int | float):
            return ("type", f"must be {wanted}, not {_type_name(value)}")
        if isinstance(value, float):
            if not math.isfinite(value):
                return ("type", f"must be {wanted}, not {value}")
            if integer and not value.is_integer():
                return ("type", f"must be a whole number, not {value}")
        if self.minimum is not None and value < self.minimum:
            return ("minimum", f"must be at least {_number_text(self.minimum)}")
        if self.maximum is not None and value > self.maximum:
            return ("maximum", f"must be at most {_number_text(self.maximum)}")
        return None

    def _multi_problem(self, value: object) -> tuple[str, str] | None:
        if not isinstance(value, list | tuple):
            return ("type", f"must be a list of options, not {_type_name(value)}")
        items: list[object] = list(value)
        seen: set[str] = set()
        for item in items:
            if not isinstance(item, str):
                return ("type", f"must list options as strings, not {_type_name(item)}")
            if item not in self._labels:
                return ("enum", f"lists {item!r}, which is not one of: {self._options_text()}")
            if item in seen:
                return ("uniqueItems", f"lists {item!r} more than once")
            seen.add(item)
        if self.min_items is not None and len(items) < self.min_items:
            return ("minItems", f"must have at least {_count(self.min_items, 'option')} selected")
        if self.max_items is not None and len(items) > self.max_items:
            return ("maxItems", f"must have at most {_count(self.max_items, 'option')} selected")
        return None

    def _normalized(self, value: Any) -> AnswerValue:
        """A valid ``value`` in wire form: whole floats become ints for integers, lists are copied."""
        if self.kind is FieldKind.INTEGER and isinstance(value, float):
            return int(value)
        if self.kind is FieldKind.MULTI_CHOICE:
            return list(value)
        return value

    def _options_text(self) -> str:
        shown = ", ".join(repr(option.value) for option in self.options[:_MAX_OPTIONS_SHOWN])
        more = len(self.options) - _MAX_OPTIONS_SHOWN
        return f"{shown} and {more} more" if more > 0 else shown


@dataclass(frozen=True, slots=True)
class FormSchema:
    """A whole form: its fields in the server's order. No fields means a confirm-only question."""

    fields: tuple[FormField, ...] = ()
    raw: Mapping[str, Any] = field(default_factory=dict[str, Any])

    @property
    def is_confirmation(self) -> bool:
        """True for an empty ``properties``: the question only wants accept, decline or cancel."""
        return not self.fields

    def field(self, name: str) -> FormField:
        """The field called ``name`` (KeyError if there is none)."""
        for form_field in self.fields:
            if form_field.name == name:
                return form_field
        raise KeyError(name)

    def default_content(self) -> dict[str, AnswerValue]:
        """The answer a user gives by keeping every default: one entry per field that has a default."""
        return {f.name: _copy(f.default) for f in self.fields if f.default is not None}

    def fill_defaults(self, content: Mapping[str, Any] | None) -> dict[str, Any]:
        """``content`` with the schema's defaults added for the fields it leaves out (SEP-1034).

        A field whose value is ``None`` counts as left out. Other values are kept as given, even invalid
        ones: ``validate_content`` is the place that judges them.
        """
        filled = dict(_content_mapping(content))
        for form_field in self.fields:
            if form_field.default is not None and filled.get(form_field.name) is None:
                filled[form_field.name] = _copy(form_field.default)
        return filled

    def validate_content(self, content: Mapping[str, Any] | None) -> dict[str, AnswerValue]:
        """Check an ``accept`` answer against the form and return it, ready to send.

        Raises ``InvalidElicitationContentError`` naming the field and the rule for a missing required
        field, an unknown field, a value of the wrong type, or a broken constraint. ``None`` values are
        dropped (the field is left out). Integers given as whole floats (``3.0``) become ints.
        The result lists the fields in the form's order.
        """
        given = _content_mapping(content)
        known = {form_field.name for form_field in self.fields}
        for key in given:
            if key not in known:
                names = [repr(form_field.name) for form_field in self.fields]
                allowed = ", ".join(names) or "none (the question only wants accept, decline or cancel)"
                raise InvalidElicitationContentError(
                    f"The answer has a field {key!r} that the form does not ask for; allowed fields: "
                    f"{allowed}.",
                    field=str(key),
                    rule="additionalProperties",
                )
        cleaned: dict[str, AnswerValue] = {}
        for form_field in self.fields:
            value = given.get(form_field.name)
            problem = form_field._problem(value)
            if problem is not None:
                rule, reason = problem
                if rule == "required":
                    message = (
                        f"The answer leaves out the required field {form_field.name!r} "
                        f"({form_field.label}); fill it in, or decline the question."
                    )
                else:
                    message = (
                        f"The answer's field {form_field.name!r} ({form_field.label}) {reason} "
                        f"(schema rule {rule!r})."
                    )
                raise InvalidElicitationContentError(message, field=form_field.name, rule=rule)
            if value is not None:
                cleaned[form_field.name] = form_field._normalized(value)
        return cleaned


def _content_mapping(content: object) -> Mapping[str, Any]:
    """``content`` as a mapping (``None`` is empty); callers may pass anything at run time."""
    if content is None:
        return {}
    if not isinstance(content, Mapping):
        raise InvalidElicitationContentError(
            f"The answer's content must be an object mapping field names to values, not "
            f"{_type_name(content)}.",
            rule="type",
        )
    return cast(Mapping[str, Any], content)


def _copy(value: AnswerValue | None) -> AnswerValue:
    assert value is not None
    return list(value) if isinstance(value, list) else value


_TYPE_NAMES: dict[type, str] = {
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    str: "text",
    list: "a list",
    dict: "an object",
    type(None): "null",
}


def _type_name(value: object) -> str:
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _number_text(number: float) -> str:
    if isinstance(number, float) and number.is_integer() and abs(number) < 1e16:
        return str(int(number))
    return str(number)
