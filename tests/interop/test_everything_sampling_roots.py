"""Sampling and roots against ``@modelcontextprotocol/server-everything`` (TypeScript SDK, legacy era only).

The server registers ``trigger-sampling-request`` only for a client that declared sampling, and
``get-roots-list`` only for one that declared roots. It asks for the roots by itself shortly after
the handshake (a question tied to no call: over HTTP it comes on the standalone GET stream), again
when the client sends ``notifications/roots/list_changed``, and shows what it last heard.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from mcp_client import Client, ClientRequestContext, MCPError, StdioServerParameters
from mcp_client.types import (
    CreateMessageRequestParams,
    CreateMessageResult,
    ListRootsResult,
    Root,
    TextContent,
)

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 60.0


@pytest.fixture
def server(transport: str, everything_url: str, everything_stdio_command: tuple[str, list[str]]) -> Any:
    if transport == "http":
        return everything_url
    command, args = everything_stdio_command
    return StdioServerParameters(command, args)


def only_text(result: Any) -> str:
    assert not result.is_error, result
    [block] = result.content
    assert isinstance(block, TextContent)
    return block.text


async def tool_names(client: Client) -> set[str]:
    return {tool.name for tool in (await client.list_tools()).tools}


async def test_sampling_and_roots_tools_only_with_their_callbacks(server: Any) -> None:
    async def model(context: ClientRequestContext, params: CreateMessageRequestParams) -> CreateMessageResult:
        raise AssertionError("not called")

    async def roots(context: ClientRequestContext) -> ListRootsResult:
        return ListRootsResult(roots=[])

    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server, mode="legacy") as client:
            bare = await tool_names(client)
        async with Client(
            server, mode="legacy", sampling_callback=model, list_roots_callback=roots
        ) as client:
            full = await tool_names(client)
    assert "trigger-sampling-request" not in bare and "get-roots-list" not in bare
    assert {"trigger-sampling-request", "get-roots-list"} <= full


async def test_the_models_answer_reaches_the_server(server: Any) -> None:
    asked: list[tuple[ClientRequestContext, CreateMessageRequestParams]] = []

    async def model(context: ClientRequestContext, params: CreateMessageRequestParams) -> CreateMessageResult:
        asked.append((context, params))
        return CreateMessageResult(
            content=TextContent(text="forty-two"), model="fake-model-2", stop_reason="endTurn"
        )

    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server, mode="legacy", sampling_callback=model) as client:
            result = await client.call_tool(
                "trigger-sampling-request", {"prompt": "the answer?", "maxTokens": 7}
            )
    text = only_text(result)
    assert text.startswith("LLM sampling result:")
    echoed = json.loads(text.split(":", 1)[1])
    assert echoed == {
        "role": "assistant",
        "content": {"type": "text", "text": "forty-two"},
        "model": "fake-model-2",
        "stopReason": "endTurn",
    }
    [(context, params)] = asked
    assert context.era == "legacy" and context.server_name == "Everything Reference Server"
    assert params.system_prompt == "You are a helpful test server."
    assert params.max_tokens == 7 and params.temperature == 0.7
    assert params.messages[0].content_as_list[0].text.endswith("context: the answer?")  # type: ignore[union-attr]


async def test_a_refusal_fails_the_servers_tool(server: Any) -> None:
    async def refuse(
        context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> CreateMessageResult:
        raise MCPError(-32001, "The user did not allow sampling")

    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server, mode="legacy", sampling_callback=refuse) as client:
            try:
                result = await client.call_tool("trigger-sampling-request", {"prompt": "?"})
            except MCPError as exc:
                reported = exc.message
            else:
                assert result.is_error
                reported = " ".join(getattr(block, "text", "") for block in result.content)
    assert "The user did not allow sampling" in reported


async def test_roots_and_their_change(server: Any) -> None:
    current = [Root(uri="file:///work/alpha", name="alpha")]
    asked_again = anyio.Event()

    async def roots(context: ClientRequestContext) -> ListRootsResult:
        if len(current) == 2:
            asked_again.set()
        return ListRootsResult(roots=list(current))

    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server, mode="legacy", list_roots_callback=roots) as client:
            first = only_text(await client.call_tool("get-roots-list", {}))
            assert "1. alpha\n   URI: file:///work/alpha" in first
            current[:] = [Root(uri="file:///work/beta", name="beta"), Root(uri="file:///work/gamma")]
            await client.send_roots_list_changed()
            await asked_again.wait()  # the server asks again on its own, in the background
            second = ""
            while "beta" not in second:  # its answer is stored once our reply reached it
                second = only_text(await client.call_tool("get-roots-list", {}))
                await anyio.sleep(0.05)
    assert "Current MCP Roots (2 total)" in second
    assert "1. beta\n   URI: file:///work/beta" in second
    assert "2. Unnamed Root\n   URI: file:///work/gamma" in second
