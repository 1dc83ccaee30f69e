"""Gemini's formats: function declarations in its OpenAPI-subset ``Schema``, function responses.

Gemini's ``Schema`` (``google.genai.types.Schema``, which forbids unknown fields) takes a fixed set
of keywords; everything else is removed here, after local ``$ref``s are inlined: ``type`` lists
become ``type`` + ``nullable`` (or ``anyOf`` of the types), ``const`` becomes a one-value ``enum``,
``oneOf`` becomes ``anyOf``, enums of non-strings and formats Gemini does not know are dropped. Removing
a keyword loosens the declaration (the model is asked less precisely); the MCP server still checks the
arguments it receives.

What the API refuses with HTTP 400 is never sent: a keyword of one type on a node of another
(``properties`` beside ``type: string``; a node of several types gets one ``anyOf`` branch per type),
an ``OBJECT`` without properties (declared without a type, described as an object), an ``ARRAY``
without ``items`` (a ``prefixItems`` tuple gives its item types; otherwise any value, not strings).
The root comes from ``_schema.export_root`` (a root ``oneOf`` is merged, not dropped), and references
are written out within ``_schema.EXPANSION_BUDGET`` (what is cut is said in the description).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcp_client.llm._schema import JSON, description, export_root, inline_refs
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
# The keywords that belong to one type: on a node of another type Gemini refuses them ("properties:
# only allowed for OBJECT type"); a node of several types keeps each on its own ``anyOf`` branch.
_OF_TYPE = {
    "object": frozenset({"properties", "required", "minProperties", "maxProperties", "propertyOrdering",
                         "additionalProperties"}),
    "array": frozenset({"items", "prefixItems", "minItems", "maxItems"}),
    "string": frozenset({"minLength", "maxLength", "pattern"}),
    "number": frozenset({"minimum", "maximum"}),
    "integer": frozenset({"minimum", "maximum"}),
}  # fmt: skip
_TYPED_KEYS = frozenset().union(*_OF_TYPE.values())
_ANY_VALUE = "any JSON value"


def _described(out: JSON, note: str) -> None:
    text = out.get("description")
    out["description"] = f"{text} ({note})" if isinstance(text, str) and text else note


def _all_of(node: JSON) -> JSON:
    """``node`` with its ``allOf`` branches merged in (properties and required names together)."""
    branches = node.get("allOf")
    if not isinstance(branches, list):
        return node
    out: JSON = {k: v for k, v in node.items() if k != "allOf"}
    for branch in branches:
        if not isinstance(branch, dict):
            continue
        for key, value in _all_of(branch).items():
            if key == "properties" and isinstance(value, dict):
                out["properties"] = {**value, **out.get("properties", {})}
            elif key == "required" and isinstance(value, list):
                out["required"] = list(dict.fromkeys([*out.get("required", []), *value]))
            else:
                out.setdefault(key, value)
    return out


def _kinds(node: JSON) -> list[str]:
    kind = node.get("type")
    kinds = [k for k in (kind if isinstance(kind, list) else [kind]) if isinstance(k, str) and k in _TYPES]
    if not kinds and "properties" in node:
        kinds = ["object"]  # an untyped node with properties is an object (Gemini wants the type said)
    elif not kinds and ("items" in node or "prefixItems" in node):
        kinds = ["array"]
    return kinds


def _clean(node: Any, *, root: bool = False) -> JSON:
    if not isinstance(node, dict):
        return {}
    node = _all_of(node)
    out: JSON = {}
    kinds = _kinds(node)
    if "null" in kinds:
        out["nullable"] = True
        kinds.remove("null")
    branches = node.get("anyOf", node.get("oneOf"))
    if len(kinds) == 1:
        out["type"] = kinds[0]
    elif len(kinds) > 1 and branches is None:
        # one branch per type, each with the keywords of its type
        branches = [
            {"type": k, **{key: node[key] for key in _OF_TYPE.get(k, ()) if key in node}} for k in kinds
        ]
    if isinstance(branches, list):
        cleaned = [_clean(b) for b in branches]
        if any(b.get("type") is None and b.get("nullable") for b in cleaned):
            out["nullable"] = True
        cleaned = [b for b in cleaned if b and not (b.get("nullable") and len(b) == 1)]
        if len(cleaned) == 1 and "type" not in out:
            out.update(cleaned[0])
        elif cleaned:
            out["anyOf"] = cleaned
    kind = out.get("type")
    for key, value in node.items():
        if key not in _KEYWORDS or key in ("type", "anyOf"):
            continue
        if key in _TYPED_KEYS and key not in _OF_TYPE.get(kind or "", ()):
            continue  # a keyword of another type (or of a branch, for a node of several types)
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
        _items(node, out)
    if out.get("type") == "object" and not out.get("properties") and not root:
        # Gemini refuses an OBJECT without properties: such a value is declared without a type
        for key in _OF_TYPE["object"] | {"type"}:
            out.pop(key, None)
        _described(out, "a JSON object; its keys are not declared here")
    return out


def _items(node: JSON, out: JSON) -> None:
    """``items`` for an array that gave none (Gemini refuses an array without): a tuple's item types,
    else any value (not "strings": the model would be told less than the tool takes)."""
    tuple_items = node.get("prefixItems")
    if isinstance(tuple_items, list) and tuple_items:
        cleaned: list[JSON] = []
        for item in tuple_items:
            one = _clean(item)
            if one not in cleaned:
                cleaned.append(one)
        out["items"] = cleaned[0] if len(cleaned) == 1 else {"anyOf": cleaned}
        kinds = ", ".join(str(_clean(item).get("type", "any")) for item in tuple_items)
        _described(out, f"a list of {len(tuple_items)} in this order: {kinds}")
        return
    out["items"] = {"description": _ANY_VALUE}


@dataclass(frozen=True, slots=True)
class Parameters:
    """A tool's parameters as Gemini's ``Schema``, and the ``$ref``s cut short to keep it bounded."""

    schema: JSON
    cut: tuple[str, ...] = ()

    @property
    def note(self) -> str | None:
        """What the tool's description says about the cut, if anything was cut."""
        if not self.cut:
            return None
        names = ", ".join(self.cut[:5]) + (", …" if len(self.cut) > 5 else "")
        return (
            "Parts of the input schema are not declared here, to keep it small (references written out "
            f"too many times: {names}); they take any value, and the arguments are checked against the "
            "tool's full schema before the call."
        )


def parameters(schema: JSON) -> JSON:
    """A tool's ``inputSchema`` as Gemini's ``Schema``."""
    return convert(schema).schema


def convert(schema: Any) -> Parameters:
    """``parameters`` with what was cut on the way."""
    inlined = inline_refs(export_root(schema).schema)
    return Parameters(_clean(inlined.schema, root=True), inlined.cut)


def parameters_of(exported: ExportedTool) -> Parameters:
    """``convert`` of a tool's ``inputSchema``, worked out once per tool list."""
    made: Parameters = exported.converted("gemini-parameters", lambda t: convert(t.tool.input_schema))
    return made


def declaration(exported: ExportedTool) -> JSON:
    """One ``function_declarations`` entry (no ``parameters`` for a tool that takes none: Gemini refuses
    an object without properties)."""
    out: JSON = {"name": exported.name}
    params = parameters_of(exported)
    text = description(exported, params.note)
    if text:
        out["description"] = text
    if params.schema.get("properties"):
        out["parameters"] = params.schema
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
