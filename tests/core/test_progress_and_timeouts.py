"""Long calls: progress reaches the caller in order, and keeps the call alive past its timeout.

Against the official server (tests/servers/features_server.py) in both eras and both transports. The
durations are scaled down from the issue's (progress every 0.3 s for 3 s with a 1 s timeout): a client
that did not restart the timeout on progress fails the first of these tests at about 1 s.
"""

from __future__ import annotations

import time

import pytest

from mcp_client import Client, MCPTimeoutError
from tests.core.features import features_server, text_of

pytestmark = pytest.mark.anyio


async def test_progress_arrives_in_order(
    era: str, transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    server = features_server(transport, features_http_url, features_stdio_command)
    async with Client(server, mode=era) as client:
        result = await client.call_tool(
            "count", {"steps": 4, "interval": 0.01}, progress_callback=on_progress
        )
    assert text_of(result) == "counted to 4"
    assert seen == [(step, 4, f"step {step} of 4") for step in range(1, 5)]


async def test_a_tool_that_keeps_reporting_outlives_the_timeout(
    era: str, transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    steps: list[float] = []
    server = features_server(transport, features_http_url, features_stdio_command)
    async with Client(server, mode=era, timeout=1.0) as client:
        await client.send_ping()  # a subprocess's first answer gets a start-up grace: not this call
        result = await client.call_tool(
            "count", {"steps": 10, "interval": 0.3}, progress_callback=lambda p, t, m: steps.append(p)
        )
    assert text_of(result) == "counted to 10"
    assert steps == list(range(1, 11))


async def test_read_timeout_seconds_is_restarted_by_progress_too(
    era: str, transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    server = features_server(transport, features_http_url, features_stdio_command)
    async with Client(server, mode=era, timeout=60) as client:
        await client.send_ping()  # a subprocess's first answer gets a start-up grace: not this call
        result = await client.call_tool(
            "count",
            {"steps": 8, "interval": 0.3},
            read_timeout_seconds=1.0,
            progress_callback=lambda *a: None,
        )
    assert text_of(result) == "counted to 8"


async def test_a_silent_tool_fails_at_about_the_timeout(
    era: str, transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    server = features_server(transport, features_http_url, features_stdio_command)
    async with Client(server, mode=era, timeout=60) as client:
        await client.send_ping()  # the server has started: the clock below measures the call alone
        started = time.monotonic()
        with pytest.raises(MCPTimeoutError) as caught:
            await client.call_tool(
                "silent", {"seconds": 5}, read_timeout_seconds=1.0, progress_callback=lambda *a: None
            )
        elapsed = time.monotonic() - started
        assert 0.9 <= elapsed < 4.0, elapsed
        assert "within 1s" in str(caught.value) and "read_timeout_seconds" in str(caught.value)
        # The connection is still good for the next call.
        assert text_of(await client.call_tool("silent", {"seconds": 0})) == "silent for 0.0"


async def test_progress_without_a_callback_sends_no_token(features_http_url: str) -> None:
    async with Client(features_http_url, mode="2026-07-28") as client:
        plain = text_of(await client.call_tool("show_meta"))
        with_progress = text_of(await client.call_tool("show_meta", progress_callback=lambda *a: None))
    assert "progress" not in plain
    assert "progress_token" in with_progress
