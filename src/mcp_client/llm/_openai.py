"""OpenAI's formats: Chat Completions and Responses tools, strict schemas, tool results.

Strict mode (Structured Outputs) holds the model to the schema, but accepts a subset of JSON Schema:
every object closed (``additionalProperties: false``) with every property required, a type on every
node, and only the keywords in ``_STRICT_KEYWORDS``. ``strict_schema`` makes a strict copy only when
every value the strict schema allows is one the tool's schema allows: annotations (``default``,
``examples``, ``title``) are dropped, an open object is closed, and a top-level optional parameter
becomes required-but-nullable (the bridge drops a ``null`` for it before calling the tool). Anything
else (a nested optional field, a map, ``allOf``, ``not``, an untyped field, a ``required`` name the
object does not define) keeps the tool non-strict rather than change what it accepts (camel-ai#2629,
openai-agents#404). So does a root ``_schema.export_root`` had to loosen (a union, a ``not``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcp_client.llm._schema import JSON, allows_null, description, root_of
from mcp_client.llm._view import ExportedTool, ImagePart, Part, TextPart, plain_text
from mcp_client.types import CallToolResult

_STRICT_KEYWORDS = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf",
        "$ref", "$defs", "description", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
    }
)  # fmt: skip
_ANNOTATIONS = frozenset(
    {"title", "default", "examples", "$schema", "$id", "$comment", "readOnly", "writeOnly", "deprecated"}
)
_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)


class _NotStrict(Exception):
    """The schema cannot be made strict without changing what it accepts."""


@dataclass(frozen=True, slots=True)
class StrictSchema:
    """A strict copy of a tool's parameters and the top-level names made nullable (``None`` means
    "left out" for them)."""

    schema: JSON
    nullable_optional: frozenset[str]


def _nullable(schema: JSON) -> JSON:
    kind = schema.get("type")
    if isinstance(kind, str) and "enum" not in schema and "const" not in schema:
        return {**schema, "type": [kind, "null"]}
    if isinstance(kind, list) and "enum" not in schema and "const" not in schema:
        return {**schema, "type": [*kind, "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def _strict_node(node: Any, *, root: bool = False) -> JSON:
    if not isinstance(node, Mapping):
        raise _NotStrict
    out: JSON = {}
    for key, value in node.items():
        if key in _ANNOTATIONS:
            continue
        if key not in _STRICT_KEYWORDS:
            raise _NotStrict
        out[key] = value
    if "format" in out and out["format"] not in _STRICT_FORMATS:
        raise _NotStrict
    if not any(key in out for key in ("type", "anyOf", "$ref", "enum", "const")):
        raise _NotStrict  # an untyped value ("anything") has no strict spelling
    if "anyOf" in out:
        if root or not isinstance(out["anyOf"], list):
            raise _NotStrict
        out["anyOf"] = [_strict_node(branch) for branch in out["anyOf"]]
    if "$defs" in out:
        if not isinstance(out["$defs"], Mapping):
            raise _NotStrict
        out["$defs"] = {name: _strict_node(sub) for name, sub in out["$defs"].items()}
    kind = out.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "array" in kinds:
        if "items" not in out:
            raise _NotStrict
        out["items"] = _strict_node(out["items"])
    if "object" in kinds or "properties" in out:
        extra = out.get("additionalProperties", False)
        if extra is not False:
            raise _NotStrict  # a map or an open object: closing it would refuse what the tool takes
        properties = out.get("properties", {})
        if not isinstance(properties, Mapping):
            raise _NotStrict
        required = out.get("required", [])
        if not isinstance(required, list) or set(required) - set(properties):
            raise _NotStrict  # a required name it does not define: strict would drop it, accept it missing
        if not root and set(properties) - set(required):
            raise _NotStrict
        out["properties"] = {name: _strict_node(sub) for name, sub in properties.items()}
        out["additionalProperties"] = False
        out["required"] = list(properties)
    return out


def strict_schema(parameters: JSON) -> StrictSchema | None:
    """A strict copy of ``parameters`` (an object schema), or ``None`` when it cannot be made strict."""
    try:
        out = _strict_node(parameters, root=True)
    except _NotStrict:
        return None
    if out.get("type") != "object":
        return None
    optional = set(out["properties"]) - set(parameters.get("required", []))
    nullable: set[str] = set()
    for name in optional:
        if not allows_null(parameters["properties"][name]):
            out["properties"][name] = _nullable(out["properties"][name])
            nullable.add(name)
    return StrictSchema(out, frozenset(nullable))


def _function(tool: ExportedTool, strict: bool | None) -> tuple[JSON, bool]:
    """``(function body, strict)`` for a tool; ``strict=None`` means "strict where it can be"."""
    parameters = copy.deepcopy(root_of(tool).schema)
    body: JSON = {"name": tool.name}
    text = description(tool)
    if text:
        body["description"] = text
    made = _strict_of(tool) if strict is not False else None
    if made is not None:
        body["parameters"] = made.schema
        body["strict"] = True
        return body, True
    body["parameters"] = parameters
    body["strict"] = False
    return body, False


def _strict_of(tool: ExportedTool) -> StrictSchema | None:
    """The tool's strict schema, worked out once per tool list."""
    made: StrictSchema | None = tool.converted(
        "openai-strict",
        lambda t: None if root_of(t).loose else strict_schema(copy.deepcopy(root_of(t).schema)),
    )
    return made


def nullable_optional(tool: ExportedTool) -> frozenset[str]:
    """The top-level parameters a strict export made nullable (a model's ``null`` there means "omit")."""
    made = _strict_of(tool)
    return made.nullable_optional if made is not None else frozenset()


def chat_tool(tool: ExportedTool, strict: bool | None = None) -> JSON:
    """A Chat Completions ``tools=[...]`` entry."""
    body, _ = _function(tool, strict)
    return {"type": "function", "function": body}


def responses_tool(tool: ExportedTool, strict: bool | None = None) -> JSON:
    """A Responses API ``tools=[...]`` entry (flat: ``name`` beside ``type``)."""
    body, _ = _function(tool, strict)
    return {"type": "function", **body}


def drop_omitted(tool: ExportedTool | None, arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments without the ``null``s a strict schema forced the model to send for omitted ones."""
    if tool is None:
        return arguments
    nullable = nullable_optional(tool)
    if not nullable:
        return arguments
    return {k: v for k, v in arguments.items() if not (v is None and k in nullable)}


def chat_content(parts: list[Part], result: CallToolResult) -> str:
    """A Chat Completions tool message's ``content`` (text only: images become a note)."""
    return plain_text(parts, is_error=result.is_error)


def responses_output(parts: list[Part], result: CallToolResult) -> str | list[JSON]:
    """A ``function_call_output``'s ``output``: a string, or input items when there are images."""
    if not any(isinstance(part, ImagePart) for part in parts):
        return plain_text(parts, is_error=result.is_error)
    items: list[JSON] = []
    if result.is_error:
        items.append({"type": "input_text", "text": "Error:"})
    for part in parts:
        if isinstance(part, ImagePart):
            items.append({"type": "input_image", "image_url": part.data_url})
        elif isinstance(part, TextPart):
            items.append({"type": "input_text", "text": part.text})
        else:
            items.append({"type": "input_text", "text": plain_text([part], is_error=False)})
    return items
