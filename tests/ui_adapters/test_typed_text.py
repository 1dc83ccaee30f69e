"""Typed text to a field's value: the terminal's one text reader (widgets and line mode share it)."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_client.schema import FormField, parse_form_schema
from ui_adapters.terminal._typed_text import parse_typed


def _one(prop: dict[str, Any]) -> FormField:
    return parse_form_schema({"type": "object", "properties": {"f": prop}}).fields[0]


def test_parse_typed_converts_typed_input() -> None:
    assert parse_typed(_one({"type": "string"}), " hi ") == " hi "
    assert parse_typed(_one({"type": "string", "format": "email"}), " a@b.c ") == "a@b.c"
    integer = _one({"type": "integer", "minimum": 18})
    assert parse_typed(integer, "42") == 42
    assert parse_typed(integer, "42.0") == 42 and isinstance(parse_typed(integer, "42.0"), int)
    number = _one({"type": "number"})
    assert parse_typed(number, "4") == 4 and isinstance(parse_typed(number, "4"), int)
    assert parse_typed(number, "4.5") == 4.5
    boolean = _one({"type": "boolean"})
    assert [parse_typed(boolean, t) for t in ["y", "YES", "true", "1", "n", "No", "false", "0"]] == [
        True,
        True,
        True,
        True,
        False,
        False,
        False,
        False,
    ]
    choice = _one(
        {"type": "string", "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]}
    )
    assert [parse_typed(choice, t) for t in ["r", "green", "RED", "2"]] == ["r", "g", "r", "g"]
    multi = _one({"type": "array", "items": {"enum": ["a", "b", "c"]}})
    assert parse_typed(multi, "a, C ,2") == ["a", "c", "b"]
    for f in (integer, number, boolean, choice, multi, _one({"type": "string"})):
        assert parse_typed(f, "   ") is None


@pytest.mark.parametrize(
    ("prop", "text", "fragment"),
    [
        ({"type": "integer"}, "abc", "must be a whole number, like 42"),
        ({"type": "integer"}, "4.5", "must be a whole number, not 4.5"),
        ({"type": "integer", "minimum": 18}, "3", "must be at least 18"),
        ({"type": "integer"}, "9" * 5000, "must be a whole number"),
        ({"type": "number"}, "four", "must be a number"),
        ({"type": "number"}, "nan", "must be a number, not nan"),
        ({"type": "number"}, "1e999", "must be a number, not inf"),
        ({"type": "boolean"}, "maybe", "must be yes or no"),
        ({"type": "string", "enum": ["a", "b"]}, "c", "'c' is not one of the options: 'a', 'b'"),
        ({"type": "string", "enum": ["a", "b"]}, "3", "'3' is not one of the options"),
        ({"type": "string", "enum": ["a", "b"]}, "²", "'²' is not one of the options"),
        ({"type": "string", "enum": ["a", "b"]}, "9" * 5000, "is not one of the options"),
        ({"type": "array", "items": {"enum": ["a", "b"]}}, "a,a", "lists 'a' more than once"),
        ({"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 1}, ",", "at least 1 option selected"),
        ({"type": "string", "format": "date"}, "tomorrow", "must be a date like"),
        ({"type": "string", "maxLength": 2}, "abc", "must be at most 2 characters"),
    ],
)
def test_parse_typed_errors_are_readable(prop: dict[str, Any], text: str, fragment: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_typed(_one(prop), text)
    assert fragment in str(caught.value)
