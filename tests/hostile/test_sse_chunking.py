"""An SSE answer cut into one-byte pieces costs what it costs whole: parsing is linear.

The hostile server sends one event of about 30 kB as 30,000 HTTP chunks of one byte each (written at
once, so the network is not what is slow). A parser that rescans what it has buffered on every chunk
takes seconds of CPU for this and would miss the client's 10 s timeout under load; a linear one takes
a fraction of a second. The bound is the client's own ``timeout``, not a measured duration.
"""

from __future__ import annotations

import anyio
import pytest

from mcp_client import Client
from tests.hostile._leaks import no_leaks
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 30
MODES = ["legacy", "2026-07-28"]


@pytest.mark.parametrize("mode", MODES)
async def test_an_answer_in_thirty_thousand_one_byte_chunks_arrives(
    hostile: HostileServer, tag: str, mode: str
) -> None:
    async with no_leaks(), Client(hostile.url(tag), mode=mode, timeout=10) as client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("tiny_chunks", {"n": 30000})
    assert result.content[0].text == "x" * 30000  # type: ignore[union-attr]
