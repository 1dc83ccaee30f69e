"""``GeminiSampling``: a ``sampling_callback`` answered by a Gemini model (``google-genai``)."""

from __future__ import annotations

import base64
import itertools
from collections.abc import Sequence
from typing import Any

from mcp_client.llm import _gemini
from mcp_client.llm._sampling_common import (
    ProviderSampling,
    RequestTools,
    SamplingAnswer,
    answer,
    settle,
    tool_names_by_id,
    tool_result_parts,
)
from mcp_client.llm._view import field_of, plain_text
from mcp_client.types import (
    AudioContent,
    CreateMessageRequestParams,
    ImageContent,
    TextContent,
    ToolResultContent,
    ToolUseContent,
)

__all__ = ["GeminiSampling"]

_STOP_REASONS = {"STOP": "endTurn", "MAX_TOKENS": "maxTokens"}
_TOOL_MODE = {"auto": "AUTO", "required": "ANY", "none": "NONE"}
_call_ids = itertools.count(1)


def _part(block: Any, tools: RequestTools, names: dict[str, str]) -> dict[str, Any]:
    if isinstance(block, TextContent):
        return {"text": block.text}
    if isinstance(block, ImageContent | AudioContent):
        return {"inline_data": {"mime_type": block.mime_type, "data": base64.b64decode(block.data)}}
    if isinstance(block, ToolUseContent):
        call = {"name": tools.provider_name(block.name), "args": block.input, "id": block.id}
        return {"function_call": call}
    assert isinstance(block, ToolResultContent)
    name = tools.provider_name(names.get(block.tool_use_id, block.tool_use_id))
    text = plain_text(tool_result_parts(block), is_error=False)
    body = {"error": text} if block.is_error else {"output": text}
    return {"function_response": {"name": name, "id": block.tool_use_id, "response": body}}


def _reason_name(reason: Any) -> str | None:
    if reason is None:
        return None
    name = getattr(reason, "name", None) or str(reason)
    return _STOP_REASONS.get(name, name)


class GeminiSampling(ProviderSampling):
    """``sampling_callback=GeminiSampling(genai.Client(), model="gemini-2.5-flash")``.

    As ``OpenAISampling``, through ``client.aio.models.generate_content``: the system prompt goes as
    ``system_instruction``, tools as function declarations (``toolChoice`` as the function calling
    mode), the model's function calls come back as ``tool_use`` blocks (with an id made up when Gemini
    gave none).
    """

    def __init__(
        self,
        client: Any,
        *,
        model: str,
        models: Sequence[str] = (),
        config: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(client, model, models)
        self._config = dict(config or {})

    def request(self, params: CreateMessageRequestParams) -> tuple[dict[str, Any], RequestTools]:
        """The ``generate_content`` keyword arguments for ``params`` (and the tool names' way back)."""
        tools = RequestTools.of(params)
        names = tool_names_by_id(params)
        contents = [
            {
                "role": "model" if m.role == "assistant" else "user",
                "parts": [_part(b, tools, names) for b in m.content_as_list],
            }
            for m in params.messages
        ]
        config: dict[str, Any] = {"max_output_tokens": params.max_tokens}
        if params.system_prompt:
            config["system_instruction"] = params.system_prompt
        if params.temperature is not None:
            config["temperature"] = params.temperature
        if params.stop_sequences:
            config["stop_sequences"] = params.stop_sequences
        if tools.tools:
            config["tools"] = [{"function_declarations": [_gemini.declaration(t) for t in tools.tools]}]
            config["automatic_function_calling"] = {"disable": True}
            mode = params.tool_choice.mode if params.tool_choice is not None else None
            if mode is not None:
                config["tool_config"] = {"function_calling_config": {"mode": _TOOL_MODE[mode]}}
        config.update(self._config)
        model = self.model_for(params)
        return {"model": model, "contents": contents, "config": config}, tools

    async def complete(self, params: CreateMessageRequestParams) -> SamplingAnswer:
        """The model's answer to ``params``; ``SamplingReview(sampling.complete)`` puts a person first."""
        request, tools = self.request(params)
        models = self._client.aio.models if hasattr(self._client, "aio") else self._client.models
        response = await settle(models.generate_content(**request))
        candidate = (field_of(response, "candidates") or [None])[0]
        content = field_of(candidate, "content")
        texts: list[str] = []
        uses: list[ToolUseContent] = []
        for part in field_of(content, "parts") or []:
            call = field_of(part, "function_call")
            if call is not None:
                call_id = field_of(call, "id") or f"gemini-call-{next(_call_ids)}"
                name = tools.server_name(field_of(call, "name"))
                uses.append(ToolUseContent(id=call_id, name=name, input=field_of(call, "args") or {}))
            elif field_of(part, "text"):
                texts.append(field_of(part, "text"))
        model = field_of(response, "model_version") or request["model"]
        # Gemini says STOP after a function call too; MCP says toolUse.
        reason = "toolUse" if uses else _reason_name(field_of(candidate, "finish_reason"))
        return answer(texts, uses, model, reason)
