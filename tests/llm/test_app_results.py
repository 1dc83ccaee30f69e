"""``ToolBridge(client, on_app=...)``: a model's call of a tool that has a view (MCP Apps) is shown.

The server is ``app_tools_server.py`` (the official SDK's ``mcp.server.apps``): ``forecast`` has a view
and answers text plus ``structuredContent``; ``echo`` has none. The host (``on_app``) gets the server's
tool name, the arguments and the whole result, and the bridge waits for it; the model reads the text
``content`` only (``structuredContent`` is the view's), even with ``model_reads="structured"``. The real
OpenAI SDK carries the chat loop to the fake endpoint; Anthropic and Gemini through their ``run_*``.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
import openai
import pytest

from mcp_client import Client, ClientGroup, StdioServerParameters
from mcp_client.llm import ToolBridge
from mcp_client.types import CallToolResult
from tests.llm import fake_provider as fake
from tests.llm.fake_provider import FakeProvider
from tests.support.servers import SERVERS_DIR, stdio_command

pytestmark = pytest.mark.anyio

APPS = StdioServerParameters(*stdio_command(SERVERS_DIR / "app_tools_server.py"))
BOUND = 120  # seconds: generous, for a busy machine
OSLO = {"city": "Oslo"}
TEXT = "Sunny in Oslo, 21 C"
STRUCTURED = {"city": "Oslo", "celsius": 21}

Shown = list[tuple[str, dict[str, Any], CallToolResult]]


def _openai(provider: FakeProvider) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(api_key="test", base_url=provider.url + "/v1", max_retries=0)


def _chat_call(name: str) -> dict[str, Any]:
    return {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(OSLO)}}


async def test_the_view_gets_the_whole_result_and_the_model_the_text(fake_provider: FakeProvider) -> None:
    """Through the real OpenAI SDK: ``on_app`` (async, slow) has shown the result, structured data and
    all, before ``run_openai`` returns; what the SDK sends back to the model is the text alone."""
    shown: Shown = []

    async def on_app(name: str, arguments: dict[str, Any], result: CallToolResult) -> None:
        await anyio.sleep(0.2)  # a host still rendering: the bridge waits for it
        shown.append((name, arguments, result))

    fake_provider.reply(fake.chat_tool_call("forecast", OSLO), fake.chat_text("It is sunny."))
    with anyio.fail_after(BOUND):
        async with Client(APPS) as client, _openai(fake_provider) as model:
            bridge = ToolBridge(client, on_app=on_app, model_reads="structured")
            tools = await bridge.openai_tools()
            messages: list[Any] = [{"role": "user", "content": "Weather in Oslo?"}]
            response = await model.chat.completions.create(model="gpt-test", messages=messages, tools=tools)
            message = response.choices[0].message
            messages.append(message.model_dump(exclude_none=True))
            for call in message.tool_calls or []:
                messages.append(await bridge.run_openai(call))
                assert len(shown) == 1  # shown before the model's answer is handed back
            await model.chat.completions.create(model="gpt-test", messages=messages, tools=tools)

    [(name, arguments, result)] = shown
    assert (name, arguments) == ("forecast", OSLO)
    assert result.structured_content == STRUCTURED
    assert [block.text for block in result.content] == [TEXT]  # type: ignore[union-attr]
    _, second = fake_provider.bodies("/chat/completions")
    assert second["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": TEXT}


async def test_every_provider_format_shows_the_view_and_gives_the_model_the_text() -> None:
    """A sync ``on_app``; Anthropic, Gemini and OpenAI Responses all show the view; a tool without a
    view is not shown."""
    shown: list[str] = []

    def on_app(name: str, arguments: dict[str, Any], result: CallToolResult) -> None:
        shown.append(f"{name} {arguments['city']} {result.structured_content}")

    with anyio.fail_after(BOUND):
        async with Client(APPS) as client:
            bridge = ToolBridge(client, on_app=on_app)
            await bridge.anthropic_tools()
            claude = await bridge.run_anthropic({"id": "t1", "name": "forecast", "input": OSLO})
            gemini = await bridge.run_gemini({"name": "forecast", "args": OSLO})
            responses = await bridge.run_openai(
                {"type": "function_call", "call_id": "r1", "name": "forecast", "arguments": json.dumps(OSLO)}
            )
            echoed = await bridge.run_anthropic({"id": "t2", "name": "echo", "input": {"text": "hi"}})
            ran = json.loads((await client.call_tool("ran", {})).content[0].text)  # type: ignore[union-attr]

    assert claude["content"] == [{"type": "text", "text": TEXT}]
    assert gemini["function_response"]["response"] == {"output": TEXT}
    assert responses["output"] == TEXT
    assert echoed["content"] == [{"type": "text", "text": "hi"}]
    assert shown == [f"forecast Oslo {STRUCTURED}"] * 3
    assert ran == ["forecast", "forecast", "forecast", "echo"]


async def test_the_deprecated_flat_key_and_an_error_result_are_shown_too() -> None:
    """``_meta["ui/resourceUri"]`` names a view as well; a tool's error result is the view's to show
    (the model reads it as an error)."""
    shown: list[tuple[str, bool]] = []

    def on_app(name: str, arguments: dict[str, Any], result: CallToolResult) -> None:
        shown.append((name, result.is_error))

    with anyio.fail_after(BOUND):
        async with Client(APPS) as client:
            bridge = ToolBridge(client, on_app=on_app)
            await bridge.openai_tools()
            legacy = await bridge.run_openai(_chat_call("legacy_forecast"))
            storm = await bridge.run_openai(_chat_call("storm"))

    assert legacy["content"] == TEXT
    assert storm["content"] == "Error: No forecast for Oslo"
    assert shown == [("legacy_forecast", False), ("storm", True)]


async def test_a_failing_host_is_logged_and_the_model_still_gets_its_result(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def on_app(name: str, arguments: dict[str, Any], result: CallToolResult) -> None:
        raise RuntimeError("the browser is gone")

    with anyio.fail_after(BOUND), caplog.at_level(logging.ERROR, logger="mcp_client.llm"):
        async with Client(APPS) as client:
            bridge = ToolBridge(client, on_app=on_app)
            await bridge.gemini_tools()
            answer = await bridge.run_gemini({"name": "forecast", "args": OSLO})

    assert answer["function_response"]["response"] == {"output": TEXT}
    [record] = [r for r in caplog.records if r.name == "mcp_client.llm"]
    assert (
        record.getMessage() == "on_app could not show the view of 'forecast'; the model still gets its result"
    )
    assert "the browser is gone" in caplog.text


async def test_without_on_app_nothing_changes() -> None:
    """No host: the model reads what it always read (the structured result when asked for it)."""
    with anyio.fail_after(BOUND):
        async with Client(APPS) as client:
            bridge = ToolBridge(client, model_reads="structured")
            await bridge.anthropic_tools()
            claude = await bridge.run_anthropic({"id": "t1", "name": "forecast", "input": OSLO})
    assert claude["content"] == [{"type": "text", "text": json.dumps(STRUCTURED, separators=(",", ":"))}]


async def test_a_group_shows_the_view_under_the_groups_name_for_the_tool() -> None:
    shown: list[str] = []

    def on_app(name: str, arguments: dict[str, Any], result: CallToolResult) -> None:
        shown.append(name)

    config = {"mcpServers": {"weather": {"command": APPS.command, "args": APPS.args}}}
    with anyio.fail_after(BOUND):
        async with ClientGroup(config) as group:
            bridge = ToolBridge(group, on_app=on_app)
            await bridge.openai_tools()
            answer = await bridge.run_anthropic({"id": "t", "name": "weather_forecast", "input": OSLO})
    assert answer["content"] == [{"type": "text", "text": TEXT}]
    assert shown == ["weather_forecast"]
