"""What the provider sampling callbacks share: the model to use, the request's tools, the answer.

A ``sampling/createMessage`` carries a conversation, a system prompt, limits, model preferences and,
with ``sampling.tools``, tools and tool results. Each provider module turns that into its request; the
pieces here are the ones that do not depend on the provider.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mcp_client._session.context import ClientRequestContext
from mcp_client.llm._names import provider_names
from mcp_client.llm._view import ExportedTool, Part, result_parts
from mcp_client.types import (
    CallToolResult,
    CreateMessageRequestParams,
    CreateMessageResult,
    CreateMessageResultWithTools,
    TextContent,
    ToolResultContent,
    ToolUseContent,
)

SamplingAnswer = CreateMessageResult | CreateMessageResultWithTools


class ProviderSampling:
    """What ``OpenAISampling``, ``AnthropicSampling`` and ``GeminiSampling`` share: the app's SDK client,
    the model to ask (``model_for``), and the ``sampling_callback`` signature over ``complete``."""

    def __init__(self, client: Any, model: str, models: Sequence[str]) -> None:
        self._client = client
        self._model = model
        self._models = tuple(models)

    def model_for(self, params: CreateMessageRequestParams) -> str:
        """The model for this request: one the server's hints name among ``models``, else ``model``."""
        return choose_model(params, self._model, self._models)

    async def __call__(
        self, context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> SamplingAnswer:
        """The ``sampling_callback``: the server's request answered by the model."""
        return await self.complete(params)

    async def complete(self, params: CreateMessageRequestParams) -> SamplingAnswer:
        """The model's answer to ``params``; ``SamplingReview(sampling.complete)`` puts a person first."""
        raise NotImplementedError


def choose_model(params: CreateMessageRequestParams, model: str, models: Sequence[str]) -> str:
    """``model``, unless a hint of the server's names one of ``models`` (the app's allowed list).

    The spec makes hints advisory and substring-matched ("claude-3" matches "claude-3-5-sonnet"); the
    server never picks a model the app did not allow.
    """
    preferences = params.model_preferences
    for hint in (preferences.hints or []) if preferences is not None else []:
        if hint.name:
            for candidate in models:
                if hint.name in candidate:
                    return candidate
    return model


@dataclass(frozen=True, slots=True)
class RequestTools:
    """The tools a sampling request offers, under provider-safe names, and the way back."""

    tools: list[ExportedTool]
    original: dict[str, str]

    @classmethod
    def of(cls, params: CreateMessageRequestParams) -> RequestTools:
        offered = params.tools or []
        names = provider_names(tool.name for tool in offered)
        exported = [ExportedTool(name, tool) for name, tool in zip(names, offered, strict=True)]
        return cls(exported, {tool.name: tool.original_name for tool in exported})

    def provider_name(self, name: str) -> str:
        for tool in self.tools:
            if tool.original_name == name:
                return tool.name
        return name

    def server_name(self, name: str) -> str:
        return self.original.get(name, name)


def tool_result_parts(block: ToolResultContent) -> list[Part]:
    """A tool result sent back to the model, as neutral parts."""
    result = CallToolResult(
        content=block.content, structured_content=block.structured_content, is_error=bool(block.is_error)
    )
    return result_parts(None, result)


def tool_names_by_id(params: CreateMessageRequestParams) -> dict[str, str]:
    """``{tool_use id: tool name}`` over the conversation (Gemini answers a call by name, not id)."""
    names: dict[str, str] = {}
    for message in params.messages:
        for block in message.content_as_list:
            if isinstance(block, ToolUseContent):
                names[block.id] = block.name
    return names


async def settle(value: Any) -> Any:
    """An SDK call's result, from an async client (awaited) or a sync one (as is)."""
    return await value if inspect.isawaitable(value) else value


def answer(
    texts: list[str], tool_uses: list[ToolUseContent], model: str, stop_reason: str | None
) -> SamplingAnswer:
    """The ``CreateMessageResult`` for the model's reply: plain text, or text and tool uses."""
    if tool_uses:
        content: list[Any] = [TextContent(text=t) for t in texts if t]
        return CreateMessageResultWithTools(
            content=[*content, *tool_uses], model=model, stop_reason=stop_reason or "toolUse"
        )
    return CreateMessageResult(content=TextContent(text="".join(texts)), model=model, stop_reason=stop_reason)
