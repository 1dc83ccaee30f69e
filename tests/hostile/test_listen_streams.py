"""``listen()`` against a raw server: a stream that closes, one that drops, and a server without listen."""

from __future__ import annotations

import anyio
import pytest

from mcp_client import Client, MCPError, SubscriptionLostError
from mcp_client.types import ServerNotification, ToolListChangedNotification
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 10.0


def _listens(hostile: HostileServer, tag: str) -> int:
    return sum(1 for body in hostile.requests(tag) if body.get("method") == "subscriptions/listen")


async def test_a_graceful_close_ends_the_loop_after_the_notices(hostile: HostileServer, tag: str) -> None:
    seen: list[ServerNotification] = []
    async with Client(hostile.url(tag) + "&listen=close", mode="2026-07-28") as client:
        with anyio.fail_after(BOUND):
            async with client.listen(tools_list_changed=True) as subscription:
                assert subscription.subscription_id is not None
                async for notice in subscription:
                    seen.append(notice)
    assert [type(n) for n in seen] == [ToolListChangedNotification]


async def test_a_dropped_stream_is_reported_lost_and_not_reissued(hostile: HostileServer, tag: str) -> None:
    seen: list[ServerNotification] = []
    async with Client(hostile.url(tag) + "&listen=drop", mode="2026-07-28") as client:
        with anyio.fail_after(BOUND), pytest.raises(SubscriptionLostError, match="listen\\(\\) again"):
            async with client.listen(tools_list_changed=True) as subscription:
                async for notice in subscription:
                    seen.append(notice)
    assert [type(n) for n in seen] == [ToolListChangedNotification]
    assert _listens(hostile, tag) == 1


async def test_a_server_without_listen_fails_the_async_with(hostile: HostileServer, tag: str) -> None:
    async with Client(hostile.url(tag), mode="2026-07-28") as client:
        with anyio.fail_after(BOUND), pytest.raises(MCPError) as caught:
            async with client.listen(tools_list_changed=True):
                pass
    assert caught.value.code == -32601
