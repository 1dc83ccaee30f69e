"""Malformed HTTP replies: each one fails its own call with a clear error; the client keeps working.

The hostile server (``hostile_http_server.py``) picks its misbehaviour from the tool name. For every
case the call must raise the documented ``MCPClientError`` subclass (never a bare httpx, json or anyio
exception) within a bound, a plain ``echo`` on the same client must work afterwards, and the client must
leave no file descriptor or task behind.
"""

from __future__ import annotations

import anyio
import pytest

from mcp_client import Client
from mcp_client._errors import MCPClientError, MCPConnectionError, MCPError, MCPTimeoutError, ProtocolError
from tests.hostile._leaks import no_leaks, wait_until
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

TIMEOUT = 1.5  # only for the calls that are meant to time out (read_timeout_seconds=TIMEOUT)
PATIENT = 30.0  # every other call: on a loaded machine a slow answer must not become a timeout
MAX_BYTES = 1024 * 1024
BOUND = 60  # generous: only a hang fails it

# (tool, arguments, exception, a fragment of its message)
CASES: list[tuple[str, dict[str, object], type[MCPClientError], str]] = [
    ("not_json", {}, ProtocolError, "not JSON"),
    ("not_jsonrpc", {}, ProtocolError, "jsonrpc: '2.0'"),
    ("batch_array", {}, ProtocolError, "JSON list"),
    ("unknown_id", {}, ProtocolError, "987654321"),
    ("no_id", {}, ProtocolError, "usable id"),
    ("null_id_result", {}, ProtocolError, "response for None"),
    ("result_and_error", {}, ProtocolError, "both or neither"),
    ("sse_garbage_event", {}, ProtocolError, "not JSON"),
    ("sse_truncated", {}, MCPConnectionError, "closed the stream"),
    ("sse_forever", {}, MCPTimeoutError, "no answer within 1.5s"),
    ("silent", {}, MCPTimeoutError, "no answer within 1.5s"),
    ("slow_drip", {}, MCPTimeoutError, "no answer within 1.5s"),
    ("huge_json", {"mb": 8}, ProtocolError, f"larger than {MAX_BYTES} bytes"),
    ("huge_sse_event", {"mb": 64}, ProtocolError, f"larger than {MAX_BYTES} bytes"),
    ("endless_data_lines", {"mb": 64}, ProtocolError, f"larger than {MAX_BYTES} bytes"),
    ("wrong_content_type", {}, ProtocolError, "content type 'text/html'"),
    ("no_content_type", {}, ProtocolError, "content type '(none)'"),
    ("empty_200", {}, ProtocolError, "empty body"),
    ("http_500", {}, MCPError, "HTTP 500"),
    ("http_503_jsonrpc", {}, MCPError, "Overloaded, try later"),
    ("http_500_huge", {}, ProtocolError, f"larger than {MAX_BYTES} bytes"),
    ("reset_before_headers", {}, MCPConnectionError, "failed"),
    ("reset_mid_json", {}, MCPConnectionError, "failed"),
    ("reset_mid_sse", {}, MCPConnectionError, "closed the stream"),
]


def _client(hostile: HostileServer, tag: str, mode: str) -> Client:
    return Client(hostile.url(tag), mode=mode, timeout=PATIENT, max_message_bytes=MAX_BYTES)


def _timeout_for(error: type[MCPClientError]) -> float | None:
    """The short timeout for a case that is meant to time out; the client's patient one otherwise."""
    return TIMEOUT if error is MCPTimeoutError else None


async def _echo(client: Client, text: str) -> str:
    result = await client.call_tool("echo", {"text": text})
    return result.content[0].text  # type: ignore[union-attr]


@pytest.mark.parametrize(("tool", "arguments", "error", "fragment"), CASES, ids=[c[0] for c in CASES])
async def test_bad_reply_fails_only_its_own_call(
    hostile: HostileServer,
    tag: str,
    era: str,
    tool: str,
    arguments: dict[str, object],
    error: type[MCPClientError],
    fragment: str,
) -> None:
    async with no_leaks():
        async with _client(hostile, tag, era) as client:
            assert await _echo(client, "before") == "before"
            with anyio.fail_after(BOUND), pytest.raises(error) as caught:
                await client.call_tool(tool, arguments, read_timeout_seconds=_timeout_for(error))
            assert fragment in str(caught.value)
            assert hostile.base in str(caught.value) or isinstance(caught.value, MCPError | MCPTimeoutError)
            assert await _echo(client, "after") == "after"


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_noise_on_the_stream_loses_nothing(
    hostile: HostileServer, tag: str, era: str, anyio_backend: str
) -> None:
    """Comments, priming events, unknown notifications, a response for an unknown id, then ours, then a
    duplicate of ours: the call gets the first answer, and nothing else surfaces."""
    async with no_leaks(), _client(hostile, tag, era) as client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("sse_noise_then_answer", {})
        assert result.content[0].text == "first"  # type: ignore[union-attr]
        assert await _echo(client, "after") == "after"


async def test_a_truncated_stream_with_an_event_id_is_resumed_then_given_up(
    hostile: HostileServer, tag: str
) -> None:
    async with no_leaks(), _client(hostile, tag, "legacy") as client:
        gave_up = r"never answered request .*: its response stream broke off"
        with anyio.fail_after(BOUND), pytest.raises(MCPConnectionError, match=gave_up):
            await client.call_tool("sse_truncated_with_id", {})
        assert await _echo(client, "after") == "after"
    resumes = [e for e in hostile.entries(tag) if e["method"] == "GET" and "last-event-id" in e["headers"]]
    assert [e["headers"]["last-event-id"] for e in resumes] == ["cut-1", "cut-1"]


@pytest.mark.parametrize("tool", ["sse_forever", "silent"])
async def test_a_timed_out_request_hangs_up_on_the_server(
    hostile: HostileServer, tag: str, tool: str
) -> None:
    """The client does not leave the abandoned connection open: the server sees it close."""
    async with _client(hostile, tag, "2026-07-28") as client:
        with anyio.fail_after(BOUND), pytest.raises(MCPTimeoutError):
            await client.call_tool(tool, {}, read_timeout_seconds=TIMEOUT)
    closed = lambda: any(e.get("event") == "client-closed" for e in hostile.entries(tag))  # noqa: E731
    assert await wait_until(closed, BOUND)


async def test_concurrent_calls_survive_their_neighbours_failing(
    hostile: HostileServer, tag: str, era: str
) -> None:
    """Good calls run alongside hostile ones on the same client: each gets its own outcome.

    Thirty calls at once on a busy two-core machine: none of them is meant to time out, so they all
    have the patient timeout (a short one turned ProtocolErrors into MCPTimeoutErrors under load)."""
    bad = [name for name, _, error, _ in CASES if error is not MCPTimeoutError and "huge" not in name]
    outcomes: dict[str, object] = {}
    async with no_leaks(), _client(hostile, tag, era) as client:

        async def run(key: str, tool: str, arguments: dict[str, object]) -> None:
            try:
                outcomes[key] = (await client.call_tool(tool, arguments)).content[0].text  # type: ignore[union-attr]
            except MCPClientError as exc:
                outcomes[key] = type(exc)

        with anyio.fail_after(BOUND):
            async with anyio.create_task_group() as group:
                for index in range(10):
                    group.start_soon(run, f"good-{index}", "echo", {"text": f"good-{index}"})
                for name in bad:
                    group.start_soon(run, name, name, {})
        for index in range(10):
            assert outcomes[f"good-{index}"] == f"good-{index}"
        for name, _, error, _ in CASES:
            if name in bad:
                outcome = outcomes[name]
                assert isinstance(outcome, type) and issubclass(outcome, error), (name, outcome)


async def test_garbage_after_the_answer_cannot_take_it_away(
    hostile: HostileServer, tag: str, era: str
) -> None:
    async with no_leaks(), _client(hostile, tag, era) as client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("answer_then_garbage", {})
        assert result.content[0].text == "the answer"  # type: ignore[union-attr]


@pytest.mark.parametrize("ack", ["endless_ack", "silent_ack"])
async def test_a_bad_acknowledgement_of_a_notification_does_not_hang_the_client(
    hostile: HostileServer, tag: str, ack: str
) -> None:
    """``notifications/initialized`` answered with a body that never ends, or never answered: the client
    reads at most ``max_message_bytes`` of it, waits at most ``timeout``, and goes on."""
    url = hostile.url(tag) + f"&{ack}=1"
    async with no_leaks():
        with anyio.fail_after(BOUND):
            async with Client(url, mode="legacy", timeout=TIMEOUT, max_message_bytes=MAX_BYTES) as client:
                assert await _echo(client, "after") == "after"
