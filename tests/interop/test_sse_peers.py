"""The older HTTP+SSE transport (2024-11-05) against two servers nobody here wrote.

server-everything's ``sse`` mode (TypeScript SDK) and FastMCP's SSE app: the handshake, a form
question pushed on the event stream and answered by POST, progress, and a plain call.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from mcp_client import Client
from mcp_client._transports.http_sse import SSETransport
from mcp_client.types import TextContent
from ui_adapters.canned import CannedAnswers

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 90.0


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


async def test_server_everything_over_sse(everything_sse_url: str) -> None:
    answers = CannedAnswers(fields={"name": "Ada"}, defaults=True)
    progress: list[float] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(SSETransport(everything_sse_url), elicitation_callback=answers) as client:
            assert client.era == "legacy"
            echoed = await client.call_tool("echo", {"message": "over sse"})
            asked = await client.call_tool("trigger-elicitation-request", {})
            slow = await client.call_tool(
                "trigger-long-running-operation", {"duration": 1, "steps": 3}, progress_callback=on_progress
            )
    assert "over sse" in text_of(echoed)
    assert '"name": "Ada"' in text_of(asked) or "Ada" in text_of(asked)
    assert answers.messages and len(progress) == 3
    assert "completed" in text_of(slow).lower()


async def test_fastmcp_over_sse(fastmcp_sse_url: str) -> None:
    answers = CannedAnswers(fields={"name": "Ada", "age": 36}, defaults=True)
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(
            SSETransport(fastmcp_sse_url), mode="legacy", elicitation_callback=answers
        ) as client:
            said = await client.call_tool("echo", {"text": "over sse"})
            asked = await client.call_tool("ask_profile", {})
    assert text_of(said) == "over sse"
    assert answers.messages and "accept" in text_of(asked)


async def test_a_plain_url_reaches_both_sse_peers(everything_sse_url: str, fastmcp_sse_url: str) -> None:
    """``Client(url)`` with no word about the transport: each server refuses ``initialize`` there, and the
    client finds the event stream."""
    for url in (everything_sse_url, fastmcp_sse_url):
        with anyio.fail_after(TEST_TIMEOUT):
            async with Client(url) as client:
                assert (client.transport_kind, client.era) == ("sse", "legacy")
                assert client.server_info is not None
