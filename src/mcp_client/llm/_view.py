"""The neutral view every provider module is written against: one exported tool, one call, one result.

``ExportedTool`` is a server's tool under the name a model sees; ``read_call`` turns what a model sent
(an SDK object or a dict) into a name and parsed arguments; ``result_parts`` turns a ``CallToolResult``
into text, image and blob parts that each provider module lays out in its own shape. A new provider is
one module that maps these three to its format.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from mcp_client._approvals.request import CALLBACK_FAILED

if TYPE_CHECKING:
    from mcp_client._errors import ToolCallDenied

from mcp_client.types import (
    AudioContent,
    CallToolResult,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
    Tool,
)

ModelReads = Literal["content", "structured"]
"""What the model is given of a tool's result: its ``content`` (the default), or its
``structuredContent`` where the tool declares an ``outputSchema``."""

MODEL_READS: tuple[ModelReads, ...] = ("content", "structured")
MAX_ARGUMENT_DEPTH = 100
"""How deep the model's arguments may nest (objects and arrays); deeper is refused before the call."""
MAX_INTEGER_DIGITS = 4300
"""The longest integer the model may send (Python's own limit for turning one into text)."""
_INTEGER_LIMIT = 10**MAX_INTEGER_DIGITS


def model_reads_checked(value: object) -> ModelReads:
    """``value`` if it is one of ``MODEL_READS``, else a ``ValueError`` naming them."""
    if value not in MODEL_READS:
        raise ValueError(f"model_reads must be 'content' or 'structured', not {value!r}")
    return value  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class ExportedTool:
    """A server's tool as the model sees it.

    ``name`` is the provider-safe name (``[A-Za-z0-9_-]``, at most 64 characters); ``tool`` is the
    server's own ``Tool``; ``server`` is the group's server name, ``None`` for a single ``Client``;
    ``model_reads`` what the model is given of its results (``"content"``, or ``"structured"``: the
    ``structuredContent`` where the tool declares an ``outputSchema``).
    """

    name: str
    tool: Tool
    server: str | None = None
    model_reads: ModelReads = "content"
    _converted: dict[str, Any] = field(default_factory=dict[str, Any], repr=False, compare=False)

    @property
    def original_name(self) -> str:
        """The tool's name on its server (what ``call_tool`` is given)."""
        return self.tool.name

    def converted(self, key: str, build: Callable[[ExportedTool], Any]) -> Any:
        """``build(self)`` once per provider format, kept for as long as the tool list is unchanged."""
        if key not in self._converted:
            self._converted[key] = build(self)
        return self._converted[key]


@dataclass(frozen=True, slots=True)
class TextPart:
    text: str


@dataclass(frozen=True, slots=True)
class ImagePart:
    mime_type: str
    data: str  # base64, as MCP sends it

    @property
    def data_url(self) -> str:
        return f"data:{self.mime_type};base64,{self.data}"


@dataclass(frozen=True, slots=True)
class BlobPart:
    """An embedded binary resource (a PDF a provider may read as a document, else a note)."""

    uri: str
    mime_type: str
    data: str


Part = TextPart | ImagePart | BlobPart


def field_of(obj: Any, name: str) -> Any:
    """``obj[name]`` for a mapping, ``obj.name`` for an SDK object, ``None`` when absent."""
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


class _NotJSON(ValueError):
    """A constant JSON does not have (``NaN``, ``Infinity``), met while parsing."""


def _refuse_constant(name: str) -> Any:
    raise _NotJSON(name)


_NOT_FINITE = "the arguments hold NaN or Infinity, which JSON does not allow: send a finite number or null"
_TOO_LONG = f"a number in the arguments has more than {MAX_INTEGER_DIGITS} digits: send a shorter one"
_TOO_DEEP = f"the arguments are nested more than {MAX_ARGUMENT_DEPTH} levels deep: send a flatter object"


def parse_arguments(raw: Any) -> tuple[dict[str, Any] | None, str | None]:
    """``(arguments, None)``, or ``(None, why)`` when the model's arguments are not a JSON object
    (or hold what JSON cannot carry: see ``argument_problem``)."""
    if raw is None or raw == "":
        return {}, None
    if isinstance(raw, str):
        try:
            raw = json.loads(raw, parse_constant=_refuse_constant)
        except json.JSONDecodeError as exc:
            return None, f"the arguments are not valid JSON ({exc.msg} at position {exc.pos})"
        except _NotJSON:
            return None, _NOT_FINITE
        except ValueError:  # an integer longer than the interpreter turns into a number
            return None, _TOO_LONG
        except RecursionError:
            return None, _TOO_DEEP
    if isinstance(raw, Mapping):
        arguments = dict(raw)  # pyright: ignore[reportUnknownArgumentType]
        problem = argument_problem(arguments)
        return (None, problem) if problem is not None else (arguments, None)
    return None, f"the arguments must be a JSON object, not {type(raw).__name__}"


def argument_problem(arguments: Mapping[str, Any]) -> str | None:
    """Why ``arguments`` cannot be sent as JSON (for the model to read), or ``None`` when they can.

    The model's arguments are data from outside: ``NaN``, ``Infinity`` (``1e400`` parses to it), an
    integer of thousands of digits or an object nested thousands deep would otherwise raise
    ``ValueError`` or ``RecursionError`` out of the call. Walked without recursion.
    """
    stack: list[tuple[Any, int]] = [(arguments, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, Mapping | list | tuple):
            if depth > MAX_ARGUMENT_DEPTH:
                return _TOO_DEEP
            if isinstance(value, Mapping):
                for key, item in value.items():  # pyright: ignore[reportUnknownVariableType]
                    if not isinstance(key, str):
                        return f"an object key in the arguments is {type(key).__name__}, not a string"  # pyright: ignore[reportUnknownArgumentType]
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)  # pyright: ignore[reportUnknownVariableType]
        elif isinstance(value, bool | str) or value is None:
            continue
        elif isinstance(value, int):
            if not -_INTEGER_LIMIT < value < _INTEGER_LIMIT:
                return _TOO_LONG
        elif isinstance(value, float):
            if not math.isfinite(value):
                return _NOT_FINITE
        else:
            return f"the arguments hold a {type(value).__name__}, which is not a JSON value"
    return None


def error_result(message: str) -> CallToolResult:
    """A tool error the model reads, in place of an exception out of the app's loop."""
    return CallToolResult(content=[TextContent(text=message)], is_error=True)


DENIED_META = "mcp_client/tool_call_denied"
"""The ``_meta`` key marking a result the client made for a call it did not run (``denied_result``)."""


def denied_result(name: str, denied: ToolCallDenied) -> CallToolResult:
    """The error result the model reads for a call the client's tool policy, or the user, refused; or
    that nobody approved (nobody to ask, no answer in time), or whose approval the app could not get (its
    approval callback failed): the model is told so, and not to retry it, as a call that asks again
    would be left unanswered again."""
    if denied.by_user:
        message = f"The user refused this call of {name}: it was not run."
        if denied.note:
            message += f" The user said: {denied.note}"
    elif denied.unanswered:
        why = f": {denied.note.rstrip('. ')}" if denied.note else ""
        message = (
            f"Nobody approved this call of {name}, so it was not run{why}. It needs a person's approval: "
            "do not retry it; go on without it, or tell the user it needs their approval."
        )
    elif denied.reason == CALLBACK_FAILED:
        message = (
            f"The app could not get an approval for this call of {name}, so it was not run. "
            "Do not retry it; go on without it, or tell the user it could not be approved."
        )
    else:
        message = f"The app's tool policy does not allow {name}: the call was not run."
    return CallToolResult.model_validate(
        {"content": [{"type": "text", "text": message}], "isError": True, "_meta": {DENIED_META: True}}
    )


def is_denied(result: CallToolResult) -> bool:
    """Whether ``result`` stands for a call the client refused to run (``denied_result``)."""
    return bool(result.meta and result.meta.get(DENIED_META) is True)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def structured_output(tool: ExportedTool | None, result: CallToolResult) -> Any:
    """The result's ``structuredContent`` when the model reads it (``model_reads="structured"``) and
    the tool declares an ``outputSchema``, else ``None``."""
    if (
        tool is not None
        and tool.model_reads == "structured"
        and tool.tool.output_schema is not None
        and result.structured_content is not None
    ):
        return result.structured_content
    return None


def result_parts(tool: ExportedTool | None, result: CallToolResult) -> list[Part]:
    """The result as neutral parts: each content block (images as images, text resources as text, the
    rest as a note), as MCP means ``content`` for the model; the structured JSON instead where the tool
    asks for it (``model_reads="structured"``, an output schema), or where there is no content."""
    structured = structured_output(tool, result)
    if structured is not None:
        return [TextPart(_json(structured))]
    parts: list[Part] = []
    for block in result.content:
        if isinstance(block, TextContent):
            parts.append(TextPart(block.text))
        elif isinstance(block, ImageContent):
            parts.append(ImagePart(block.mime_type, block.data))
        elif isinstance(block, AudioContent):
            parts.append(TextPart(f"[audio ({block.mime_type}) not shown]"))
        elif isinstance(block, ResourceLink):
            parts.append(TextPart(f"[resource {block.name}: {block.uri}]"))
        else:
            resource = block.resource
            if isinstance(resource, TextResourceContents):
                parts.append(TextPart(f"[resource {resource.uri}]\n{resource.text}"))
            else:
                mime = resource.mime_type or "application/octet-stream"
                parts.append(BlobPart(resource.uri, mime, resource.blob))
    if not parts and result.structured_content is not None:
        parts.append(TextPart(_json(result.structured_content)))
    return parts


def blob_note(part: BlobPart) -> str:
    return f"[resource {part.uri} ({part.mime_type}, binary) not shown]"


def image_note(part: ImagePart) -> str:
    return f"[image ({part.mime_type}) not shown]"


def plain_text(parts: list[Part], *, is_error: bool) -> str:
    """All parts as one text (images and blobs as notes), marked when the tool failed."""
    texts: list[str] = []
    for part in parts:
        if isinstance(part, TextPart):
            texts.append(part.text)
        elif isinstance(part, ImagePart):
            texts.append(image_note(part))
        else:
            texts.append(blob_note(part))
    text = "\n".join(texts)
    return f"Error: {text}" if is_error else text
