"""An SSE answer cut into one-byte pieces costs in proportion to its size: parsing is linear.

The hostile server sends one event as one HTTP chunk per byte, all at once (the network is not what
is slow). Parsing runs without yielding while the bytes are there, so a parser that rescans what it
has buffered on every chunk freezes the whole app, deadlines included, for seconds: about 10 s for
20,000 bytes, against 0.1 s for 2,000. The test compares the two sizes in the same run (a ratio, not a
duration): ten times the bytes must cost far less than a hundred times the time. The time is this
process's CPU (the parsing is ours; the hostile server's own time and the machine's other load stay
out of it), the least of three calls of each size.
"""

from __future__ import annotations

import time

import anyio
import pytest

from mcp_client import Client
from tests.hostile._leaks import no_leaks
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 60
SMALL = 2_000
LARGE = 20_000
MAX_RATIO = 30  # linear: about 10 (less, with the fixed cost of a request); quadratic: about 100


async def test_an_answer_in_one_byte_chunks_costs_in_proportion_to_its_size(
    hostile: HostileServer, tag: str, era: str
) -> None:
    async def timed(client: Client, n: int) -> float:
        start = time.process_time()
        result = await client.call_tool("tiny_chunks", {"n": n})
        assert result.content[0].text == "x" * n  # type: ignore[union-attr]
        return time.process_time() - start

    async with no_leaks(), Client(hostile.url(tag), mode=era, timeout=BOUND) as client:
        with anyio.fail_after(BOUND * 2):
            await timed(client, SMALL)  # warm up: connections, imports
            small = min([await timed(client, SMALL) for _ in range(3)])
            large = min([await timed(client, LARGE) for _ in range(3)])
    assert large < MAX_RATIO * small, f"{LARGE} bytes took {large / small:.0f} times as long as {SMALL}"
