"""Checking a tool's ``structuredContent`` against the ``outputSchema`` it declared (JSON Schema 2020-12).

The spec says clients SHOULD validate structured results. ``OutputSchemas`` remembers each tool's
schema from the tool listings the client fetched and compiles a validator the first time a result of
that tool is checked. The validator is ``jsonschema-rs`` (Rust, full 2020-12, 2019-09 and draft 7 when
a schema says ``$schema``), imported only when the first schema is met, so a client whose tools
declare no output schema never loads it. Remote ``$ref``s are never fetched: a schema is checked
with what it contains.

Most output schemas are small and plain: the official server wraps a function's return value as
``{"type": "object", "properties": {"result": {"type": "string"}}, "required": ["result"]}``.
Such a schema (only ``type``, ``properties``, ``required``, ``items``, boolean
``additionalProperties`` and annotations) is checked by ``_PlainSchema`` here, without loading
``jsonschema-rs`` at all (it costs about 6 MB of memory, more than the rest of the client). The
plain check only says "valid"; when it says "invalid", ``jsonschema-rs`` checks again and words the
error, so every error is the library's.

A call to a tool without a schema costs one dict lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from mcp_client._errors import InvalidToolResultError

if TYPE_CHECKING:
    from jsonschema_rs import ValidationError, Validator

__all__ = ["OutputSchemas", "json_path"]

_MAX_PREVIEW = 80


class OutputSchemas:
    """Each tool's output schema, as last listed, and its compiled validator (built on first use).

    ``known`` is false until a complete listing was absorbed, or after ``forget()`` (the server said its
    tools changed): the client then lists the tools again before it trusts "this tool has no schema".
    """

    def __init__(self, server: str) -> None:
        self._server = server
        self._schemas: dict[str, dict[str, Any]] = {}
        self._validators: dict[str, Validator | _PlainSchema] = {}
        self.known = False

    def absorb(self, tools: Iterable[Any]) -> None:
        """Remember the output schemas of a complete tool listing (raw wire dicts)."""
        schemas: dict[str, dict[str, Any]] = {}
        for tool in tools:
            if not isinstance(tool, dict):
                continue
            name = tool.get("name")
            schema = tool.get("outputSchema")
            if isinstance(name, str) and isinstance(schema, dict):
                schemas[name] = schema
        for name in [n for n in self._validators if schemas.get(n) is not self._schemas.get(n)]:
            del self._validators[name]
        self._schemas = schemas
        self.known = True

    def forget(self) -> None:
        """The server's tools changed: the schemas are stale until the next listing."""
        self.known = False

    def has_schema(self, tool: str) -> bool:
        return tool in self._schemas

    def check(self, tool: str, result: Mapping[str, Any]) -> None:
        """Raise ``InvalidToolResultError`` if ``result`` (a raw ``tools/call`` result) breaks the schema.

        A tool's own failure (``isError``) is not checked: its structured content, if any, is not
        the declared output.
        """
        schema = self._schemas.get(tool)
        if schema is None or result.get("isError") is True:
            return
        if "structuredContent" not in result or result["structuredContent"] is None:
            raise InvalidToolResultError(
                f"tool {tool!r} of {self._server} declares an outputSchema but returned no "
                "structuredContent; the server is at fault (the result cannot be trusted to have its shape)",
                tool=tool,
                path="$",
                rule="structuredContent",
            )
        validator = self._validators.get(tool)
        if validator is None:
            validator = _PlainSchema.of(schema) or self._compile(tool, schema)
            self._validators[tool] = validator
        content = result["structuredContent"]
        if validator.is_valid(content):
            return
        if isinstance(validator, _PlainSchema):
            validator = self._compile(tool, schema)  # the library words the error
        error = _first_error(validator, content)
        path = json_path(error.instance_path)
        rule = _rule(error)
        raise InvalidToolResultError(
            f"tool {tool!r} of {self._server} returned structuredContent that breaks its outputSchema at "
            f"{path}: {_short(error.message)} (rule {rule!r}); the server is at fault",
            tool=tool,
            path=path,
            rule=rule,
        )

    def _compile(self, tool: str, schema: dict[str, Any]) -> Validator:
        import jsonschema_rs  # first schema met: load the validator library now

        try:
            validator = jsonschema_rs.validator_for(schema, offline=True)
        except (jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError, ValueError) as exc:
            message = getattr(exc, "message", None) or str(exc)
            raise InvalidToolResultError(
                f"tool {tool!r} of {self._server} declares an outputSchema that is not valid JSON Schema "
                f"({_short(message.splitlines()[0] if message else '')}); its results cannot be checked",
                tool=tool,
                path="$",
                rule="outputSchema",
            ) from None
        self._validators[tool] = validator
        return validator


_PLAIN_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    # JSON Schema counts 1.0 as an integer: any number with a zero fractional part.
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
    ),
}
_ANNOTATIONS: dict[str, Callable[[Any], bool]] = {
    # What the meta-schema allows for each annotation: anything else makes the schema invalid, and the
    # library's error says so.
    "title": lambda v: isinstance(v, str),
    "description": lambda v: isinstance(v, str),
    "default": lambda v: True,
    "examples": lambda v: isinstance(v, list),
    "deprecated": lambda v: isinstance(v, bool),
    "readOnly": lambda v: isinstance(v, bool),
    "writeOnly": lambda v: isinstance(v, bool),
}


def _never(value: Any) -> bool:
    return False


class _PlainSchema:
    """A schema of plain keywords only, checked in Python (see the module docstring).

    ``of()`` returns ``None`` for anything beyond that subset (``$ref``, ``enum``, ``pattern``,
    ``$schema``...): those go to ``jsonschema-rs``.
    """

    __slots__ = ("_additional", "_items", "_properties", "_required", "_types")

    def __init__(
        self,
        types: tuple[Callable[[Any], bool], ...],
        properties: dict[str, _PlainSchema],
        required: tuple[str, ...],
        additional: bool,
        items: _PlainSchema | None,
    ) -> None:
        self._types = types
        self._properties = properties
        self._required = required
        self._additional = additional
        self._items = items

    @classmethod
    def of(cls, schema: object, depth: int = 0) -> _PlainSchema | None:
        if not isinstance(schema, dict) or depth > 8:
            return None
        schema_dict: dict[str, Any] = schema
        types: tuple[Callable[[Any], bool], ...] = ()
        properties: dict[str, _PlainSchema] = {}
        required: tuple[str, ...] = ()
        additional = True
        items: _PlainSchema | None = None
        for key, value in schema_dict.items():
            if key == "type":
                names = [value] if isinstance(value, str) else value
                if not isinstance(names, list) or not names:
                    return None
                checks = [_PLAIN_TYPES.get(name) if isinstance(name, str) else None for name in names]
                if None in checks or len(set(names)) != len(names):
                    return None
                types = tuple(c for c in checks if c is not None)
            elif key == "properties":
                if not isinstance(value, dict):
                    return None
                for name, sub in value.items():
                    plain = cls.of(sub, depth + 1)
                    if plain is None:
                        return None
                    properties[str(name)] = plain
            elif key == "required":
                if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
                    return None
                required = tuple(value)
                if len(set(required)) != len(required):
                    return None
            elif key == "additionalProperties":
                if not isinstance(value, bool):
                    return None
                additional = value
            elif key == "items":
                items = cls.of(value, depth + 1)
                if items is None:
                    return None
            elif not _ANNOTATIONS.get(key, _never)(value):
                return None
        return cls(types, properties, required, additional, items)

    def is_valid(self, value: Any) -> bool:
        types = self._types
        if types:
            if len(types) == 1:  # the common case, without a generator per value
                if not types[0](value):
                    return False
            elif not any(check(value) for check in types):
                return False
        if isinstance(value, dict):
            for name in self._required:
                if name not in value:
                    return False
            for name, item in value.items():
                sub = self._properties.get(name)
                if sub is None:
                    if not self._additional:
                        return False
                elif not sub.is_valid(item):
                    return False
        elif isinstance(value, list) and self._items is not None:
            return all(self._items.is_valid(item) for item in value)
        return True


def _first_error(validator: Validator, content: Any) -> ValidationError:
    """The error to report: the first one, preferring the deepest path (the most specific place)."""
    errors = list(validator.iter_errors(content))
    return max(errors, key=lambda e: len(e.instance_path))


def _rule(error: ValidationError) -> str:
    path = error.schema_path
    if path and isinstance(path[-1], str):
        return path[-1]
    return error.kind.name


def json_path(parts: Iterable[str | int]) -> str:
    """``["items", 2, "name"]`` -> ``$.items[2].name`` (the whole document is ``$``)."""
    text = "$"
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part.isidentifier():
            text += f".{part}"
        else:
            text += f"[{part!r}]"
    return text


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MAX_PREVIEW * 2 else text[: _MAX_PREVIEW * 2 - 1] + "…"
