"""A server whose tools publish the input schemas real servers publish and providers refuse, on the
official `mcp==2.3.0` low-level `Server` (which sends a tool's `inputSchema` as it is given).

Roots that are no plain object (a string, an array, `anyOf`/`oneOf`/`allOf`/`not`, a `$ref`: zod unions
as Notion, gitlab-mcp or google-calendar-mcp publish them), a `required` name the object does not
define, the shapes Gemini refuses (an array without `items`, a `prefixItems` tuple, `properties` on a
string, an object without properties) and a `$ref` fan-out (16 definitions, each referring twice to the
next). The official server checks its own `tools/list` result against the protocol's types, which
(2025-11-25) demand `type: "object"` at the root; servers built on other SDKs (the TypeScript one with
zod) send what they declare, so here that check sees a placeholder schema and the real one is put back
into what it dumped (`_as_declared`). Every tool answers `<name> got <arguments as JSON>`; `calls()`
answers with every call this process received, in order, so a test can see that a refused call never
reached the server.

    python tests/servers/schemas_server.py stdio
"""

import json
from collections.abc import Sequence
from typing import Any

import anyio
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp_types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
)
from mcp_types import methods as _methods

SEARCH: dict[str, Any] = {  # zod's z.union of two objects
    "anyOf": [
        {
            "type": "object",
            "properties": {"query": {"type": "string"}, "page": {"type": "integer", "minimum": 1}},
            "required": ["query"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"id": {"type": "string", "pattern": "^[0-9a-f]{8}$"}},
            "required": ["id"],
            "additionalProperties": False,
        },
    ]
}
CREATE: dict[str, Any] = {  # a discriminated union (oneOf on a `kind` constant)
    "oneOf": [
        {
            "type": "object",
            "properties": {"kind": {"const": "page"}, "title": {"type": "string"}},
            "required": ["kind", "title"],
        },
        {
            "type": "object",
            "properties": {
                "kind": {"const": "database"},
                "columns": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["kind", "columns"],
        },
    ]
}
MERGED: dict[str, Any] = {
    "allOf": [
        {"type": "object", "properties": {"calendar": {"type": "string"}}, "required": ["calendar"]},
        {"properties": {"days": {"type": "integer", "maximum": 31}}, "required": ["days"]},
    ]
}
NOT_BOTH: dict[str, Any] = {
    "type": "object",
    "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
    "not": {"required": ["email", "phone"]},
}
REF_ROOT: dict[str, Any] = {
    "$ref": "#/definitions/Args",
    "definitions": {
        "Args": {
            "type": "object",
            "properties": {"size": {"$ref": "#/definitions/Size"}},
            "required": ["size"],
        },
        "Size": {"type": "string", "enum": ["S", "M", "L"]},
    },
}
DANGLING: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city", "country"],
}
GEMINI_SHAPES: dict[str, Any] = {
    "type": "object",
    "properties": {
        "anything": {"type": "array", "description": "values of any kind"},
        "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": False},
        "label": {"type": "string", "properties": {"x": {"type": "string"}}, "required": ["x"]},
        "options": {"type": "object", "additionalProperties": {"type": "string"}},
        "either": {"type": ["object", "string"], "properties": {"name": {"type": "string"}}},
    },
    "required": ["point"],
}


def _fan_out(depth: int = 16) -> dict[str, Any]:
    defs: dict[str, Any] = {
        f"Level{i}": {
            "type": "object",
            "properties": {
                "left": {"$ref": f"#/$defs/Level{i + 1}"},
                "right": {"$ref": f"#/$defs/Level{i + 1}"},
            },
        }
        for i in range(depth)
    }
    defs[f"Level{depth}"] = {"type": "string"}
    return {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Level0"}, "name": {"type": "string"}},
        "required": ["name"],
        "$defs": defs,
    }


SCHEMAS: dict[str, dict[str, Any]] = {
    "text_root": {"type": "string"},
    "list_root": {"type": "array", "items": {"type": "integer"}},
    "search": SEARCH,
    "create": CREATE,
    "merged": MERGED,
    "not_both": NOT_BOTH,
    "ref_root": REF_ROOT,
    "dangling": DANGLING,
    "gemini_shapes": GEMINI_SHAPES,
    "fan_out": _fan_out(),
    "calls": {"type": "object", "properties": {}},
}
_received: list[dict[str, Any]] = []


async def _list_tools(_ctx: Any, _params: PaginatedRequestParams | None) -> ListToolsResult:
    tools = [
        Tool(name=name, description=f"the {name} tool", input_schema=schema)
        for name, schema in SCHEMAS.items()
    ]
    return ListToolsResult(tools=tools)


async def _call_tool(_ctx: Any, params: CallToolRequestParams) -> CallToolResult:
    arguments = params.arguments or {}
    if params.name == "calls":
        text = json.dumps(_received, sort_keys=True)
    else:
        _received.append({"name": params.name, "arguments": arguments})
        text = f"{params.name} got {json.dumps(arguments, sort_keys=True)}"
    return CallToolResult(content=[TextContent(text=text)])


_checked = _methods.serialize_server_result


def _as_declared(method: str, version: str, data: Any, **kwargs: Any) -> dict[str, Any]:
    """The official result check, with each tool's `inputSchema` sent as declared (see the docstring)."""
    if method != "tools/list":
        return _checked(method, version, data, **kwargs)
    tools = list(data.get("tools", []))
    placeholder = {**data, "tools": [{**tool, "inputSchema": {"type": "object"}} for tool in tools]}
    dumped = _checked(method, version, placeholder, **kwargs)
    for out, tool in zip(dumped["tools"], tools, strict=True):
        out["inputSchema"] = tool["inputSchema"]
    return dumped


_methods.serialize_server_result = _as_declared

server: Server[Any] = Server("schemas", version="1.0.0", on_list_tools=_list_tools, on_call_tool=_call_tool)


async def _serve_stdio() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main(argv: Sequence[str] | None = None) -> None:
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if args != ["stdio"]:
        raise SystemExit("usage: schemas_server.py stdio")
    anyio.run(_serve_stdio)


if __name__ == "__main__":
    main()
