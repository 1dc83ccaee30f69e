"""Hostile bytes on a stdio server's stdout and stderr: clear errors, nothing lost, nothing leaked.

The script ``hostile_stdio_server.py`` writes exactly the bytes each tool name asks for.
"""

from __future__ import annotations

import json

import anyio
import pytest

from mcp_client import Client
from mcp_client._errors import (
    MCPClientError,
    MCPConnectionError,
    MCPTimeoutError,
    ProtocolError,
    ServerExitedError,
)
from tests.hostile._leaks import no_leaks
from tests.hostile.conftest import STDIO_BACKENDS, hostile_stdio, stdio_backend

pytestmark = pytest.mark.anyio

TIMEOUT = 1.5  # only for the calls that are meant to time out (read_timeout_seconds=TIMEOUT)
PATIENT = 30.0  # every other call: on a loaded machine a slow answer must not become a timeout
MAX_BYTES = 1024 * 1024
BOUND = 20


@pytest.fixture(params=STDIO_BACKENDS)
def anyio_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    return stdio_backend(request.param, monkeypatch)


def _client(mode: str = "legacy", *, reconnect: bool = True) -> Client:
    return Client(
        hostile_stdio(), mode=mode, timeout=PATIENT, max_message_bytes=MAX_BYTES, reconnect=reconnect
    )


async def _echo(client: Client, text: str) -> str:
    return (await client.call_tool("echo", {"text": text})).content[0].text  # type: ignore[union-attr]


async def test_garbage_lines_are_skipped_and_the_first_answer_wins(era: str) -> None:
    """Non-JSON lines, invalid UTF-8, JSON that is not JSON-RPC, a response for an unknown id, one with
    no id, an unknown notification, then our answer and a duplicate of it."""
    async with no_leaks(), _client(era) as client:
        assert await _echo(client, "before") == "before"
        with anyio.fail_after(BOUND):
            result = await client.call_tool("noise_then_answer", {})
        assert result.content[0].text == "first"  # type: ignore[union-attr]
        assert await _echo(client, "after") == "after"


async def test_an_answer_with_result_and_error_fails_that_call_at_once(era: str) -> None:
    """The malformed line carries our id: waiting out the timeout for it would hide what happened."""
    async with no_leaks(), _client(era) as client:
        with anyio.fail_after(BOUND), pytest.raises(ProtocolError, match="both or neither"):
            await client.call_tool("result_and_error", {})
        assert await _echo(client, "after") == "after"


@pytest.mark.parametrize("tool", ["silent", "no_id"])
async def test_no_usable_answer_times_out_and_the_client_recovers(tool: str) -> None:
    async with no_leaks(), _client() as client:
        with anyio.fail_after(BOUND), pytest.raises(MCPTimeoutError, match=r"no answer within 1\.5s"):
            await client.call_tool(tool, {}, read_timeout_seconds=TIMEOUT)
        assert await _echo(client, "after") == "after"


async def test_a_server_that_stops_reading_cannot_hold_a_request_past_its_deadline() -> None:
    """A request stuck behind a full stdin pipe still times out (and so does the one it is stuck behind)."""
    async with _client() as client:
        with anyio.fail_after(BOUND):
            with pytest.raises(MCPTimeoutError, match=r"no answer within 1\.5s"):
                await client.call_tool("stop_reading", {"hold": 45}, read_timeout_seconds=TIMEOUT)
        # Far more than a pipe holds: the write waits for room that only comes when the server reads
        # again, 45 s from now; the 1.5 s deadline must not wait for that (20 s: a bound, not a timing).
        with anyio.fail_after(BOUND), pytest.raises(MCPTimeoutError, match=r"no answer within 1\.5s"):
            await client.call_tool("echo", {"text": "x" * (4 << 20)}, read_timeout_seconds=TIMEOUT)


async def test_a_caller_cancelled_from_outside_is_cancelled_not_timed_out() -> None:
    async with no_leaks(), _client() as client:
        with anyio.fail_after(BOUND):
            with anyio.move_on_after(0.3) as outer:
                await client.call_tool("silent", {})
            assert outer.cancelled_caught  # the caller's own scope, long before the client's timeout
            assert await _echo(client, "after") == "after"


async def test_megabytes_of_stderr_neither_block_the_server_nor_flood_the_error() -> None:
    async with no_leaks(), _client() as client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("stderr_flood", {"mb": 8})
        assert result.content[0].text == "still here"  # type: ignore[union-attr]
        with anyio.fail_after(BOUND), pytest.raises(ServerExitedError) as caught:
            await client.call_tool("half_line_then_exit", {})
    assert "last words before the answer" in caught.value.stderr_tail
    assert "cut off in the middle of a line" in caught.value.stderr_tail
    assert len(str(caught.value)) < 100_000  # a bounded tail, not 8 MB of noise


async def test_a_line_over_the_limit_fails_the_call_and_later_calls_say_why() -> None:
    async with no_leaks(), _client() as client:
        with anyio.fail_after(BOUND), pytest.raises(ProtocolError, match=f"longer than {MAX_BYTES} bytes"):
            await client.call_tool("huge_line", {"mb": 4})
        # The stream cannot be resynchronised: later calls fail at once, and say so.
        with anyio.fail_after(BOUND), pytest.raises(MCPClientError) as caught:
            await client.call_tool("echo", {"text": "after"})
        assert f"longer than {MAX_BYTES} bytes" in str(caught.value)


async def test_half_a_line_then_exit_reports_the_exit_and_stderr() -> None:
    async with no_leaks(), _client() as client:
        with anyio.fail_after(BOUND), pytest.raises(ServerExitedError) as caught:
            await client.call_tool("half_line_then_exit", {})
        assert caught.value.returncode == 0
        assert "cut off in the middle of a line" in str(caught.value)


async def test_a_crash_fails_every_pending_call_with_the_stderr_tail(era: str) -> None:
    """Five calls wait on the server when it dies: each fails with its exit code and last words, and
    the client then reports the connection as closed for every later call, at once (``reconnect=False``:
    with it, the next call would start the server again)."""
    outcomes: list[BaseException] = []
    async with no_leaks(), _client(era, reconnect=False) as client:
        assert await _echo(client, "warm") == "warm"

        async def pending(tool: str, arguments: dict[str, object]) -> None:
            try:
                await client.call_tool(tool, arguments)
            except MCPClientError as exc:
                outcomes.append(exc)

        with anyio.fail_after(BOUND):
            async with anyio.create_task_group() as group:
                group.start_soon(pending, "crash", {"after": 5})
                for _ in range(5):
                    group.start_soon(pending, "hang", {})
        assert len(outcomes) == 6
        for exc in outcomes:
            assert isinstance(exc, ServerExitedError), repr(exc)
            assert exc.returncode == 7
            assert "fatal: hostile crash with 5 calls pending" in exc.stderr_tail
            assert "fatal: hostile crash" in str(exc)
        # At once, not after the client's 30 s timeout (BOUND is well under it).
        with anyio.fail_after(BOUND), pytest.raises(ServerExitedError):
            await client.call_tool("echo", {"text": "again"})
        with anyio.fail_after(BOUND), pytest.raises(MCPConnectionError):
            await client.ping()


@pytest.mark.parametrize("method", ["bogus/method", "sampling/createMessages", "roots/list/extra"])
async def test_a_server_request_of_an_unknown_method_is_answered_method_not_found(method: str) -> None:
    """JSON-RPC's -32601 (not -32600, "invalid request": the request itself was well formed)."""
    async with no_leaks(), _client() as client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("ask_then_tell", {"method": method})
        answer = json.loads(result.content[0].text)  # type: ignore[union-attr]
        assert answer["error"]["code"] == -32601, answer
        assert answer["error"]["message"] == "Method not found" and "result" not in answer
        assert await _echo(client, "after") == "after"


async def test_a_server_ping_is_answered_with_an_empty_result() -> None:
    async with no_leaks(), _client() as client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("ask_then_tell", {"method": "ping"})
        answer = json.loads(result.content[0].text)  # type: ignore[union-attr]
        assert answer["result"] == {} and "error" not in answer
