"""``_session.list_cache``: how long a listing is kept, from the server's hints, and what forgets it."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from mcp_client._session.list_cache import MAX_TTL_SECONDS, ListCache, ListListing


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("pages", "ttl", "scope"),
    [
        ([{"ttlMs": 5000, "cacheScope": "public"}], 5.0, "public"),
        ([{"ttlMs": 5000, "cacheScope": "public"}, {"ttlMs": 2000}], 2.0, "private"),
        ([{"ttlMs": 5000}, {}], 0.0, "private"),  # a page with no hint: the listing is not kept
        ([{}], 0.0, "private"),  # legacy servers say nothing: nothing changes for them
        ([{"ttlMs": -5}], 0.0, "private"),
        ([{"ttlMs": True}], 0.0, "private"),
        ([{"ttlMs": "60000"}], 0.0, "private"),
        ([{"ttlMs": 10**15}], MAX_TTL_SECONDS, "private"),  # capped against hostile values
        ([], 0.0, "private"),
    ],
)
def test_hints_fold_into_one_lifetime(pages: list[dict[str, Any]], ttl: float, scope: str) -> None:
    listing = ListListing.of_pages([], pages)
    assert (listing.ttl_seconds, listing.scope) == (ttl, scope)


def test_kept_until_it_expires() -> None:
    clock = Clock()
    cache = ListCache(clock)
    cache.put("tools/list", ListListing.of_pages(["a"], [{"ttlMs": 3000}]))
    assert cache.get("tools/list") == ["a"]
    clock.now += 2.9
    assert cache.get("tools/list") == ["a"]
    clock.now += 0.2
    assert cache.get("tools/list") is None


def test_notices_forget_the_matching_lists() -> None:
    cache = ListCache(Clock())
    for method in ("tools/list", "prompts/list", "resources/list", "resources/templates/list"):
        cache.put(method, ListListing.of_pages([method], [{"ttlMs": 60000}]))
    assert cache.heard("notifications/tools/list_changed") == ("tools/list",)
    assert cache.get("tools/list") is None and cache.get("prompts/list") == ["prompts/list"]
    cache.heard("notifications/resources/list_changed")
    assert cache.get("resources/list") is None and cache.get("resources/templates/list") is None
    assert cache.heard("notifications/message") == ()
    cache.forget()
    assert cache.get("prompts/list") is None


def test_a_listing_fetched_across_a_notice_is_not_kept() -> None:
    cache = ListCache(Clock())
    generation = cache.generation
    cache.heard("notifications/tools/list_changed")
    cache.put("tools/list", ListListing.of_pages(["stale"], [{"ttlMs": 60000}]), generation)
    assert cache.get("tools/list") is None


def test_fetch_loads_once_and_refresh_bypasses() -> None:
    cache = ListCache(Clock())
    loads: list[int] = []

    async def load() -> ListListing:
        loads.append(1)
        return ListListing.of_pages([len(loads)], [{"ttlMs": 60000}])

    async def main() -> None:
        assert await cache.fetch("tools/list", load) == [1]
        assert await cache.fetch("tools/list", load) == [1]
        assert await cache.fetch("tools/list", load, refresh=True) == [2]
        assert await cache.fetch("tools/list", load) == [2]

    anyio.run(main)
    assert len(loads) == 2
