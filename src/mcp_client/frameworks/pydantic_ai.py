"""``MCPToolset``: an MCP ``Client``'s or ``ClientGroup``'s tools as a PydanticAI toolset.

::

    agent = Agent("openai:gpt-4.1", toolsets=[MCPToolset(client)])

Tool errors (``isError``, invalid arguments the server refused, arguments that cannot be sent at all,
or that the tool's own schema refuses where its export is looser: ``ToolBridge.call_tool``) are raised
as ``ModelRetry`` so the model sees them and may try again (within ``max_retries``); a
question the tool asks is answered through the client's ``elicitation_callback`` before the result
comes back. The tool returns its ``content`` (text, or text and images); with
``model_reads="structured"``, its ``structuredContent`` where it declares an ``outputSchema``.

A call the client's ``tool_policy`` (or the person its ``approval_callback`` asked) refuses is not run
and returns the refusal as the tool's result, as PydanticAI's own ``ToolDenied`` does: the model reads
that the user refused (and the note), with no ``ModelRetry``. The approval is decided in the run by the
client's ``approval_callback``; with ``approvals="deferred"`` PydanticAI's own human-in-the-loop flow
asks instead: a call the client's policy would ask about (nothing remembered) raises ``ApprovalRequired``
(metadata: ``mcp_server``, ``mcp_tool``, ``reason``: the rule), so the run ends with
``DeferredToolRequests.approvals``; pass ``DeferredToolResults(approvals={id: True})`` (or a
``ToolDenied``) to the next run and the approved call runs without asking the callback again (``deny``
patterns still hold; the audit line says the app answered).

With ``pause_with=broker`` (a ``QuestionBroker``), a 2026-07-28 server's question pauses the call
instead: the tool raises PydanticAI's ``CallDeferred``, so the run ends with ``DeferredToolRequests``
(the agent's ``output_type`` must include it), whose ``metadata[tool_call_id]["mcp_paused_call"]`` is
the paused call's id. Resume it with the broker, pass ``deferred_result(...)`` back in
``DeferredToolResults.calls``, and the model sees the tool's result.
"""

from __future__ import annotations

import base64
import copy
from collections.abc import Sequence
from typing import Any, Literal

try:
    from pydantic_ai import ApprovalRequired, BinaryContent, CallDeferred, ModelRetry, RunContext
    from pydantic_ai.tools import ToolDefinition
    from pydantic_ai.toolsets import AbstractToolset
    from pydantic_ai.toolsets.abstract import ToolsetTool
    from pydantic_core import SchemaValidator, core_schema
except ImportError as _missing:  # pragma: no cover - exercised by a subprocess test
    from mcp_client.frameworks._extra import missing_extra

    raise missing_extra("PydanticAI", "pydantic-ai", "pydantic_ai") from _missing


from mcp_client._approvals.gate import approved_by_app, gate_of
from mcp_client._client import Client
from mcp_client._group.client_group import ClientGroup
from mcp_client.llm._bridge import ToolBridge
from mcp_client.llm._paused import PausingCaller, ToolCallPaused
from mcp_client.llm._schema import description, root_of
from mcp_client.llm._view import (
    ImagePart,
    ModelReads,
    TextPart,
    is_denied,
    plain_text,
    result_parts,
    structured_output,
)
from mcp_client.types import CallToolResult

__all__ = ["MCPToolset"]

# The MCP server checks the arguments against its own schema; PydanticAI passes them through.
_ANY_ARGUMENTS = SchemaValidator(schema=core_schema.dict_schema())


class MCPToolset(AbstractToolset[Any]):
    """The tools of ``client`` (a ``Client`` or ``ClientGroup``) for a PydanticAI ``Agent``.

    ``include`` / ``exclude`` filter as in ``ToolBridge``; names are the bridge's provider-safe ones;
    ``model_reads`` (``"content"`` or ``"structured"``) is as in ``ToolBridge``.
    The tool list is read from the client's cache on each run step, so it follows ``list_changed``.
    ``pause_with`` (a ``QuestionBroker``): calls go through it, and a paused one is deferred (see the
    module docstring); the deferral's metadata holds ``mcp_paused_call``, ``mcp_server`` and ``mcp_tool``.
    ``approvals``: ``"callback"`` (the client's ``approval_callback`` asks, in the run) or ``"deferred"``
    (PydanticAI's ``ApprovalRequired`` flow asks; see the module docstring).
    """

    def __init__(
        self,
        client: Client | ClientGroup,
        *,
        include: Sequence[str] | None = None,
        exclude: Sequence[str] = (),
        max_retries: int = 1,
        id: str | None = None,
        pause_with: PausingCaller | None = None,
        model_reads: ModelReads = "content",
        approvals: Literal["callback", "deferred"] = "callback",
    ) -> None:
        if approvals not in ("callback", "deferred"):
            raise ValueError(f"MCPToolset(approvals={approvals!r}): approvals is 'callback' or 'deferred'")
        self.bridge: ToolBridge = ToolBridge(
            client, include=include, exclude=exclude, pause_with=pause_with, model_reads=model_reads
        )
        self.max_retries = max_retries
        self._id = id
        self._approvals = approvals

    @property
    def id(self) -> str | None:
        return self._id

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        tools: dict[str, ToolsetTool[Any]] = {}
        for exported in await self.bridge.tools():
            definition = ToolDefinition(
                name=exported.name,
                parameters_json_schema=copy.deepcopy(root_of(exported).schema),
                description=description(exported),
            )
            tools[exported.name] = ToolsetTool(
                toolset=self, tool_def=definition, max_retries=self.max_retries, args_validator=_ANY_ARGUMENTS
            )
        return tools

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        exported = self.bridge.tool_for(name)
        try:
            if self._approvals == "deferred" and ctx.tool_call_approved:
                with approved_by_app():  # the user approved it in PydanticAI's deferred flow
                    result = await self.bridge.call_tool(exported, tool_args)
            else:
                if self._approvals == "deferred":
                    await self._defer_if_asked(name, exported.original_name, exported)
                result = await self.bridge.call_tool(exported, tool_args)
        except ToolCallPaused as paused:
            metadata = {"mcp_paused_call": paused.call_id, "mcp_server": paused.server, "mcp_tool": name}
            raise CallDeferred(metadata=metadata) from paused
        if is_denied(result):  # as PydanticAI's own ToolDenied: the model reads why, no retry
            return plain_text(result_parts(exported, result), is_error=False)
        value = self.deferred_result(name, result)
        if isinstance(value, ModelRetry):
            raise value
        return value

    async def _defer_if_asked(self, name: str, tool: str, exported: Any) -> None:
        """``approvals="deferred"``: a call the client's policy would ask about ends the run with
        PydanticAI's ``ApprovalRequired`` instead of going to the ``approval_callback``."""
        client = self.bridge.client_for(exported)
        gate = gate_of(client)
        reason = await gate.needs_asking(tool) if gate is not None else None
        if reason is not None:
            metadata = {"mcp_server": exported.server or client.server, "mcp_tool": name, "reason": reason}
            raise ApprovalRequired(metadata=metadata)

    def deferred_result(self, name: str, result: CallToolResult) -> Any:
        """What the tool ``name`` returns for ``result``: put it in ``DeferredToolResults.calls`` under
        the call's ``tool_call_id`` once its paused call is resumed. A tool error is a ``ModelRetry``
        (the model sees it and may try again, as when the tool runs in the run itself); a refused
        call (its approval, paused with the broker, was denied) is what the model reads, no retry."""
        exported = self.bridge.tool_for(name)
        parts = result_parts(exported, result)
        if is_denied(result):  # as in the run: PydanticAI's own ToolDenied, the model reads why
            return plain_text(parts, is_error=False)
        if result.is_error:
            return ModelRetry(plain_text(parts, is_error=False))
        structured = structured_output(exported, result)
        if structured is not None:
            return structured
        if not any(isinstance(part, ImagePart) for part in parts):
            return plain_text(parts, is_error=False)
        out: list[Any] = []
        for part in parts:
            if isinstance(part, ImagePart):
                out.append(BinaryContent(data=base64.b64decode(part.data), media_type=part.mime_type))
            elif isinstance(part, TextPart):
                out.append(part.text)
            else:
                out.append(plain_text([part], is_error=False))
        return out
