"""A streamable HTTP endpoint given as ``http://user:s3cret@host/...``, against the hostile server: each
way a call can fail names the endpoint as the user knows it, without ``user:s3cret@``, in the message
and anywhere in the traceback (``tests/core/test_url_credentials.py`` checks the well-behaved paths
against a real server behind a Basic-auth gate; these are the failures only a hostile server gives).
"""

from __future__ import annotations

import logging
import traceback

import anyio
import pytest

from mcp_client import Client, MCPClientError
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 30
SECRET = "s3cret"
LIMIT = 1 << 20

CASES = {
    "not_json": ["{url}: the server sent something that is not JSON: '<html>"],
    "not_jsonrpc": ["{url}: the server sent a message without jsonrpc"],
    "unknown_id": ["{url} answered request ", " with a response for 987654321"],
    "wrong_content_type": [
        "{url} answered 'tools/call' with HTTP 200 and content type 'text/html'; expected application/json"
    ],
    "notification_as_answer": [
        "{url} answered a request with a 'notifications/message' message, not a response"
    ],
    "empty_200": ["{url} answered a request with an empty body (HTTP 200)"],
    "http_500": ["HTTP 500 Internal Server Error from {url}: boom: the database is on fire"],
    "http_500_huge": [f"{{url}} sent a message larger than {LIMIT} bytes"],  # the error body, bounded
    "sse_truncated": ["{url} closed the stream for request ", "and gave no event id to resume from"],
    # the 2026-07-28 era does not resume: the request is sent again once, and lost again
    "sse_truncated:2026-07-28": ["{url} closed the stream for request ", " before answering it"],
    "stream_never_answers": ["{url} never answered request ", "(from event 'stuck-1') brought nothing new"],
    "huge_json": [f"{{url}} sent a message larger than {LIMIT} bytes"],
    "huge_sse_event": [f"{{url}} sent an SSE event larger than {LIMIT} bytes"],
}


@pytest.mark.parametrize("case", sorted(CASES))
async def test_each_failure_names_the_endpoint_without_its_password(
    hostile: HostileServer, tag: str, case: str
) -> None:
    tool, _, mode = case.partition(":")
    url = hostile.url(tag)
    secret_url = url.replace("http://", f"http://user:{SECRET}@", 1)
    with anyio.fail_after(BOUND):
        async with Client(secret_url, mode=mode or "legacy", timeout=10, max_message_bytes=LIMIT) as client:
            assert client.server == url
            with pytest.raises(MCPClientError) as caught:
                await client.call_tool(tool, {})
    message = str(caught.value)
    for part in CASES[case]:
        assert part.format(url=url) in message, message
    assert SECRET not in "".join(traceback.format_exception(caught.value))


SESSION_CASES = {
    # every session forgotten at once (HTTP 404 on our session id, again after a new one)
    "forgetful=1": "{url} no longer knows our session (HTTP 404)",
    # the session forgotten while the client resumes a broken response stream (its GET: HTTP 404)
    "forget_on_resume=1": "{url} no longer knows our session (HTTP 404)",
    # a session id that could not be sent back
    "unicode_session=1": "{url} gave a session id (Mcp-Session-Id) with characters other than visible ASCII",
}


@pytest.mark.parametrize("flag", sorted(SESSION_CASES))
async def test_a_session_failure_names_the_endpoint_without_its_password(
    hostile: HostileServer, tag: str, flag: str
) -> None:
    url = f"{hostile.url(tag)}&{flag}"
    secret_url = url.replace("http://", f"http://user:{SECRET}@", 1)
    with anyio.fail_after(BOUND), pytest.raises(MCPClientError) as caught:
        async with Client(secret_url, mode="legacy", timeout=10, reconnect=False) as client:
            tool = "sse_truncated_with_id" if flag == "forget_on_resume=1" else "echo"
            await client.call_tool(tool, {"text": "one"})
    assert SESSION_CASES[flag].format(url=url) in str(caught.value), str(caught.value)
    assert SECRET not in "".join(traceback.format_exception(caught.value))


ACK_CASES = {
    "silent_ack=1": "{url} did not acknowledge a notifications/initialized within 2",
    "endless_ack=1": f"{{url}} sent a message larger than {LIMIT} bytes",
    "refused_ack=1": "{url} refused a notifications/initialized with HTTP 400: no notifications here",
}


@pytest.mark.parametrize("flag", sorted(ACK_CASES))
async def test_a_bad_acknowledgement_is_logged_naming_the_endpoint_without_its_password(
    hostile: HostileServer, tag: str, flag: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A notification's acknowledgement never sent, endless or a refusal: a warning, and the client goes
    on."""
    caplog.set_level(logging.WARNING, logger="mcp_client")
    url = f"{hostile.url(tag)}&{flag}"
    secret_url = url.replace("http://", f"http://user:{SECRET}@", 1)
    with anyio.fail_after(BOUND):
        async with Client(secret_url, mode="legacy", timeout=2, max_message_bytes=LIMIT) as client:
            assert (await client.call_tool("echo", {"text": "after"})).content[0].text == "after"  # type: ignore[union-attr]
    lines = [record.getMessage() for record in caplog.records if record.name.startswith("mcp_client")]
    assert any(line.startswith(ACK_CASES[flag].format(url=url)) for line in lines), lines
    assert not [line for line in lines if SECRET in line]


async def test_a_pool_too_small_names_the_endpoint_without_its_password(
    hostile: HostileServer, tag: str
) -> None:
    """An app's httpx2 client capped below what MCP needs: refused on connecting, naming the server."""
    import httpx2

    def one_connection(
        headers: dict[str, str] | None = None,
        timeout: httpx2.Timeout | None = None,
        auth: httpx2.Auth | None = None,
    ) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(headers=headers, auth=auth, limits=httpx2.Limits(max_connections=1))

    url = hostile.url(tag)
    secret_url = url.replace("http://", f"http://user:{SECRET}@", 1)
    with anyio.fail_after(BOUND), pytest.raises(MCPClientError) as caught:
        async with Client(secret_url, mode="legacy", httpx_client_factory=one_connection):
            pass
    assert f"the httpx2 client for {url} allows 1 connection(s) at once" in str(caught.value), caught.value
    assert SECRET not in "".join(traceback.format_exception(caught.value))
