"""What the stdio transport promises about order and abandoned requests, on asyncio and on trio.

* A notification the server wrote before a response is handled before that response's caller
  resumes, however the bytes arrive (here: many log messages and the answer in one write), and a slow
  handler holds back the answer, not the other way round.
* A caller that gives up (a cancel scope, a timeout) leaves nothing behind: the answer that arrives
  afterwards is dropped without a warning, and the next call works.

On asyncio, the same again with stdout read through the subprocess transport (``DIRECT_STDOUT`` off,
as on Windows), so that path stays tested on Linux.
"""

from __future__ import annotations

import logging

import anyio
import pytest

from mcp_client import Client
from mcp_client.types import LoggingMessageNotificationParams
from tests.hostile._leaks import no_leaks
from tests.hostile.conftest import STDIO_BACKENDS, hostile_stdio, stdio_backend

pytestmark = pytest.mark.anyio

BOUND = 20


@pytest.fixture(params=STDIO_BACKENDS)
def anyio_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    return stdio_backend(request.param, monkeypatch)


async def _echo(client: Client, text: str) -> str:
    return (await client.call_tool("echo", {"text": text})).content[0].text  # type: ignore[union-attr]


@pytest.mark.parametrize("count", [1, 300])
async def test_notifications_written_before_an_answer_are_handled_before_its_caller_resumes(
    era: str, count: int
) -> None:
    """300 messages are more than the transport queues before it stops reading: it must resume."""
    seen: list[object] = []

    async def slow_log(params: LoggingMessageNotificationParams) -> None:
        if len(seen) < 2 or len(seen) >= count - 2:
            await anyio.sleep(0.1)  # the answer may be read by now: it must wait for us
        seen.append(params.data)

    client = Client(hostile_stdio(), mode=era, timeout=5, logging_callback=slow_log)
    async with no_leaks(), client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("logs_then_answer", {"n": count})
            seen.append(result.content[0].text)  # type: ignore[union-attr]
            assert seen == [*range(count), "answer"]
            assert await _echo(client, "after") == "after"


async def test_an_answer_after_its_caller_gave_up_is_dropped_quietly(
    era: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="mcp_client.stdio")
    async with no_leaks(), Client(hostile_stdio(), mode=era, timeout=5) as client:
        with anyio.fail_after(BOUND):
            with anyio.move_on_after(0.1) as scope:
                await client.call_tool("slow_echo", {"text": "too late", "delay": 0.5})
            assert scope.cancelled_caught
            # The server answers in order: by the time this answer is in, the late one was read.
            assert await _echo(client, "after") == "after"
            assert await _echo(client, "again") == "again"
    warnings = [r for r in caplog.records if r.name == "mcp_client.stdio" and r.levelno >= logging.WARNING]
    assert not warnings, [r.getMessage() for r in warnings]
    assert any("late answer to abandoned request" in r.getMessage() for r in caplog.records)
