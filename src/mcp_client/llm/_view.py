"""The neutral view every provider module is written against: one exported tool, one call, one result.

``ExportedTool`` is a server's tool under the name a model sees; ``read_call`` turns what a model sent
(an SDK object or a dict) into a name and parsed arguments; ``result_parts`` turns a ``CallToolResult``
into text, image and blob parts that each provider module lays out in its own shape. A new provider is
one module that maps these three to its format.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mcp_client.types import (
    AudioContent,
    CallToolResult,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
    Tool,
)


@dataclass(frozen=True, slots=True)
class ExportedTool:
    """A server's tool as the model sees it.

    ``name`` is the provider-safe name (``[A-Za-z0-9_-]``, at most 64 characters); ``tool`` is the
    server's own ``Tool``; ``server`` is the group's server name, ``None`` for a single ``Client``.
    """

    name: str
    tool: Tool
    server: str | None = None
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


def parse_arguments(raw: Any) -> tuple[dict[str, Any] | None, str | None]:
    """``(arguments, None)``, or ``(None, why)`` when the model's arguments are not a JSON object."""
    if raw is None or raw == "":
        return {}, None
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            return None, f"the arguments are not valid JSON ({exc.msg} at position {exc.pos})"
    if isinstance(raw, Mapping):
        return dict(raw), None
    return None, f"the arguments must be a JSON object, not {type(raw).__name__}"


def error_result(message: str) -> CallToolResult:
    """A tool error the model reads, in place of an exception out of the app's loop."""
    return CallToolResult(content=[TextContent(text=message)], is_error=True)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def structured_output(tool: ExportedTool | None, result: CallToolResult) -> Any:
    """The result's ``structuredContent`` when the tool declares an ``outputSchema``, else ``None``."""
    if tool is not None and tool.tool.output_schema is not None and result.structured_content is not None:
        return result.structured_content
    return None


def result_parts(tool: ExportedTool | None, result: CallToolResult) -> list[Part]:
    """The result as neutral parts: the structured JSON where the tool declares an output schema,
    otherwise each content block (images as images, text resources as text, the rest as a note)."""
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
