# ruff: noqa: E501  (the value tables read best one case to a line)
"""The bridge's pure parts as values, no server: what the model's arguments are turned into (or the
error text it reads instead), the names and the exported JSON. The provider tests
(``test_bridge_edges.py``, ``test_schema_export.py``) show the same through the SDKs and a server; these
run in a second, so ``scripts/mutants`` can run them against every mutant of ``mcp_client.llm``.
"""

from __future__ import annotations

import copy
import hashlib
import http.server
import json
import threading
from typing import Any

import pytest

from mcp_client.llm import _arguments
from mcp_client.llm._gemini import Parameters, declaration, parameters, response
from mcp_client.llm._names import provider_names
from mcp_client.llm._schema import (
    Inlined,
    RootExport,
    allows_null,
    description,
    export_root,
    inline_refs,
    printable,
)
from mcp_client.llm._view import (
    MAX_ARGUMENT_DEPTH,
    BlobPart,
    ExportedTool,
    ImagePart,
    Part,
    TextPart,
    argument_problem,
    parse_arguments,
    plain_text,
)
from mcp_client.types import CallToolResult, TextContent, Tool
from tests.servers.schemas_server import SCHEMAS

NOT_FINITE = "the arguments hold NaN or Infinity, which JSON does not allow: send a finite number or null"
TOO_LONG = "a number in the arguments has more than 4300 digits: send a shorter one"
TOO_DEEP = "the arguments are nested more than 100 levels deep: send a flatter object"


def _nested(depth: int, container: str = "object") -> dict[str, Any]:
    """Arguments ``depth`` levels deep, counting the arguments object itself as the first."""
    value: Any = 1
    for _ in range(depth - 1):
        value = {"v": value} if container == "object" else [value]
    return {"v": value}


# ------------------------------------------------------------------ the model's arguments


@pytest.mark.parametrize(
    ("raw", "parsed"),
    [
        (None, {}),
        ("", {}),
        ("{}", {}),
        ('{"city": "Oslo", "days": [1, 2.5, true, null]}', {"city": "Oslo", "days": [1, 2.5, True, None]}),
        ({"city": "Oslo"}, {"city": "Oslo"}),
    ],
)
def test_arguments_a_model_sends_are_read_as_an_object(raw: Any, parsed: dict[str, Any]) -> None:
    assert parse_arguments(raw) == (parsed, None)


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("{bad", "the arguments are not valid JSON (Expecting property name enclosed in double quotes at "
                 "position 1)"),
        ('{"a": 1} x', "the arguments are not valid JSON (Extra data at position 9)"),
        ("[1]", "the arguments must be a JSON object, not list"),
        ("null", "the arguments must be a JSON object, not NoneType"),
        (5, "the arguments must be a JSON object, not int"),
        ('{"a": NaN}', NOT_FINITE),
        ("[NaN]", NOT_FINITE),
        ('{"a": -Infinity}', NOT_FINITE),
        ('{"a": 1e400}', NOT_FINITE),
        ('{"a": ' + "7" * 4301 + "}", TOO_LONG),
        ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", TOO_DEEP),
        ({"a": float("nan")}, NOT_FINITE),
        ({"a": _nested(MAX_ARGUMENT_DEPTH)}, TOO_DEEP),
    ],
)  # fmt: skip
def test_arguments_a_model_gets_wrong_are_the_reason_it_reads(raw: Any, why: str) -> None:
    assert parse_arguments(raw) == (None, why)


def test_the_depth_limit_counts_objects_and_arrays_from_the_arguments_object() -> None:
    for container in ("object", "array"):
        assert argument_problem(_nested(MAX_ARGUMENT_DEPTH, container)) is None
        assert argument_problem(_nested(MAX_ARGUMENT_DEPTH + 1, container)) == TOO_DEEP
    assert json.dumps(_nested(3)) == '{"v": {"v": {"v": 1}}}'  # three levels: what "depth" means here


def test_integers_up_to_4300_digits_pass_and_longer_ones_are_refused() -> None:
    longest = 10**4300 - 1
    assert argument_problem({"n": longest, "m": -longest}) is None
    assert argument_problem({"n": longest + 1}) == TOO_LONG
    assert argument_problem({"n": -longest - 1}) == TOO_LONG
    assert argument_problem({"n": 7 * 10**5000}) == TOO_LONG


@pytest.mark.parametrize(
    ("arguments", "why"),
    [
        ({"a": float("inf")}, NOT_FINITE),
        ({"a": [1.5, float("-inf")]}, NOT_FINITE),
        ({"a": (1, float("nan"))}, NOT_FINITE),
        ({"a": float("nan"), "b": "x", "c": True, "d": None}, NOT_FINITE),
        ({1: "one"}, "an object key in the arguments is int, not a string"),
        ({"a": {None: 1}}, "an object key in the arguments is NoneType, not a string"),
        ({"a": b"bytes"}, "the arguments hold a bytes, which is not a JSON value"),
        ({"a": [{"b": {1, 2}}]}, "the arguments hold a set, which is not a JSON value"),
    ],
)
def test_values_json_cannot_carry_are_named(arguments: dict[Any, Any], why: str) -> None:
    assert argument_problem(arguments) == why


def test_every_json_value_passes() -> None:
    arguments = {"s": "x", "i": -3, "f": 0.5, "t": True, "f2": False, "n": None, "l": [1, [2]], "o": {}}
    assert argument_problem(arguments) is None
    assert parse_arguments(json.dumps(arguments)) == (arguments, None)


# ------------------------------------------------------------------ names


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:8]


def test_a_name_with_nothing_left_is_an_underscore() -> None:
    assert provider_names([""]) == ["_"]
    assert provider_names(["..."]) == ["___"]


def test_a_changed_name_carries_the_hash_of_the_original_and_a_retry_a_counter() -> None:
    """The hash is of the server's own name (the first try), so it is the same in every release and
    every listing; a retry hashes the name with its counter."""
    long = "files." + "x" * 100
    assert provider_names([long]) == ["files_" + "x" * 49 + "_" + _digest(long)]
    assert provider_names(["a_b", "a.b"]) == ["a_b", "a_b_" + _digest("a.b")]
    crafted = "a_b_" + _digest("a.b")  # a name taking the hash a.b would get
    assert provider_names(["a_b", crafted, "a.b"]) == ["a_b", crafted, "a_b_" + _digest("a.b\n1")]

    second = "a_b_" + _digest("a.b\n1")  # and the one its first retry would get
    assert provider_names(["a_b", crafted, second, "a.b"])[3] == "a_b_" + _digest("a.b\n2")


def test_names_changed_alike_are_told_apart_even_in_case() -> None:
    assert provider_names(["a.b", "a/b"]) == ["a_b", "a_b_" + _digest("a/b")]
    assert provider_names(["a.B", "a/b"]) == ["a_B", "a_b_" + _digest("a/b")]


def test_64_characters_is_short_enough() -> None:
    assert provider_names(["a" * 64, "b" * 65])[0] == "a" * 64
    assert provider_names(["a." + "b" * 62]) == ["a_" + "b" * 62]
    # a valid name of 64 keeps itself, even after a name that had to change into the same spelling
    assert provider_names(["a." + "b" * 62, "a_" + "b" * 62])[1] == "a_" + "b" * 62
    assert provider_names(["a." + "b" * 63]) == ["a_" + "b" * 53 + "_" + _digest("a." + "b" * 63)]


def test_a_name_with_a_lone_surrogate_is_hashed_not_an_error() -> None:
    """A JSON ``\\ud800`` escape decodes to a lone surrogate, which strict UTF-8 cannot encode."""
    name = "x" * 70 + "\ud800"
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    assert provider_names([name]) == ["x" * 55 + "_" + digest]


# ------------------------------------------------------------------ arguments against the tool's own schema


def _tool(name: str, schema: dict[str, Any]) -> ExportedTool:
    return ExportedTool(name, Tool(name=name, input_schema=schema))


def _problem(name: str, arguments: dict[str, Any]) -> str | None:
    return _arguments.problem(_tool(name, SCHEMAS[name]), arguments)


FIVE_STRINGS: dict[str, Any] = {  # an object root with a `not`: exported loose, so checked
    "type": "object",
    "properties": {name: {"type": "string"} for name in "abcde"},
    "not": {"required": ["z"]},
}


def test_a_tool_exported_as_it_is_is_left_to_its_server() -> None:
    """``merged`` (an allOf root), ``dangling`` and ``ref_root`` export all their schema says."""
    assert _problem("merged", {"calendar": 1, "days": 40}) is None
    assert _problem("dangling", {}) is None
    assert _problem("ref_root", {"size": "XL"}) is None


def test_a_call_a_loose_tool_refuses_says_why_and_how_to_go_on() -> None:
    assert _problem("search", {"query": "mcp", "page": 2}) is None
    assert _problem("search", {"query": "mcp", "id": "x"}) == (
        "the arguments do not match the tool's input schema, at $: "
        '{"id":"x","query":"mcp"} is not valid under any of the schemas listed in the \'anyOf\' '
        "keyword. "
        "Input schema (as the tool checks it): the arguments must match at least one of these forms: "
        "1) query, page (required: query); 2) id (required: id). Correct the arguments and call again."
    )
    assert _problem("text_root", {}) == (
        'the arguments do not match the tool\'s input schema, at $: {} is not of type "string". '
        'Input schema (as the tool checks it): the tool\'s input schema describes "string", not an '
        "object; MCP tool arguments are always an object, so no call can satisfy it until its server "
        "fixes it. Do not call this tool again: no arguments can satisfy its schema."
    )


def test_a_declaration_cut_short_is_checked_deepest_mistake_first() -> None:
    """``fan_out``'s object root exports as it is, but Gemini's declaration cut its references."""
    assert _problem("fan_out", {"name": "t", "tree": {"left": {"right": {}}}}) is None
    assert _problem("fan_out", {"tree": {"left": {"right": 5}}}) == (
        "the arguments do not match the tool's input schema, at $.tree.left.right: 5 is not of type "
        '"object"; at $: "name" is a required property. Correct the arguments and call again.'
    )


def test_three_mistakes_are_named_and_the_rest_counted() -> None:
    tool = _tool("five", FIVE_STRINGS)
    three = _arguments.problem(tool, {"a": 1, "b": 2, "c": 3}) or ""
    assert three.count("is not of type") == 3 and "more)" not in three
    four = _arguments.problem(tool, {"a": 1, "b": 2, "c": 3, "d": 4}) or ""
    assert four.count("is not of type") == 3 and '"string" (and 1 more). Input schema' in four
    assert _arguments.problem(tool, {"a": "x", "z": 1}) == (
        'the arguments do not match the tool\'s input schema, at $: {"required":["z"]} is not allowed '
        'for {"a":"x","z":1}. Input schema (as the tool checks it): the arguments must '
        'not match {"required":["z"]}. Correct the arguments and call again.'
    )


def test_a_long_note_is_given_whole() -> None:
    branches = [{"properties": {f"p{i}_{'x' * 40}": {}}, "required": [f"p{i}_{'x' * 40}"]} for i in range(20)]
    tool = _tool("many", {"anyOf": branches})
    note = export_root({"anyOf": branches}).note or ""
    assert (_arguments.problem(tool, {}) or "").endswith(f" {note} Correct the arguments and call again.")


def test_a_remote_reference_is_never_fetched() -> None:
    """A server's schema names a URL: the check does not fetch it (the server decides)."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            body = b'{"type": "string"}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/a.json"
        either = [{"type": "object"}, {"type": "object", "properties": {"b": {}}}]
        tool = _tool("remote", {"anyOf": either, "properties": {"a": {"$ref": url}}})
        assert _arguments.needs_check(tool)
        assert _arguments.problem(tool, {"a": 5}) is None
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
    assert hits == []


def test_a_schema_that_is_not_json_schema_is_left_to_the_server() -> None:
    either = [{"type": "object"}, {"type": "object", "properties": {"b": {}}}]
    tool = _tool("broken", {"anyOf": either, "properties": {"a": {"pattern": "("}}})
    assert _arguments.needs_check(tool)
    assert _arguments.problem(tool, {"a": "x"}) is None


# ------------------------------------------------------------------ the exported root


def _nest(levels: int, key: str = "allOf") -> dict[str, Any]:
    schema: dict[str, Any] = {"properties": {"a": {}}}
    for _ in range(levels):
        schema = {key: [schema]}
    return schema


NOTE = "Input schema (as the tool checks it): "
NO_CALL = "MCP tool arguments are always an object, so no call can satisfy it until its server fixes it."
INEXACT = NOTE + "its input schema could not be given exactly."
EMPTY = {"type": "object", "properties": {}}


@pytest.mark.parametrize(
    ("schema", "exported"),
    [
        (None, RootExport(EMPTY)),
        ({"properties": []}, RootExport(EMPTY)),
        ({"type": "object", "properties": {"a": {}}, "x-kept": 1}, RootExport({**EMPTY, "properties": {"a": {}}, "x-kept": 1})),
        (SCHEMAS["text_root"], RootExport(EMPTY, True, NOTE + 'the tool\'s input schema describes "string", not an object; ' + NO_CALL, False)),
        (SCHEMAS["search"], RootExport(
            {"type": "object", "properties": {"query": {"type": "string"}, "page": {"type": "integer", "minimum": 1},
                                              "id": {"type": "string", "pattern": "^[0-9a-f]{8}$"}}},
            True, NOTE + "the arguments must match at least one of these forms: 1) query, page (required: query); "
            "2) id (required: id).")),
        (SCHEMAS["create"], RootExport(
            {"type": "object", "properties": {"kind": {"enum": ["page", "database"], "type": "string"}, "title": {"type": "string"},
                                              "columns": {"type": "array", "items": {"type": "string"}}}, "required": ["kind"]},
            True, NOTE + "the arguments must match exactly one of these forms: 1) kind, title (required: kind, title); "
            "2) kind, columns (required: kind, columns).")),
        (SCHEMAS["merged"], RootExport(
            {"type": "object", "properties": {"calendar": {"type": "string"}, "days": {"type": "integer", "maximum": 31}},
             "required": ["calendar", "days"]})),
        (SCHEMAS["not_both"], RootExport(
            {"type": "object", "properties": {"email": {"type": "string"}, "phone": {"type": "string"}}},
            True, NOTE + 'the arguments must not match {"required":["email","phone"]}.')),
        (SCHEMAS["ref_root"], RootExport(
            {"type": "object", "definitions": SCHEMAS["ref_root"]["definitions"],
             "properties": {"size": {"$ref": "#/definitions/Size"}}, "required": ["size"]})),
        ({"$ref": "#"}, RootExport(EMPTY, True, NOTE + "'#' refers to itself; it is not checked by the model's provider.")),
        ({"$ref": "http://x/y"}, RootExport(EMPTY, True, NOTE + "its reference 'http://x/y' could not be followed; it is not checked by the model's provider.")),
        ({"$ref": "#/$defs/A", "$defs": {"A": [1]}}, RootExport({**EMPTY, "$defs": {"A": [1]}}, True, NOTE + "its reference '#/$defs/A' could not be followed; it is not checked by the model's provider.")),
        ({"$ref": "#/$defs/a~1b~0c", "$defs": {"a/b~c": {"type": "object", "properties": {"x": {}}}}},
         RootExport({"type": "object", "$defs": {"a/b~c": {"type": "object", "properties": {"x": {}}}}, "properties": {"x": {}}})),
        ({"$ref": "#/$defs/A", "description": "x", "$defs": {"A": {"type": "object", "properties": {"a": {}}}}},
         RootExport({"type": "object", "description": "x", "$defs": {"A": {"type": "object", "properties": {"a": {}}}}, "properties": {"a": {}}})),
        ({"enum": [{"a": 1}]}, RootExport(EMPTY, True, NOTE + 'the arguments must be one of [{"a":1}].')),
        ({"enum": [{"b": "é", "a": 2}]}, RootExport(EMPTY, True, NOTE + 'the arguments must be one of [{"a":2,"b":"é"}].')),
        ({"$ref": "#nope"}, RootExport(EMPTY, True, NOTE + "its reference '#nope' could not be followed; it is not checked by the model's provider.")),
        ({"const": {"a": 1}}, RootExport(EMPTY, True, NOTE + 'the arguments must be {"a":1}.')),
        ({"type": ["object", "null"], "properties": {"a": {}}, "anyOf": [{"required": ["a"]}]},
         RootExport({"type": "object", "properties": {"a": {}}, "required": ["a"]})),
        ({"oneOf": [{"type": "string"}, {"type": "integer"}]},
         RootExport(EMPTY, True, NOTE + "no branch of its oneOf accepts an object; " + NO_CALL, False)),
        ({"anyOf": [{"type": "object", "properties": {"a": {}}, "required": ["a"]}, {"type": "string"}], "title": "T", "description": "D"},
         RootExport({"type": "object", "title": "T", "description": "D", "properties": {"a": {}}, "required": ["a"]})),
        ({"anyOf": [False, {"type": "object", "properties": {"a": {}}}]}, RootExport({**EMPTY, "properties": {"a": {}}})),
        ({"anyOf": [True, {"type": "object", "properties": {"a": {}}}]},
         RootExport({**EMPTY, "properties": {"a": {}}}, True, NOTE + "the arguments must match at least one of these forms: 1) no named properties; 2) a.")),
        ({"allOf": [{"type": "object", "properties": {"a": {}}, "additionalProperties": False}, {"properties": {"b": {}}}]},
         RootExport({"type": "object", "additionalProperties": False, "properties": {"a": {}, "b": {}}}, True, INEXACT)),
        ({"allOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"a": {"type": "integer"}}}]},
         RootExport({**EMPTY, "properties": {"a": {"type": "string"}}}, True, INEXACT)),
        ({"allOf": [{"properties": {"a": {}}, "minProperties": 1}, {"minProperties": 2}]},
         RootExport({"type": "object", "minProperties": 1, "properties": {"a": {}}}, True, INEXACT)),
        ({"allOf": [{"properties": {"a": {}}, "maxItems": 1, "required": ["a"]}, {"maxItems": 1, "required": ["a", "b"]}]},
         RootExport({"type": "object", "maxItems": 1, "properties": {"a": {}}, "required": ["a", "b"]})),
        (_nest(8), RootExport({**EMPTY, "properties": {"a": {}}})),
        ({"$ref": "#/$defs/N", "$defs": {"N": _nest(8)}}, RootExport({**EMPTY, "$defs": {"N": _nest(8)}, "properties": {"a": {}}})),
        ({"$ref": "#/$defs/A", "required": ["a"], "$defs": {"A": {"type": "object", "properties": {"a": {}}}}},
         RootExport({"type": "object", "$defs": {"A": {"type": "object", "properties": {"a": {}}}}, "properties": {"a": {}}, "required": ["a"]})),
        ({"allOf": [{"$ref": "#/$defs/A"}, {"required": ["a"]}], "$defs": {"A": {"type": "object", "properties": {"a": {}}}}},
         RootExport({"type": "object", "$defs": {"A": {"type": "object", "properties": {"a": {}}}}, "properties": {"a": {}}, "required": ["a"]})),
        ({"allOf": [True, {"properties": {"a": {}}}]}, RootExport({**EMPTY, "properties": {"a": {}}})),
        ({"type": ["string", "null"]}, RootExport(EMPTY, True, NOTE + 'the tool\'s input schema describes ["string","null"], not an object; ' + NO_CALL, False)),
        ({"type": "objects"}, RootExport(EMPTY, True, NOTE + 'the tool\'s input schema describes "objects", not an object; ' + NO_CALL, False)),
        ({"allOf": [{"properties": {"a": {}}, "maxItems": 1}, {"maxItems": 2}]},
         RootExport({"type": "object", "maxItems": 1, "properties": {"a": {}}}, True, INEXACT)),
        ({"allOf": [{"not": {"required": ["a"]}}, {"not": {"required": ["b"]}}]},
         RootExport(EMPTY, True, NOTE + 'the arguments must not match {"required":["a"]}; the arguments must not match {"required":["b"]}.')),
        (_nest(9), RootExport(EMPTY, True, INEXACT)),
        (_nest(8, "anyOf"), RootExport({**EMPTY, "properties": {"a": {}}})),
        (_nest(9, "anyOf"), RootExport(EMPTY, True, INEXACT)),
        ({"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}], "$defs": {"A": {"properties": {"a": {}}}, "B": {"properties": {"b": {}}}}},
         RootExport({**EMPTY, "$defs": {"A": {"properties": {"a": {}}}, "B": {"properties": {"b": {}}}}, "properties": {"a": {}, "b": {}}}, True,
                    NOTE + "the arguments must match at least one of these forms: 1) a; 2) b.")),
        ({"type": "object", "$schema": "https://json-schema.org/draft/2020-12/schema", "$comment": "c"},
         RootExport({**EMPTY, "$schema": "https://json-schema.org/draft/2020-12/schema", "$comment": "c"})),
        ({"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {}},
         RootExport({**EMPTY, "$schema": "https://json-schema.org/draft/2020-12/schema"})),
        ({"oneOf": [{"properties": {"k": {"const": "a"}}}, {"properties": {"k": {"enum": ["b", "a"]}}}]},
         RootExport({**EMPTY, "properties": {"k": {"enum": ["a", "b"], "type": "string"}}}, True,
                    NOTE + "the arguments must match exactly one of these forms: 1) k; 2) k.")),
        ({"anyOf": [{"properties": {"k": {"const": 1}}}, {"properties": {"k": {"const": None}}}]},
         RootExport({**EMPTY, "properties": {"k": {"enum": [1, None]}}}, True,
                    NOTE + "the arguments must match at least one of these forms: 1) k; 2) k.")),
        ({"anyOf": [{"properties": {"k": {"const": "a"}}}, {"properties": {"k": {"type": "string"}}}]},
         RootExport({**EMPTY, "properties": {"k": {"anyOf": [{"const": "a"}, {"type": "string"}]}}}, True,
                    NOTE + "the arguments must match at least one of these forms: 1) k; 2) k.")),
        ({"anyOf": [{"properties": {"k": {}}, "required": ["k", "j"]}, {"properties": {"k": {}}, "required": ["j"]}]},
         RootExport({**EMPTY, "properties": {"k": {}}, "required": ["j"]}, True,
                    NOTE + "the arguments must match at least one of these forms: 1) k (required: k, j); 2) k (required: j).")),
    ],
)  # fmt: skip
def test_every_root_goes_out_as_an_object_and_says_what_it_lost(schema: Any, exported: RootExport) -> None:
    given = copy.deepcopy(schema)
    out = export_root(schema)
    assert out == exported
    out.schema["properties"]["added"] = {}
    assert schema == given  # a copy: the tool's own schema is never changed


def test_a_note_too_long_is_cut_at_600_characters() -> None:
    branches = [{"properties": {f"p{i}_{'x' * 40}": {}}} for i in range(20)]
    note = export_root({"anyOf": branches}).note or ""
    assert len(note) == 600 and note.endswith("…") and note.startswith(NOTE)
    fits = export_root({"anyOf": branches[:2]}).note or ""
    assert fits.endswith("2) p1_" + "x" * 40 + ".")


def test_a_note_of_600_characters_is_whole() -> None:
    prefix = NOTE + "the arguments must match at least one of these forms: 1) "
    first = "x" * 250
    second = "y" * (600 - len(prefix) - 250 - len("; 2) ."))
    note = export_root({"anyOf": [{"properties": {first: {}}}, {"properties": {second: {}}}]}).note
    assert note == f"{prefix}{first}; 2) {second}." and len(note) == 600
    longer = export_root({"anyOf": [{"properties": {first: {}}}, {"properties": {second + "y": {}}}]}).note
    assert longer == f"{prefix}{first}; 2) {second}…"


def test_server_text_in_a_note_is_one_line_without_control_characters() -> None:
    note = export_root({"anyOf": [{"properties": {"a\nb\x00c": {}}}, {"properties": {"d": {}}}]}).note
    assert note == NOTE + "the arguments must match at least one of these forms: 1) a b c; 2) d."
    assert printable("a\x00b\n\tc  d") == "a b c d"
    assert (printable("abcdef", 4), printable("abcd", 4)) == ("abc…", "abcd")
    assert (printable("x" * 300), printable("x" * 301)) == ("x" * 300, "x" * 299 + "…")
    fits = ["x" * 156]  # 160 characters of JSON: given whole
    assert export_root({"enum": fits}).note == NOTE + f'the arguments must be one of ["{"x" * 156}"].'
    long = export_root({"enum": [list(range(100))]}).note or ""
    assert long.endswith(",55….") and len(long) == len(NOTE + "the arguments must be one of .") + 160


def test_the_description_is_the_tools_and_the_note() -> None:
    def described(tool: Tool) -> str | None:
        return description(ExportedTool("t", tool))

    assert described(Tool(name="t", input_schema={})) is None
    assert described(Tool(name="t", title="Title", input_schema={})) == "Title"
    assert described(Tool(name="t", title="T", description="Desc", input_schema={"enum": [{}]})) == (
        "Desc\n\n" + NOTE + "the arguments must be one of [{}]."
    )


# ------------------------------------------------------------------ references written out (Gemini)

A_DEF = {"type": "string", "pattern": "x" * 20}  # 53 characters of JSON
THREE_REFS = {
    "type": "object",
    "properties": {"a": {"$ref": "#/$defs/A", "description": "first"}, "b": {"$ref": "#/$defs/A"}, "c": {"$ref": "#/$defs/A"}},
    "$defs": {"A": A_DEF},
}  # fmt: skip
CUT = "(not declared: #/$defs/A was cut short to keep the schema small)"


def test_references_are_written_out_within_the_budget_and_the_rest_cut() -> None:
    written = {**A_DEF, "description": "first"}
    assert inline_refs(THREE_REFS, budget=106) == Inlined(
        {"type": "object", "properties": {"a": written, "b": A_DEF, "c": {"description": CUT}}},
        ("#/$defs/A",),
    )
    assert inline_refs(THREE_REFS, budget=105) == Inlined(
        {
            "type": "object",
            "properties": {"a": written, "b": {"description": CUT}, "c": {"description": CUT}},
        },
        ("#/$defs/A",),
    )
    assert inline_refs(THREE_REFS, budget=52).schema["properties"]["a"] == {"description": "first " + CUT}
    assert inline_refs(THREE_REFS, budget=159) == Inlined(
        {"type": "object", "properties": {"a": written, "b": A_DEF, "c": A_DEF}}
    )


def test_references_in_lists_and_beside_a_reference_are_written_out_and_definitions_dropped() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}]},
            "b": {"$ref": "#/$defs/L", "items": {"$ref": "#/$defs/S"}},
            "c": {"$ref": "#/properties/c/$defs/X", "$defs": {"X": {"type": "integer"}}},
            "d": {"$ref": "#/properties/d/definitions/X", "definitions": {"X": {"type": "boolean"}}},
        },
        "$defs": {"S": {"type": "string"}, "L": {"type": "array"}},
    }
    assert inline_refs(schema).schema == {
        "type": "object",
        "properties": {
            "a": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "b": {"type": "array", "items": {"type": "string"}},
            "c": {"type": "integer"},
            "d": {"type": "boolean"},
        },
    }


def test_a_reference_into_itself_or_nowhere_is_the_fallback() -> None:
    tree = {
        "type": "object",
        "properties": {"t": {"$ref": "#/$defs/T"}, "u": {"$ref": "#/$defs/U", "description": "the u"}},
        "$defs": {
            "T": {"type": "object", "properties": {"next": {"$ref": "#/$defs/T"}}, "$defs": {}},
            "U": {"type": "string", "description": "inner", "definitions": {}},
        },
    }
    assert inline_refs(tree).schema == {
        "type": "object",
        "properties": {
            "t": {"type": "object", "properties": {"next": {"type": "object"}}},
            "u": {"type": "string", "description": "the u"},
        },
    }
    nowhere = {"properties": {"a": {"$ref": "#/nope"}, "b": [{"$ref": "#/nope"}]}, "definitions": {}}
    assert inline_refs(nowhere, recursive={"description": "R"}) == Inlined(
        {"properties": {"a": {"description": "R"}, "b": [{"description": "R"}]}}
    )


@pytest.mark.parametrize(
    ("schema", "null"),
    [
        (True, True), (False, False), ({}, True), ({"description": "any"}, True),
        ({"type": "null"}, True), ({"type": ["string", "null"]}, True), ({"type": "string"}, False),
        ({"const": None}, True), ({"const": 0}, False), ({"enum": ["a", None]}, True), ({"enum": ["a"]}, False),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, True), ({"oneOf": [{"type": "string"}, {}]}, True),
        ({"anyOf": [{"type": "string"}]}, False), ({"$ref": "#/x"}, False), ({"allOf": [{}]}, False),
        ({"enum": "null"}, False), ({"anyOf": []}, False), ({"oneOf": []}, False), ({"oneOf": 5}, False),
    ],
)  # fmt: skip
def test_null_is_allowed_where_the_schema_says_so_on_its_face(schema: Any, null: bool) -> None:
    assert allows_null(schema) is null


# ------------------------------------------------------------------ Gemini's declarations

ANY = {"description": "any JSON value"}


def test_gemini_branches_keep_what_each_says() -> None:
    schema = {
        "type": "object",
        "properties": {
            "o": {"type": "object", "required": ["x"], "minProperties": 1},  # required, no properties
            "sb": {"type": ["string", "boolean"]},
            "u": {"anyOf": [{"type": "string"}, {"description": "anything"}]},
            "n": {"anyOf": [{"type": ["string", "null"]}, {"type": "integer"}]},
            "d": {"type": "string", "anyOf": [{"description": "x"}]},
        },
    }
    assert parameters(schema)["properties"] == {
        "o": {"description": "a JSON object; its keys are not declared here"},
        "sb": {"anyOf": [{"type": "string"}, {"type": "boolean"}]},
        "u": {"anyOf": [{"type": "string"}, {"description": "anything"}]},
        "n": {"anyOf": [{"nullable": True, "type": "string"}, {"type": "integer"}]},
        "d": {"type": "string", "anyOf": [{"description": "x"}]},
    }


@pytest.mark.parametrize(
    ("schema", "declared"),
    [
        (SCHEMAS["gemini_shapes"], {"type": "object", "properties": {
            "anything": {"type": "array", "description": "values of any kind", "items": ANY},
            "point": {"type": "array", "items": {"type": "number"}, "description": "a list of 2 in this order: number, number"},
            "label": {"type": "string"},
            "options": {"description": "a JSON object; its keys are not declared here"},
            "either": {"anyOf": [{"type": "object", "properties": {"name": {"type": "string"}}}, {"type": "string"}]}},
            "required": ["point"]}),
        (SCHEMAS["create"], {"type": "object", "properties": {
            "kind": {"type": "string", "enum": ["page", "database"]}, "title": {"type": "string"},
            "columns": {"type": "array", "items": {"type": "string"}}}, "required": ["kind"]}),
        (SCHEMAS["ref_root"], {"type": "object", "properties": {"size": {"type": "string", "enum": ["S", "M", "L"]}}, "required": ["size"]}),
        (SCHEMAS["calls"], {"type": "object", "properties": {}}),
        ({"type": "object", "properties": {"v": {"type": ["string", "integer", "null"], "minLength": 1, "minimum": 2, "format": "int32"}}},
         {"type": "object", "properties": {"v": {"nullable": True, "anyOf": [{"type": "string", "minLength": 1}, {"type": "integer", "minimum": 2}]}}}),
        ({"type": "object", "properties": {"v": {"description": "both", "allOf": [7,
            {"properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"properties": {"b": {}, "a": {"type": "integer"}}, "required": ["b", "a"], "title": "T"}]}}},
         {"type": "object", "properties": {"v": {"type": "object", "description": "both", "properties": {"b": {}, "a": {"type": "string"}}, "required": ["a", "b"], "title": "T"}}}),
        ({"type": "object", "properties": {"l": {"allOf": [{"type": "array", "items": {"type": "string"}}]}, "e": {"allOf": [{"type": "string", "enum": ["a", "b"]}]},
                                           "t": {"type": "array", "prefixItems": [{"type": "number"}, {}]}}},
         {"type": "object", "properties": {"l": {"type": "array", "items": {"type": "string"}}, "e": {"type": "string", "enum": ["a", "b"]},
                                           "t": {"type": "array", "items": {"anyOf": [{"type": "number"}, {}]}, "description": "a list of 2 in this order: number, any"}}}),
        ({"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "w": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                                           "x": {"anyOf": [{"type": "null"}, {"type": "string"}, {"type": "integer"}]}}},
         {"type": "object", "properties": {"v": {"nullable": True, "type": "string"}, "w": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                                           "x": {"nullable": True, "anyOf": [{"type": "string"}, {"type": "integer"}]}}}),
        ({"type": "object", "properties": {"e": {"enum": ["a", None]}, "n": {"enum": [1, 2]}, "x": {"enum": []}, "c": {"const": "k", "enum": ["z"]},
                                           "d": {"const": 3}, "k": {"const": "k"}, "s": {"type": "string", "enum": ["a", "b"]}}},
         {"type": "object", "properties": {"e": {"nullable": True, "enum": ["a"], "type": "string"}, "n": {}, "x": {}, "c": {"enum": ["z"], "type": "string"},
                                           "d": {}, "k": {"enum": ["k"], "type": "string"}, "s": {"type": "string", "enum": ["a", "b"]}}}),
        ({"type": "object", "properties": {"t": {"type": "string", "format": "date-time"}, "u": {"type": "string", "format": "uri"},
                                           "i": {"type": "integer", "format": "int64"}, "f": {"type": "number", "format": "double"},
                                           "g": {"type": "number", "format": "int32"}, "h": {"type": "string", "format": "enum"}}},
         {"type": "object", "properties": {"t": {"type": "string", "format": "date-time"}, "u": {"type": "string"}, "i": {"type": "integer", "format": "int64"},
                                           "f": {"type": "number", "format": "double"}, "g": {"type": "number"}, "h": {"type": "string", "format": "enum"}}}),
        ({"type": "object", "properties": {"l": {"type": "array", "items": {"type": "string", "x-no": 1}, "minItems": 1}, "m": {"items": {"type": "integer"}},
                                           "p": {"prefixItems": [{"type": "number"}, {"type": "string"}, {"type": "number"}], "description": "at"},
                                           "q": {"type": "array", "items": [{"type": "string"}]}, "r": {"type": "array", "prefixItems": []}}},
         {"type": "object", "properties": {"l": {"type": "array", "items": {"type": "string"}, "minItems": 1}, "m": {"type": "array", "items": {"type": "integer"}},
                                           "p": {"type": "array", "items": {"anyOf": [{"type": "number"}, {"type": "string"}]}, "description": "at (a list of 3 in this order: number, string, number)"},
                                           "q": {"type": "array", "items": ANY}, "r": {"type": "array", "items": ANY}}}),
        ({"properties": {"o": {"properties": {"a": {"type": "string"}}}, "nondict": 5, "bad": {"type": "weird"},
                         "m": {"type": "object", "description": "the map", "minProperties": 1}, "e": {"type": "object", "description": ""}},
          "required": ["o", "ghost"], "minProperties": 1},
         {"type": "object", "properties": {"o": {"type": "object", "properties": {"a": {"type": "string"}}}, "nondict": {}, "bad": {},
                                           "m": {"description": "the map (a JSON object; its keys are not declared here)"},
                                           "e": {"description": "a JSON object; its keys are not declared here"}},
          "required": ["o"], "minProperties": 1}),
        ({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 9, "minLength": 2, "default": 3, "example": 4, "title": "N"}}},
         {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 9, "default": 3, "example": 4, "title": "N"}}}),
    ],
)  # fmt: skip
def test_gemini_is_declared_what_its_api_takes(schema: dict[str, Any], declared: dict[str, Any]) -> None:
    given = copy.deepcopy(schema)
    assert parameters(schema) == declared
    assert schema == given


def test_a_gemini_declaration_names_the_references_it_cut() -> None:
    fan_out = ExportedTool(
        "fan_out", Tool(name="fan_out", description="the fan_out tool", input_schema=SCHEMAS["fan_out"])
    )
    out = declaration(fan_out)
    assert out["name"] == "fan_out" and out["parameters"]["required"] == ["name"]
    assert out["description"] == (
        "the fan_out tool\n\nParts of the input schema are not declared here, to keep it small (references "
        "written out too many times: #/$defs/Level15, #/$defs/Level13, #/$defs/Level11, #/$defs/Level9, "
        "#/$defs/Level8, …); they take any value, and the arguments are checked against the tool's full "
        "schema before the call."
    )
    assert Parameters({}, ("a", "b", "c", "d", "e")).note == (
        "Parts of the input schema are not declared here, to keep it small (references written out too many "
        "times: a, b, c, d, e); they take any value, and the arguments are checked against the tool's full "
        "schema before the call."
    )
    assert Parameters({}).note is None
    assert declaration(_tool("calls", SCHEMAS["calls"])) == {"name": "calls"}  # no parameters: none taken
    assert declaration(ExportedTool("t", Tool(name="t", input_schema={"properties": {"a": {}}}))) == {
        "name": "t",
        "parameters": {"type": "object", "properties": {"a": {}}},
    }


def test_a_gemini_function_response_is_the_output_or_the_error() -> None:
    tool = ExportedTool(
        "t", Tool(name="t", input_schema={}, output_schema={"type": "object"}), model_reads="structured"
    )
    result = CallToolResult(content=[TextContent(text="hi")], structured_content={"x": 1})
    failed = CallToolResult(content=[TextContent(text="bad")], is_error=True, structured_content={"x": 1})
    assert response("t", "id1", tool, [TextPart("hi")], result) == {
        "function_response": {"name": "t", "response": {"output": {"x": 1}}, "id": "id1"}
    }
    assert response("t", None, None, [TextPart("hi")], result) == {
        "function_response": {"name": "t", "response": {"output": "hi"}}
    }
    assert response("t", "", tool, [TextPart("bad")], failed) == {
        "function_response": {"name": "t", "response": {"error": "bad"}}
    }


def test_a_result_as_plain_text_names_what_it_cannot_show() -> None:
    parts: list[Part] = [
        TextPart("a"),
        ImagePart("image/png", "AAA"),
        BlobPart("file:///x", "application/pdf", "BBB"),
    ]
    text = "a\n[image (image/png) not shown]\n[resource file:///x (application/pdf, binary) not shown]"
    assert plain_text(parts, is_error=False) == text
    assert plain_text(parts, is_error=True) == "Error: " + text
