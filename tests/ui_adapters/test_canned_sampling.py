"""CannedSampling against the official server (tests/servers/questions_server.py), both eras, and alone."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_client import CallbackError, Client, ClientRequestContext, MCPError
from mcp_client.types import CreateMessageRequestParams, CreateMessageResult, TextContent
from tests.core.helpers import text_of
from ui_adapters import CannedSampling, UnansweredSamplingError
from ui_adapters.pytest_plugin import CannedSamplingFactory

pytestmark = pytest.mark.anyio


def params(prompt: str) -> CreateMessageRequestParams:
    return CreateMessageRequestParams.model_validate(
        {"messages": [{"role": "user", "content": {"type": "text", "text": prompt}}], "maxTokens": 5}
    )


CONTEXT = ClientRequestContext(server="s", server_info=None, protocol_version="2025-11-25", era="legacy")


async def test_the_fixture_answers_and_records(
    questions_http_url: str, canned_sampling: CannedSamplingFactory, era: str
) -> None:
    model = canned_sampling(by_prompt={r"haiku about rain": "drip, drop"}, model="canned-1")
    async with Client(questions_http_url, mode=era, sampling_callback=model) as client:
        result = await client.call_tool("haiku", {"topic": "rain"})
    assert text_of(result) == "model=canned-1 stop=endTurn text=drip, drop"
    assert model.prompts == ["Write a haiku about rain."]
    assert model.requests[0].system_prompt == "You are a terse poet."


async def test_by_prompt_then_script_then_default() -> None:
    refusal = MCPError(-1, "User rejected sampling request")
    own = CreateMessageResult(content=TextContent(text="own"), model="m2")

    def computed(context: ClientRequestContext, p: CreateMessageRequestParams) -> CreateMessageResult:
        return CreateMessageResult(content=TextContent(text=f"computed for {context.server}"), model="m3")

    model = CannedSampling(
        by_prompt={"^weather": "sunny"}, script=[own, computed, refusal], default="fallback"
    )
    answers = [await model(CONTEXT, params(p)) for p in ["weather today?", "a", "b"]]
    assert [a.content.text for a in answers] == ["sunny", "own", "computed for s"]  # type: ignore[union-attr]
    with pytest.raises(MCPError) as caught:
        await model(CONTEXT, params("c"))
    assert caught.value is refusal
    assert (await model(CONTEXT, params("d"))).content.text == "fallback"  # type: ignore[union-attr]
    assert model.prompts == ["weather today?", "a", "b", "c", "d"]
    model.assert_all_answered()


async def test_an_unanswered_request_fails_loudly_and_names_the_prompt(questions_http_url: str) -> None:
    model = CannedSampling(by_prompt={"snow": "white"})
    async with Client(questions_http_url, mode="2026-07-28", sampling_callback=model) as client:
        with pytest.raises(CallbackError) as caught:
            await client.call_tool("haiku", {"topic": "rain"})
    cause: Any = caught.value.__cause__
    assert isinstance(cause, UnansweredSamplingError)
    assert "prompt: 'Write a haiku about rain.'" in str(cause)
    assert "no by_prompt pattern matches ('snow')" in str(cause)
    with pytest.raises(UnansweredSamplingError):
        model.assert_all_answered()


def test_a_bad_canned_answer_is_refused_at_once() -> None:
    with pytest.raises(TypeError, match="canned sampling answer"):
        CannedSampling(script=[42])  # type: ignore[list-item]
