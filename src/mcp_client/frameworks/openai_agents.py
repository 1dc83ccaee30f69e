"""``function_tools``: an MCP ``Client``'s or ``ClientGroup``'s tools as OpenAI Agents SDK ``FunctionTool``s.

::

    agent = Agent(name="bistro", tools=await function_tools(client))
    result = await Runner.run(agent, "A table for two on Christmas")

Unlike the SDK's own MCP support, the calls go through ``Client.call_tool``: a tool's question reaches
the ``elicitation_callback`` mid-run. Schemas are strict where they can be without changing what the
tool accepts (as ``ToolBridge.openai_tools``); arguments that are not JSON (or that JSON cannot carry:
``NaN``, nesting deeper than 100 levels, ...), and tool errors, come back to the model as text starting
with ``Error:``. The model reads the tool's ``content`` (``model_reads="structured"``: its
``structuredContent`` where it declares an ``outputSchema``).

With ``pause_with=broker`` (a ``QuestionBroker``), a 2026-07-28 server's question pauses the call
instead: ``Runner.run`` raises ``mcp_client.llm.ToolCallPaused`` (an ``AgentsException`` too, so the
SDK neither wraps it nor shows the model an error; its ``run_data`` holds the run so far), carrying the
paused call's id and the model's ``tool_call_id``. Resume the call with the broker and run again with
the run's input followed by ``resumed_items(paused, result)``.

A ``NoBackChannelError`` (a legacy-only tool on a 2026-07-28 connection) is raised by ``Runner.run`` as
it is, also an ``AgentsException``: the app's ``mode`` must change, which the model cannot do.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

try:
    from agents import AgentsException, FunctionTool
    from agents.tool_context import ToolContext
except ImportError as _missing:  # pragma: no cover - exercised by a subprocess test
    from mcp_client.frameworks._extra import missing_extra

    raise missing_extra("the OpenAI Agents SDK", "openai-agents", "openai_agents") from _missing

from mcp_client._client import Client
from mcp_client._errors import NoBackChannelError
from mcp_client._group.client_group import ClientGroup
from mcp_client.llm import _openai
from mcp_client.llm._bridge import ToolBridge
from mcp_client.llm._paused import PausingCaller, ToolCallPaused
from mcp_client.llm._view import ExportedTool, ModelReads, result_parts
from mcp_client.types import CallToolResult

__all__ = ["function_tools", "resumed_items"]


class _AgentsToolCallPaused(ToolCallPaused, AgentsException):
    """``ToolCallPaused`` as the SDK lets it through: an ``AgentsException`` is raised as it is."""

    model_arguments: str | None = None  # the arguments as the model sent them (a JSON string)


class _AgentsNoBackChannelError(NoBackChannelError, AgentsException):
    """``NoBackChannelError`` as the SDK lets it through, instead of a ``UserError`` wrapping it."""


def _as_agents_error(error: NoBackChannelError) -> _AgentsNoBackChannelError:
    return _AgentsNoBackChannelError(
        error.code,
        error.message,
        error.data,
        server=error.server,
        server_name=error.server_name,
        method=error.method,
    )


def resumed_items(paused: ToolCallPaused, result: CallToolResult) -> list[dict[str, Any]]:
    """The input items that finish a paused call: the model's ``function_call`` and its
    ``function_call_output`` for ``result`` (from ``await broker.resume(paused.call_id, client)``), as
    if the tool had answered in the run. Append them to the run's input and run again."""
    arguments = getattr(paused, "model_arguments", None) or json.dumps(paused.arguments)
    call_id = paused.tool_call_id
    output = _openai.chat_content(result_parts(paused.tool, result), result)
    return [
        {"type": "function_call", "call_id": call_id, "name": paused.tool.name, "arguments": arguments},
        {"type": "function_call_output", "call_id": call_id, "output": output},
    ]


def _tool(bridge: ToolBridge, exported: ExportedTool, strict: bool | None) -> FunctionTool:
    body = _openai.responses_tool(exported, strict)

    async def invoke(context: ToolContext[Any], arguments: str) -> str:
        try:
            tool, result = await bridge.call(exported.name, arguments)
        except ToolCallPaused as paused:
            stop = _AgentsToolCallPaused(
                paused.tool,
                paused.call,
                arguments=paused.arguments,
                server=paused.server,
                tool_call_id=context.tool_call_id,
            )
            stop.model_arguments = arguments
            raise stop from None
        except NoBackChannelError as error:
            raise _as_agents_error(error) from error.__cause__  # the server's own error, as before
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
    pause_with: PausingCaller | None = None,
    model_reads: ModelReads = "content",
) -> list[FunctionTool]:
    """The tools of ``client`` (a ``Client`` or ``ClientGroup``), filtered as in ``ToolBridge``;
    ``model_reads`` as in ``ToolBridge``.

    The list is a snapshot: call again after the server's ``list_changed`` to pick up new tools.
    ``pause_with`` (a ``QuestionBroker``): calls go through it, and a paused one ends the run with
    ``ToolCallPaused`` (see the module docstring).
    """
    bridge = ToolBridge(
        client, include=include, exclude=exclude, pause_with=pause_with, model_reads=model_reads
    )
    return [_tool(bridge, exported, strict) for exported in await bridge.tools()]
