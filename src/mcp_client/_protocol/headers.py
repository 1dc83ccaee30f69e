"""HTTP headers of the 2026-07-28 era that mirror the request body: ``Mcp-Name`` and ``Mcp-Param-*``.

The rules follow the streamable HTTP transport spec: a value that is not printable ASCII, has edge
whitespace, or looks like the sentinel is sent as ``=?base64?<b64 of UTF-8>?=``. A tool argument is
mirrored into ``Mcp-Param-<token>`` when its property in the tool's ``inputSchema`` carries a valid
``x-mcp-header`` annotation; a tool with an invalid annotation must not be used at all.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator, Mapping
from typing import Any

_HEADER_SAFE = re.compile(r"[\x20-\x7E]*")
_SENTINEL = re.compile(r"=\?base64\?.*\?=")
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_ANNOTATION = "x-mcp-header"
_HEADER_TYPES = frozenset({"string", "integer", "boolean"})

# JSON Schema keywords whose values are schema positions. Crossing any of them leaves the plain
# `properties` chain, where an annotation is not allowed.
_SUBSCHEMA_ONE = frozenset(
    {
        "items", "contains", "unevaluatedItems", "additionalProperties", "propertyNames",
        "unevaluatedProperties", "not", "if", "then", "else", "contentSchema",
    }
)  # fmt: skip
_SUBSCHEMA_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SUBSCHEMA_MAP = frozenset({"patternProperties", "dependentSchemas", "$defs", "definitions"})

HeaderMap = dict[tuple[str, ...], str]
"""Property path in the arguments -> header token."""


def encode_value(value: str) -> str:
    """The header-safe form of ``value``: itself when safe, else the base64 sentinel."""
    if _HEADER_SAFE.fullmatch(value) and value == value.strip() and not _SENTINEL.fullmatch(value):
        return value
    return f"=?base64?{base64.b64encode(value.encode('utf-8')).decode('ascii')}?="


def _positions(root: Any) -> Iterator[tuple[tuple[str, ...] | None, dict[str, Any]]]:
    """Every schema position with its pure-``properties`` path (``None`` once off that chain)."""
    stack: list[tuple[tuple[str, ...] | None, Any]] = [((), root)]
    while stack:
        path, node = stack.pop()
        if not isinstance(node, dict):
            continue
        schema: dict[str, Any] = node
        yield path, schema
        for key, value in schema.items():
            if key == "properties" and isinstance(value, dict):
                for name, sub in value.items():
                    stack.append(((*path, str(name)) if path is not None else None, sub))
            elif key in _SUBSCHEMA_ONE:
                stack.append((None, value))
            elif key in _SUBSCHEMA_LIST and isinstance(value, list):
                stack.extend((None, sub) for sub in value)
            elif key in _SUBSCHEMA_MAP and isinstance(value, dict):
                stack.extend((None, sub) for sub in value.values())


def header_map(input_schema: Any) -> HeaderMap | None:
    """The tool's argument -> header map, or ``None`` if any ``x-mcp-header`` annotation is invalid.

    Valid means: on a property reached from the root through ``properties`` only, a non-empty RFC 9110
    token, on a string/integer/boolean property, unique (case-insensitively) in the schema.
    """
    found: HeaderMap = {}
    seen: set[str] = set()
    for path, schema in _positions(input_schema):
        if _ANNOTATION not in schema:
            continue
        token = schema[_ANNOTATION]
        if not path or not isinstance(token, str) or not _TOKEN.fullmatch(token):
            return None
        if schema.get("type") not in _HEADER_TYPES or token.lower() in seen:
            return None
        seen.add(token.lower())
        found[path] = token
    return found


def param_headers(mapping: HeaderMap, arguments: Mapping[str, Any]) -> dict[str, str]:
    """``Mcp-Param-*`` headers for one call: each annotated argument that is present, rendered."""
    headers: dict[str, str] = {}
    for path, token in mapping.items():
        node: Any = arguments
        for key in path:
            node = node.get(key) if isinstance(node, Mapping) else None
        if node is None:
            continue
        if isinstance(node, bool):
            rendered = "true" if node else "false"
        elif isinstance(node, str | int | float):
            rendered = str(node)
        else:
            continue
        headers[f"Mcp-Param-{token}"] = encode_value(rendered)
    return headers
