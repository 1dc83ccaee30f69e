"""``requestedSchema`` parsed once per distinct JSON (``_schema/cache.py``, issue 43): the same form
for the same JSON, and never another schema's form for a different one, however close."""

from __future__ import annotations

import json
from typing import Any
from uuid import uuid4

import pytest

from mcp_client._errors import InvalidElicitationSchemaError
from mcp_client._schema.cache import MAX_SCHEMAS, parse_form_schema_once
from mcp_client._session.elicitation import parse_request
from mcp_client.schema import FieldKind, parse_form_schema


def _schema(**prop: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"n": {"type": "number", **prop}}, "required": ["n"]}


def test_equal_json_gives_the_same_form_as_a_fresh_parse() -> None:
    # A title of this run's own: a schema an earlier test of this process kept would be a hit either way.
    title = f"Count {uuid4().hex}"
    first = parse_form_schema_once(_schema(title=title, minimum=1))
    again = parse_form_schema_once(json.loads(json.dumps(_schema(title=title, minimum=1))))
    assert again is first  # parsed once
    assert again == parse_form_schema(_schema(title=title, minimum=1))
    assert again.field("n").minimum == 1


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (_schema(title="Count"), _schema(title="Amount")),
        (_schema(minimum=1), _schema(minimum=1.5)),
        (_schema(default=1), _schema(default=2)),
        (
            {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}},
            {"type": "object", "properties": {"b": {"type": "integer"}, "a": {"type": "string"}}},
        ),
        (
            {"type": "object", "properties": {"ok": {"type": "boolean", "default": True}}},
            {"type": "object", "properties": {"ok": {"type": "boolean", "default": 1}}},
        ),
    ],
    ids=["title", "minimum", "default", "field-order", "true-is-not-1"],
)
def test_different_json_never_gets_another_schemas_form(one: dict[str, Any], other: dict[str, Any]) -> None:
    for schema in (one, other, one, other):  # in turns, each after the other was kept
        assert parse_form_schema_once(schema) == parse_form_schema(schema)
    assert parse_form_schema_once(one) != parse_form_schema_once(other)


def test_the_question_the_callback_gets_carries_its_own_schema() -> None:
    ask = {"mode": "form", "message": "How many?", "requestedSchema": _schema(title="Count")}
    other = {"mode": "form", "message": "How much?", "requestedSchema": _schema(title="Amount")}
    params, form = parse_request(ask)
    params_other, form_other = parse_request(other)
    params_again, _ = parse_request(json.loads(json.dumps(ask)))
    assert form is not None and form_other is not None
    assert params.requested_schema == ask["requestedSchema"]  # type: ignore[union-attr]
    assert params_other.requested_schema == other["requestedSchema"]  # type: ignore[union-attr]
    assert (form.field("n").label, form_other.field("n").label) == ("Count", "Amount")
    assert params_again == params


def test_changing_the_mapping_after_the_question_changes_nothing_for_the_next() -> None:
    schema = _schema(title="Kept")
    form = parse_form_schema_once(schema)
    schema["properties"]["n"]["title"] = "Changed"  # what the server sent, changed by its reader
    again = parse_form_schema_once(_schema(title="Kept"))
    assert again.field("n").label == "Kept"
    assert again.raw["properties"]["n"]["title"] == "Kept"
    assert form.field("n").label == "Kept"


def test_a_refused_schema_is_refused_every_time_with_its_reason() -> None:
    nested = {"type": "object", "properties": {"where": {"type": "object", "properties": {}}}}
    messages = []
    for _ in range(2):
        with pytest.raises(InvalidElicitationSchemaError) as refused:
            parse_form_schema_once(nested)
        messages.append(str(refused.value))
    assert messages[0] == messages[1] and "'where'" in messages[0]


def test_a_number_field_is_still_a_number_field_after_a_boolean_one() -> None:
    boolean = {"type": "object", "properties": {"x": {"type": "boolean"}}}
    number = {"type": "object", "properties": {"x": {"type": "number"}}}
    assert parse_form_schema_once(boolean).field("x").kind is FieldKind.BOOLEAN
    assert parse_form_schema_once(number).field("x").kind is FieldKind.NUMBER


def _fill() -> tuple[list[dict[str, Any]], list[Any]]:
    """``MAX_SCHEMAS + 1`` schemas of this run's own, the first ``MAX_SCHEMAS`` parsed (and kept): the
    cache then holds exactly those, whatever earlier tests left in it (the oldest go first)."""
    run = uuid4().hex
    schemas = [_schema(title=f"{run} {i}") for i in range(MAX_SCHEMAS + 1)]
    return schemas, [parse_form_schema_once(schema) for schema in schemas[:MAX_SCHEMAS]]


def test_128_schemas_are_kept_and_the_129th_pushes_out_the_oldest() -> None:
    assert MAX_SCHEMAS == 128
    schemas, forms = _fill()
    assert parse_form_schema_once(schemas[0]) is forms[0]  # 128 kept: the first is still there
    newest = schemas[MAX_SCHEMAS]
    assert parse_form_schema_once(newest).field("n").label == newest["properties"]["n"]["title"]
    assert parse_form_schema_once(schemas[1]) is forms[1]  # the second is kept...
    again = parse_form_schema_once(schemas[0])  # ...the oldest went: parsed anew, the same form
    assert again is not forms[0]
    assert again == forms[0] == parse_form_schema(schemas[0])


def test_a_refused_schema_takes_no_place_in_the_cache() -> None:
    schemas, forms = _fill()
    nested = {"type": "object", "properties": {"where": {"type": "object", "properties": {}}}}
    for _ in range(2):
        with pytest.raises(InvalidElicitationSchemaError):
            parse_form_schema_once({**nested, "title": uuid4().hex})
    assert parse_form_schema_once(schemas[0]) is forms[0]  # nothing was pushed out by the refusals


def test_a_schema_json_cannot_carry_is_parsed_as_it_is() -> None:
    """Params built by hand may hold a value JSON has no word for: the schema is parsed as given (the
    value kept as it is), not kept, and its fields are those it declares."""
    marker = object()
    schema = {"type": "object", "properties": {"n": {"type": "string", "x-widget": marker}}}
    form = parse_form_schema_once(schema)
    assert form.field("n").kind is FieldKind.TEXT
    assert form.raw["properties"]["n"]["x-widget"] is marker
    assert form == parse_form_schema(schema)


@pytest.mark.parametrize("bound", [float("inf"), float("-inf"), float("nan")])
def test_a_bound_json_numbers_cannot_carry_is_refused_as_the_parser_refuses_it(bound: float) -> None:
    """The key keeps ``Infinity`` and ``NaN`` as they are: written as ``null`` the bound would vanish
    and the schema be accepted with no bound at all."""
    schema = _schema(minimum=bound)
    with pytest.raises(InvalidElicitationSchemaError) as direct:
        parse_form_schema(schema)
    with pytest.raises(InvalidElicitationSchemaError) as cached:
        parse_form_schema_once(schema)
    assert str(cached.value) == str(direct.value)
    assert "must be a finite number" in str(cached.value)
