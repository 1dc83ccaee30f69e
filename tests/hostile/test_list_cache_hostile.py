"""The list cache against a hostile stdio server: a ``ttlMs`` no float can hold, and a flood of
``list_changed`` notices that must not become a flood of ``tools/list`` requests (docs/servers.md)."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from mcp_client import Client
from mcp_client.types import ListToolsResult, TextContent
from tests.hostile.conftest import hostile_stdio

pytestmark = pytest.mark.anyio

BOUND = 60.0


async def served(client: Client) -> int:
    """How many ``tools/list`` requests the server has answered so far."""
    result = await client.call_tool("lists_served", {})
    block = result.content[0]
    assert isinstance(block, TextContent)
    return int(block.text)


@pytest.mark.parametrize(
    ("ttl", "cached"),
    [
        ("1" + "0" * 400, True),  # far past a float: capped at 24 hours, like any long hint
        ("-" + "1" * 400, False),  # far below: not kept
        ("1e400", False),  # a float that overflows to infinity: not a usable hint
        ("60000", True),
    ],
    ids=["400-digits", "minus-400-digits", "1e400", "a-minute"],
)
async def test_a_ttl_too_large_for_a_float_is_read_sanely(ttl: str, cached: bool) -> None:
    with anyio.fail_after(BOUND):
        async with Client(hostile_stdio(), mode="legacy") as client:
            await client.call_tool("serve_tool_lists", {"ttl": ttl})
            start = await served(client)  # the result of that call was checked against the tools
            for _ in range(3):
                assert [tool.name for tool in (await client.list_tools()).tools] == ["echo"]
            assert await served(client) - start == (0 if cached else 3)


async def test_a_flood_of_list_changed_notices_makes_at_most_two_requests() -> None:
    """2,000 notices: one refetch in flight and one queued at most, so at most two ``tools/list``; and the
    callback still gets the list as it is after the last notice."""
    fresh: list[ListToolsResult] = []
    arrived = anyio.Event()

    def changed(result: Any) -> None:
        fresh.append(result)
        arrived.set()

    with anyio.fail_after(BOUND):
        async with Client(hostile_stdio(), mode="legacy", list_changed_callback=changed) as client:
            await client.call_tool("serve_tool_lists", {"ttl": "60000"})
            start = await served(client)
            await client.call_tool("notice_flood", {"same": 2000})
            await arrived.wait()
            total, before = await served(client), -1
            while total != before:  # until the refetches have settled (a bound, never a fixed wait)
                await anyio.sleep(0.5)
                total, before = await served(client), total
            count = total - start
            # at most two refetches, plus the listing that checks the flood call's own result against
            # the tools' output schemas (forgotten by the notices too)
            assert 1 <= len(fresh) <= 2, f"{len(fresh)} refetches for 2,000 notices"
            assert count <= 3, f"{count} tools/list requests for 2,000 notices"
            assert [tool.name for tool in fresh[-1].tools] == ["echo"]
