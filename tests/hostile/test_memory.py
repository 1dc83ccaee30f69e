"""Memory stays near ``max_message_bytes`` whatever comes off the wire, compressed or not.

Each case measures the peak of Python allocations (``tracemalloc``) while the client meets a body
that would be huge once read: a gzip-of-gzip bomb (a few hundred bytes on the wire, 64 MiB inflated)
as a JSON reply and as an SSE stream, a 64 MiB body on a redirect, and a gigabyte answering the
``DELETE`` that ends a session. The limit is 1 MiB; the peak must stay a small multiple of it.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager

import anyio
import pytest

from mcp_client import Client
from mcp_client._errors import ProtocolError
from tests.hostile._leaks import no_leaks
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

MAX_BYTES = 1024 * 1024
PEAK_LIMIT = 12 * MAX_BYTES
BOUND = 20


@contextmanager
def peak_memory() -> Iterator[list[int]]:
    """Yield a list that holds, after the block, the peak bytes allocated during it."""
    found: list[int] = []
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        yield found
        found.append(tracemalloc.get_traced_memory()[1] - base)
    finally:
        tracemalloc.stop()


def _client(hostile: HostileServer, tag: str, mode: str, url_extra: str = "") -> Client:
    return Client(hostile.url(tag) + url_extra, mode=mode, timeout=10, max_message_bytes=MAX_BYTES)


@pytest.mark.parametrize("sse", [False, True], ids=["json", "sse"])
async def test_a_stacked_gzip_bomb_is_refused_without_inflating_it(
    hostile: HostileServer, tag: str, era: str, sse: bool
) -> None:
    async with no_leaks(), _client(hostile, tag, era) as client:
        with peak_memory() as peak, anyio.fail_after(BOUND), pytest.raises(ProtocolError) as caught:
            await client.call_tool("gzip_bomb", {"layers": 2, "mb": 64, "sse": sse})
        assert f"larger than {MAX_BYTES} bytes" in str(caught.value)
        assert (await client.call_tool("echo", {"text": "after"})).content[0].text == "after"  # type: ignore[union-attr]
    assert peak[0] < PEAK_LIMIT, f"peak {peak[0] >> 20} MiB"


async def test_the_body_of_a_redirect_is_never_read(hostile: HostileServer, tag: str) -> None:
    location = hostile.url(tag).removeprefix(hostile.base) + "&redirected=1"
    async with no_leaks(), _client(hostile, tag, "legacy") as client:
        with peak_memory() as peak, anyio.fail_after(BOUND):
            result = await client.call_tool("redirect", {"status": 307, "location": location, "body_mb": 64})
        assert result.content[0].text == "arrived after the redirect"  # type: ignore[union-attr]
    assert peak[0] < PEAK_LIMIT, f"peak {peak[0] >> 20} MiB"


async def test_a_huge_answer_to_delete_is_not_read_on_close(hostile: HostileServer, tag: str) -> None:
    """Closing sends DELETE; the server answers with a gigabyte the client has no use for."""
    async with no_leaks():
        with peak_memory() as peak, anyio.fail_after(BOUND):
            async with _client(hostile, tag, "legacy", "&huge_delete=1") as client:
                assert client.session_id is not None
    assert peak[0] < PEAK_LIMIT, f"peak {peak[0] >> 20} MiB"
    deletes = [e for e in hostile.entries(tag) if e["method"] == "DELETE"]
    assert len(deletes) == 1
