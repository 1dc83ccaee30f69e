"""``ToolBridge(client, on_app=...)``: a model's call of a tool that has a view is shown to the person.

MCP Apps splits a tool's result in two: ``content`` is what the model reads, ``structuredContent`` is
data for the view (the spec keeps it out of the model's context). So when the model calls a tool whose
``_meta.ui.resourceUri`` names a view, the bridge hands the whole result to ``on_app`` (e.g.
``BrowserAppHost.present``, which renders the view), waits for it, and gives the model the text
``content`` only. Showing the view is the person's side of the call: a host that fails is logged and the
model still gets its result.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from mcp_client._client import Client
from mcp_client._group.client_group import ClientGroup
from mcp_client.apps._tool_app import app_of
from mcp_client.llm._view import ExportedTool
from mcp_client.types import CallToolResult

__all__ = ["OnApp", "for_model", "has_view", "present"]

logger = logging.getLogger("mcp_client.llm")

OnApp = Callable[[str, dict[str, Any], CallToolResult], Awaitable[object] | object]
"""``on_app(name, arguments, result)``: show a tool's result in its view (sync or async). ``name`` is
the tool's name on its server (a group's name for it, with a ``ClientGroup``), as
``BrowserAppHost.present`` takes it."""


def has_view(tool: ExportedTool | None) -> bool:
    """Whether ``tool`` declares a view (``_meta.ui.resourceUri``, or the deprecated flat key)."""
    if tool is None:
        return False
    app = app_of(tool.tool)
    return app is not None and app.resource_uri is not None


def host_name(client: Client | ClientGroup, tool: ExportedTool) -> str:
    """The name a host knows the tool by: its own name, or the group's name for it."""
    if isinstance(client, ClientGroup) and tool.server is not None:
        return client._tool_name(client.config.servers[tool.server], tool.original_name)
    return tool.original_name


async def present(
    on_app: OnApp,
    client: Client | ClientGroup,
    tool: ExportedTool,
    arguments: dict[str, Any],
    result: CallToolResult,
) -> None:
    """Call ``on_app`` with the tool's result and wait for it; a failure is logged, never raised (the
    model's call succeeded whether or not the view could be shown)."""
    name = host_name(client, tool)
    try:
        shown = on_app(name, arguments, result)
        if inspect.isawaitable(shown):
            await shown
    except Exception:
        logger.exception("on_app could not show the view of %r; the model still gets its result", name)


def for_model(result: CallToolResult) -> CallToolResult:
    """The result as the model reads it when a view shows it: ``content`` only, no ``structuredContent``."""
    if result.structured_content is None:
        return result
    return result.model_copy(update={"structured_content": None})
