"""Reply streams and connections: what is lost is sent again, what waits does not starve, what was
open before a session restart is open after it.

* 2026-07-28 has no resumption: a reply stream that ends before the answer is lost, and the client
  sends the request again with a new id (PROTOCOL.md 4.2) instead of trying GET + Last-Event-ID.
* More than a hundred legacy calls each waiting on a question: every call holds a connection for its
  stream while its answer goes out on another, so a capped connection pool would starve the answers.
* After the server forgets the legacy session, the standalone GET stream is reopened for the new one.
"""

from __future__ import annotations

import re

import anyio
import httpx
import pytest

from mcp_client import Client, ClientRequestContext, MCPConnectionError
from mcp_client.types import ElicitRequestParams, ElicitResult
from tests.hostile._leaks import no_leaks, wait_until
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 30


def _text(result: object) -> str:
    return result.content[0].text  # type: ignore[attr-defined]


async def test_a_lost_modern_stream_is_sent_again_not_resumed(hostile: HostileServer, tag: str) -> None:
    async with no_leaks(), Client(hostile.url(tag), mode="2026-07-28", timeout=5) as client:
        await client.list_tools()  # drop_once says readOnlyHint: safe to send again
        with anyio.fail_after(BOUND):
            result = await client.call_tool("drop_once", {})
        assert _text(result) == "answered on attempt 2"
    entries = hostile.entries(tag)
    calls = [e["body"] for e in entries if e["method"] == "POST" and e["body"].get("method") == "tools/call"]
    assert len(calls) == 2
    assert calls[0]["id"] != calls[1]["id"]  # a new request, with a new id
    assert calls[0]["params"] == calls[1]["params"]
    assert not [e for e in entries if e["method"] == "GET"]  # nothing to resume in this era


async def test_a_lost_modern_stream_of_a_side_effect_call_is_not_sent_again(
    hostile: HostileServer, tag: str
) -> None:
    """The server may have run the call: with no readOnlyHint or idempotentHint, the loss is the answer."""
    async with no_leaks(), Client(hostile.url(tag), mode="2026-07-28", timeout=5) as client:
        await client.list_tools()
        with anyio.fail_after(BOUND), pytest.raises(MCPConnectionError):
            await client.call_tool("drop_once_order", {})
    entries = hostile.entries(tag)
    calls = [e["body"] for e in entries if e["method"] == "POST" and e["body"].get("method") == "tools/call"]
    assert len(calls) == 1


async def test_a_legacy_stream_that_never_answers_says_so_plainly(hostile: HostileServer, tag: str) -> None:
    """Resumed streams that bring nothing new: the error says what happened (issue 26, item 9), not
    "closed the stream for request 5 3 times"."""
    async with Client(hostile.url(tag), mode="legacy", timeout=5) as client:
        with anyio.fail_after(BOUND), pytest.raises(MCPConnectionError) as caught:
            await client.call_tool("stream_never_answers", {})
    message = str(caught.value)
    assert re.search(r"never answered request \d+: its response stream broke off 3 times in a row", message)
    assert "resuming it (from event 'stuck-1') brought nothing new" in message
    assert "try again later" in message


async def _accept(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    return ElicitResult(action="accept", content={"ok": True})


async def test_over_a_hundred_legacy_calls_waiting_on_questions_all_get_answered(
    hostile: HostileServer, tag: str
) -> None:
    """The server holds 110 calls open until all have arrived, then each asks one question."""
    count = 110
    results: list[str] = []
    async with (
        no_leaks(),
        Client(hostile.url(tag), mode="legacy", elicitation_callback=_accept, timeout=8) as client,
    ):

        async def call() -> None:
            results.append(_text(await client.call_tool("barrier_ask", {"n": count})))

        with anyio.fail_after(BOUND):
            async with anyio.create_task_group() as group:
                for _ in range(count):
                    group.start_soon(call)
    assert results == ["action=accept"] * count


async def test_the_get_stream_is_reopened_for_a_new_session(hostile: HostileServer, tag: str) -> None:
    def streams() -> list[str]:
        return [e["session"] for e in hostile.entries(tag) if e.get("event") == "get-open"]

    async with no_leaks(), Client(hostile.url(tag) + "&get_stream=1", mode="legacy", timeout=5) as client:
        first = client.session_id
        assert await wait_until(lambda: streams() == [first], BOUND)
        async with httpx.AsyncClient() as admin:
            assert (await admin.post(f"{hostile.base}/admin/forget")).status_code == 200
        with anyio.fail_after(BOUND):
            assert _text(await client.call_tool("echo", {"text": "again"})) == "again"
        second = client.session_id
        assert second is not None and second != first
        assert await wait_until(lambda: streams() == [first, second], BOUND)
