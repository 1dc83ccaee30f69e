"""``listen()`` against a raw server: a stream that closes, one that drops, and a server without listen."""

from __future__ import annotations

import tracemalloc

import anyio
import pytest

from mcp_client import Client, MCPError, Subscription, SubscriptionLostError
from mcp_client.types import ResourceUpdatedNotification, ServerNotification, ToolListChangedNotification
from tests.hostile.conftest import HostileServer, hostile_stdio

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


LIMIT = 1024
"""Distinct unread notices one subscription holds (``MAX_PENDING_NOTICES``, documented in the README)."""


async def _flood(client: Client, *, same: int, distinct: int) -> None:
    """Legacy stdio: the notices and then the tool's answer, on one pipe, so when the answer is back
    every notice before it has been offered to the subscription."""
    with anyio.fail_after(60):
        result = await client.call_tool("notice_flood", {"same": same, "distinct": distinct})
    assert result.content[0].text == "flooded"  # type: ignore[union-attr]


async def _read_all(subscription: Subscription) -> tuple[list[ServerNotification], str]:
    seen: list[ServerNotification] = []
    with anyio.fail_after(BOUND), pytest.raises(SubscriptionLostError) as caught:
        async for notice in subscription:
            seen.append(notice)
    return seen, str(caught.value)


async def test_an_unread_subscription_holds_its_limit_then_ends_lost_keeping_the_oldest() -> None:
    """Identical unread notices are merged; distinct ones are kept up to the limit, oldest first; the
    first one past it ends the subscription as lost (read what was kept, then listen again)."""
    async with Client(hostile_stdio(), mode="legacy") as client:
        async with client.listen(tools_list_changed=True, resource_subscriptions=["notes://all"]) as sub:
            await _flood(client, same=3000, distinct=LIMIT + 500)
            assert sub.ended  # before anyone read a single notice
            seen, lost = await _read_all(sub)
    assert f"more than {LIMIT} notices were left unread" in lost
    assert "listen() again" in lost
    assert len(seen) == LIMIT
    assert isinstance(seen[0], ToolListChangedNotification)  # 3000 of them, merged into one
    updates = [n.params.uri for n in seen[1:] if isinstance(n, ResourceUpdatedNotification)]
    assert updates == [f"notes://all/{index}" for index in range(LIMIT - 1)]  # the oldest, in order


async def test_what_an_unread_subscription_costs_stays_flat_past_its_limit() -> None:
    """Twenty times the limit costs about what the limit costs: notices past it are not kept."""
    async with Client(hostile_stdio(), mode="legacy") as client:
        async with client.listen(resource_subscriptions=["notes://all"]) as sub:
            tracemalloc.start()
            try:
                before = tracemalloc.get_traced_memory()[0]
                await _flood(client, same=0, distinct=LIMIT)
                at_limit = tracemalloc.get_traced_memory()[0] - before
                await _flood(client, same=0, distinct=20 * LIMIT)
                past_limit = tracemalloc.get_traced_memory()[0] - before
            finally:
                tracemalloc.stop()
            seen, _ = await _read_all(sub)
    assert len(seen) == LIMIT
    # Holding every notice would cost about 21 times what the limit costs; the margin is for the
    # buffers and caches that reading 20,000 lines leaves behind.
    assert past_limit < 4 * at_limit, (at_limit, past_limit)
