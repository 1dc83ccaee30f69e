"""The list cache: ``tools/list``, ``prompts/list``, ``resources/list`` and ``resources/templates/list``
results kept for as long as the server's cache hints allow (SEP-2549, 2026-07-28 "Caching").

A list result may carry ``ttlMs`` (how long the client may reuse it) and ``cacheScope`` (``"public"``:
any user may share it; ``"private"``: only this authorization context). A listing that spans pages is
kept for the shortest ``ttlMs`` of its pages; a page without ``ttlMs`` (every legacy server, and modern
servers that give no hint) makes the whole listing uncacheable, so nothing changes for servers that say
nothing. Hints are capped at 24 hours against hostile values. The cache belongs to one ``Client`` (one
authorization context), so ``cacheScope`` does not change what is reused; it is kept for callers.

Hints are read sanely whatever their size: an integer too large for a float is capped like any long
hint, a negative one keeps nothing, a float that is not finite is no hint.

What forgets an entry: its time running out, the matching ``list_changed`` notice (a resources notice
forgets resource templates too), a reconnect (a new session may serve other lists), and
``refresh=True`` on a list call. Results fetched through an input round are never cached (the spec's
MUST); list calls have no input rounds.

``Refetches`` coalesces the background refetches that ``list_changed_callback`` asks for: at most one
refetch of a list in flight and one queued, whatever the number of notices (a server that sends 2,000
notices costs at most two requests, and the last list fetched is the one after the last notice).
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["LIST_METHODS", "MAX_TTL_SECONDS", "ListCache", "ListListing", "Refetches"]

MAX_TTL_SECONDS = 24 * 3600.0
"""The longest a listing is kept, whatever ``ttlMs`` says."""

LIST_METHODS = ("tools/list", "prompts/list", "resources/list", "resources/templates/list")

_FORGOTTEN_BY: dict[str, tuple[str, ...]] = {
    "notifications/tools/list_changed": ("tools/list",),
    "notifications/prompts/list_changed": ("prompts/list",),
    "notifications/resources/list_changed": ("resources/list", "resources/templates/list"),
}


@dataclass(frozen=True, slots=True)
class ListListing:
    """Every item of one listing, with the hints of its pages folded into one lifetime."""

    items: list[Any]
    ttl_seconds: float
    scope: str = "private"

    @classmethod
    def of_pages(cls, items: list[Any], pages: Sequence[Mapping[str, Any]]) -> ListListing:
        """The listing of ``items``, kept for the shortest page ``ttlMs`` (none on any page: not kept)."""
        ttl = math.inf
        public = bool(pages)
        for page in pages:
            hint = page.get("ttlMs")
            if isinstance(hint, bool) or not isinstance(hint, int | float):
                ttl = 0.0
            else:
                ttl = min(ttl, _hint_seconds(hint))
            public = public and page.get("cacheScope") == "public"
        if not pages:
            ttl = 0.0
        return cls(items, min(ttl, MAX_TTL_SECONDS), "public" if public else "private")


def _hint_seconds(hint: int | float) -> float:
    """``ttlMs`` in seconds, within 0 and ``MAX_TTL_SECONDS``; a float that is not finite is 0 (no hint).

    An integer is bounded before it is divided: one of hundreds of digits has no float.
    """
    if isinstance(hint, int):
        return min(max(hint, 0), _MAX_TTL_MS) / 1000
    if not math.isfinite(hint):
        return 0.0
    return min(max(hint / 1000, 0.0), MAX_TTL_SECONDS)


_MAX_TTL_MS = int(MAX_TTL_SECONDS * 1000)


@dataclass(slots=True)
class _Entry:
    listing: ListListing
    expires_at: float


class ListCache:
    """One client's cached listings by method (see the module docstring for what keeps and forgets them)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._entries: dict[str, _Entry] = {}
        self._generation = 0
        self.refetches = Refetches()

    def get(self, method: str) -> list[Any] | None:
        """The cached items of ``method``, or ``None`` if there are none (or they expired)."""
        entry = self._entries.get(method)
        if entry is None:
            return None
        if self._clock() >= entry.expires_at:
            del self._entries[method]
            return None
        return entry.listing.items

    def put(self, method: str, listing: ListListing, generation: int | None = None) -> None:
        """Keep ``listing`` for its lifetime, unless something was forgotten since ``generation`` was read.

        A listing fetched while a ``list_changed`` notice arrived may already be stale: pass the
        ``generation`` read before fetching, and such a listing is not kept.
        """
        if generation is not None and generation != self._generation:
            return
        if listing.ttl_seconds <= 0:
            self._entries.pop(method, None)
            return
        self._entries[method] = _Entry(listing, self._clock() + listing.ttl_seconds)

    @property
    def generation(self) -> int:
        """Counts every forgetting; read it before a fetch and hand it to ``put``."""
        return self._generation

    def forget(self, method: str | None = None) -> None:
        """Forget one method's listing, or every listing (a reconnect)."""
        self._generation += 1
        if method is None:
            self._entries.clear()
        else:
            self._entries.pop(method, None)

    def heard(self, notice_method: str) -> tuple[str, ...]:
        """Forget what a ``notifications/*/list_changed`` notice makes stale; return those list methods."""
        stale = _FORGOTTEN_BY.get(notice_method, ())
        if stale:
            self._generation += 1
            for method in stale:
                self._entries.pop(method, None)
        return stale

    async def fetch(
        self, method: str, load: Callable[[], Awaitable[ListListing]], *, refresh: bool = False
    ) -> list[Any]:
        """The cached items of ``method``, else ``load()``'s (kept as its hints allow)."""
        if not refresh:
            cached = self.get(method)
            if cached is not None:
                return list(cached)
        generation = self._generation
        listing = await load()
        self.put(method, listing, generation)
        return listing.items


class Refetches:
    """The background refetches of changed lists: at most one per list in flight and one queued.

    A notice calls ``wanted(method)``: ``True`` means start a refetch now; ``False`` that one is running
    and another is now queued behind it (however many notices ask). The running refetch, when done,
    calls ``again(method)``: ``True`` means fetch once more (a notice came meanwhile); ``False`` that it
    is the last. ``ended(method)`` forgets the list whatever happened (a failed or cancelled refetch).
    """

    __slots__ = ("_queued",)

    def __init__(self) -> None:
        self._queued: dict[str, bool] = {}
        """Lists with a refetch in flight, and whether another is queued behind it."""

    def wanted(self, method: str) -> bool:
        if method in self._queued:
            self._queued[method] = True
            return False
        self._queued[method] = False
        return True

    def again(self, method: str) -> bool:
        if self._queued.get(method):
            self._queued[method] = False
            return True
        self._queued.pop(method, None)
        return False

    def ended(self, method: str) -> None:
        self._queued.pop(method, None)
