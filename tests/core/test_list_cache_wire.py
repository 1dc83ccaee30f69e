"""The list cache on the wire (SEP-2549): one request for three listings while the server's ``ttlMs``
allows, a new one after its ``list_changed`` notice, ``refresh=True``, and a fresh list handed to
``list_changed_callback``. Against the official server (in-process) configured with cache hints.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from mcp.server.caching import CacheHint
from mcp.server.mcpserver import Context, MCPServer

from mcp_client import Client
from mcp_client._transports.in_process import InProcessTransport
from mcp_client.types import ListToolsResult
from tests.servers._asgi_body import read_body

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 30.0


class Server:
    """An official server with cache hints, and the methods of every request it received."""

    def __init__(self, hints: dict[str, CacheHint] | None) -> None:
        self.mcp = MCPServer("cache-hints", cache_hints=hints or {})  # type: ignore[arg-type]
        self.methods: list[str] = []
        mcp = self.mcp

        @mcp.tool()
        async def add_tool(name: str, ctx: Context) -> str:
            mcp.add_tool(lambda: "new", name=name)
            await ctx.notify_tools_changed()  # 2026-07-28: to the subscriptions/listen streams
            return "added"

        @mcp.prompt()
        def greet() -> str:
            return "hello"

    def transport(self) -> InProcessTransport:
        inner = self.mcp.streamable_http_app()

        async def app(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] != "http" or scope["method"] != "POST":
                await inner(scope, receive, send)
                return
            body, replay = await read_body(receive)
            self.methods.append(json.loads(body).get("method", "(response)"))
            await inner(scope, replay, send)

        return InProcessTransport(app)

    def count(self, method: str) -> int:
        return self.methods.count(method)


HINTS = {"tools/list": CacheHint(ttl_ms=60_000, scope="public"), "prompts/list": CacheHint(ttl_ms=60_000)}


async def test_three_listings_one_request_while_the_hint_allows() -> None:
    server = Server(HINTS)
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server.transport(), mode="2026-07-28") as client:
            for _ in range(3):
                tools = await client.list_tools()
                prompts = await client.list_prompts()
            assert [t.name for t in tools.tools] == ["add_tool"] and prompts.prompts[0].name == "greet"
            assert (server.count("tools/list"), server.count("prompts/list")) == (1, 1)
            await client.list_tools(refresh=True)
            assert server.count("tools/list") == 2


async def test_no_hint_no_cache() -> None:
    server = Server(None)
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server.transport(), mode="2026-07-28") as client:
            for _ in range(3):
                await client.list_tools()
    assert server.count("tools/list") == 3


async def test_a_list_changed_notice_forgets_and_the_callback_gets_the_fresh_list() -> None:
    server = Server(HINTS)
    fresh: list[ListToolsResult] = []
    arrived = anyio.Event()

    async def changed(result: Any) -> None:
        fresh.append(result)
        arrived.set()

    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server.transport(), mode="2026-07-28", list_changed_callback=changed) as client:
            assert len((await client.list_tools()).tools) == 1
            async with client.listen(tools_list_changed=True) as notices:
                await client.call_tool("add_tool", {"name": "late_tool"})
                async for _notice in notices:
                    break
            await arrived.wait()
            assert sorted(t.name for t in fresh[0].tools) == ["add_tool", "late_tool"]
            requests_before = server.count("tools/list")
            assert sorted(t.name for t in (await client.list_tools()).tools) == ["add_tool", "late_tool"]
            assert server.count("tools/list") == requests_before  # the callback's fetch is the cache
