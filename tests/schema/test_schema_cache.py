"""``requestedSchema`` parsed once per distinct JSON (``_schema/cache.py``, issue 43): the same form
for the same JSON, and never another schema's form for a different one, however close."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcp_client._errors import InvalidElicitationSchemaError
from mcp_client._schema.cache import parse_form_schema_once
from mcp_client._session.elicitation import parse_request
from mcp_client.schema import FieldKind, parse_form_schema


def _schema(**prop: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"n": {"type": "number", **prop}}, "required": ["n"]}


def test_equal_json_gives_the_same_form_as_a_fresh_parse() -> None:
    first = parse_form_schema_once(_schema(title="Count", minimum=1))
    again = parse_form_schema_once(json.loads(json.dumps(_schema(title="Count", minimum=1))))
    assert again is first  # parsed once
    assert again == parse_form_schema(_schema(title="Count", minimum=1))
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
