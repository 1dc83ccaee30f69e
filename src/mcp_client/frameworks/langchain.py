"""``load_tools``: an MCP ``Client``'s or ``ClientGroup``'s tools as LangChain ``StructuredTool``s.

::

    tools = await load_tools(client)
    agent = create_agent(model, tools)          # or model.bind_tools(tools) in a graph of your own

Like langchain-mcp-adapters, each tool answers with content and an artifact
(``response_format="content_and_artifact"``): the content is the text (or text and image blocks), the
artifact the ``CallToolResult`` itself. A tool error comes back as a ``ToolMessage`` with
``status="error"`` (a ``ToolException``, handled), which the model reads. The tools are async only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    from langchain_core.tools import BaseTool, StructuredTool, ToolException
except ImportError as exc:  # pragma: no cover - exercised by a subprocess test
    from mcp_client.frameworks._extra import missing_extra

    raise missing_extra("LangChain (langchain-core)", "langchain", "langchain") from exc

from mcp_client._client import Client
from mcp_client._group import ClientGroup
from mcp_client.llm._bridge import ToolBridge
from mcp_client.llm._schema import object_schema
from mcp_client.llm._view import ExportedTool, ImagePart, TextPart, plain_text, result_parts
from mcp_client.types import CallToolResult

__all__ = ["load_tools"]


def _content(exported: ExportedTool, result: CallToolResult) -> str | list[Any]:
    parts = result_parts(exported, result)
    if not any(isinstance(part, ImagePart) for part in parts):
        return plain_text(parts, is_error=False)
    blocks: list[Any] = []
    for part in parts:
        if isinstance(part, ImagePart):
            blocks.append({"type": "image", "base64": part.data, "mime_type": part.mime_type})
        elif isinstance(part, TextPart):
            blocks.append({"type": "text", "text": part.text})
        else:
            blocks.append({"type": "text", "text": plain_text([part], is_error=False)})
    return blocks


def _tool(bridge: ToolBridge, exported: ExportedTool) -> BaseTool:
    async def run(**arguments: Any) -> tuple[str | list[Any], CallToolResult]:
        result = await bridge.call_tool(exported, arguments)
        if result.is_error:
            raise ToolException(plain_text(result_parts(exported, result), is_error=False))
        return _content(exported, result), result

    return StructuredTool(
        name=exported.name,
        description=exported.tool.description or exported.tool.title or exported.name,
        args_schema=object_schema(exported.tool.input_schema),
        coroutine=run,
        response_format="content_and_artifact",
        handle_tool_error=True,
        metadata={"mcp_server": exported.server, "mcp_tool": exported.original_name},
    )


async def load_tools(
    client: Client | ClientGroup, *, include: Sequence[str] | None = None, exclude: Sequence[str] = ()
) -> list[BaseTool]:
    """The tools of ``client`` (a ``Client`` or ``ClientGroup``), filtered as in ``ToolBridge``.

    The list is a snapshot: call again after the server's ``list_changed`` to pick up new tools.
    """
    bridge = ToolBridge(client, include=include, exclude=exclude)
    return [_tool(bridge, exported) for exported in await bridge.tools()]
