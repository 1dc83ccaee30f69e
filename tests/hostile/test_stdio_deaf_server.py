"""A stdio server that floods questions, answers the call, and never reads its stdin again.

The server writes 30,000 ``elicitation/create`` requests and the tool's answer in one burst, then sleeps
without reading. The client's refusals fill the stdin pipe, so anything else it writes waits for ever.
Reading stdout never depended on those writes; what held the result back was the tool listing the
client sends after a first call, to check the result against an output schema: written behind the
unread refusals, it waited for its deadline (the call's ``timeout``). Now the client sees that the
server is not reading and does not send it: the result comes back as fast as the lines arrive.

The client's ``timeout`` is 60 s and the test allows 30: the old client took the full 60 s (plus the
work), a machine however loaded reads 30,000 short lines in well under 30.
"""

from __future__ import annotations

import logging

import anyio
import pytest

from mcp_client import Client
from tests.hostile.conftest import STDIO_BACKENDS, hostile_stdio, stdio_backend

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

CLIENT_TIMEOUT = 60.0
BOUND = 30.0


@pytest.fixture(params=STDIO_BACKENDS)
def anyio_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    return stdio_backend(request.param, monkeypatch)


async def test_a_deaf_server_s_answer_arrives_without_waiting_for_a_deadline(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="mcp_client")
    with anyio.fail_after(BOUND + 15):  # the close waits out the server's shutdown grace too
        async with Client(hostile_stdio(), mode="legacy", timeout=CLIENT_TIMEOUT) as client:
            with anyio.fail_after(BOUND):
                result = await client.call_tool("deaf_flood_then_answer", {"n": 30_000, "hold": 120})
            assert result.content[0].text == "answered"  # type: ignore[union-attr]
    assert "is not reading what the client writes" in caplog.text
