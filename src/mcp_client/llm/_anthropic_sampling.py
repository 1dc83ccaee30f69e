"""``AnthropicSampling``: a ``sampling_callback`` answered by a Claude model (the Messages API)."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

from mcp_client.llm import _anthropic
from mcp_client.llm._sampling_common import (
    ProviderSampling,
    RequestTools,
    SamplingAnswer,
    answer,
    settle,
    tool_result_parts,
)
from mcp_client.llm._view import field_of
from mcp_client.types import (
    AudioContent,
    CreateMessageRequestParams,
    ImageContent,
    TextContent,
    ToolResultContent,
    ToolUseContent,
)

__all__ = ["AnthropicSampling"]

_STOP_REASONS = {
    "end_turn": "endTurn",
    "max_tokens": "maxTokens",
    "stop_sequence": "stopSequence",
    "tool_use": "toolUse",
}
_TOOL_CHOICE = {"auto": {"type": "auto"}, "required": {"type": "any"}, "none": {"type": "none"}}


def _block(block: Any, tools: RequestTools) -> dict[str, Any]:
    if isinstance(block, TextContent):
        return {"type": "text", "text": block.text}
    if isinstance(block, ImageContent):
        source = {"type": "base64", "media_type": block.mime_type, "data": block.data}
        return {"type": "image", "source": source}
    if isinstance(block, AudioContent):
        return {"type": "text", "text": f"[audio ({block.mime_type}) not supported by this model]"}
    if isinstance(block, ToolUseContent):
        name = tools.provider_name(block.name)
        return {"type": "tool_use", "id": block.id, "name": name, "input": block.input}
    assert isinstance(block, ToolResultContent)
    return {
        "type": "tool_result",
        "tool_use_id": block.tool_use_id,
        "content": _anthropic.content(tool_result_parts(block)),
        "is_error": bool(block.is_error),
    }


def _takes(method: Any, name: str) -> bool:
    try:
        parameters = inspect.signature(method).parameters
    except (TypeError, ValueError):
        return True
    return name in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


class AnthropicSampling(ProviderSampling):
    """``sampling_callback=AnthropicSampling(AsyncAnthropic(), model="claude-sonnet-4-5")``.

    As ``OpenAISampling``, for the Messages API: the system prompt goes as ``system``, tools as
    ``tools`` (``toolChoice`` ``required`` is Anthropic's ``any``), and ``tool_use`` blocks come back as
    MCP ``tool_use`` blocks.
    """

    def __init__(
        self,
        client: Any,
        *,
        model: str,
        models: Sequence[str] = (),
        request_options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(client, model, models)
        self._options = dict(request_options or {})

    def request(self, params: CreateMessageRequestParams) -> tuple[dict[str, Any], RequestTools]:
        """The Messages API request for ``params`` (and the tool names' way back)."""
        tools = RequestTools.of(params)
        messages = [
            {"role": m.role, "content": [_block(b, tools) for b in m.content_as_list]}
            for m in params.messages
        ]
        request: dict[str, Any] = {
            "model": self.model_for(params),
            "messages": messages,
            "max_tokens": params.max_tokens,
        }
        if params.system_prompt:
            request["system"] = params.system_prompt
        if params.temperature is not None and _takes(self._client.messages.create, "temperature"):
            request["temperature"] = params.temperature  # anthropic 2.x has no temperature: a hint, dropped
        if params.stop_sequences:
            request["stop_sequences"] = params.stop_sequences
        if tools.tools:
            request["tools"] = [_anthropic.tool(tool) for tool in tools.tools]
            mode = params.tool_choice.mode if params.tool_choice is not None else None
            if mode is not None:
                request["tool_choice"] = _TOOL_CHOICE[mode]
        request.update(self._options)
        return request, tools

    async def complete(self, params: CreateMessageRequestParams) -> SamplingAnswer:
        """The model's answer to ``params``; ``SamplingReview(sampling.complete)`` puts a person first."""
        request, tools = self.request(params)
        response = await settle(self._client.messages.create(**request))
        texts: list[str] = []
        uses: list[ToolUseContent] = []
        for block in field_of(response, "content") or []:
            kind = field_of(block, "type")
            if kind == "text":
                texts.append(field_of(block, "text"))
            elif kind == "tool_use":
                name = tools.server_name(field_of(block, "name"))
                uses.append(
                    ToolUseContent(id=field_of(block, "id"), name=name, input=field_of(block, "input"))
                )
        reason = field_of(response, "stop_reason")
        model = field_of(response, "model") or request["model"]
        return answer(texts, uses, model, _STOP_REASONS.get(reason, reason))
