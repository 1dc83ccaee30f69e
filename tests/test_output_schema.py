"""Output-schema checks (no I/O): what a caller sees when a tool's structured result breaks its schema."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from mcp_client import InvalidToolResultError, ProtocolError
from mcp_client._schema.output_schema import OutputSchemas, json_path

WEATHER: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "temperature": {"type": "number"},
        "readings": {"type": "array", "items": {"type": "integer", "minimum": 0}},
    },
    "required": ["city", "temperature"],
}


def schemas(**tools: dict[str, Any] | None) -> OutputSchemas:
    registry = OutputSchemas("http://127.0.0.1:1/mcp")
    listing: list[dict[str, Any]] = []
    for name, schema in tools.items():
        tool: dict[str, Any] = {"name": name, "inputSchema": {"type": "object"}}
        if schema is not None:
            tool["outputSchema"] = schema
        listing.append(tool)
    registry.absorb(listing)
    return registry


def test_a_fitting_result_passes() -> None:
    schemas(weather=WEATHER).check("weather", {"structuredContent": {"city": "Oslo", "temperature": -3.5}})


def test_a_wrong_type_names_the_path_and_the_rule() -> None:
    registry = schemas(weather=WEATHER)
    bad = {"structuredContent": {"city": "Oslo", "temperature": 1, "readings": [1, 2, "three"]}}
    with pytest.raises(InvalidToolResultError) as caught:
        registry.check("weather", bad)
    error = caught.value
    assert isinstance(error, ProtocolError)
    assert (error.tool, error.path, error.rule) == ("weather", "$.readings[2]", "type")
    assert "'weather'" in str(error) and "$.readings[2]" in str(error) and "'type'" in str(error)


def test_a_missing_required_property_is_reported_as_required() -> None:
    with pytest.raises(InvalidToolResultError) as caught:
        schemas(weather=WEATHER).check("weather", {"structuredContent": {"city": "Oslo"}})
    assert caught.value.rule == "required"
    assert caught.value.path == "$"
    assert "temperature" in str(caught.value)


def test_no_structured_content_where_a_schema_is_declared_is_an_error() -> None:
    with pytest.raises(InvalidToolResultError) as caught:
        schemas(weather=WEATHER).check("weather", {"content": [{"type": "text", "text": "sunny"}]})
    assert caught.value.rule == "structuredContent"
    assert "no structuredContent" in str(caught.value)


def test_a_tool_error_is_not_checked() -> None:
    schemas(weather=WEATHER).check("weather", {"isError": True, "content": []})


def test_tools_without_a_schema_are_not_checked() -> None:
    registry = schemas(echo=None)
    registry.check("echo", {"structuredContent": "anything"})
    registry.check("unknown", {})
    assert not registry.has_schema("echo")


def test_an_invalid_schema_says_so() -> None:
    with pytest.raises(InvalidToolResultError) as caught:
        schemas(broken={"type": "objekt"}).check("broken", {"structuredContent": {}})
    assert caught.value.rule == "outputSchema"
    assert "not valid JSON Schema" in str(caught.value)


def test_remote_refs_are_never_fetched() -> None:
    schema = {"$ref": "http://127.0.0.1:9/never.json"}
    with pytest.raises(InvalidToolResultError, match="not valid JSON Schema"):
        schemas(remote=schema).check("remote", {"structuredContent": {}})


def test_2020_12_keywords_apply() -> None:
    """prefixItems and $defs are 2020-12 only: a draft-7 validator would let this through."""
    schema = {
        "$defs": {"label": {"type": "string"}},
        "type": "array",
        "prefixItems": [{"$ref": "#/$defs/label"}, {"type": "integer"}],
    }
    registry = schemas(pair=schema)
    registry.check("pair", {"structuredContent": ["a", 1]})
    with pytest.raises(InvalidToolResultError) as caught:
        registry.check("pair", {"structuredContent": ["a", "b"]})
    assert caught.value.path == "$[1]"


def test_a_new_listing_replaces_the_schemas() -> None:
    registry = schemas(weather=WEATHER)
    registry.absorb([{"name": "weather", "outputSchema": {"type": "string"}}])
    registry.check("weather", {"structuredContent": "sunny"})
    registry.absorb([{"name": "weather"}])
    registry.check("weather", {"structuredContent": 42})


def test_forget_marks_the_schemas_stale() -> None:
    registry = schemas(weather=WEATHER)
    assert registry.known
    registry.forget()
    assert not registry.known


def test_json_paths() -> None:
    assert json_path([]) == "$"
    assert json_path(["a", 0, "b-c"]) == "$.a[0]['b-c']"


def test_the_validator_library_loads_only_when_a_schema_needs_it() -> None:
    # A plain schema (the official server's {"result": ...} wrapper) is checked without jsonschema-rs
    # (about 6 MB); a mismatch, or a schema beyond the plain keywords, loads it.
    code = (
        "import sys, mcp_client\n"
        "from mcp_client._schema.output_schema import OutputSchemas\n"
        "r = OutputSchemas('x'); r.absorb([{'name': 'echo'}]); r.check('echo', {'structuredContent': 1})\n"
        "plain = {'type': 'object', 'properties': {'result': {'title': 'Result', 'type': 'string'}},\n"
        "         'required': ['result'], 'title': 'echoOutput'}\n"
        "r.absorb([{'name': 'p', 'outputSchema': plain}])\n"
        "r.check('p', {'structuredContent': {'result': 'hi'}})\n"
        "assert 'jsonschema_rs' not in sys.modules, 'loaded for a plain schema'\n"
        "r.absorb([{'name': 'n', 'outputSchema': {'type': 'integer', 'minimum': 0}}])\n"
        "r.check('n', {'structuredContent': 1})\n"
        "assert 'jsonschema_rs' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


_PLAIN_SCHEMAS: list[dict[str, Any]] = [
    {"type": "object", "properties": {"result": {"type": "string"}}, "required": ["result"]},
    {"type": "object", "properties": {"n": {"type": "integer"}, "x": {"type": ["number", "null"]}}},
    {"type": "object", "properties": {"a": {"type": "boolean"}}, "additionalProperties": False},
    {
        "type": "array",
        "items": {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"]},
    },
    {"properties": {"result": {"type": "array", "items": {"type": "integer"}}}, "required": ["result"]},
    {"type": "object", "title": "T", "description": "d", "properties": {"o": {"type": "object"}}},
]
_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    1.0,
    1.5,
    -3,
    "",
    "hi",
    [],
    [1, 2],
    [1.0, "x"],
    [{"k": "v"}],
    [{"k": 1}],
    [{}],
    {},
    {"result": "hi"},
    {"result": 1},
    {"result": None},
    {"result": [1, 2]},
    {"result": [1, 2.5]},
    {"result": [True]},
    {"n": 1, "x": None},
    {"n": 1.0, "x": 2},
    {"n": True},
    {"n": 1.5},
    {"x": "s"},
    {"a": True},
    {"a": 1},
    {"a": True, "b": 2},
    {"o": {}},
    {"o": []},
    {"result": "x", "extra": 1},
]


@pytest.mark.parametrize("schema", _PLAIN_SCHEMAS)
def test_the_plain_check_agrees_with_the_library(schema: dict[str, Any]) -> None:
    import jsonschema_rs

    from mcp_client._schema.output_schema import _PlainSchema  # pyright: ignore[reportPrivateUsage]

    plain = _PlainSchema.of(schema)
    assert plain is not None, "expected a plain schema"
    library = jsonschema_rs.validator_for(schema)
    for value in _VALUES:
        assert plain.is_valid(value) == library.is_valid(value), (schema, value)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "pattern": "^a"},
        {"$ref": "#/$defs/x", "$defs": {"x": {"type": "string"}}},
        {"type": "object", "required": ["a", "a"]},
        {"type": "strin"},
        {"type": []},
        {"title": 5},
        {"properties": {"a": {"enum": [1]}}},
        {"additionalProperties": {"type": "string"}},
        {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"},
    ],
)
def test_anything_beyond_plain_keywords_goes_to_the_library(schema: dict[str, Any]) -> None:
    from mcp_client._schema.output_schema import _PlainSchema  # pyright: ignore[reportPrivateUsage]

    assert _PlainSchema.of(schema) is None


def test_a_plain_schema_mismatch_is_worded_by_the_library() -> None:
    schemas = OutputSchemas("srv")
    schema = {"type": "object", "properties": {"result": {"type": "string"}}, "required": ["result"]}
    schemas.absorb([{"name": "echo", "outputSchema": schema}])
    schemas.check("echo", {"structuredContent": {"result": "ok"}})
    with pytest.raises(InvalidToolResultError) as caught:
        schemas.check("echo", {"structuredContent": {"result": 5}})
    assert caught.value.path == "$.result"
    assert caught.value.rule == "type"
    assert "5" in str(caught.value) and "string" in str(caught.value)
