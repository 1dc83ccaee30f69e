"""A whole tool loop per provider, with the real SDK against a fake endpoint on 127.0.0.1.

The model (the fake's scripted reply) asks for ``book_table`` on a full date; the bistro server asks the
user for another date; the canned answers reply; the tool's final result is what the SDK sends back to
the model in its next request. The model's mistakes (arguments that are not JSON, a tool that does not
exist) reach it as error results, never as exceptions in the app's loop.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic
import openai
import pytest
from google import genai
from google.genai import types as genai_types

from mcp_client import Client, ClientGroup, NoBackChannelError
from mcp_client.llm import ToolBridge
from tests.llm import fake_provider as fake
from tests.llm.conftest import BISTRO
from tests.llm.fake_provider import FakeProvider

pytestmark = pytest.mark.anyio

FULL = {"date": "2025-12-25", "party_size": 2}
QUESTION = "No tables for 2 on 2025-12-25. Would you like another date?"
BOOKED = "[SUCCESS] Booked for 2025-12-27"
# The official SDK declares an outputSchema for ``-> str`` ({"result": str}); the model reads the
# content (the text), not {"result": ...} (``model_reads="structured"`` gives that: test_bridge_edges.py).


def _openai(provider: FakeProvider) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(api_key="test", base_url=provider.url + "/v1", max_retries=0)


async def test_openai_chat_loop_reaches_the_question_and_the_answer(
    fake_provider: FakeProvider, canned_answers: Any
) -> None:
    answers = canned_answers(fields={"accept_alternative": True, "date": "2025-12-27"})
    fake_provider.reply(fake.chat_tool_call("book_table", FULL), fake.chat_text("Booked for the 27th."))
    async with (
        Client(BISTRO, mode="legacy", elicitation_callback=answers) as client,
        _openai(fake_provider) as model,
    ):
        bridge = ToolBridge(client)
        tools = await bridge.openai_tools()
        messages: list[Any] = [{"role": "user", "content": "A table for two on Christmas, please."}]
        response = await model.chat.completions.create(model="gpt-test", messages=messages, tools=tools)
        message = response.choices[0].message
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls or []:
            messages.append(await bridge.run_openai(call))
        final = await model.chat.completions.create(model="gpt-test", messages=messages, tools=tools)

    assert final.choices[0].message.content == "Booked for the 27th."
    assert answers.messages == [QUESTION]
    first, second = fake_provider.bodies("/chat/completions")
    assert first["tools"] == tools
    assert first["tools"][0]["function"]["name"] == "book_table"
    assert second["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": BOOKED}


async def test_openai_responses_loop(fake_provider: FakeProvider, canned_answers: Any) -> None:
    answers = canned_answers(fields={"accept_alternative": True, "date": "2025-12-27"})
    fake_provider.reply(fake.responses_function_call("book_table", FULL), fake.responses_text("Done."))
    async with (
        Client(BISTRO, mode="legacy", elicitation_callback=answers) as client,
        _openai(fake_provider) as model,
    ):
        bridge = ToolBridge(client)
        tools = await bridge.openai_responses_tools()
        response = await model.responses.create(model="gpt-test", input="Christmas for two", tools=tools)
        items: list[Any] = [item for item in response.output if item.type == "function_call"]
        outputs = [await bridge.run_openai(item) for item in items]
        final = await model.responses.create(model="gpt-test", input=outputs, tools=tools)

    assert final.output_text == "Done."
    assert answers.messages == [QUESTION]
    first, second = fake_provider.bodies("/responses")
    assert first["tools"][0]["type"] == "function" and first["tools"][0]["name"] == "book_table"
    assert second["input"] == [{"type": "function_call_output", "call_id": "call_1", "output": BOOKED}]


async def test_anthropic_loop(fake_provider: FakeProvider, canned_answers: Any) -> None:
    answers = canned_answers(fields={"accept_alternative": True, "date": "2025-12-27"})
    fake_provider.reply(fake.anthropic_tool_use("book_table", FULL), fake.anthropic_text("Booked."))
    model = anthropic.AsyncAnthropic(api_key="test", base_url=fake_provider.url, max_retries=0)
    async with Client(BISTRO, mode="legacy", elicitation_callback=answers) as client, model:
        bridge = ToolBridge(client)
        tools = await bridge.anthropic_tools()
        messages: list[Any] = [{"role": "user", "content": "Christmas for two"}]
        response = await model.messages.create(
            model="claude-test", max_tokens=100, messages=messages, tools=tools
        )
        messages.append({"role": "assistant", "content": [b.model_dump() for b in response.content]})
        results = [await bridge.run_anthropic(b) for b in response.content if b.type == "tool_use"]
        messages.append({"role": "user", "content": results})
        final = await model.messages.create(
            model="claude-test", max_tokens=100, messages=messages, tools=tools
        )

    assert final.content[0].type == "text" and final.content[0].text == "Booked."
    assert answers.messages == [QUESTION]
    first, second = fake_provider.bodies("/messages")
    assert first["tools"] == tools
    assert second["messages"][-1]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": "toolu_1",
            "content": [{"type": "text", "text": BOOKED}],
            "is_error": False,
        }
    ]


async def test_gemini_loop(fake_provider: FakeProvider, canned_answers: Any) -> None:
    answers = canned_answers(fields={"accept_alternative": True, "date": "2025-12-27"})
    fake_provider.reply(fake.gemini_function_call("book_table", FULL), fake.gemini_text("Booked."))
    gemini = genai.Client(api_key="test", http_options={"base_url": fake_provider.url})
    async with Client(BISTRO, mode="legacy", elicitation_callback=answers) as client, gemini.aio as model:
        bridge = ToolBridge(client)
        config = genai_types.GenerateContentConfig(tools=await bridge.gemini_tools())
        contents: list[Any] = [genai_types.Content(role="user", parts=[genai_types.Part(text="Christmas")])]
        response = await model.models.generate_content(model="gemini-test", contents=contents, config=config)
        assert response.candidates and response.candidates[0].content
        contents.append(response.candidates[0].content)
        parts = [await bridge.run_gemini(call) for call in response.function_calls or []]
        contents.append({"role": "user", "parts": parts})
        final = await model.models.generate_content(model="gemini-test", contents=contents, config=config)

    assert final.text == "Booked."
    assert answers.messages == [QUESTION]
    first, second = fake_provider.bodies(":generateContent")
    declaration = first["tools"][0]["functionDeclarations"][0]
    assert declaration["name"] == "book_table"
    assert set(declaration["parameters"]["properties"]) == {"date", "party_size"}
    assert second["contents"][-1]["parts"] == [
        {"functionResponse": {"name": "book_table", "response": {"output": BOOKED}}}
    ]


async def test_the_models_mistakes_come_back_as_error_results(
    fake_provider: FakeProvider, canned_answers: Any
) -> None:
    answers = canned_answers()  # nothing is asked: no call reaches the bistro's question
    async with Client(BISTRO, mode="legacy", elicitation_callback=answers) as client:
        bridge = ToolBridge(client)
        await bridge.openai_tools()
        bad_json = {"id": "c1", "type": "function", "function": {"name": "book_table", "arguments": "{date:"}}
        unknown = {"id": "c2", "type": "function", "function": {"name": "order_wine", "arguments": "{}"}}
        wrong_args = {"type": "tool_use", "id": "t1", "name": "book_table", "input": {"party_size": "two"}}
        not_json = await bridge.run_openai(bad_json)
        no_tool = await bridge.run_openai(unknown)
        refused = await bridge.run_anthropic(wrong_args)
        no_gemini_tool = await bridge.run_gemini({"name": "order_wine", "args": {}})

    assert not_json["tool_call_id"] == "c1"
    assert not_json["content"].startswith("Error: The call to book_table was not run: the arguments are not")
    assert no_tool["content"] == "Error: There is no tool named 'order_wine'. The tools are: book_table."
    assert refused["is_error"] is True
    assert "date" in json.dumps(refused["content"])
    assert no_gemini_tool["function_response"]["response"]["error"].startswith("There is no tool named")
    assert answers.questions == []


async def test_a_legacy_only_question_stops_the_loop_with_the_fix(
    fake_provider: FakeProvider, canned_answers: Any, guide_stdio_command: tuple[str, list[str]]
) -> None:
    """A ``ctx.elicit`` tool on a 2026-07-28 connection: the app gets ``NoBackChannelError`` (the person
    must change ``mode``), never an error result the model would read and retry."""
    answers = canned_answers(fields={"accept_alternative": True, "date": "2025-12-27"})
    command, args = guide_stdio_command
    config = {"mcpServers": {"guide": {"command": command, "args": args, "mode": "2026-07-28"}}}
    fake_provider.reply(fake.chat_tool_call("guide_book_table", FULL), fake.chat_text("unreachable"))
    async with ClientGroup(config, elicitation_callback=answers) as group, _openai(fake_provider) as model:
        bridge = ToolBridge(group, include=["guide_book_table"])
        tools = await bridge.openai_tools()
        messages: list[Any] = [{"role": "user", "content": "A table for two on Christmas, please."}]
        response = await model.chat.completions.create(model="gpt-test", messages=messages, tools=tools)
        [call] = response.choices[0].message.tool_calls or []
        with pytest.raises(NoBackChannelError) as caught:
            await bridge.run_openai(call)
        with pytest.raises(NoBackChannelError):
            use = {"type": "tool_use", "id": "t1", "name": "guide_book_table", "input": FULL}
            await bridge.run_anthropic(use)
        with pytest.raises(NoBackChannelError):
            await bridge.run_gemini({"name": "guide_book_table", "args": FULL})

    assert 'Client(..., mode="legacy")' in str(caught.value)
    assert '"mode": "legacy" for this server' in str(caught.value)
    assert "elicitation/create" in str(caught.value)
    assert len(fake_provider.bodies("/chat/completions")) == 1  # the model was never sent the error
    assert answers.messages == []
