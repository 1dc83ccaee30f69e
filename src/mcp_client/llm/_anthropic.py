"""Anthropic's formats: Messages API tools and ``tool_result`` blocks.

The Messages API takes a JSON Schema object as ``input_schema`` (``$ref``/``$defs`` included), so the
tool's schema goes as it is, with an object root and ``properties`` (``_schema.export_root``: a union or
``not`` at the root, which the API refuses, is merged into one object and told in the description).
Results keep images as image blocks and PDFs as document blocks; ``isError`` becomes ``is_error``.
"""

from __future__ import annotations

import copy
from typing import Any

from mcp_client.llm._schema import JSON, description, root_of
from mcp_client.llm._view import ExportedTool, ImagePart, Part, TextPart, blob_note
from mcp_client.types import CallToolResult

_EMPTY = "(the tool returned no content)"  # the API refuses a text block that is empty


def tool(exported: ExportedTool) -> JSON:
    """A Messages API ``tools=[...]`` entry."""
    out: JSON = {"name": exported.name, "input_schema": copy.deepcopy(root_of(exported).schema)}
    text = description(exported)
    if text:
        out["description"] = text
    return out


def _source(mime_type: str, data: str) -> JSON:
    return {"type": "base64", "media_type": mime_type, "data": data}


def content(parts: list[Part]) -> list[JSON]:
    """Content blocks for a ``tool_result`` (or a sampling message): text, images, PDFs."""
    blocks: list[JSON] = []
    for part in parts:
        if isinstance(part, TextPart):
            if part.text:
                blocks.append({"type": "text", "text": part.text})
        elif isinstance(part, ImagePart):
            blocks.append({"type": "image", "source": _source(part.mime_type, part.data)})
        elif part.mime_type == "application/pdf":
            blocks.append({"type": "document", "source": _source(part.mime_type, part.data)})
        else:
            blocks.append({"type": "text", "text": blob_note(part)})
    return blocks or [{"type": "text", "text": _EMPTY}]


def tool_result(tool_use_id: str, parts: list[Part], result: CallToolResult) -> dict[str, Any]:
    """The ``tool_result`` block answering one ``tool_use``."""
    return {
        "type": "tool_result",
        "tool_use_id": tool_use_id,
        "content": content(parts),
        "is_error": result.is_error,
    }
