"""``load_tools``: an MCP ``Client``'s or ``ClientGroup``'s tools as LangChain ``StructuredTool``s.

::

    tools = await load_tools(client)
    agent = create_agent(model, tools)          # or model.bind_tools(tools) in a graph of your own

Like langchain-mcp-adapters, each tool answers with content and an artifact
(``response_format="content_and_artifact"``): the content is the text (or text and image blocks), the
artifact the ``CallToolResult`` itself (``model_reads="structured"``: the content is the
``structuredContent`` as JSON where the tool declares an ``outputSchema``). A tool error, or arguments
that cannot be sent (``NaN``, nesting deeper than 100 levels, ...) or that the tool's own schema
refuses where its export is looser (``ToolBridge.call_tool``), comes back as a ``ToolMessage``
with ``status="error"`` (a ``ToolException``, handled), which the model reads. The tools are async only.

With ``pause_with=broker`` (a ``QuestionBroker``), a 2026-07-28 server's question pauses the call
instead: the tool raises ``mcp_client.llm.ToolCallPaused`` (not a ``ToolException``: the model is not
told the tool failed), which ends the run and carries the paused call's id and the model's
``tool_call_id``. Resume the call with the broker and append ``tool_message(paused, result)``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

try:
    from langchain_core.messages import ToolMessage
    from langchain_core.runnables import RunnableConfig
    from langchain_core.tools import BaseTool, StructuredTool, ToolException
except ImportError as _missing:  # pragma: no cover - exercised by a subprocess test
    from mcp_client.frameworks._extra import missing_extra

    raise missing_extra("LangChain (langchain-core)", "langchain", "langchain") from _missing

from mcp_client._client import Client
from mcp_client._group.client_group import ClientGroup
from mcp_client.llm._bridge import ToolBridge
from mcp_client.llm._paused import PausingCaller, ToolCallPaused
from mcp_client.llm._schema import description, root_of
from mcp_client.llm._view import (
    ExportedTool,
    ImagePart,
    ModelReads,
    TextPart,
    argument_problem,
    plain_text,
    result_parts,
)
from mcp_client.types import CallToolResult

__all__ = ["load_tools", "tool_message"]


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


class _MCPTool(StructuredTool):
    """A ``StructuredTool`` whose pause names the model's tool call, and that refuses arguments JSON
    cannot carry before LangChain itself reads them (its callbacks ``repr`` the input, which an object
    nested thousands deep turns into a ``RecursionError``)."""

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        call = isinstance(input, dict) and input.get("type") == "tool_call"  # pyright: ignore[reportUnknownMemberType]
        arguments: Any = input.get("args") if call else input  # pyright: ignore[reportUnknownMemberType]
        problem = argument_problem(arguments) if isinstance(arguments, dict) else None
        if problem is not None:
            text = f"The call to {self.name} was not run: {problem}."
            if call:
                return ToolMessage(
                    content=text, tool_call_id=str(input["id"]), name=self.name, status="error"
                )
            return text
        try:
            return await super().ainvoke(input, config, **kwargs)
        except ToolCallPaused as paused:
            if isinstance(input, dict) and input.get("type") == "tool_call":  # pyright: ignore[reportUnknownMemberType]
                paused.tool_call_id = str(input["id"])  # pyright: ignore[reportUnknownArgumentType]
            raise


def tool_message(paused: ToolCallPaused, result: CallToolResult) -> ToolMessage:
    """The ``ToolMessage`` for a paused call's ``result`` (from ``await broker.resume(paused.call_id,
    client)``), as the tool would have answered: content and artifact, ``status="error"`` for a tool
    error. Needs ``paused.tool_call_id`` (set when the tool was invoked with a tool call)."""
    if paused.tool_call_id is None:
        raise ValueError(
            f"the paused call {paused.call_id} has no tool_call_id: the tool was invoked with plain "
            "arguments, not a tool call; build the ToolMessage with the id the model gave"
        )
    if result.is_error:
        text = plain_text(result_parts(paused.tool, result), is_error=False)
        return ToolMessage(
            content=text, tool_call_id=paused.tool_call_id, name=paused.tool.name, status="error"
        )
    return ToolMessage(
        content=_content(paused.tool, result),
        artifact=result,
        tool_call_id=paused.tool_call_id,
        name=paused.tool.name,
    )


def _tool(bridge: ToolBridge, exported: ExportedTool) -> BaseTool:
    async def run(**arguments: Any) -> tuple[str | list[Any], CallToolResult]:
        result = await bridge.call_tool(exported, arguments)
        if result.is_error:
            raise ToolException(plain_text(result_parts(exported, result), is_error=False))
        return _content(exported, result), result

    return _MCPTool(
        name=exported.name,
        description=description(exported) or exported.name,
        args_schema=copy.deepcopy(root_of(exported).schema),
        coroutine=run,
        response_format="content_and_artifact",
        handle_tool_error=True,
        metadata={"mcp_server": exported.server, "mcp_tool": exported.original_name},
    )


async def load_tools(
    client: Client | ClientGroup,
    *,
    include: Sequence[str] | None = None,
    exclude: Sequence[str] = (),
    pause_with: PausingCaller | None = None,
    model_reads: ModelReads = "content",
) -> list[BaseTool]:
    """The tools of ``client`` (a ``Client`` or ``ClientGroup``), filtered as in ``ToolBridge``;
    ``model_reads`` as in ``ToolBridge``.

    The list is a snapshot: call again after the server's ``list_changed`` to pick up new tools.
    ``pause_with`` (a ``QuestionBroker``): calls go through it, and a paused one raises
    ``ToolCallPaused`` (see the module docstring).
    """
    bridge = ToolBridge(
        client, include=include, exclude=exclude, pause_with=pause_with, model_reads=model_reads
    )
    return [_tool(bridge, exported) for exported in await bridge.tools()]
