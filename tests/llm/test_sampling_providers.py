"""Sampling answered by a real provider SDK (against the fake endpoint): the questions server's
``haiku`` asks for a completion, ``haiku_with_tools`` offers the model a tool.

What the SDK sent (system prompt, token limit, the model the hint chose, the tools) is read from the
fake's records; what the server got back is in the tool's result text.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import anthropic
import openai
import pytest
from google import genai
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from mcp_client import Client, StdioServerParameters
from mcp_client.llm import AnthropicSampling, GeminiSampling, OpenAISampling
from mcp_client.types import CreateMessageRequestParams
from tests.llm import fake_provider as fake
from tests.llm.fake_provider import FakeProvider
from tests.support.servers import QUESTIONS_SERVER, stdio_command
from tests.ui_adapters._terminal_helpers import PipeTerminal
from ui_adapters import SamplingReview

pytestmark = pytest.mark.anyio

SYSTEM = "You are a terse poet."


def _questions() -> StdioServerParameters:
    command, args = stdio_command(QUESTIONS_SERVER)
    return StdioServerParameters(command, args)


@asynccontextmanager
async def _openai(provider: FakeProvider) -> AsyncIterator[OpenAISampling]:
    async with openai.AsyncOpenAI(api_key="test", base_url=provider.url + "/v1", max_retries=0) as sdk:
        yield OpenAISampling(sdk, model="gpt-test", models=["gpt-haiku-mini"])


@asynccontextmanager
async def _anthropic(provider: FakeProvider) -> AsyncIterator[AnthropicSampling]:
    async with anthropic.AsyncAnthropic(api_key="test", base_url=provider.url, max_retries=0) as sdk:
        yield AnthropicSampling(sdk, model="claude-test", models=["claude-haiku-9"])


@asynccontextmanager
async def _gemini(provider: FakeProvider) -> AsyncIterator[GeminiSampling]:
    client = genai.Client(api_key="test", http_options={"base_url": provider.url})
    async with client.aio:
        yield GeminiSampling(client, model="gemini-test", models=["gemini-haiku-lite"])


Provider = tuple[
    Callable[[FakeProvider], AbstractAsyncContextManager[Any]], Callable[[str], dict[str, Any]], Any, str
]
PROVIDERS: dict[str, Provider] = {
    "openai": (_openai, fake.chat_text, fake.chat_tool_call, "/chat/completions"),
    "anthropic": (_anthropic, fake.anthropic_text, fake.anthropic_tool_use, "/messages"),
    "gemini": (_gemini, fake.gemini_text, fake.gemini_function_call, ":generateContent"),
}


@pytest.mark.parametrize("name", list(PROVIDERS))
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_a_server_question_answered_by_the_model(
    fake_provider: FakeProvider, name: str, mode: str
) -> None:
    sampling, text, _, path = PROVIDERS[name]
    fake_provider.reply(text("old pond, a frog"))
    async with (
        sampling(fake_provider) as callback,
        Client(_questions(), mode=mode, sampling_callback=callback) as c,
    ):
        result = await c.call_tool("haiku", {"topic": "rain"})
    (sent,) = fake_provider.bodies(path)
    assert result.content[0].text.endswith("stop=endTurn text=old pond, a frog")  # type: ignore[union-attr]
    if name == "openai":
        assert sent["model"] == "gpt-haiku-mini"  # the server's hint "haiku", among the app's models
        assert sent["max_completion_tokens"] == 60
        assert sent["messages"] == [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": [{"type": "text", "text": "Write a haiku about rain."}]},
        ]
    elif name == "anthropic":
        assert (sent["model"], sent["max_tokens"], sent["system"]) == ("claude-haiku-9", 60, SYSTEM)
        assert sent["messages"] == [
            {"role": "user", "content": [{"type": "text", "text": "Write a haiku about rain."}]}
        ]
    else:
        assert fake_provider.requests[0][0].endswith("/models/gemini-haiku-lite:generateContent")
        assert sent["generationConfig"]["maxOutputTokens"] == 60
        assert sent["systemInstruction"]["parts"] == [{"text": SYSTEM}]
        assert sent["contents"] == [{"role": "user", "parts": [{"text": "Write a haiku about rain."}]}]


@pytest.mark.parametrize("name", list(PROVIDERS))
async def test_the_model_asks_for_a_tool_the_server_offered(fake_provider: FakeProvider, name: str) -> None:
    sampling, _, tool_call, path = PROVIDERS[name]
    fake_provider.reply(tool_call("lookup", {"word": "rain"}))
    async with (
        sampling(fake_provider) as callback,
        Client(_questions(), sampling_callback=callback, sampling_capabilities={"tools": {}}) as client,
    ):
        result = await client.call_tool("haiku_with_tools", {"topic": "rain"})
    assert result.content[0].text.endswith("blocks=tool_use stop=toolUse")  # type: ignore[union-attr]
    (sent,) = fake_provider.bodies(path)
    if name == "openai":
        assert sent["tools"][0]["function"]["name"] == "lookup"
    elif name == "anthropic":
        assert sent["tools"][0]["name"] == "lookup"
    else:
        assert sent["tools"][0]["functionDeclarations"][0]["name"] == "lookup"


CONVERSATION = CreateMessageRequestParams.model_validate(
    {
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "What does rain mean?"}},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "u1", "name": "dict.lookup", "input": {"word": "rain"}}
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "toolUseId": "u1", "content": [{"type": "text", "text": "water"}]}
                ],
            },
        ],
        "maxTokens": 50,
        "tools": [{"name": "dict.lookup", "inputSchema": {"type": "object", "properties": {"word": {}}}}],
        "toolChoice": {"mode": "required"},
        "stopSequences": ["END"],
        "temperature": 0.2,
    }
)


@pytest.mark.parametrize("name", list(PROVIDERS))
async def test_tool_uses_and_results_in_the_conversation_reach_the_model(
    fake_provider: FakeProvider, name: str
) -> None:
    sampling, text, _, path = PROVIDERS[name]
    fake_provider.reply(text("Water from the sky."))
    async with sampling(fake_provider) as callback:
        answer = await callback.complete(CONVERSATION)
    assert answer.content.text == "Water from the sky."
    (sent,) = fake_provider.bodies(path)
    if name == "openai":
        assert sent["messages"][1]["tool_calls"][0]["function"] == {
            "name": "dict_lookup",  # the provider-safe name, mapped back when the model uses it
            "arguments": '{"word": "rain"}',
        }
        assert sent["messages"][2] == {"role": "tool", "tool_call_id": "u1", "content": "water"}
        assert (sent["tool_choice"], sent["stop"], sent["temperature"]) == ("required", ["END"], 0.2)
    elif name == "anthropic":
        assert sent["messages"][1]["content"][0]["name"] == "dict_lookup"
        assert sent["messages"][2]["content"] == [
            {
                "type": "tool_result",
                "tool_use_id": "u1",
                "content": [{"type": "text", "text": "water"}],
                "is_error": False,
            }
        ]
        assert sent["tool_choice"] == {"type": "any"}
    else:
        assert sent["contents"][1]["parts"][0]["functionCall"]["name"] == "dict_lookup"
        assert sent["contents"][2]["parts"][0]["functionResponse"] == {
            "id": "u1",
            "name": "dict_lookup",
            "response": {"output": "water"},
        }
        assert sent["toolConfig"] == {"functionCallingConfig": {"mode": "ANY"}}


async def test_a_tool_call_under_a_safe_name_comes_back_under_the_servers_name(
    fake_provider: FakeProvider,
) -> None:
    fake_provider.reply(fake.anthropic_tool_use("dict_lookup", {"word": "sky"}))
    async with _anthropic(fake_provider) as callback:
        answer = await callback.complete(CONVERSATION)
    assert [(b.type, b.name, b.input) for b in answer.content] == [
        ("tool_use", "dict.lookup", {"word": "sky"})
    ]  # type: ignore[union-attr]


async def test_sampling_review_sees_the_request_before_the_model(fake_provider: FakeProvider) -> None:
    with create_pipe_input() as keys:
        terminal = PipeTerminal(keys)
        keys.send_text("a\r")  # approve the request
        keys.send_text("y\r")  # send the model's answer back
        fake_provider.reply(fake.chat_text("old pond, a frog"))
        async with _openai(fake_provider) as sampling:
            review = SamplingReview(
                sampling.complete, console=terminal.console(), input=terminal.keys, output=DummyOutput()
            )
            async with Client(_questions(), mode="legacy", sampling_callback=review) as client:
                result = await client.call_tool("haiku", {"topic": "rain"})
    assert result.content[0].text.endswith("text=old pond, a frog")  # type: ignore[union-attr]
    assert "Write a haiku about rain." in terminal.text
