"""Unit tests for the normalized elicitation form model (mcp_client.schema).

Fixtures come from the captured traces in tests/fixtures/traces: every ``requestedSchema`` a real
server sent must parse (except the nested one, which must be refused naming its property), and the
schema probe's cases must land on the same side of the spec as the official SDK's wire models, except
where our validator is documented to be stricter.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcp_client._errors import InvalidElicitationContentError, InvalidElicitationSchemaError
from mcp_client.schema import FieldKind, FormField, FormSchema, Option, parse_form_schema
from tests.support.traces import SURVEY_ANSWER
from tests.support.traces import TRACES as _TRACES

TRACES = _TRACES


# --------------------------------------------------------------------------- trace fixtures


def _schemas_in(node: Any, found: list[Any]) -> None:
    """Collect every ``requestedSchema`` in a trace, including the ones inside raw HTTP bodies."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("requestedSchema", "requested_schema"):
                found.append(value)
            _schemas_in(value, found)
    elif isinstance(node, list):
        for item in node:
            _schemas_in(item, found)
    elif isinstance(node, str) and "requestedSchema" in node:
        for chunk in [node, *(line[5:] for line in node.splitlines() if line.startswith("data:"))]:
            try:
                _schemas_in(json.loads(chunk), found)
            except ValueError:
                pass


def _trace_schemas() -> dict[str, tuple[str, Any]]:
    """Unique schemas across all traces, keyed by an id naming the first trace that has it."""
    unique: dict[str, tuple[str, Any]] = {}
    for path in sorted(TRACES.glob("*.json")):
        found: list[Any] = []
        _schemas_in(json.loads(path.read_text()), found)
        for schema in found:
            key = json.dumps(schema, sort_keys=True)
            if key not in unique:
                unique[key] = (f"{path.stem[:3]}-{len(unique)}", schema)
    return {ident: (key, schema) for key, (ident, schema) in unique.items()}


TRACE_SCHEMAS = _trace_schemas()
NESTED = {ident for ident, (_, schema) in TRACE_SCHEMAS.items() if "address" in schema.get("properties", {})}


def _trace_schema(stem: str) -> dict[str, Any]:
    found: list[Any] = []
    _schemas_in(json.loads((TRACES / f"{stem}.json").read_text()), found)
    assert found, stem
    return found[0]


def test_traces_hold_the_expected_variety() -> None:
    assert len(TRACE_SCHEMAS) >= 8
    assert len(NESTED) == 1


@pytest.mark.parametrize("ident", sorted(set(TRACE_SCHEMAS) - NESTED))
def test_every_trace_schema_parses(ident: str) -> None:
    schema = TRACE_SCHEMAS[ident][1]
    form = parse_form_schema(schema)
    assert [f.name for f in form.fields] == list(schema["properties"])
    assert {f.name for f in form.fields if f.required} == set(schema.get("required", []))
    assert form.raw is schema
    if not any(f.required and f.default is None for f in form.fields):
        assert form.validate_content(form.fill_defaults({})) == form.default_content()


@pytest.mark.parametrize("stem", ["L10_legacy_survey_rich_schema", "M07_modern_survey_rich_schema"])
def test_survey_schema(stem: str) -> None:
    form = parse_form_schema(_trace_schema(stem))
    by_name = {f.name: f for f in form.fields}
    assert [f.name for f in form.fields] == [
        "email",
        "age",
        "rating",
        "subscribe",
        "colour",
        "toppings",
        "nickname",
    ]
    assert by_name["email"] == FormField(
        name="email", kind=FieldKind.EMAIL, label="E-mail", required=True, min_length=3, max_length=80
    )
    assert by_name["age"] == FormField(
        name="age", kind=FieldKind.INTEGER, label="Age", default=30, minimum=18, maximum=120
    )
    assert by_name["rating"] == FormField(
        name="rating", kind=FieldKind.NUMBER, label="Rating", required=True, minimum=0, maximum=5
    )
    assert by_name["subscribe"] == FormField(
        name="subscribe", kind=FieldKind.BOOLEAN, label="Subscribe", default=False
    )
    colour = by_name["colour"]
    assert colour.kind is FieldKind.SINGLE_CHOICE
    assert colour.default == "red"
    assert colour.options == (Option("red", "red"), Option("green", "green"), Option("blue", "blue"))
    toppings = by_name["toppings"]
    assert toppings.kind is FieldKind.MULTI_CHOICE
    assert [o.value for o in toppings.options] == ["cheese", "ham", "olives"]
    assert toppings.default is None and toppings.min_items is None and toppings.max_items is None
    assert by_name["nickname"] == FormField(name="nickname", kind=FieldKind.TEXT, label="Nickname")
    assert form.default_content() == {"age": 30, "subscribe": False, "colour": "red"}
    assert not form.is_confirmation

    # The answer the trace's client sent is valid; its null nickname is dropped.
    answer = {**SURVEY_ANSWER, "nickname": None}
    assert form.validate_content(answer) == {k: v for k, v in answer.items() if v is not None}


def test_booking_schema_keeps_its_date_default_and_help() -> None:
    form = parse_form_schema(_trace_schema("L01_legacy_book_table_accept"))
    date = form.field("date")
    assert date.kind is FieldKind.TEXT  # no "format" in this schema: plain text
    assert date.default == "2025-12-26"
    assert date.help == "Alternative date (YYYY-MM-DD)"
    assert form.field("accept_alternative").required
    assert form.fill_defaults({"accept_alternative": True}) == {
        "accept_alternative": True,
        "date": "2025-12-26",
    }


@pytest.mark.parametrize(
    "stem", ["L17_legacy_raw_nested_schema_bypass", "M19_modern_raw_nested_schema_bypass"]
)
def test_nested_schema_is_refused_naming_the_property(stem: str) -> None:
    with pytest.raises(InvalidElicitationSchemaError) as caught:
        parse_form_schema(_trace_schema(stem))
    assert caught.value.property == "address"
    assert "'address'" in str(caught.value)
    assert "nested object" in str(caught.value)
    assert "flat" in str(caught.value)


def _probe() -> dict[str, Any]:
    return json.loads((TRACES / "schema_probe.json").read_text())


# Where we are deliberately stricter than the SDK's wire models (documented policy).
_STRICTER = {"string with enum of ints"}


@pytest.mark.parametrize("case", _probe()["raw"], ids=lambda case: case["case"])
def test_schema_probe_raw_cases(case: dict[str, Any]) -> None:
    schema = {"type": "object", "properties": {"v": case["schema"]}}
    sdk_accepts = case["2025-11-25"].startswith("accept")
    if sdk_accepts and case["case"] not in _STRICTER:
        form = parse_form_schema(schema)
        assert form.field("v").name == "v"
    else:
        with pytest.raises(InvalidElicitationSchemaError) as caught:
            parse_form_schema(schema)
        assert caught.value.property == "v"


@pytest.mark.parametrize(
    "case", [case for case in _probe()["render"] if case["ok"]], ids=lambda case: case["case"]
)
def test_schema_probe_rendered_cases(case: dict[str, Any]) -> None:
    schema = {"type": "object", "properties": {"v": case["property"]}, "required": case["required"]}
    form = parse_form_schema(schema)
    assert form.field("v").required == (case["required"] == ["v"])


# --------------------------------------------------------------------------- accepted shapes


def _one(prop: dict[str, Any], *, required: bool = False) -> FormField:
    schema: dict[str, Any] = {"type": "object", "properties": {"f": prop}}
    if required:
        schema["required"] = ["f"]
    return parse_form_schema(schema).field("f")


def test_confirm_only_question() -> None:
    form = parse_form_schema({"type": "object", "properties": {}})
    assert form.is_confirmation
    assert form.fields == ()
    assert form.validate_content({}) == {}
    assert form.validate_content(None) == {}
    assert form.default_content() == {}
    with pytest.raises(InvalidElicitationContentError) as caught:
        form.validate_content({"x": 1})
    assert (caught.value.field, caught.value.rule) == ("x", "additionalProperties")


def test_envelope_annotations_are_ignored_and_missing_parts_tolerated() -> None:
    form = parse_form_schema(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "T",
            "description": "D",
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "additionalProperties": False,
        }
    )
    assert [f.name for f in form.fields] == ["a"]
    assert parse_form_schema({}).is_confirmation
    assert parse_form_schema({"type": "object"}).is_confirmation
    assert parse_form_schema({"properties": {"a": {"type": "boolean"}}}).field("a").kind is FieldKind.BOOLEAN


@pytest.mark.parametrize(
    ("fmt", "kind"),
    [
        ("email", FieldKind.EMAIL),
        ("uri", FieldKind.URI),
        ("date", FieldKind.DATE),
        ("date-time", FieldKind.DATE_TIME),
    ],
)
def test_formats_keep_length_limits(fmt: str, kind: FieldKind) -> None:
    f = _one({"type": "string", "format": fmt, "minLength": 3, "maxLength": 40, "title": "X"})
    assert (f.kind, f.min_length, f.max_length, f.label) == (kind, 3, 40, "X")


def test_label_falls_back_to_name_and_help_is_description() -> None:
    assert _one({"type": "string"}).label == "f"
    assert _one({"type": "string", "title": ""}).label == "f"
    f = _one({"type": "string", "title": None, "description": "Say it"})
    assert (f.label, f.help) == ("f", "Say it")


def test_single_choice_shapes() -> None:
    plain = _one({"type": "string", "enum": ["a", "b"]})
    assert plain.options == (Option("a", "a"), Option("b", "b"))
    legacy = _one({"type": "string", "enum": ["a", "b"], "enumNames": ["Alpha", "Beta"]})
    assert legacy.options == (Option("a", "Alpha"), Option("b", "Beta"))
    titled = _one({"type": "string", "oneOf": [{"const": "a", "title": "Alpha"}, {"const": "b"}]})
    assert titled.options == (Option("a", "Alpha"), Option("b", "b"))
    assert {plain.kind, legacy.kind, titled.kind} == {FieldKind.SINGLE_CHOICE}
    assert titled.option_label("a") == "Alpha" and titled.option_label("zz") == "zz"


@pytest.mark.parametrize(
    "items",
    [
        {"type": "string", "enum": ["a", "b"]},
        {"enum": ["a", "b"]},
        {"anyOf": [{"const": "a", "title": "Alpha"}, {"const": "b", "title": "Beta"}]},
        {"oneOf": [{"const": "a", "title": "Alpha"}, {"const": "b", "title": "Beta"}]},
    ],
)
def test_multi_choice_shapes(items: dict[str, Any]) -> None:
    f = _one({"type": "array", "items": items, "minItems": 1, "maxItems": 2, "default": ["b"]})
    assert f.kind is FieldKind.MULTI_CHOICE
    assert [o.value for o in f.options] == ["a", "b"]
    assert (f.min_items, f.max_items, f.default) == (1, 2, ["b"])
    if "anyOf" in items or "oneOf" in items:
        assert [o.label for o in f.options] == ["Alpha", "Beta"]


def test_unknown_keywords_are_ignored_and_not_enforced() -> None:
    f = _one(
        {
            "type": "string",
            "pattern": "^x$",
            "examples": ["x"],
            "x-widget": "textarea",
            "readOnly": False,
        }
    )
    assert f.kind is FieldKind.TEXT and f.check("y") is None
    n = _one({"type": "integer", "exclusiveMinimum": 0, "multipleOf": 2})
    assert n.kind is FieldKind.INTEGER and n.check(0) is None
    multi = _one({"type": "array", "items": {"enum": ["a"], "x-extra": 1}, "uniqueItems": True})
    assert multi.kind is FieldKind.MULTI_CHOICE


def test_misplaced_length_constraints_on_numbers_are_not_stored() -> None:
    # minLength on a number is a no-op in JSON Schema: ignored like any unknown keyword.
    f = _one({"type": "number", "minLength": 3})
    assert f.min_length is None and f.check(1) is None


def test_whole_float_constraints_are_accepted() -> None:
    f = _one({"type": "string", "minLength": 2.0, "maxLength": 4.0})
    assert (f.min_length, f.max_length) == (2, 4)
    assert isinstance(f.min_length, int)


# --------------------------------------------------------------------------- refused shapes


@pytest.mark.parametrize(
    ("schema", "fragment"),
    [
        ([], "must be a JSON object"),
        ("{}", "must be a JSON object"),
        ({"type": "array", "properties": {}}, '"type": "object"'),
        ({"type": "object", "properties": []}, '"properties" that is a list'),
        ({"type": "object", "properties": {}, "required": "a"}, '"required" that is a string'),
        ({"type": "object", "properties": {"a": {"type": "string"}}, "required": [1]}, "as strings"),
        ({"type": "object", "anyOf": [], "properties": {}}, "'anyOf' at the top level"),
        ({"type": "object", "$ref": "#/x"}, "'$ref' at the top level"),
        ({"type": "object", "additionalProperties": {"type": "string"}}, "additionalProperties"),
    ],
)
def test_bad_envelopes(schema: Any, fragment: str) -> None:
    with pytest.raises(InvalidElicitationSchemaError) as caught:
        parse_form_schema(schema)
    assert caught.value.property is None
    assert fragment in str(caught.value)


def test_required_naming_a_missing_property() -> None:
    with pytest.raises(InvalidElicitationSchemaError) as caught:
        parse_form_schema({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]})
    assert caught.value.property == "b"
    assert "no such property" in str(caught.value) and "'a'" in str(caught.value)


@pytest.mark.parametrize(
    ("prop", "fragment"),
    [
        ("string", "must be a JSON object describing one field, not a string"),
        ({"$ref": "#/$defs/X"}, "uses $ref"),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, "anyOf at property level"),
        ({"type": "object", "properties": {"x": {"type": "string"}}}, "nested object"),
        ({"properties": {"x": {"type": "string"}}}, "nested object"),
        ({"title": "no type"}, 'has no "type"'),
        ({"type": "null"}, "unknown type 'null'"),
        ({"type": "date"}, "unknown type 'date'"),
        ({"type": ["string", "null"]}, "exactly one of"),
        ({"type": 5}, "exactly one of"),
        ({"type": "string", "enum": [1, 2]}, "must be strings"),
        ({"type": "string", "enum": []}, "empty 'enum'"),
        ({"type": "string", "enum": "a"}, "'enum' that is a string"),
        ({"type": "string", "enum": ["a", "a"]}, "lists 'a' twice"),
        ({"type": "string", "enum": ["a", "b"], "enumNames": ["A"]}, '1 "enumNames" for 2 enum values'),
        ({"type": "string", "enum": ["a"], "enumNames": [1]}, "labels must be strings"),
        ({"type": "string", "enumNames": ["A"]}, '"enumNames" without "enum"'),
        ({"type": "string", "enum": ["a"], "oneOf": [{"const": "a"}]}, 'both "enum" and "oneOf"'),
        ({"type": "string", "oneOf": [{"title": "A"}]}, "each entry must be"),
        ({"type": "string", "oneOf": [{"const": 1, "title": "A"}]}, "each entry must be"),
        ({"type": "string", "oneOf": [{"const": "a", "title": 1}]}, "non-string title"),
        ({"type": "string", "oneOf": []}, "empty 'oneOf'"),
        ({"type": "string", "oneOf": {"const": "a"}}, "'oneOf' that is an object"),
        ({"type": "string", "enum": ["a"], "format": "email"}, "mixes a choice"),
        ({"type": "string", "enum": ["a"], "maxLength": 3}, "mixes a choice"),
        ({"type": "string", "minLength": "3"}, "'minLength' '3'; it must be a non-negative integer"),
        ({"type": "string", "minLength": -1}, "non-negative integer"),
        ({"type": "string", "maxLength": 1.5}, "non-negative integer"),
        ({"type": "string", "maxLength": True}, "non-negative integer"),
        ({"type": "string", "maxLength": None}, "non-negative integer"),
        ({"type": "string", "minLength": 5, "maxLength": 2}, "'minLength' 5 greater than 'maxLength' 2"),
        ({"type": "string", "format": "uuid"}, "format 'uuid'; allowed formats: email, uri, date, date-time"),
        ({"type": "string", "format": 3}, "format 3"),
        ({"type": "string", "const": "x"}, "uses 'const'"),
        ({"type": "string", "items": {"enum": ["a"]}}, "uses 'items'"),
        ({"type": "string", "allOf": [{"minLength": 1}]}, "uses 'allOf'"),
        ({"type": "string", "title": 5}, "'title' 5; it must be a string"),
        ({"type": "string", "description": ["x"]}, "'description' ['x']; it must be a string"),
        ({"type": "number", "minimum": "0"}, "'minimum' '0'; it must be a finite number"),
        ({"type": "number", "maximum": float("inf")}, "finite number"),
        ({"type": "integer", "minimum": float("nan")}, "finite number"),
        ({"type": "integer", "minimum": False}, "finite number"),
        ({"type": "number", "minimum": 3, "maximum": 1}, "'minimum' 3 greater than 'maximum' 1"),
        ({"type": "number", "enum": ["1"]}, "uses 'enum'"),
        ({"type": "boolean", "enum": ["true"]}, "uses 'enum'"),
        ({"type": "boolean", "oneOf": [{"const": "a"}]}, "uses 'oneOf'"),
        ({"type": "array"}, 'without an "items" object'),
        ({"type": "array", "items": [{"enum": ["a"]}]}, 'without an "items" object'),
        ({"type": "array", "items": {"type": "string"}}, "found none of them"),
        ({"type": "array", "items": {"type": "integer", "enum": ["1"]}}, "items of type 'integer'"),
        ({"type": "array", "items": {"enum": ["a"], "anyOf": [{"const": "a"}]}}, "found enum, anyOf"),
        ({"type": "array", "items": {"$ref": "#/x"}}, "uses '$ref' inside \"items\""),
        ({"type": "array", "items": {"enum": [1]}}, "must be strings"),
        (
            {"type": "array", "items": {"anyOf": [{"const": "a"}], "enumNames": ["A"]}},
            '"enumNames" in "items"',
        ),
        ({"type": "array", "items": {"enum": ["a"]}, "minItems": -2}, "'minItems' -2"),
        (
            {"type": "array", "items": {"enum": ["a"]}, "minItems": 2, "maxItems": 1},
            "greater than 'maxItems'",
        ),
    ],
)
def test_bad_properties_are_refused_naming_the_property(prop: Any, fragment: str) -> None:
    schema = {"type": "object", "properties": {"ok": {"type": "string"}, "bad": prop}}
    with pytest.raises(InvalidElicitationSchemaError) as caught:
        parse_form_schema(schema)
    assert caught.value.property == "bad"
    message = str(caught.value)
    assert message.startswith("The elicitation's requestedSchema property 'bad' ")
    assert fragment in message


def test_huge_values_are_cut_short_in_messages() -> None:
    with pytest.raises(InvalidElicitationSchemaError) as caught:
        parse_form_schema({"properties": {"bad": {"type": "string", "format": "x" * 10_000}}})
    assert len(str(caught.value)) < 300


# --------------------------------------------------------------------------- defaults


@pytest.mark.parametrize(
    "prop",
    [
        {"type": "integer", "default": "5"},
        {"type": "integer", "default": 3.5},
        {"type": "integer", "default": True},
        {"type": "integer", "minimum": 10, "default": 3},
        {"type": "number", "default": "5"},
        {"type": "number", "default": False},
        {"type": "boolean", "default": 1},
        {"type": "boolean", "default": "true"},
        {"type": "string", "default": 5},
        {"type": "string", "maxLength": 3, "default": "toolong"},
        {"type": "string", "format": "email", "default": "not-an-email"},
        {"type": "string", "format": "date", "default": "26/12/2025"},
        {"type": "string", "enum": ["a", "b"], "default": "c"},
        {"type": "string", "oneOf": [{"const": "a", "title": "A"}], "default": "A"},
        {"type": "array", "items": {"enum": ["a", "b"]}, "default": ["a", "c"]},
        {"type": "array", "items": {"enum": ["a", "b"]}, "default": ["a", "a"]},
        {"type": "array", "items": {"enum": ["a", "b"]}, "default": "a"},
        {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 1, "default": ["a", "b"]},
        {"type": "string", "default": {"nested": True}},
        {"type": "string", "default": None},
    ],
)
def test_defaults_that_do_not_fit_are_dropped(prop: dict[str, Any]) -> None:
    f = _one(prop)
    assert f.default is None


def test_whole_float_default_becomes_int_for_integers() -> None:
    f = _one({"type": "integer", "default": 3.0})
    assert f.default == 3 and isinstance(f.default, int)
    assert _one({"type": "number", "default": 0.5}).default == 0.5


SEP1034 = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "User name", "default": "John Doe"},
        "age": {"type": "integer", "description": "User age", "default": 30},
        "score": {"type": "number", "description": "User score", "default": 95.5},
        "status": {
            "type": "string",
            "description": "User status",
            "enum": ["active", "inactive", "pending"],
            "default": "active",
        },
        "verified": {"type": "boolean", "description": "Verification status", "default": True},
        "tags": {
            "type": "array",
            "items": {"type": "string", "enum": ["a", "b", "c"]},
            "default": ["a", "c"],
        },
        "free": {"type": "string"},
    },
    "required": [],
}


def test_fill_defaults_sep1034() -> None:
    form = parse_form_schema(SEP1034)
    expected = {
        "name": "John Doe",
        "age": 30,
        "score": 95.5,
        "status": "active",
        "verified": True,
        "tags": ["a", "c"],
    }
    assert form.fill_defaults({}) == expected
    assert form.fill_defaults(None) == expected
    assert form.validate_content(form.fill_defaults({})) == expected
    assert form.default_content() == expected


def test_fill_defaults_keeps_given_values_and_fills_nulls() -> None:
    form = parse_form_schema(SEP1034)
    given = {"name": "Ada", "age": None, "verified": False, "free": "x"}
    filled = form.fill_defaults(given)
    assert filled["name"] == "Ada" and filled["age"] == 30 and filled["verified"] is False
    assert filled["free"] == "x"
    assert given == {"name": "Ada", "age": None, "verified": False, "free": "x"}  # not mutated
    # Invalid values are kept for validate_content to judge.
    assert form.fill_defaults({"age": "old"})["age"] == "old"


def test_default_lists_are_copies() -> None:
    form = parse_form_schema(SEP1034)
    filled = form.fill_defaults({})
    filled["tags"].append("b")
    form.default_content()["tags"].append("b")
    assert form.field("tags").default == ["a", "c"]


def test_fill_defaults_refuses_non_mapping() -> None:
    form = parse_form_schema(SEP1034)
    with pytest.raises(InvalidElicitationContentError) as caught:
        form.fill_defaults(["x"])  # type: ignore[arg-type]
    assert caught.value.rule == "type"


# --------------------------------------------------------------------------- validate_content

FULL = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 2, "maxLength": 5},
        "email": {"type": "string", "format": "email", "maxLength": 30},
        "site": {"type": "string", "format": "uri"},
        "day": {"type": "string", "format": "date"},
        "when": {"type": "string", "format": "date-time"},
        "count": {"type": "integer", "minimum": 1, "maximum": 10},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1.5},
        "ok": {"type": "boolean"},
        "colour": {
            "type": "string",
            "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}],
        },
        "tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2},
    },
    "required": ["name"],
}


@pytest.fixture(scope="module")
def full() -> FormSchema:
    return parse_form_schema(FULL)


@pytest.mark.parametrize(
    ("field", "value", "rule", "fragment"),
    [
        ("name", None, "required", "leaves out the required field 'name' (Name)"),
        ("name", 5, "type", "must be text (a string), not an integer"),
        ("name", "a", "minLength", "must be at least 2 characters"),
        ("name", "abcdef", "maxLength", "must be at most 5 characters"),
        ("email", "ada", "format", "must be an e-mail address"),
        ("email", "a" * 25 + "@x.com", "maxLength", "at most 30 characters"),
        ("site", "example.com", "format", "must be a URI with a scheme"),
        ("day", "2025-02-30", "format", "must be a date like 2025-12-26"),
        ("when", "2025-12-26T18:30:00", "format", "with a time zone"),
        ("count", True, "type", "must be a whole number, not a boolean"),
        ("count", "3", "type", "must be a whole number, not text"),
        ("count", 3.5, "type", "must be a whole number, not 3.5"),
        ("count", 0, "minimum", "must be at least 1"),
        ("count", 11, "maximum", "must be at most 10"),
        ("ratio", False, "type", "must be a number, not a boolean"),
        ("ratio", float("nan"), "type", "must be a number, not nan"),
        ("ratio", float("inf"), "type", "must be a number, not inf"),
        ("ratio", -0.1, "minimum", "must be at least 0"),
        ("ratio", 1.6, "maximum", "must be at most 1.5"),
        ("ok", 1, "type", "must be true or false, not an integer"),
        ("ok", "yes", "type", "must be true or false, not text"),
        ("colour", "Red", "enum", "must be one of: 'r', 'g'"),
        ("colour", 1, "type", "must be one of the options (a string)"),
        ("tags", "a", "type", "must be a list of options, not text"),
        ("tags", ["a", 1], "type", "must list options as strings"),
        ("tags", ["z"], "enum", "lists 'z', which is not one of: 'a', 'b', 'c'"),
        ("tags", ["a", "a"], "uniqueItems", "lists 'a' more than once"),
        ("tags", [], "minItems", "must have at least 1 option selected"),
        ("tags", ["a", "b", "c"], "maxItems", "must have at most 2 options selected"),
    ],
)
def test_every_rule_names_field_and_rule(
    full: FormSchema, field: str, value: Any, rule: str, fragment: str
) -> None:
    content = {"name": "Ada", field: value}
    with pytest.raises(InvalidElicitationContentError) as caught:
        full.validate_content(content)
    assert (caught.value.field, caught.value.rule) == (field, rule)
    message = str(caught.value)
    assert f"'{field}'" in message
    assert fragment in message
    if rule != "required":
        assert f"(schema rule '{rule}')" in message
    assert full.field(field).rule_broken(value) == rule
    assert full.field(field).check(value) is not None


def test_unknown_field_is_refused(full: FormSchema) -> None:
    with pytest.raises(InvalidElicitationContentError) as caught:
        full.validate_content({"name": "Ada", "nmae": "x"})
    assert (caught.value.field, caught.value.rule) == ("nmae", "additionalProperties")
    assert "'nmae'" in str(caught.value) and "allowed fields: 'name'" in str(caught.value)


def test_content_must_be_a_mapping(full: FormSchema) -> None:
    with pytest.raises(InvalidElicitationContentError) as caught:
        full.validate_content([("name", "Ada")])  # type: ignore[arg-type]
    assert caught.value.rule == "type" and caught.value.field is None


def test_valid_content_is_cleaned(full: FormSchema) -> None:
    content = {
        "tags": ("a", "b"),
        "name": "Ada",
        "email": "ada@example.com",
        "site": "https://example.com/x?y=1",
        "day": "2025-12-26",
        "when": "2025-12-26T18:30:00Z",
        "count": 3.0,
        "ratio": 1,
        "ok": False,
        "colour": "g",
    }
    cleaned = full.validate_content(content)
    assert cleaned["count"] == 3 and isinstance(cleaned["count"], int)
    assert cleaned["tags"] == ["a", "b"]
    assert list(cleaned) == list(FULL["properties"])  # the form's order
    assert full.validate_content({"name": "Ada", "email": None}) == {"name": "Ada"}


def test_lengths_count_characters_not_bytes() -> None:
    f = _one({"type": "string", "maxLength": 3, "minLength": 3})
    assert f.check("ééé") is None  # 6 bytes in UTF-8, 3 characters
    assert f.check("日本語") is None
    assert f.rule_broken("éééé") == "maxLength"


def test_check_of_none_depends_on_required() -> None:
    assert _one({"type": "string"}).check(None) is None
    assert _one({"type": "string"}, required=True).check(None) == "is required"
    assert _one({"type": "string"}, required=True).rule_broken(None) == "required"


@pytest.mark.parametrize(
    ("fmt", "good", "bad"),
    [
        (
            "email",
            ["ada@example.com", "a.b+c@x.y.z", "a@localhost"],
            ["ada", "ada@", "@example.com", "a b@x.com", "a@@x.com", "a@x..com", "a@x.com."],
        ),
        (
            "uri",
            ["https://example.com/x?y=1", "mailto:ada@example.com", "urn:isbn:0451450523", "file:///tmp/x"],
            [
                "example.com",
                "/relative/path",
                "http://",
                "ht tp://x",
                "http://[::1",
                "http://x:abc/",
                "1http://x",
            ],
        ),
        (
            "date",
            ["2025-12-26", "2024-02-29", "0001-01-01"],
            [
                "2025-02-30",
                "20251226",
                "2025-W52-5",
                "26/12/2025",
                "2025-12-26T00:00:00Z",
                "2025-1-1",
                "２０２５-01-01",
            ],
        ),
        (
            "date-time",
            [
                "2025-12-26T18:30:00Z",
                "2025-12-26t18:30:00z",
                "2025-12-26T18:30:00.123456+01:00",
                "2025-12-26 18:30:00-05:30",
            ],
            ["2025-12-26T18:30:00", "2025-12-26", "2025-12-26T25:00:00Z", "2025-12-26T18:30Z", "yesterday"],
        ),
    ],
)
def test_format_checks(fmt: str, good: list[str], bad: list[str]) -> None:
    f = _one({"type": "string", "format": fmt})
    for value in good:
        assert f.check(value) is None, value
    for value in bad:
        assert f.rule_broken(value) == "format", value


def test_field_lookup() -> None:
    form = parse_form_schema(FULL)
    assert form.field("count").kind is FieldKind.INTEGER
    with pytest.raises(KeyError):
        form.field("nope")


# ------------------------------------------------------------------ the edges of each rule, word for word


def test_a_bound_itself_is_a_valid_answer_and_is_written_as_people_write_it() -> None:
    guests = FormField(name="n", kind=FieldKind.NUMBER, label="N", minimum=1.0, maximum=2.5)
    assert guests.check(1) is None and guests.check(2.5) is None
    assert guests.rule_broken(1) is None and guests.rule_broken(2.5) is None
    assert guests.check(0.5) == "must be at least 1" and guests.rule_broken(0.5) == "minimum"
    assert guests.check(3) == "must be at most 2.5" and guests.rule_broken(3) == "maximum"
    huge = FormField(name="n", kind=FieldKind.NUMBER, label="N", minimum=-1e16, maximum=1e16)
    assert huge.check(-2e16) == "must be at least -1e+16" and huge.check(2e16) == "must be at most 1e+16"
    whole = FormField(name="n", kind=FieldKind.NUMBER, label="N", minimum=-(1e16 - 2))
    assert whole.check(-1e17) == "must be at least -9999999999999998"


def test_a_value_of_an_unnamed_type_is_named_by_its_type() -> None:
    text = FormField(name="t", kind=FieldKind.TEXT, label="T")
    assert text.check({1, 2}) == "must be text (a string), not set"


@pytest.mark.parametrize(
    ("count", "listed"), [(10, "'o0', 'o1', 'o2'"), (11, "'o9' and 1 more"), (12, "and 2 more")]
)
def test_a_refused_choice_lists_ten_options_and_counts_the_rest(count: int, listed: str) -> None:
    options = tuple(Option(value=f"o{i}", label=f"O{i}") for i in range(count))
    choice = FormField(name="c", kind=FieldKind.SINGLE_CHOICE, label="C", options=options)
    reason = choice.check("nope")
    assert reason is not None and reason.startswith("must be one of: 'o0', 'o1'") and listed in reason
    assert reason.endswith("'o9'" if count == 10 else "more")
    assert choice.option_label("o3") == "O3" and choice.option_label("nope") == "nope"


def test_asking_a_form_for_a_field_it_lacks_names_the_field() -> None:
    form = parse_form_schema({"type": "object", "properties": {"a": {"type": "string"}}})
    assert form.field("a").name == "a"
    with pytest.raises(KeyError) as missing:
        form.field("b")
    assert missing.value.args == ("b",)


def test_an_answer_the_form_does_not_fit_is_refused_word_for_word() -> None:
    form = parse_form_schema(
        {
            "type": "object",
            "properties": {"a": {"type": "string"}, "tags": {"type": "array", "items": {"enum": ["x"]}}},
        }
    )
    with pytest.raises(InvalidElicitationContentError) as extra:
        form.validate_content({"z": 1})
    assert str(extra.value) == (
        "The answer has a field 'z' that the form does not ask for; allowed fields: 'a', 'tags'."
    )
    confirm = parse_form_schema({"type": "object", "properties": {}})
    with pytest.raises(InvalidElicitationContentError) as nothing:
        confirm.validate_content({"z": 1})
    assert str(nothing.value).endswith(
        "allowed fields: none (the question only wants accept, decline or cancel)."
    )
    with pytest.raises(InvalidElicitationContentError) as listed:
        form.validate_content([1])  # type: ignore[arg-type]
    assert str(listed.value) == (
        "The answer's content must be an object mapping field names to values, not a list."
    )
    assert form.field("tags").check([1]) == "must list options as strings, not an integer"
    one = FormField(
        name="c", kind=FieldKind.SINGLE_CHOICE, label="C", options=(Option(value="x", label="X"),)
    )
    assert one.check(5) == "must be one of the options (a string), not an integer"
