"""``OpenAISampling``: a ``sampling_callback`` answered by an OpenAI model (Chat Completions).

Works with any client whose ``chat.completions.create`` speaks the Chat Completions API (``AsyncOpenAI``,
``OpenAI``, Azure, or another vendor's compatible endpoint via ``base_url``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mcp_client.llm import _openai
from mcp_client.llm._sampling_common import (
    ProviderSampling,
    RequestTools,
    SamplingAnswer,
    answer,
    settle,
    tool_result_parts,
)
from mcp_client.llm._view import field_of, parse_arguments, plain_text
from mcp_client.types import (
    AudioContent,
    CreateMessageRequestParams,
    ImageContent,
    SamplingMessage,
    TextContent,
    ToolResultContent,
    ToolUseContent,
)

__all__ = ["OpenAISampling"]

_STOP_REASONS = {
    "stop": "endTurn",
    "length": "maxTokens",
    "tool_calls": "toolUse",
    "function_call": "toolUse",
}
_TOOL_CHOICE = {"auto": "auto", "required": "required", "none": "none"}


def _messages(params: CreateMessageRequestParams, tools: RequestTools) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if params.system_prompt:
        out.append({"role": "system", "content": params.system_prompt})
    for message in params.messages:
        out.extend(_message(message, tools))
    return out


def _message(message: SamplingMessage, tools: RequestTools) -> list[dict[str, Any]]:
    blocks = message.content_as_list
    if message.role == "assistant":
        text = "".join(b.text for b in blocks if isinstance(b, TextContent))
        calls = [
            {
                "id": b.id,
                "type": "function",
                "function": {"name": tools.provider_name(b.name), "arguments": json.dumps(b.input)},
            }
            for b in blocks
            if isinstance(b, ToolUseContent)
        ]
        reply: dict[str, Any] = {"role": "assistant", "content": text or None}
        if calls:
            reply["tool_calls"] = calls
        return [reply]
    out: list[dict[str, Any]] = [
        {
            "role": "tool",
            "tool_call_id": b.tool_use_id,
            "content": plain_text(tool_result_parts(b), is_error=bool(b.is_error)),
        }
        for b in blocks
        if isinstance(b, ToolResultContent)
    ]
    parts: list[dict[str, Any]] = []
    for b in blocks:
        if isinstance(b, TextContent):
            parts.append({"type": "text", "text": b.text})
        elif isinstance(b, ImageContent):
            url = f"data:{b.mime_type};base64,{b.data}"
            parts.append({"type": "image_url", "image_url": {"url": url}})
        elif isinstance(b, AudioContent):
            audio_format = b.mime_type.rsplit("/", 1)[-1].replace("mpeg", "mp3").replace("x-wav", "wav")
            parts.append({"type": "input_audio", "input_audio": {"data": b.data, "format": audio_format}})
    if parts:
        out.append({"role": "user", "content": parts})
    return out


class OpenAISampling(ProviderSampling):
    """``sampling_callback=OpenAISampling(AsyncOpenAI(), model="gpt-4.1-mini")``.

    The server's messages, system prompt, ``maxTokens``, temperature and stop sequences go into one
    Chat Completions request; tools the server offers go as functions, and the model's tool calls come
    back as ``tool_use`` blocks (a ``CreateMessageResultWithTools``). ``models`` lists other models the
    server's ``modelPreferences`` hints may pick (substring match); ``request_options`` are added to
    every request (``{"reasoning_effort": "low"}``). ``SamplingReview(sampling.complete)``
    (``ui_adapters``) has a person see each request first.
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
        """The Chat Completions request for ``params`` (and the tool names' way back)."""
        tools = RequestTools.of(params)
        request: dict[str, Any] = {
            "model": self.model_for(params),
            "messages": _messages(params, tools),
            "max_completion_tokens": params.max_tokens,
        }
        if params.temperature is not None:
            request["temperature"] = params.temperature
        if params.stop_sequences:
            request["stop"] = params.stop_sequences
        if tools.tools:
            request["tools"] = [_openai.chat_tool(tool, False) for tool in tools.tools]
            mode = params.tool_choice.mode if params.tool_choice is not None else None
            if mode is not None:
                request["tool_choice"] = _TOOL_CHOICE[mode]
        request.update(self._options)
        return request, tools

    async def complete(self, params: CreateMessageRequestParams) -> SamplingAnswer:
        """The model's answer to ``params``; ``SamplingReview(sampling.complete)`` puts a person first."""
        request, tools = self.request(params)
        response = await settle(self._client.chat.completions.create(**request))
        choice = field_of(response, "choices")[0]
        message = field_of(choice, "message")
        uses: list[ToolUseContent] = []
        for call in field_of(message, "tool_calls") or []:
            function = field_of(call, "function")
            arguments, _ = parse_arguments(field_of(function, "arguments"))
            name = tools.server_name(field_of(function, "name"))
            uses.append(ToolUseContent(id=field_of(call, "id"), name=name, input=arguments or {}))
        reason = field_of(choice, "finish_reason")
        text = field_of(message, "content") or ""
        model = field_of(response, "model") or request["model"]
        return answer([text], uses, model, _STOP_REASONS.get(reason, reason))
