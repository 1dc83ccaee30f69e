"""Protocol cases that spot mutation testing found unguarded.

* ``mode="auto"`` over stdio, against a legacy server that says nothing at all to ``server/discover``:
  the client falls back to the ``initialize`` handshake. (A subprocess's first answer may wait for its
  cold start, so the probe waits longer than ``timeout``; the test shortens that grace.)
* A list endpoint that repeats its ``nextCursor`` fails after the second page, not at the page cap.
"""

from __future__ import annotations

import sys

import anyio
import pytest

from mcp_client import Client, StdioServerParameters
from mcp_client._errors import ProtocolError
from mcp_client._transports import stdio as _stdio
from tests.hostile._leaks import no_leaks
from tests.hostile.conftest import STDIO_SCRIPT, HostileServer

pytestmark = pytest.mark.anyio

BOUND = 15


async def test_auto_over_stdio_falls_back_when_a_legacy_server_ignores_discover(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A cold-start grace of 2 s (10 s by default) and a timeout of 3 s: short enough for a quick test,
    # long enough for the subprocess to start and answer initialize on a loaded machine.
    monkeypatch.setattr(_stdio, "_STARTUP_GRACE_SECONDS", 2.0)
    server = StdioServerParameters(sys.executable, [str(STDIO_SCRIPT), "stdio", "--silent-discover"])
    async with no_leaks():
        with anyio.fail_after(BOUND):
            async with Client(server, mode="auto", timeout=3.0) as client:
                assert client.era == "legacy"
                assert client.protocol_version == "2025-11-25"
                result = await client.call_tool("echo", {"text": "legacy after all"})
    assert result.content[0].text == "legacy after all"  # type: ignore[union-attr]


async def test_a_repeated_next_cursor_fails_after_the_second_page(hostile: HostileServer, tag: str) -> None:
    async with no_leaks(), Client(hostile.url(tag) + "&repeat_cursor=1", mode="legacy", timeout=5) as client:
        with (
            anyio.fail_after(BOUND),
            pytest.raises(ProtocolError, match="repeated or invalid tools/list cursor"),
        ):
            await client.list_tools()
    pages = [m for m in hostile.requests(tag) if m.get("method") == "tools/list"]
    assert [p.get("params", {}).get("cursor") for p in pages] == [None, "page-2"]
