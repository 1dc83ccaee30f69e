"""``function_tools``: an MCP ``Client``'s or ``ClientGroup``'s tools as OpenAI Agents SDK ``FunctionTool``s.

::

    agent = Agent(name="bistro", tools=await function_tools(client))
    result = await Runner.run(agent, "A table for two on Christmas")

Unlike the SDK's own MCP support, the calls go through ``Client.call_tool``: a tool's question reaches
the ``elicitation_callback`` mid-run. Schemas are strict where they can be without changing what the
tool accepts (as ``ToolBridge.openai_tools``); arguments that are not JSON, and tool errors, come back to
the model as text starting with ``Error:``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    from agents import FunctionTool
except ImportError as exc:  # pragma: no cover - exercised by a subprocess test
    from mcp_client.frameworks._extra import missing_extra

    raise missing_extra("the OpenAI Agents SDK", "openai-agents", "openai_agents") from exc

from mcp_client._client import Client
from mcp_client._group import ClientGroup
from mcp_client.llm import _openai
from mcp_client.llm._bridge import ToolBridge
from mcp_client.llm._view import ExportedTool, result_parts

__all__ = ["function_tools"]


def _tool(bridge: ToolBridge, exported: ExportedTool, strict: bool | None) -> FunctionTool:
    body = _openai.responses_tool(exported, strict)

    async def invoke(context: Any, arguments: str) -> str:  # a ToolContext, unused
        tool, result = await bridge.call(exported.name, arguments)
        return _openai.chat_content(result_parts(tool, result), result)

    return FunctionTool(
        name=exported.name,
        description=body.get("description", ""),
        params_json_schema=body["parameters"],
        on_invoke_tool=invoke,
        strict_json_schema=body["strict"],
    )


async def function_tools(
    client: Client | ClientGroup,
    *,
    include: Sequence[str] | None = None,
    exclude: Sequence[str] = (),
    strict: bool | None = None,
) -> list[FunctionTool]:
    """The tools of ``client`` (a ``Client`` or ``ClientGroup``), filtered as in ``ToolBridge``.

    The list is a snapshot: call again after the server's ``list_changed`` to pick up new tools.
    """
    bridge = ToolBridge(client, include=include, exclude=exclude)
    return [_tool(bridge, exported, strict) for exported in await bridge.tools()]
