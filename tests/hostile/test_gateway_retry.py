"""A gateway answers 503 while the server behind it is redeployed: safe requests wait it out, calls do not.

The hostile server plays the gateway: its ``redeploy`` tool makes it answer the next POSTs with
``HTTP 503`` and an HTML page, as a proxy does while the server behind it restarts. A list (safe to
send twice) is retried with the client's backoff until the server is back; a tool call the server may
have run is not: its 503 is the answer.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from mcp_client import Client, Reconnect, ServerError
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 30
FAST = Reconnect(attempts=5, first_delay=0.05, max_delay=0.5)


def _posts(hostile: HostileServer, tag: str) -> list[dict[str, Any]]:
    return [
        e["body"] for e in hostile.entries(tag) if e["method"] == "POST" and isinstance(e.get("body"), dict)
    ]


async def test_a_list_waits_out_a_redeploy(hostile: HostileServer, tag: str, era: str) -> None:
    reconnects: list[str] = []
    async with Client(hostile.url(tag), mode=era, timeout=5, reconnect=FAST) as client:
        client.on_reconnect = lambda c: reconnects.append(c.server)
        await client.call_tool("redeploy", {"posts": 3})
        with anyio.fail_after(BOUND):
            tools = await client.list_tools(refresh=True)
        assert "redeploy" in [tool.name for tool in tools.tools]
    assert reconnects == [hostile.url(tag)]
    lists = [body for body in _posts(hostile, tag) if body.get("method") == "tools/list"]
    # The client's own listing after the first call (to check results), then the one the gateway
    # refused, and the same again once the server was back.
    assert len(lists) == 3


async def test_a_call_refused_by_the_gateway_is_not_sent_again(
    hostile: HostileServer, tag: str, era: str
) -> None:
    async with Client(hostile.url(tag), mode=era, timeout=5, reconnect=FAST) as client:
        await client.list_tools()
        await client.call_tool("redeploy", {"posts": 1})
        with anyio.fail_after(BOUND), pytest.raises(ServerError, match="HTTP 503") as caught:
            await client.call_tool("redeploy", {"posts": 0})
        assert caught.value.data == {"httpStatus": 503}
    calls = [body for body in _posts(hostile, tag) if body.get("method") == "tools/call"]
    assert len(calls) == 2


async def test_without_reconnect_a_redeploy_fails_the_list(hostile: HostileServer, tag: str) -> None:
    async with Client(hostile.url(tag), mode="2026-07-28", timeout=5, reconnect=False) as client:
        await client.list_tools()
        await client.call_tool("redeploy", {"posts": 1})
        with anyio.fail_after(BOUND), pytest.raises(ServerError, match="HTTP 503"):
            await client.list_tools(refresh=True)
