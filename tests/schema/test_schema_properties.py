"""Property tests for mcp_client.schema: whatever a server sends, the model fails only in documented ways,
and whatever it lets through really fits the schema.

An independent checker (the ``jsonschema`` package, Draft 2020-12 with format checking) judges the
content our validator accepts, so a bug in our own checks cannot hide itself.
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass
from datetime import UTC
from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_client._errors import InvalidElicitationContentError, InvalidElicitationSchemaError
from mcp_client.schema import FieldKind, FormSchema, parse_form_schema

BOUNDED = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --------------------------------------------------------------------------- arbitrary JSON

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["", "a"])
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)

KEYWORDS = [
    "type",
    "properties",
    "required",
    "enum",
    "enumNames",
    "oneOf",
    "anyOf",
    "allOf",
    "items",
    "const",
    "title",
    "description",
    "default",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "format",
    "$ref",
    "pattern",
    "additionalProperties",
]
TYPES = ["string", "number", "integer", "boolean", "array", "object", "null"]


def _keyword_value(keyword: str) -> st.SearchStrategy[Any]:
    """Values that are often right for ``keyword``, so the parser's deeper branches are reached."""
    options = st.text(max_size=4)
    consts = st.fixed_dictionaries(
        {"const": options | json_scalars}, optional={"title": options | json_scalars}
    )
    special: dict[str, st.SearchStrategy[Any]] = {
        "type": st.sampled_from(TYPES),
        "enum": st.lists(options, max_size=4),
        "enumNames": st.lists(options, max_size=4),
        "oneOf": st.lists(consts, max_size=3),
        "anyOf": st.lists(consts, max_size=3),
        "items": st.fixed_dictionaries(
            {},
            optional={
                "type": st.sampled_from(TYPES),
                "enum": st.lists(options, max_size=4),
                "anyOf": st.lists(consts, max_size=3),
                "oneOf": st.lists(consts, max_size=3),
                "enumNames": st.lists(options, max_size=4),
            },
        ),
        "format": st.sampled_from(["email", "uri", "date", "date-time", "uuid"]),
        "minLength": st.integers(-2, 6),
        "maxLength": st.integers(-2, 6),
        "minItems": st.integers(-2, 6),
        "maxItems": st.integers(-2, 6),
        "minimum": st.integers(-5, 5) | st.floats(),
        "maximum": st.integers(-5, 5) | st.floats(),
    }
    return special.get(keyword, st.nothing()) | json_values


schemaish_properties = st.dictionaries(
    st.text(max_size=5),
    st.fixed_dictionaries(
        {},
        optional={keyword: _keyword_value(keyword) for keyword in KEYWORDS},
    )
    | json_values,
    max_size=4,
)
schemaish = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["object", "array"]) | json_values,
        "properties": schemaish_properties | json_values,
        "required": st.lists(st.text(max_size=5), max_size=3) | json_values,
        "title": json_values,
        "anyOf": json_values,
    },
)


def _exercise(form: FormSchema, content: Any, text: str) -> None:
    """Use every public method of a parsed form; only the documented errors may come out."""
    try:
        form.validate_content(content)
    except InvalidElicitationContentError:
        pass
    try:
        form.fill_defaults(content)
    except InvalidElicitationContentError:
        pass
    if not any(f.required and f.default is None for f in form.fields):
        assert form.validate_content(form.default_content()) == form.default_content()
    for form_field in form.fields:
        form_field.check(content)
        form_field.rule_broken(content)
        form_field.option_label(text)


@BOUNDED
@given(schema=json_values | schemaish, content=json_values, text=st.text(max_size=8))
def test_any_json_fails_only_with_the_documented_error(schema: Any, content: Any, text: str) -> None:
    try:
        form = parse_form_schema(schema)
    except InvalidElicitationSchemaError as error:
        assert str(error).startswith("The elicitation's requestedSchema ")
        if error.property is not None:
            assert repr(error.property) in str(error)
        return
    _exercise(form, content, text)


# --------------------------------------------------------------------------- spec-conform schemas


@dataclass
class GeneratedProperty:
    """One spec-conform property, a strategy for values it must accept, and the default it was given."""

    schema: dict[str, Any]
    kind: FieldKind
    valid: st.SearchStrategy[Any]
    valid_default: Any = None  # a default known to fit (must be kept), else None


labels = st.text(max_size=8)
option_values = st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=5, unique=True)
_LOWER_DIGITS = string.ascii_lowercase + string.digits
_emails = st.builds(
    "{}@{}{}".format,
    st.text(_LOWER_DIGITS + "._+-", min_size=1, max_size=10),
    st.text(_LOWER_DIGITS, min_size=1, max_size=10),
    st.sampled_from(["", ".com", ".example.org"]),
)
_uris = st.builds(
    "https://{}.example/{}".format,
    st.text(_LOWER_DIGITS, min_size=1, max_size=10),
    st.text(_LOWER_DIGITS, max_size=10),
)
FORMATS = {
    "email": (FieldKind.EMAIL, _emails),
    "uri": (FieldKind.URI, _uris),
    "date": (FieldKind.DATE, st.dates().map(lambda d: d.isoformat())),
    "date-time": (
        FieldKind.DATE_TIME,
        st.datetimes(timezones=st.just(UTC)).map(lambda d: d.isoformat().replace("+00:00", "Z")),
    ),
}


@st.composite
def text_property(draw: st.DrawFn) -> GeneratedProperty:
    fmt = draw(st.none() | st.sampled_from(sorted(FORMATS)))
    schema: dict[str, Any] = {"type": "string"}
    if fmt is None:
        low = draw(st.none() | st.integers(0, 4))
        high = draw(st.none() | st.integers(low or 0, 12))
        valid = st.text(min_size=low or 0, max_size=high if high is not None else 20)
        kind = FieldKind.TEXT
    else:
        schema["format"] = fmt
        kind, valid = FORMATS[fmt]
        low = draw(st.none() | st.integers(0, 3))  # every generated value is at least 3 long
        high = draw(st.none() | st.just(40))  # and at most 40
    if low is not None:
        schema["minLength"] = low
    if high is not None:
        schema["maxLength"] = high
    return GeneratedProperty(schema, kind, valid)


@st.composite
def number_property(draw: st.DrawFn) -> GeneratedProperty:
    integer = draw(st.booleans())
    low = draw(st.none() | st.integers(-100, 100))
    high = draw(st.none() | st.integers(low if low is not None else -100, 200))
    schema: dict[str, Any] = {"type": "integer" if integer else "number"}
    if low is not None:
        schema["minimum"] = low if integer or draw(st.booleans()) else low - 0.5
    if high is not None:
        schema["maximum"] = high
    low_value = None if low is None else math.ceil(schema["minimum"])
    if integer:
        valid: st.SearchStrategy[Any] = st.integers(low_value, high)
    else:
        valid = st.floats(
            schema.get("minimum"), schema.get("maximum"), allow_nan=False, allow_infinity=False
        ) | st.integers(low_value, high)
    return GeneratedProperty(schema, FieldKind.INTEGER if integer else FieldKind.NUMBER, valid)


def boolean_property() -> st.SearchStrategy[GeneratedProperty]:
    # builds(), not just(): decorated_property mutates the schema, so each example needs its own.
    return st.builds(lambda: GeneratedProperty({"type": "boolean"}, FieldKind.BOOLEAN, st.booleans()))


@st.composite
def single_choice_property(draw: st.DrawFn) -> GeneratedProperty:
    values = draw(option_values)
    shape = draw(st.sampled_from(["enum", "enumNames", "oneOf"]))
    schema: dict[str, Any] = {"type": "string"}
    if shape == "oneOf":
        schema["oneOf"] = [{"const": v, "title": draw(labels)} for v in values]
    else:
        schema["enum"] = values
        if shape == "enumNames":
            schema["enumNames"] = [draw(labels) for _ in values]
    return GeneratedProperty(schema, FieldKind.SINGLE_CHOICE, st.sampled_from(values))


@st.composite
def multi_choice_property(draw: st.DrawFn) -> GeneratedProperty:
    values = draw(option_values)
    shape = draw(st.sampled_from(["enum", "anyOf", "oneOf"]))
    if shape == "enum":
        items: dict[str, Any] = {"type": "string", "enum": values}
    else:
        items = {shape: [{"const": v, "title": draw(labels)} for v in values]}
    schema: dict[str, Any] = {"type": "array", "items": items}
    low = draw(st.none() | st.integers(0, len(values)))
    high = draw(st.none() | st.integers(low or 0, len(values) + 1))
    if low is not None:
        schema["minItems"] = low
    if high is not None:
        schema["maxItems"] = high
    valid = st.lists(
        st.sampled_from(values),
        min_size=low or 0,
        max_size=None if high is None else min(high, len(values)),
        unique=True,
    )
    return GeneratedProperty(schema, FieldKind.MULTI_CHOICE, valid)


any_property = st.one_of(
    text_property(), number_property(), boolean_property(), single_choice_property(), multi_choice_property()
)


@st.composite
def decorated_property(draw: st.DrawFn) -> GeneratedProperty:
    """A property with optional title, description and a default: valid, arbitrary, or none."""
    prop = draw(any_property)
    if draw(st.booleans()):
        prop.schema["title"] = draw(labels)
    if draw(st.booleans()):
        prop.schema["description"] = draw(labels)
    choice = draw(st.sampled_from(["none", "valid", "valid", "arbitrary"]))
    if choice == "valid":
        prop.valid_default = draw(prop.valid)
        prop.schema["default"] = prop.valid_default
    elif choice == "arbitrary":
        prop.schema["default"] = draw(json_values)
    return prop


@st.composite
def conform_schema(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, GeneratedProperty]]:
    props = draw(st.dictionaries(st.text(max_size=6), decorated_property(), max_size=5))
    schema: dict[str, Any] = {"type": "object", "properties": {n: p.schema for n, p in props.items()}}
    if draw(st.booleans()):
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    required = draw(st.lists(st.sampled_from(sorted(props)), unique=True) if props else st.just([]))
    if required or draw(st.booleans()):
        schema["required"] = required
    return schema, props


def _independent_check(schema: dict[str, Any], content: dict[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    validator.validate(content)


@BOUNDED
@given(generated=conform_schema())
def test_conform_schemas_parse_and_keep_their_defaults(
    generated: tuple[dict[str, Any], dict[str, GeneratedProperty]],
) -> None:
    schema, props = generated
    form = parse_form_schema(schema)
    assert [f.name for f in form.fields] == list(props)
    for form_field in form.fields:
        prop = props[form_field.name]
        assert form_field.kind is prop.kind
        assert form_field.required == (form_field.name in schema.get("required", []))
        if prop.valid_default is not None:
            assert form_field.default == prop.valid_default
        if form_field.default is not None:
            assert form_field.check(form_field.default) is None
    defaults = form.default_content()
    if all(f.default is not None for f in form.fields if f.required):
        assert form.validate_content(defaults) == defaults
        assert form.validate_content(form.fill_defaults({})) == defaults
        _independent_check(schema, defaults)


@BOUNDED
@given(generated=conform_schema(), data=st.data())
def test_valid_answers_are_accepted_unchanged(
    generated: tuple[dict[str, Any], dict[str, GeneratedProperty]], data: st.DataObject
) -> None:
    schema, props = generated
    form = parse_form_schema(schema)
    required = set(schema.get("required", []))
    content = {
        name: data.draw(prop.valid, label=name)
        for name, prop in props.items()
        if name in required or data.draw(st.booleans(), label=f"give {name}")
    }
    _independent_check(schema, content)
    assert form.validate_content(content) == content


@BOUNDED
@given(generated=conform_schema(), data=st.data())
def test_accepted_content_always_fits_the_schema(
    generated: tuple[dict[str, Any], dict[str, GeneratedProperty]], data: st.DataObject
) -> None:
    schema, props = generated
    form = parse_form_schema(schema)
    content: dict[str, Any] = {}
    for name, prop in props.items():
        how = data.draw(st.sampled_from(["omit", "valid", "arbitrary", "null"]), label=f"how {name}")
        if how == "valid":
            content[name] = data.draw(prop.valid, label=name)
        elif how == "arbitrary":
            content[name] = data.draw(
                json_values | st.text(alphabet=string.printable, max_size=12), label=name
            )
        elif how == "null":
            content[name] = None
    if data.draw(st.booleans(), label="extra key"):
        content[data.draw(st.text(max_size=4), label="extra name")] = 1
    try:
        cleaned = form.validate_content(content)
    except InvalidElicitationContentError as error:
        assert error.rule is not None
        assert error.field is not None and repr(error.field) in str(error)
        return
    assert set(cleaned) == {name for name, value in content.items() if value is not None}
    _independent_check(schema, cleaned)
