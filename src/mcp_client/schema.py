"""The one normalized model of an elicitation form, shared by the answer validator and every UI adapter.

A server's ``requested_schema`` is raw JSON Schema restricted to a flat object of primitive properties
(MCP spec, "Elicitation", PrimitiveSchemaDefinition). ``parse_form_schema`` turns it into a
``FormSchema``: a list of ``FormField`` s, each with one ``FieldKind``, a label, help text, a default,
constraints and, for choices, labelled options. Adapters never read raw JSON Schema; they read this.

``FormSchema.fill_defaults`` fills the schema's defaults into an answer (SEP-1034) and
``FormSchema.validate_content`` checks an answer before it is sent. Both raise only the documented
errors: ``InvalidElicitationSchemaError`` and ``InvalidElicitationContentError``.

Policies for what the spec leaves open (callers may rely on them):

* **Unknown keywords are ignored, the field is still rendered.** A keyword outside the spec's vocabulary
  (``pattern``, ``exclusiveMinimum``, ``multipleOf``, ``examples``, ``x-...``; the official server lets
  some through) changes nothing; the server is expected to validate again. Keywords that change the
  *shape* of a property (``$ref``, ``anyOf``/``allOf``/``not``, ``properties``, ``items``, ``enum``,
  ``oneOf``, ``const``...) are refused wherever the subset does not use them, because ignoring them
  would render the wrong form.
* **Unknown ``format`` values are refused** (only ``email``, ``uri``, ``date``, ``date-time`` exist).
* **Constraints must be well typed and consistent**: lengths and item counts are non-negative integers,
  bounds are finite numbers, and a lower bound may not exceed its upper bound. A choice may not also
  carry ``minLength``/``maxLength``/``format``.
* **Labels:** a ``oneOf``/``anyOf`` option without ``title``, or an empty title or ``enumNames`` entry,
  is labelled with its value; ``enumNames`` is also read inside a multi choice's ``items``.
* **A default that does not fit its field is dropped** (``FormField.default`` is ``None``); it never
  makes the schema invalid. A ``null`` ``title``, ``description`` or ``default`` counts as absent.
* The envelope's ``title``, ``description``, ``$schema`` and ``$defs`` are ignored; a missing ``type``
  or ``properties`` is tolerated (an object with no properties: a confirm-only question).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from mcp_client._errors import InvalidElicitationContentError
from mcp_client._schema_formats import is_date, is_date_time, is_email, is_uri

__all__ = [
    "AnswerValue",
    "FieldKind",
    "FormField",
    "FormSchema",
    "Option",
    "parse_form_schema",
]

AnswerValue = str | int | float | bool | list[str]


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
_FORMAT_KINDS: dict[str, FieldKind] = {
    "email": FieldKind.EMAIL,
    "uri": FieldKind.URI,
    "date": FieldKind.DATE,
    "date-time": FieldKind.DATE_TIME,
}
# What each format check says when it fails, phrased to follow "must".
_FORMAT_CHECKS = {
    FieldKind.EMAIL: (is_email, "be an e-mail address like name@example.com"),
    FieldKind.URI: (is_uri, "be a URI with a scheme, like https://example.com"),
    FieldKind.DATE: (is_date, "be a date like 2025-12-26 (YYYY-MM-DD)"),
    FieldKind.DATE_TIME: (is_date_time, "be a date and time with a time zone, like 2025-12-26T18:30:00Z"),
}
_TRUE_WORDS = frozenset({"y", "yes", "true", "t", "1", "on"})
_FALSE_WORDS = frozenset({"n", "no", "false", "f", "0", "off"})
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

    def parse_text(self, text: str) -> AnswerValue | None:
        """Turn what a person typed into this field's value, for text-only adapters (terminals).

        Blank input gives ``None``: the person left the field empty, so the adapter keeps the default or
        leaves the field out (``validate_content`` then reports a missing required field). Otherwise the
        text is converted (``"42"`` -> ``42``, ``"yes"`` -> ``True``; a choice matches an option's value,
        its label ignoring case, or its 1-based number; a multi choice takes a comma-separated list) and
        checked like ``check``. Raises ``ValueError`` whose message is a readable reason ("must be at
        least 18") when the text does not convert or does not fit.
        """
        if not text.strip():
            return None
        value = self._convert_text(text)
        reason = self.check(value)
        if reason is not None:
            raise ValueError(reason)
        return value

    def option_label(self, value: str) -> str:
        """The label shown for the option ``value`` (the value itself if no option has it)."""
        for option in self.options:
            if option.value == value:
                return option.label
        return value

    def _convert_text(self, text: str) -> AnswerValue:
        kind = self.kind
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
            return self._convert_number(stripped)
        if kind is FieldKind.SINGLE_CHOICE:
            return self._match_option(stripped)
        pieces = [piece.strip() for piece in stripped.split(",")]
        return [self._match_option(piece) for piece in pieces if piece]

    def _convert_number(self, text: str) -> int | float:
        try:
            return int(text)
        except ValueError:
            pass
        try:
            number = float(text)
        except ValueError:
            raise ValueError(
                "must be a whole number, like 42" if self.kind is FieldKind.INTEGER else "must be a number"
            ) from None
        if self.kind is FieldKind.INTEGER and number.is_integer():
            return int(number)
        return number

    def _match_option(self, text: str) -> str:
        for option in self.options:
            if option.value == text:
                return option.value
        folded = text.casefold()
        for option in self.options:
            if option.value.casefold() == folded or option.label.casefold() == folded:
                return option.value
        if text.isascii() and text.isdigit() and len(text) <= 6 and 1 <= int(text) <= len(self.options):
            return self.options[int(text) - 1].value
        raise ValueError(f"{text!r} is not one of the options: {self._options_text()}")

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
            if not any(option.value == value for option in self.options):
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
        items: list[object] = list(value)  # pyright: ignore[reportUnknownArgumentType]
        allowed = {option.value for option in self.options}
        seen: set[str] = set()
        for item in items:
            if not isinstance(item, str):
                return ("type", f"must list options as strings, not {_type_name(item)}")
            if item not in allowed:
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


def parse_form_schema(schema: object) -> FormSchema:
    """Normalize a ``requested_schema``; raise ``InvalidElicitationSchemaError`` if it is outside the spec.

    Accepted (MCP spec, both eras): ``{"type": "object", "properties": {...}, "required": [...]}`` with
    optional ``$schema``/``title``/``description``, and each property one of: string (``minLength``,
    ``maxLength``, ``format`` in email/uri/date/date-time), number/integer (``minimum``, ``maximum``),
    boolean, single choice (``enum``; ``enum`` + ``enumNames``; ``oneOf`` of ``{const, title}``), multi
    choice (``type: array`` with ``items.enum``, ``items.anyOf`` or ``items.oneOf`` of ``{const, title}``,
    ``minItems``, ``maxItems``). Every property may carry ``title``, ``description`` and ``default``.
    Nesting, ``$ref``, ``anyOf`` at property level and unknown types are refused, naming the property.
    See the module docstring for the policies on unknown keywords, formats and bad defaults.
    """
    # Imported here because the parser builds this module's dataclasses (a cycle at import time).
    from mcp_client._schema_parse import parse_envelope

    return parse_envelope(schema)


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
