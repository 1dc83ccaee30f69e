"""Checking a tool's ``structuredContent`` against the ``outputSchema`` it declared (JSON Schema 2020-12).

The spec says clients SHOULD validate structured results. ``OutputSchemas`` remembers each tool's
schema from the tool listings the client fetched and compiles a validator the first time a result of
that tool is checked. The validator is ``jsonschema-rs`` (Rust, full 2020-12, 2019-09 and draft 7 when
a schema says ``$schema``), imported only when the first schema is met, so a client whose tools
declare no output schema never loads it. Remote ``$ref``s are never fetched: a schema is checked
with what it contains.

A call to a tool without a schema costs one dict lookup.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
        self._validators: dict[str, Validator] = {}
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
        validator = self._validators.get(tool) or self._compile(tool, schema)
        content = result["structuredContent"]
        if validator.is_valid(content):
            return
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
