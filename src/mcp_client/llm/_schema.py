"""JSON Schema rewrites shared by the providers: every function works on a copy, never on the tool.

An MCP tool's ``inputSchema`` is any JSON Schema object; each provider accepts a different subset. The
rewrites here are the parts more than one provider needs (an object root with ``properties``, local
``$ref`` inlining); the provider modules (``_openai``, ``_gemini``) hold the rest of their rules.

``export_root`` gives every provider an object root: OpenAI and Anthropic refuse the whole request for a
tool whose root is not ``type: object`` or holds ``anyOf``/``oneOf``/``allOf``/``not``/``enum`` (real
servers publish such schemas: zod unions, ``$ref`` roots). The branches' properties are merged as
optional, and what the merged object cannot say is told in the tool's description; such an export is
*loose* (it accepts arguments the tool refuses), so the bridge checks the model's arguments against the
tool's own schema before the call (``_arguments``) and it is never strict.

``inline_refs`` writes out local ``$ref``s for Gemini, which has no references: a bounded amount
(``EXPANSION_BUDGET`` characters of referenced schema), so a schema whose definitions each refer twice
to the next cannot grow exponentially; a reference past the budget is cut to "any value", described.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_client._text import one_line

if TYPE_CHECKING:
    from mcp_client.llm._view import ExportedTool

JSON = dict[str, Any]

# Root keywords OpenAI or Anthropic refuse, or that need the root rewritten to an object.
_ROOT_RESHAPE = ("anyOf", "oneOf", "allOf", "$ref", "enum", "const", "not")
_DEFS = ("$defs", "definitions")
# Keywords ``_flatten`` reads; any other keyword of an object node (``additionalProperties``,
# ``minProperties``...) is kept as it is where one node alone describes the object.
_READ = frozenset(
    {"type", "properties", "required", "enum", "const", "not", "allOf", "anyOf", "oneOf", "$ref",
     "$defs", "definitions", "title", "description", "$schema", "$id", "$comment"}
)  # fmt: skip
_NOTE_LIMIT = 600
# How much referenced schema (JSON characters) ``inline_refs`` writes out before it cuts references.
EXPANSION_BUDGET = 12_000


@dataclass(frozen=True, slots=True)
class RootExport:
    """A tool's schema with an object root a provider accepts.

    ``loose``: the export accepts arguments the tool's own schema refuses (a combinator dropped, a root
    that is no object), so the arguments must be checked before the call and the tool is never strict;
    ``note``: what the export could not say, for the tool's description (``None`` when nothing).
    """

    schema: JSON
    loose: bool = False
    note: str | None = None
    takes_objects: bool = True  # False: no arguments object can satisfy the tool's schema


def export_root(schema: Mapping[str, Any] | None) -> RootExport:
    """The tool's schema with an object root every provider accepts, and whether that loosened it.

    A deep copy, always with ``properties``: OpenAI rejects ``{"type": "object"}`` without them
    (kagent#1888's error), so a tool without parameters becomes ``{"type": "object", "properties": {}}``.
    """
    out: JSON = copy.deepcopy(dict(schema)) if isinstance(schema, Mapping) else {}
    kind = out.get("type")
    if not any(key in out for key in _ROOT_RESHAPE) and kind in (None, "object"):
        if kind is None:
            out["type"] = "object"
        if not isinstance(out.get("properties"), dict):
            out["properties"] = {}
        return RootExport(out)
    return _reshaped(out)


def root_of(tool: ExportedTool) -> RootExport:
    """``export_root`` of a tool's ``inputSchema``, worked out once per tool list."""
    made: RootExport = tool.converted("root", lambda t: export_root(t.tool.input_schema))
    return made


def description(tool: ExportedTool, *notes: str | None) -> str | None:
    """The tool's description (or title) for the model, with what its export could not say."""
    parts = [tool.tool.description or tool.tool.title, root_of(tool).note, *notes]
    text = "\n\n".join(part for part in parts if part)
    return text or None


# ---------------------------------------------------------------- reshaping a root that is no plain object


@dataclass(slots=True)
class _Flat:
    """An object schema flattened: the properties, the required names, and what was lost on the way."""

    properties: JSON = field(default_factory=dict[str, Any])
    required: list[str] = field(default_factory=list[str])
    objects: bool = True  # whether any object can match at all
    loose: bool = False
    notes: list[str] = field(default_factory=list[str])
    extra: JSON = field(default_factory=dict[str, Any])  # root keywords kept as they are


def printable(text: str, limit: int = 300) -> str:
    """``text`` on one line without control characters, cut at ``limit`` (schema text is server data)."""
    return one_line(text, limit)


def _compact(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _resolved(node: Any, root: JSON, seen: frozenset[str]) -> tuple[Any, frozenset[str], str | None]:
    """``node`` with local ``$ref``s followed (siblings merged in as an ``allOf``), or why not."""
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        ref: str = node["$ref"]
        siblings = {k: v for k, v in node.items() if k != "$ref" and k not in _DEFS}
        target = _local_target(ref, root)
        if target is None or ref in seen:
            if target is None:
                return siblings, seen, f"its reference {ref!r} could not be followed"
            return siblings, seen, f"{ref!r} refers to itself"
        seen = seen | {ref}
        node = {"allOf": [dict(target), siblings]} if siblings else dict(target)
    return node, seen, None


def _flatten(node: Any, root: JSON, seen: frozenset[str] = frozenset(), depth: int = 0) -> _Flat:
    """What ``node`` says about an object's properties, combinators merged (depth-bounded)."""
    node, seen, why = _resolved(node, root, seen)
    flat = _Flat()
    if why is not None:
        flat.loose = True
        flat.notes.append(f"{why}; it is not checked by the model's provider")
    if node is True or node == {}:
        return flat
    if not isinstance(node, dict) or depth > 8:
        flat.objects = node is not False
        flat.loose = True
        return flat
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else None
    if kinds is not None and "object" not in kinds:
        flat.objects = False
        flat.loose = True
        flat.notes.append(f"the tool's input schema describes {_compact(kind)}, not an object")
        return flat
    properties = node.get("properties")
    if isinstance(properties, dict):
        flat.properties = dict(properties)
    required = node.get("required")
    if isinstance(required, list):
        flat.required = [name for name in required if isinstance(name, str)]
    flat.extra = {key: value for key, value in node.items() if key not in _READ}
    for key in ("enum", "const", "not"):
        if key in node:
            flat.loose = True
            what = {"enum": "be one of", "const": "be", "not": "not match"}[key]
            flat.notes.append(f"the arguments must {what} {_compact(node[key])}")
    all_of = node.get("allOf")
    if isinstance(all_of, list):
        for branch in all_of:
            part = _flatten(branch, root, seen, depth + 1)
            if any(key.endswith("Properties") for key in part.extra):
                part.loose = True  # a branch's additionalProperties sees only its own properties
            _and(flat, part)
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list):
            _and(flat, _either(key, [_flatten(b, root, seen, depth + 1) for b in branches]))
    return flat


def _and(flat: _Flat, other: _Flat) -> None:
    """``flat`` and ``other`` both hold: properties and required names together."""
    for name, sub in other.properties.items():
        if name in flat.properties and flat.properties[name] != sub:
            flat.loose = True  # both definitions hold; the export keeps the first
        flat.properties.setdefault(name, sub)
    flat.required += [name for name in other.required if name not in flat.required]
    for key, value in other.extra.items():
        if key in flat.extra and flat.extra[key] != value:
            flat.loose = True
        flat.extra.setdefault(key, value)
    flat.objects = flat.objects and other.objects
    flat.loose = flat.loose or other.loose
    flat.notes += other.notes


def _either(key: str, branches: list[_Flat]) -> _Flat:
    """One of ``branches`` holds: their properties merged as optional, the names all of them require."""
    objects = [b for b in branches if b.objects]
    out = _Flat(objects=bool(objects), loose=len(objects) != 1 or any(b.loose for b in objects))
    if not objects:
        out.notes.append(f"no branch of its {key} accepts an object")
        return out
    if len(objects) == 1:
        only = objects[0]
        out.properties, out.required, out.notes, out.extra = (
            only.properties,
            only.required,
            only.notes,
            only.extra,
        )
        return out
    variants: dict[str, list[Any]] = {}
    for branch in objects:
        for name, sub in branch.properties.items():
            if sub not in variants.setdefault(name, []):
                variants[name].append(sub)
    out.properties = {name: _one_of(subs) for name, subs in variants.items()}
    out.required = [n for n in objects[0].required if all(n in b.required for b in objects[1:])]
    forms: list[str] = []
    for number, branch in enumerate(objects, 1):
        names = printable(", ".join(branch.properties)) or "no named properties"
        needed = f" (required: {printable(', '.join(branch.required))})" if branch.required else ""
        forms.append(f"{number}) {names}{needed}")
    which = "exactly one" if key == "oneOf" else "at least one"
    out.notes.append(f"the arguments must match {which} of these forms: " + "; ".join(forms))
    for branch in objects:
        out.notes += branch.notes
    return out


def _one_of(variants: list[Any]) -> Any:
    """One property's schemas from several branches: one schema, an enum of their constants, or anyOf."""
    if len(variants) == 1:
        return variants[0]
    values: list[Any] = []
    for sub in variants:
        if not isinstance(sub, dict) or not ("const" in sub or isinstance(sub.get("enum"), list)):
            return {"anyOf": variants}
        for value in [sub["const"]] if "const" in sub else sub["enum"]:
            if value not in values:
                values.append(value)
    merged: JSON = {"enum": values}
    if all(isinstance(v, str) for v in values):
        merged["type"] = "string"
    return merged


def _reshaped(schema: JSON) -> RootExport:
    flat = _flatten(schema, schema)
    out: JSON = {"type": "object"}
    for key in ("title", "description", *_DEFS):
        if key in schema:
            out[key] = schema[key]
    out.update(flat.extra)
    out["properties"] = flat.properties
    if flat.required:  # all of them: a name it does not define still fails a call (and rules out strict)
        out["required"] = flat.required
    if not flat.loose:
        return RootExport(out)
    notes = flat.notes or ["its input schema could not be given exactly"]
    if not flat.objects:
        notes.append(
            "MCP tool arguments are always an object, so no call can satisfy it until its server fixes it"
        )
    note = "Input schema (as the tool checks it): " + "; ".join(dict.fromkeys(notes)) + "."
    if len(note) > _NOTE_LIMIT:
        note = note[: _NOTE_LIMIT - 1] + "…"
    return RootExport(out, loose=True, note=note, takes_objects=flat.objects)


# ---------------------------------------------------------------- references


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


@dataclass(frozen=True, slots=True)
class Inlined:
    """A schema with its references written out, and the references cut short to stay in budget."""

    schema: JSON
    cut: tuple[str, ...] = ()


def inline_refs(schema: JSON, *, recursive: JSON | None = None, budget: int = EXPANSION_BUDGET) -> Inlined:
    """``schema`` with each local ``$ref`` replaced by what it points at, and ``$defs`` dropped.

    A reference back into itself (a tree, a linked list) cannot be written out: it becomes
    ``recursive`` (default ``{"type": "object"}``), which keeps the field and loosens its shape.
    Sibling keywords of a ``$ref`` (a ``description``) are kept beside the inlined schema. Each
    reference written out costs the size of its target; once ``budget`` is spent, further references
    become ``{"description": ...}`` (any value) and are listed in ``cut``.
    """
    fallback: JSON = recursive if recursive is not None else {"type": "object"}
    left = budget
    cut: list[str] = []
    sizes: dict[str, int] = {}

    def walk(node: Any, seen: tuple[str, ...]) -> Any:
        nonlocal left
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
                size = sizes.get(ref)
                if size is None:
                    size = sizes[ref] = len(json.dumps(target, default=str))
                if size > left:
                    if ref not in cut:
                        cut.append(ref)
                    note = f"(not declared: {ref} was cut short to keep the schema small)"
                    told = siblings.pop("description", None)
                    resolved = {"description": f"{told} {note}" if isinstance(told, str) else note}
                else:
                    left -= size
                    resolved = walk(dict(target), (*seen, ref))
            resolved = {**resolved, **{k: walk(v, seen) for k, v in siblings.items()}}
            resolved.pop("$defs", None)
            resolved.pop("definitions", None)
            return resolved
        return {key: walk(value, seen) for key, value in node.items() if key not in _DEFS}

    result = walk(schema, ())
    assert isinstance(result, dict)
    return Inlined(result, tuple(cut))


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
