"""Turns a raw ``requested_schema`` into a ``FormSchema``, refusing everything outside the spec's subset.

``parse_form_schema`` is public as ``mcp_client.schema.parse_form_schema``; that module's docstring
states the policies applied here (unknown keywords ignored, shape keywords refused, unknown formats
refused, bad defaults dropped). Every refusal is an ``InvalidElicitationSchemaError`` whose message
names the property, says what is wrong and what is allowed; nothing else may escape, whatever JSON
comes in. Parsing depends on the model (``_schema.model``), never the other way round.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, cast

from mcp_client._errors import InvalidElicitationSchemaError
from mcp_client._protocol.json_names import json_type
from mcp_client._schema.model import FieldKind, FormField, FormSchema, Option

__all__ = ["parse_form_schema"]

_ALLOWED_TYPES = '"string", "number", "integer", "boolean" or "array" (a multi choice of strings)'
_FORMATS: dict[str, FieldKind] = {
    "email": FieldKind.EMAIL,
    "uri": FieldKind.URI,
    "date": FieldKind.DATE,
    "date-time": FieldKind.DATE_TIME,
}
# Keywords that change what a property accepts or how it is shown. The subset uses a few of them for one
# type each; anywhere else they are refused, because ignoring them would render a different form than
# the server meant. Keywords outside this set and the spec's own are ignored (the documented policy).
_SHAPE_KEYWORDS = frozenset(
    {
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "const",
        "enum",
        "enumNames",
        "items",
        "prefixItems",
        "contains",
        "properties",
        "patternProperties",
        "additionalProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "dependentSchemas",
        "propertyNames",
    }
)
_SHAPE_KEYWORDS_USED: dict[str, frozenset[str]] = {
    "string": frozenset({"enum", "enumNames", "oneOf"}),
    "array": frozenset({"items"}),
}
_ITEMS_SHAPE_KEYWORDS_USED = frozenset({"enum", "enumNames", "anyOf", "oneOf"})
_ENVELOPE_SHAPE_KEYWORDS = _SHAPE_KEYWORDS - {"properties", "additionalProperties", "enumNames"}

# What a type's parser found: the kind and the ``FormField`` constraints that apply to it.
_Details = dict[str, Any]


def parse_form_schema(schema: object) -> FormSchema:
    """Normalize a ``requested_schema``; raise ``InvalidElicitationSchemaError`` if it is outside the spec.

    Accepted (MCP spec, both eras): ``{"type": "object", "properties": {...}, "required": [...]}`` with
    optional ``$schema``/``title``/``description``, and each property one of: string (``minLength``,
    ``maxLength``, ``format`` in email/uri/date/date-time), number/integer (``minimum``, ``maximum``),
    boolean, single choice (``enum``; ``enum`` + ``enumNames``; ``oneOf`` of ``{const, title}``), multi
    choice (``type: array`` with ``items.enum``, ``items.anyOf`` or ``items.oneOf`` of ``{const, title}``,
    ``minItems``, ``maxItems``). Every property may carry ``title``, ``description`` and ``default``.
    Nesting, ``$ref``, ``anyOf`` at property level and unknown types are refused, naming the property.
    See ``mcp_client.schema`` for the policies on unknown keywords, formats and bad defaults.
    """
    if not isinstance(schema, dict | Mapping):
        raise _envelope_error(f"must be a JSON object, not {json_type(schema)}")
    envelope = cast(Mapping[str, Any], schema)
    schema_type = envelope.get("type", "object")
    if schema_type != "object":
        raise _envelope_error(
            f'must have "type": "object" (a flat form of fields), not {_shown(schema_type)}'
        )
    for keyword in envelope:
        if keyword in _ENVELOPE_SHAPE_KEYWORDS:
            raise _envelope_error(
                f'uses {keyword!r} at the top level; allowed: a plain object with "properties" and "required"'
            )
    if not isinstance(envelope.get("additionalProperties", False), bool):
        raise _envelope_error(
            'has an "additionalProperties" schema (open-ended fields a form cannot show); '
            "allowed: true, false or leaving it out"
        )
    raw_properties = envelope.get("properties")
    if raw_properties is None:
        raw_properties = {}
    if not isinstance(raw_properties, dict | Mapping):
        raise _envelope_error(
            f'has "properties" that is {json_type(raw_properties)}; it must be a JSON object '
            "mapping field names to field schemas"
        )
    properties = cast(Mapping[object, object], raw_properties)
    required = _required_names(envelope.get("required"), properties)
    fields: list[FormField] = []
    for name, prop in properties.items():
        if not isinstance(name, str):
            raise _envelope_error(f"has a property name {name!r} that is not a string")
        fields.append(_parse_property(name, prop, name in required))
    return FormSchema(fields=tuple(fields), raw=envelope)


def _required_names(raw: object, properties: Mapping[object, object]) -> frozenset[str]:
    if raw is None:
        return frozenset()
    if not isinstance(raw, list):
        raise _envelope_error(f'has "required" that is {json_type(raw)}; it must be a list of property names')
    names: set[str] = set()
    for item in cast(list[object], raw):
        if not isinstance(item, str):
            raise _envelope_error(
                f'has "required" listing {_shown(item)}; it must list property names as strings'
            )
        if item not in properties:
            known = ", ".join(repr(name) for name in properties) or "none"
            raise InvalidElicitationSchemaError(
                f'The elicitation\'s requestedSchema lists {item!r} in "required", but there is no '
                f"such property; the properties are: {known}.",
                property=item,
            )
        names.add(item)
    return frozenset(names)


def _parse_property(name: str, raw: object, required: bool) -> FormField:
    if not isinstance(raw, dict | Mapping):
        raise _error(name, f"must be a JSON object describing one field, not {json_type(raw)}")
    prop = cast(Mapping[str, Any], raw)
    if "$ref" in prop:
        raise _error(
            name,
            "uses $ref; references are not allowed in elicitation schemas, every property must be "
            f"written out inline as one of {_ALLOWED_TYPES}",
        )
    if "anyOf" in prop:
        raise _error(
            name,
            f"uses anyOf at property level (a union of types); allowed: exactly one type, {_ALLOWED_TYPES}",
        )
    prop_type = prop.get("type")
    if prop_type == "object" or (prop_type is None and "properties" in prop):
        raise _error(
            name,
            "is a nested object; elicitation forms are flat, so each value must be "
            f"{_ALLOWED_TYPES} (flatten the object into top-level properties)",
        )
    if prop_type is None:
        raise _error(name, f'has no "type"; allowed types: {_ALLOWED_TYPES}')
    if not isinstance(prop_type, str):
        raise _error(name, f'has "type" {_shown(prop_type)}; allowed: exactly one of {_ALLOWED_TYPES}')
    parser = _TYPE_PARSERS.get(prop_type)
    if parser is None:
        raise _error(name, f"has unknown type {prop_type!r}; allowed types: {_ALLOWED_TYPES}")
    used = _SHAPE_KEYWORDS_USED.get(prop_type, frozenset())
    for keyword in prop:
        if keyword in _SHAPE_KEYWORDS and keyword not in used:
            raise _error(
                name,
                f"of type {prop_type!r} uses {keyword!r}, which the spec's flat subset does not allow "
                "there; see MCP spec, PrimitiveSchemaDefinition",
            )
    title = _annotation(name, prop, "title")
    form_field = FormField(
        name=name,
        label=title or name,
        help=_annotation(name, prop, "description"),
        required=required,
        **parser(name, prop),
    )
    return _with_default(form_field, prop.get("default"))


def _parse_string(name: str, prop: Mapping[str, Any]) -> _Details:
    min_length = _count_constraint(name, prop, "minLength")
    max_length = _count_constraint(name, prop, "maxLength")
    _check_order(name, "minLength", min_length, "maxLength", max_length)
    options = _single_choice_options(name, prop)
    if options is not None:
        for keyword in ("minLength", "maxLength", "format"):
            if keyword in prop:
                raise _error(
                    name,
                    f"mixes a choice (enum or oneOf) with {keyword!r}; a choice is checked against its "
                    f"options only, so {keyword!r} is not allowed with it",
                )
        return {"kind": FieldKind.SINGLE_CHOICE, "options": options}
    kind = FieldKind.TEXT
    if "format" in prop:
        fmt = prop["format"]
        if not isinstance(fmt, str) or fmt not in _FORMATS:
            raise _error(
                name,
                f"has format {_shown(fmt)}; allowed formats: email, uri, date, date-time "
                "(or no format for plain text)",
            )
        kind = _FORMATS[fmt]
    return {"kind": kind, "min_length": min_length, "max_length": max_length}


def _parse_number(name: str, prop: Mapping[str, Any]) -> _Details:
    minimum = _bound_constraint(name, prop, "minimum")
    maximum = _bound_constraint(name, prop, "maximum")
    _check_order(name, "minimum", minimum, "maximum", maximum)
    kind = FieldKind.INTEGER if prop["type"] == "integer" else FieldKind.NUMBER
    return {"kind": kind, "minimum": minimum, "maximum": maximum}


def _parse_boolean(name: str, prop: Mapping[str, Any]) -> _Details:
    return {"kind": FieldKind.BOOLEAN}


def _parse_array(name: str, prop: Mapping[str, Any]) -> _Details:
    raw_items = prop.get("items")
    if not isinstance(raw_items, dict | Mapping):
        raise _error(
            name,
            'is an array without an "items" object; a multi choice needs "items" with "enum", '
            '"anyOf" or "oneOf" listing string options',
        )
    items = cast(Mapping[str, Any], raw_items)
    if "type" in items and items["type"] != "string":
        raise _error(
            name,
            f"has items of type {_shown(items['type'])}; a multi choice lists string options only",
        )
    for keyword in items:
        if keyword in _SHAPE_KEYWORDS and keyword not in _ITEMS_SHAPE_KEYWORDS_USED:
            raise _error(
                name,
                f'uses {keyword!r} inside "items"; a multi choice\'s items allow only '
                '"enum", "anyOf" or "oneOf" of string options',
            )
    shapes = [keyword for keyword in ("enum", "anyOf", "oneOf") if keyword in items]
    if len(shapes) != 1:
        found = ", ".join(shapes) if shapes else "none of them"
        raise _error(
            name,
            f'needs exactly one of "enum", "anyOf" or "oneOf" in "items" (found {found}); '
            "a multi choice lists string options",
        )
    shape = shapes[0]
    if "enumNames" in items and shape != "enum":
        raise _error(name, 'has "enumNames" in "items" without "enum"; labels need the enum they name')
    if shape == "enum":
        options = _enum_options(name, items["enum"], items.get("enumNames"), "items.enum")
    else:
        options = _const_options(name, items[shape], f"items.{shape}")
    min_items = _count_constraint(name, prop, "minItems")
    max_items = _count_constraint(name, prop, "maxItems")
    _check_order(name, "minItems", min_items, "maxItems", max_items)
    return {
        "kind": FieldKind.MULTI_CHOICE,
        "options": options,
        "min_items": min_items,
        "max_items": max_items,
    }


_TYPE_PARSERS = {
    "string": _parse_string,
    "number": _parse_number,
    "integer": _parse_number,
    "boolean": _parse_boolean,
    "array": _parse_array,
}


def _single_choice_options(name: str, prop: Mapping[str, Any]) -> tuple[Option, ...] | None:
    if "enumNames" in prop and "enum" not in prop:
        raise _error(name, 'has "enumNames" without "enum"; labels need the enum they name')
    if "enum" in prop and "oneOf" in prop:
        raise _error(name, 'has both "enum" and "oneOf"; a choice lists its options with one of them')
    if "enum" in prop:
        return _enum_options(name, prop["enum"], prop.get("enumNames"), "enum")
    if "oneOf" in prop:
        return _const_options(name, prop["oneOf"], "oneOf")
    return None


def _enum_options(name: str, values: object, labels: object, where: str) -> tuple[Option, ...]:
    strings = _string_list(name, values, where, "option values")
    if not strings:
        raise _error(name, f"has an empty {where!r}; a choice needs at least one option")
    _check_unique(name, strings, where)
    if labels is None:
        return tuple(Option(value, value) for value in strings)
    label_strings = _string_list(name, labels, "enumNames", "labels")
    if len(label_strings) != len(strings):
        raise _error(
            name,
            f'has {len(label_strings)} "enumNames" for {len(strings)} enum values; '
            "give exactly one label per value",
        )
    return tuple(Option(value, label or value) for value, label in zip(strings, label_strings, strict=True))


def _const_options(name: str, entries: object, where: str) -> tuple[Option, ...]:
    if not isinstance(entries, list):
        raise _error(
            name,
            f"has {where!r} that is {json_type(entries)}; it must be a list of "
            '{"const": value, "title": label} options',
        )
    if not entries:
        raise _error(name, f"has an empty {where!r}; a choice needs at least one option")
    options: list[Option] = []
    for entry in cast(list[object], entries):
        mapping = cast(Mapping[str, Any], entry) if isinstance(entry, Mapping) else None
        const = None if mapping is None else mapping.get("const")
        if not isinstance(const, str):
            raise _error(
                name,
                f"has an entry {_shown(cast(object, entry))} in {where!r}; each entry must be "
                '{"const": "<string>", "title": "<label>"}',
            )
        title = cast(Mapping[str, Any], mapping).get("title")
        if title is not None and not isinstance(title, str):
            raise _error(name, f"has a non-string title {_shown(title)} for option {const!r} in {where!r}")
        options.append(Option(const, title or const))
    _check_unique(name, [option.value for option in options], where)
    return tuple(options)


def _string_list(name: str, raw: object, where: str, what: str) -> list[str]:
    if not isinstance(raw, list):
        raise _error(name, f"has {where!r} that is {json_type(raw)}; it must be a list of strings ({what})")
    strings: list[str] = []
    for item in cast(list[object], raw):
        if not isinstance(item, str):
            raise _error(name, f"has {_shown(item)} in {where!r}; {what} must be strings")
        strings.append(item)
    return strings


def _check_unique(name: str, values: list[str], where: str) -> None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise _error(name, f"lists {value!r} twice in {where!r}; option values must be unique")
        seen.add(value)


def _count_constraint(name: str, prop: Mapping[str, Any], keyword: str) -> int | None:
    if keyword not in prop:
        return None
    value = prop[keyword]
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _error(name, f"has {keyword!r} {_shown(value)}; it must be a non-negative integer")
    return value


def _bound_constraint(name: str, prop: Mapping[str, Any], keyword: str) -> float | None:
    if keyword not in prop:
        return None
    value = prop[keyword]
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (isinstance(value, float) and not math.isfinite(value))
    ):
        raise _error(name, f"has {keyword!r} {_shown(value)}; it must be a finite number")
    return value


def _check_order(
    name: str, low_keyword: str, low: float | None, high_keyword: str, high: float | None
) -> None:
    if low is not None and high is not None and low > high:
        raise _error(
            name,
            f"has {low_keyword!r} {low} greater than {high_keyword!r} {high}, so no answer could fit; "
            f"{low_keyword!r} must not exceed {high_keyword!r}",
        )


def _annotation(name: str, prop: Mapping[str, Any], keyword: str) -> str | None:
    value = prop.get(keyword)
    if value is not None and not isinstance(value, str):
        raise _error(name, f"has {keyword!r} {_shown(value)}; it must be a string")
    return value


def _with_default(form_field: FormField, default: object) -> FormField:
    """The field with ``default`` attached, or unchanged when the default does not fit it (dropped)."""
    if default is None or form_field._problem(default) is not None:
        return form_field
    return replace(form_field, default=form_field._normalized(default))


def _error(name: str, problem: str) -> InvalidElicitationSchemaError:
    return InvalidElicitationSchemaError(
        f"The elicitation's requestedSchema property {name!r} {problem}.", property=name
    )


def _envelope_error(problem: str) -> InvalidElicitationSchemaError:
    return InvalidElicitationSchemaError(f"The elicitation's requestedSchema {problem}.")


def _shown(value: object) -> str:
    """``value`` for a message: its repr, cut short so a huge schema cannot flood a log line."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
