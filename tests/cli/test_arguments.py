"""KEY=VALUE words typed by a tool's inputSchema, and SERVER specs: the CLI's pure parsing, no server."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from mcp_client import StdioServerParameters
from mcp_client.types import Tool
from tests.cli._cli import BISTRO
from ui_adapters.cli._args import ArgumentsError, parse_arguments, usage_line
from ui_adapters.cli._exit import UsageError
from ui_adapters.cli._params import parameters_of
from ui_adapters.cli._servers import parse_header, parse_server

# The shape pydantic gives MCPServer tools: Optional as anyOf+null, Enum behind $ref, a nested model.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "n": {"type": "integer"},
        "x": {"type": "number"},
        "ok": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "opts": {"type": "object"},
        "maybe": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
        "either": {"type": ["integer", "string"]},
        "colour": {"$ref": "#/$defs/Colour"},
        "size": {"enum": [1, 2, 3]},
        "anything": {"description": "no type at all"},
        "text": {"type": "string", "description": "plain text"},
    },
    "required": ["n"],
    "$defs": {"Colour": {"type": "string", "enum": ["red", "green"]}},
}
TOOL = Tool(name="t", input_schema=SCHEMA)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("x=2", 2),
        ("x=-2.5", -2.5),
        ("x=1e3", 1000.0),
        ("ok=true", True),
        ("ok=No", False),
        ("ok=1", True),
        ("tags=[]", []),
        ('tags=["a", "b"]', ["a", "b"]),
        ('opts={"k": [1]}', {"k": [1]}),
        ("maybe=null", None),
        ("maybe=7", 7),
        ("either=5", 5),
        ("either=five", "five"),
        ("colour=green", "green"),
        ("size=2", 2),
        ("anything=[1, 2]", [1, 2]),
        ("anything=plain words", "plain words"),
        ("text=42", "42"),
        ("text=a=b", "a=b"),
        ("text=", ""),
    ],
)
def test_values_follow_the_schema(word: str, expected: Any) -> None:
    arguments = parse_arguments(TOOL, ["n=1", word])
    name = word.partition("=")[0]
    assert arguments[name] == expected
    assert type(arguments[name]) is type(expected)


@pytest.mark.parametrize(
    ("word", "problem"),
    [
        ("n=1.5", "n: expected an integer, got '1.5' (write e.g. n=42)"),
        ("x=nan", "x: expected a number, got 'nan' (write e.g. x=2.5)"),
        ("x=1e999", "x: expected a number, got '1e999' (write e.g. x=2.5)"),
        ("ok=maybe", "ok: expected a boolean, got 'maybe' (write e.g. ok=true)"),
        ("tags=a,b", """tags: expected an array, got 'a,b' (write e.g. tags='["a", "b"]')"""),
        ("opts=[1]", """opts: expected an object, got '[1]' (write e.g. opts='{"key": "value"}')"""),
        # JSON that breaks: where it broke, not "expected an array" (issue 26, item 9)
        (
            """tags=["a", "b" "c"]""",
            """tags: not valid JSON at char 10 (Expecting ',' delimiter): '["a", "b" "c"]' """
            """(write e.g. tags='["a", "b"]')""",
        ),
        (
            "opts={'k': 1}",
            "opts: not valid JSON at char 1 (Expecting property name enclosed in double quotes): "
            """"{'k': 1}" (write e.g. opts='{"key": "value"}')""",
        ),
        ("maybe=x", "maybe: expected an integer or null, got 'x' (write e.g. maybe=42 or maybe=null)"),
        ("colour=blue", "colour: expected one of: red, green, got 'blue'"),
        ("size=4", "size: expected one of: 1, 2, 3, got '4'"),
        ("nope=1", "t has no parameter 'nope'"),
        ("tag=[]", "t has no parameter 'tag'; did you mean tags?"),
        ("=1", "'=1' is not KEY=VALUE (write e.g. n=42)"),
    ],
)
def test_problems_are_explained(word: str, problem: str) -> None:
    words = [word] if word.startswith("n=") else ["n=1", word]
    with pytest.raises(ArgumentsError) as caught:
        parse_arguments(TOOL, words)
    assert caught.value.problems == [problem]


def test_missing_required_parameters_are_named() -> None:
    with pytest.raises(ArgumentsError) as caught:
        parse_arguments(TOOL, [])
    assert caught.value.problems == ["missing required parameter: n"]


def test_a_tool_without_parameters() -> None:
    bare = Tool(name="bare")
    assert parse_arguments(bare, []) == {}
    with pytest.raises(ArgumentsError) as caught:
        parse_arguments(bare, ["a=1"])
    assert caught.value.problems == ["bare takes no parameters, but a was given"]


def test_additional_properties_allows_unlisted_names() -> None:
    open_tool = Tool(name="o", input_schema={"type": "object", "additionalProperties": True})
    assert parse_arguments(open_tool, ["a=1", "b=x"]) == {"a": 1, "b": "x"}


def test_parameter_listing_and_usage_line() -> None:
    params = {p.name: p for p in parameters_of(TOOL)}
    assert params["maybe"].type_label == "integer | null"
    assert params["colour"].type_label == "one of: red, green"
    assert params["anything"].type_label == "any"
    assert params["n"].required and not params["x"].required
    assert usage_line(TOOL, "mcp-client", "S").startswith("mcp-client call S t n=INTEGER [x=NUMBER]")


def test_servers() -> None:
    assert parse_server(" http://127.0.0.1:8000/mcp ") == "http://127.0.0.1:8000/mcp"
    assert parse_server(str(BISTRO)) == StdioServerParameters(sys.executable, [str(BISTRO)])
    assert parse_server(f"{BISTRO} --flag 'two words'") == StdioServerParameters(
        sys.executable, [str(BISTRO), "--flag", "two words"]
    )
    assert parse_server(f"'{sys.executable}' -m server") == StdioServerParameters(
        sys.executable, ["-m", "server"]
    )
    for bad in ("", "   ", "http://", "file:///x", "missing.py", "no-such-command-xyz"):
        with pytest.raises(UsageError):
            parse_server(bad)


def test_headers() -> None:
    assert parse_header("Authorization: Bearer a:b") == ("Authorization", "Bearer a:b")
    for bad in ("no-colon", ": empty name", "bad name: x"):
        with pytest.raises(UsageError):
            parse_header(bad)
