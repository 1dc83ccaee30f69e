"""JSON Schema rewrites shared by the providers: every function works on a copy, never on the tool.

An MCP tool's ``inputSchema`` is any JSON Schema object; each provider accepts a different subset. The
rewrites here are the parts more than one provider needs (an object root with ``properties``, local
``$ref`` inlining); the provider modules (``_openai``, ``_gemini``) hold the rest of their rules.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

JSON = dict[str, Any]

_ANY_OF_KEYS = ("anyOf", "oneOf", "allOf", "$ref", "enum", "const")


def object_schema(schema: Mapping[str, Any] | None) -> JSON:
    """A deep copy of ``schema`` with an object root that has ``properties``.

    OpenAI rejects ``{"type": "object"}`` without ``properties`` (kagent#1888's error) and every provider
    wants the root to be an object: a tool without parameters becomes ``{"type": "object",
    "properties": {}}``.
    """
    out: JSON = copy.deepcopy(dict(schema)) if isinstance(schema, Mapping) else {}
    if "type" not in out and not any(key in out for key in _ANY_OF_KEYS):
        out["type"] = "object"
    if out.get("type") == "object" and not isinstance(out.get("properties"), dict):
        out["properties"] = {}
    return out


def _local_target(ref: str, root: Mapping[str, Any]) -> Any:
    """The schema a local ``#/...`` reference points at, or ``None`` when it points nowhere."""
    if not ref.startswith("#"):
        return None
    node: Any = root
    for part in ref[1:].split("/"):
        if not part:
            continue
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node if isinstance(node, Mapping) else None


def inline_refs(schema: JSON, *, recursive: JSON | None = None) -> JSON:
    """``schema`` with each local ``$ref`` replaced by what it points at, and ``$defs`` dropped.

    A reference back into itself (a tree, a linked list) cannot be written out: it becomes
    ``recursive`` (default ``{"type": "object"}``), which keeps the field and loosens its shape.
    Sibling keywords of a ``$ref`` (a ``description``) are kept beside the inlined schema.
    """
    fallback: JSON = recursive if recursive is not None else {"type": "object"}

    def walk(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [walk(item, seen) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = _local_target(ref, schema)
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            if target is None or ref in seen:
                resolved: JSON = dict(fallback)
            else:
                resolved = walk(dict(target), (*seen, ref))
            resolved = {**resolved, **{k: walk(v, seen) for k, v in siblings.items()}}
            resolved.pop("$defs", None)
            resolved.pop("definitions", None)
            return resolved
        return {key: walk(value, seen) for key, value in node.items() if key not in ("$defs", "definitions")}

    result = walk(schema, ())
    assert isinstance(result, dict)
    return result


def allows_null(schema: Any) -> bool:
    """Whether ``null`` is a value ``schema`` accepts on its face (type, enum, const or an anyOf branch)."""
    if not isinstance(schema, Mapping):
        return schema is True
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if "const" in schema and schema["const"] is None:
        return True
    enum = schema.get("enum")
    if isinstance(enum, list) and None in enum:
        return True
    branches = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(branches, list):
        return any(allows_null(branch) for branch in branches)
    return not any(key in schema for key in ("type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf"))
