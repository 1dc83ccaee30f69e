"""Gemini's formats: function declarations in its OpenAPI-subset ``Schema``, function responses.

Gemini's ``Schema`` (``google.genai.types.Schema``, which forbids unknown fields) takes a fixed set
of keywords; everything else is removed here, after local ``$ref``s are inlined: ``type`` lists
become ``type`` + ``nullable`` (or ``anyOf`` of the types), ``const`` becomes a one-value ``enum``,
``oneOf`` becomes ``anyOf``, enums of non-strings and formats Gemini does not know are dropped. Removing
a keyword loosens the declaration (the model is asked less precisely); the MCP server still checks the
arguments it receives.
"""

from __future__ import annotations

from typing import Any

from mcp_client.llm._schema import JSON, inline_refs, object_schema
from mcp_client.llm._view import ExportedTool, Part, plain_text, structured_output
from mcp_client.types import CallToolResult

_KEYWORDS = frozenset(
    {
        "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
        "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength",
        "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum",
    }
)  # fmt: skip
_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object", "null"})
_FORMATS = {"string": {"date-time", "enum"}, "integer": {"int32", "int64"}, "number": {"float", "double"}}


def _clean(node: Any) -> JSON:
    if not isinstance(node, dict):
        return {}
    out: JSON = {}
    kind = node.get("type")
    kinds = [k for k in (kind if isinstance(kind, list) else [kind]) if isinstance(k, str) and k in _TYPES]
    if "null" in kinds:
        out["nullable"] = True
        kinds.remove("null")
    branches = node.get("anyOf", node.get("oneOf"))
    if len(kinds) == 1:
        out["type"] = kinds[0]
    elif len(kinds) > 1 and branches is None:
        branches = [{"type": k} for k in kinds]
    if isinstance(branches, list):
        cleaned = [_clean(b) for b in branches]
        if any(b.get("type") is None and b.get("nullable") for b in cleaned):
            out["nullable"] = True
        cleaned = [b for b in cleaned if b and not (b.get("nullable") and len(b) == 1)]
        if len(cleaned) == 1 and "type" not in out:
            out.update(cleaned[0])
        elif cleaned:
            out["anyOf"] = cleaned
    for key, value in node.items():
        if key not in _KEYWORDS or key in ("type", "anyOf"):
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _clean(sub) for name, sub in value.items()}
        elif key == "items":
            if isinstance(value, dict):
                out[key] = _clean(value)
        elif key == "enum":
            if isinstance(value, list) and value and all(isinstance(v, str) or v is None for v in value):
                if None in value:
                    out["nullable"] = True
                out[key] = [v for v in value if v is not None]
                out.setdefault("type", "string")
        elif key == "format":
            if value in _FORMATS.get(out.get("type", ""), ()):
                out[key] = value
        elif key == "required":
            if isinstance(value, list):
                out[key] = [name for name in value if name in node.get("properties", {})]
        else:
            out[key] = value
    if "const" in node and isinstance(node["const"], str) and "enum" not in out:
        out["enum"] = [node["const"]]
        out["type"] = "string"
    if out.get("type") == "array" and "items" not in out:
        out["items"] = {"type": "string"}  # Gemini refuses an array without items; strings are the loosest
    return out


def parameters(schema: JSON) -> JSON:
    """A tool's ``inputSchema`` as Gemini's ``Schema``."""
    return _clean(inline_refs(object_schema(schema)))


def declaration(exported: ExportedTool) -> JSON:
    """One ``function_declarations`` entry (no ``parameters`` for a tool that takes none: Gemini refuses
    an object without properties)."""
    out: JSON = {"name": exported.name}
    description = exported.tool.description or exported.tool.title
    if description:
        out["description"] = description
    params = parameters(exported.tool.input_schema)
    if params.get("properties"):
        out["parameters"] = params
    return out


def response(
    name: str, call_id: str | None, tool: ExportedTool | None, parts: list[Part], result: CallToolResult
) -> dict[str, Any]:
    """The ``function_response`` part answering one ``function_call`` (``output``, or ``error`` when the
    tool failed, as Gemini's docs spell it)."""
    structured = structured_output(tool, result)
    if result.is_error:
        body: JSON = {"error": plain_text(parts, is_error=False)}
    elif structured is not None:
        body = {"output": structured}
    else:
        body = {"output": plain_text(parts, is_error=False)}
    function_response: JSON = {"name": name, "response": body}
    if call_id:
        function_response["id"] = call_id
    return {"function_response": function_response}
