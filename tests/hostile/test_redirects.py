"""Redirects: credentials never leave the server's origin, and a redirect never loops or leaks a body.

The policy (README, Security): a redirect to another origin is never followed, whatever its status;
within the origin only 307 and 308 are followed (they keep the method and the body), at most three
times. The "other origin" here is a listener of this test on another loopback port, which records
every byte it receives: after a refused redirect it must have received nothing, neither the user's
``headers=`` nor the ``Mcp-Session-Id`` nor the ``Authorization`` that an ``httpx.Auth`` adds.
"""

from __future__ import annotations

import base64
import json
import logging
import traceback
from collections.abc import AsyncIterator, Generator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import anyio
import anyio.abc
import httpx
import pytest

from mcp_client import Client
from mcp_client._errors import MCPClientError, MCPConnectionError, ProtocolError
from tests.hostile._leaks import no_leaks
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 15
SECRET_HEADER = {"X-Api-Key": "k-123-secret"}
TOKEN = "Bearer oauth-token-secret"


class BearerAuth(httpx.Auth):
    """What an OAuth ``httpx.Auth`` does to every request it sees: add an Authorization header."""

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["Authorization"] = TOKEN
        yield request


@dataclass
class Listener:
    """A plain HTTP listener on its own loopback port: it records every request and gives one answer."""

    url: str
    received: list[bytes] = field(default_factory=list[bytes])


def _answer(status: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = [f"HTTP/1.1 {status}", f"content-length: {len(body)}", "connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


STOLEN = _answer(
    "200 OK",
    {"content-type": "application/json"},
    json.dumps(
        {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "stolen"}]}}
    ).encode(),
)


@asynccontextmanager
async def listener(answer: bytes = STOLEN) -> AsyncIterator[Listener]:
    tcp = await anyio.create_tcp_listener(local_host="127.0.0.1")
    port = tcp.extra(anyio.abc.SocketAttribute.local_port)
    found = Listener(f"http://127.0.0.1:{port}/elsewhere")

    async def serve(stream: anyio.abc.SocketStream) -> None:
        async with stream:
            data = b""
            with anyio.move_on_after(BOUND):
                while b"\r\n\r\n" not in data:
                    data += await stream.receive()
            found.received.append(data)
            await stream.send(answer)

    async with tcp, anyio.create_task_group() as group:
        group.start_soon(tcp.serve, serve)
        try:
            yield found
        finally:
            group.cancel_scope.cancel()


def _client(hostile: HostileServer, tag: str, mode: str) -> Client:
    return Client(hostile.url(tag), mode=mode, timeout=5, headers=SECRET_HEADER, auth=BearerAuth())


def _path(hostile: HostileServer, tag: str) -> str:
    """The path and query of this test's endpoint (its tag quoted, so the access log finds it)."""
    return hostile.url(tag).removeprefix(hostile.base)


def _text(result: object) -> str:
    return result.content[0].text  # type: ignore[attr-defined]


@pytest.mark.parametrize("status", [307, 308, 302, 301])
async def test_a_redirect_to_another_origin_is_refused_and_nothing_reaches_it(
    hostile: HostileServer, tag: str, era: str, status: int
) -> None:
    async with no_leaks(), listener() as elsewhere, _client(hostile, tag, era) as client:
        with anyio.fail_after(BOUND), pytest.raises(ProtocolError) as caught:
            await client.call_tool("redirect", {"status": status, "location": elsewhere.url})
        assert elsewhere.url in str(caught.value)
        assert _text(await client.call_tool("echo", {"text": "after"})) == "after"
    assert elsewhere.received == []  # no headers, no session id, no token: not a single byte


async def test_a_redirected_handshake_never_reaches_the_other_origin(hostile: HostileServer) -> None:
    """Before there is a session the refusal holds too: connecting fails and says why."""
    async with no_leaks(), listener() as elsewhere:
        async with listener(_answer("307 Temporary Redirect", {"location": elsewhere.url})) as redirector:
            client = Client(
                redirector.url, mode="legacy", timeout=5, headers=SECRET_HEADER, auth=BearerAuth()
            )
            with anyio.fail_after(BOUND), pytest.raises(MCPConnectionError, match="another origin"):
                async with client:
                    pass
        assert len(redirector.received) == 1
    assert elsewhere.received == []


@pytest.mark.parametrize("status", [307, 308])
async def test_a_same_origin_307_or_308_is_followed_with_the_same_request(
    hostile: HostileServer, tag: str, status: int
) -> None:
    location = _path(hostile, tag) + "&redirected=1"
    async with no_leaks(), _client(hostile, tag, "legacy") as client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("redirect", {"status": status, "location": location})
        assert _text(result) == "arrived after the redirect"
        session = client.session_id
    posts = [
        e for e in hostile.entries(tag) if e["method"] == "POST" and e["body"].get("method") == "tools/call"
    ]
    first, second = posts
    assert second["path"] == location
    assert second["body"] == first["body"]  # same method, same id, same params
    for entry in (first, second):
        assert entry["headers"]["x-api-key"] == SECRET_HEADER["X-Api-Key"]
        assert entry["headers"]["mcp-session-id"] == session
        assert entry["headers"]["authorization"] == TOKEN


@pytest.mark.parametrize("status", [301, 302, 303])
async def test_a_same_origin_redirect_that_would_change_the_method_is_refused(
    hostile: HostileServer, tag: str, status: int
) -> None:
    location = _path(hostile, tag) + "&redirected=1"
    async with no_leaks(), _client(hostile, tag, "legacy") as client:
        with anyio.fail_after(BOUND), pytest.raises(ProtocolError, match="only 307 and 308"):
            await client.call_tool("redirect", {"status": status, "location": location})
    assert not [e for e in hostile.entries(tag) if "redirected=1" in e.get("path", "")]


async def test_a_redirect_loop_fails_with_a_client_error_after_three_hops(
    hostile: HostileServer, tag: str, era: str
) -> None:
    """httpx would follow 20 hops, then raise its own TooManyRedirects (outside MCPClientError)."""
    location = _path(hostile, tag)
    async with no_leaks(), _client(hostile, tag, era) as client:
        with anyio.fail_after(BOUND), pytest.raises(MCPClientError, match="more than 3 times"):
            await client.call_tool("redirect", {"status": 307, "location": location})
        assert _text(await client.call_tool("echo", {"text": "after"})) == "after"
    calls = [m for m in hostile.requests(tag) if m.get("method") == "tools/call"]
    assert len(calls) == 1 + 3 + 1  # the call, three hops followed, then the echo


# --- a URL with user:password@: sent as Basic auth by the client, never taken to another origin -------

URL_SECRET = "s3cret"
BASIC = "Basic " + base64.b64encode(f"user:{URL_SECRET}".encode()).decode()


def _with_credentials(url: str) -> str:
    return url.replace("http://", f"http://user:{URL_SECRET}@", 1)


@pytest.mark.parametrize("status", [307, 308])
async def test_url_credentials_follow_a_same_origin_redirect(
    hostile: HostileServer, tag: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    location = _path(hostile, tag) + "&redirected=1"
    async with no_leaks(), Client(_with_credentials(hostile.url(tag)), mode="legacy", timeout=5) as client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("redirect", {"status": status, "location": location})
        assert _text(result) == "arrived after the redirect"
    first, second = [
        e for e in hostile.entries(tag) if e["method"] == "POST" and e["body"].get("method") == "tools/call"
    ]
    assert second["path"] == location
    assert first["headers"]["authorization"] == second["headers"]["authorization"] == BASIC
    assert URL_SECRET not in caplog.text


@pytest.mark.parametrize("status", [307, 308])
async def test_url_credentials_never_reach_another_origin(
    hostile: HostileServer, tag: str, era: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with no_leaks(), listener() as elsewhere:
        async with Client(_with_credentials(hostile.url(tag)), mode=era, timeout=5) as client:
            with anyio.fail_after(BOUND), pytest.raises(ProtocolError) as caught:
                await client.call_tool("redirect", {"status": status, "location": elsewhere.url})
            assert _text(await client.call_tool("echo", {"text": "after"})) == "after"
    assert elsewhere.received == []
    assert f"{hostile.url(tag)} redirected POST to another origin" in str(caught.value)
    assert URL_SECRET not in str(caught.value) and URL_SECRET not in caplog.text
    sent = {e["headers"].get("authorization") for e in hostile.entries(tag) if e["method"] == "POST"}
    assert sent == {BASIC}  # every request to the server's own origin carried them


@pytest.mark.parametrize("case", ["another-origin", "method-changing", "loop", "invalid"])
async def test_a_refused_redirect_names_the_endpoint_without_its_password(
    hostile: HostileServer, tag: str, case: str
) -> None:
    """An endpoint given as ``http://user:s3cret@host/...``: each refusal names it as the user knows it,
    without ``user:s3cret@`` (neither in the message nor anywhere in the traceback)."""
    url = hostile.url(tag)
    where = _path(hostile, tag)
    async with no_leaks(), listener() as elsewhere:
        location, status, says = {
            "another-origin": (elsewhere.url, 307, f"{url} redirected POST to another origin"),
            "method-changing": (f"{where}&redirected=1", 302, f"{url} answered POST with an HTTP 302"),
            "loop": (
                where,
                307,
                f"{url} redirected POST more than 3 times; an MCP endpoint does not move: "
                "connect to its final URL directly",
            ),
            "invalid": ("http://h:abc/", 307, f"{url} redirected POST to an invalid URL 'http://h:abc/'"),
        }[case]
        secret_url = url.replace("http://", "http://user:s3cret@", 1)
        async with Client(secret_url, mode="legacy", timeout=5) as client:
            with anyio.fail_after(BOUND), pytest.raises(ProtocolError) as caught:
                await client.call_tool("redirect", {"status": status, "location": location})
    assert says in str(caught.value)
    assert "s3cret" not in "".join(traceback.format_exception(caught.value))
