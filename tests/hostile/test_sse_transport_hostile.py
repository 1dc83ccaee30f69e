"""The HTTP+SSE transport against servers that misbehave: each must end in a clear error, never a hang.

A tiny raw HTTP server of our own on loopback plays the hostile part: an ``endpoint`` on another origin,
an event that never ends, a stream that closes before naming its endpoint, a GET answered 405, and an
endpoint that starts answering 404 after the handshake.
"""

from __future__ import annotations

import json
import traceback
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import anyio
import pytest
from anyio.abc import SocketStream

from mcp_client import Client, MCPClientError, MCPConnectionError, ProtocolError, SessionExpiredError
from mcp_client._transports.http_sse import SSETransport
from mcp_client.types import ElicitResult
from tests.hostile.test_memory import peak_memory

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 30.0
SSE_HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-store\r\n\r\n"

Handler = Callable[[SocketStream, str, str, bytes, "Server"], Awaitable[None]]


class Server:
    """A loopback HTTP/1.1 server of one handler; ``streams`` lets a POST reach the open event stream."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.port = 0
        self.event_stream: SocketStream | None = None
        self.posts: list[dict[str, object]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/sse"

    async def serve_one(self, stream: SocketStream) -> None:
        async with stream:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = await stream.receive()
                head += chunk
            head, _, body = head.partition(b"\r\n\r\n")
            request_line, *header_lines = head.decode("latin-1").split("\r\n")
            method, path, _ = request_line.split(" ", 2)
            length = 0
            for line in header_lines:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            while len(body) < length:
                body += await stream.receive()
            await self.handler(stream, method, path, body, self)


@asynccontextmanager
async def serving(handler: Handler) -> AsyncIterator[Server]:
    server = Server(handler)
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
    server.port = listener.extra(anyio.abc.SocketAttribute.local_port)
    async with anyio.create_task_group() as tasks:

        async def accept() -> None:
            async with listener:
                await listener.serve(server.serve_one)

        tasks.start_soon(accept)
        try:
            yield server
        finally:
            tasks.cancel_scope.cancel()


async def accepted(stream: SocketStream) -> None:
    await stream.send(b"HTTP/1.1 202 Accepted\r\ncontent-length: 8\r\n\r\nAccepted")


async def answer_on_stream(server: Server, body: bytes) -> None:
    """The POSTed request's answer, as a well-behaved server sends it: on the event stream."""
    message = json.loads(body)
    server.posts.append(message)
    if "id" not in message or server.event_stream is None:
        return
    method = message.get("method")
    if method == "initialize":
        result = {
            "protocolVersion": "2024-11-05",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "hostile-sse", "version": "0"},
        }
    elif method == "tools/list":
        result = {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}
    else:
        result = {"content": [{"type": "text", "text": "ok"}]}
    reply = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result})
    await server.event_stream.send(f"event: message\ndata: {reply}\n\n".encode())


def stream_then(endpoint: str | None, *, extra: bytes = b"", close: bool = False) -> Handler:
    async def handle(stream: SocketStream, method: str, path: str, body: bytes, server: Server) -> None:
        if method == "GET":
            server.event_stream = stream
            await stream.send(SSE_HEAD)
            if endpoint is not None:
                await stream.send(f"event: endpoint\ndata: {endpoint}\n\n".encode())
            if extra:
                await stream.send(extra)
            if close:
                return
            await anyio.sleep_forever()
        await accepted(stream)
        await answer_on_stream(server, body)

    return handle


async def test_an_endpoint_on_another_origin_is_refused() -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(stream_then("http://127.0.0.1:1/messages?sessionId=1")) as server:
            with pytest.raises(ProtocolError, match=r"endpoint on another origin.*refused"):
                async with Client(SSETransport(server.url), mode="legacy"):
                    pass
            assert server.posts == []  # nothing was sent anywhere


async def test_an_event_that_never_ends_is_cut_at_the_limit() -> None:
    endless = b"event: message\ndata: " + b"x" * 300_000  # no end of line, no end of event
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(stream_then(None, extra=endless)) as server:
            with pytest.raises(ProtocolError, match="larger than 65536 bytes"):
                async with Client(SSETransport(server.url, max_message_bytes=65536), mode="legacy"):
                    pass


async def test_a_stream_closed_before_its_endpoint() -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(stream_then(None, extra=b": just a comment\n\n", close=True)) as server:
            with pytest.raises(MCPConnectionError, match="closed its event stream"):
                async with Client(SSETransport(server.url), mode="legacy"):
                    pass


async def test_a_stream_that_never_names_its_endpoint_times_out_clearly() -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(stream_then(None)) as server:
            with pytest.raises(MCPConnectionError, match=r"sent no \"endpoint\" event within 1 s"):
                async with Client(SSETransport(server.url, timeout=1), mode="legacy"):
                    pass


async def test_a_streamable_http_only_server_says_what_it_answered() -> None:
    async def handle(stream: SocketStream, method: str, path: str, body: bytes, server: Server) -> None:
        await stream.send(b"HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n")

    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(handle) as server:
            with pytest.raises(MCPConnectionError, match=r"HTTP 405 Method Not Allowed.*HTTP\+SSE server"):
                async with Client(SSETransport(server.url), mode="legacy"):
                    pass


async def test_an_endpoint_that_404s_later_is_a_lost_session() -> None:
    async def handle(stream: SocketStream, method: str, path: str, body: bytes, server: Server) -> None:
        if method == "GET":
            await stream_then("/messages?sessionId=abc")(stream, method, path, body, server)
            return
        message = json.loads(body)
        if message.get("method") == "tools/call":
            await stream.send(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")
            return
        await accepted(stream)
        await answer_on_stream(server, body)

    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(handle) as server:
            async with Client(SSETransport(server.url), mode="legacy") as client:
                assert client.server_info is not None and client.server_info.name == "hostile-sse"
                with pytest.raises(SessionExpiredError, match="no longer knows our session"):
                    await client.call_tool("echo", {})


async def test_a_stream_that_ends_fails_waiting_calls_at_once() -> None:
    """The stream closes while a call waits: the call fails now, not at its deadline (60 s here)."""

    async def handle(stream: SocketStream, method: str, path: str, body: bytes, server: Server) -> None:
        if method == "GET":
            await stream_then("/messages?sessionId=abc")(stream, method, path, body, server)
            return
        message = json.loads(body)
        await accepted(stream)
        if message.get("method") == "tools/call" and server.event_stream is not None:
            await server.event_stream.aclose()  # the answer will never come
            return
        await answer_on_stream(server, body)

    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(handle) as server:
            async with Client(SSETransport(server.url, timeout=60), mode="legacy", timeout=60) as client:
                with pytest.raises(MCPConnectionError):
                    await client.call_tool("echo", {})


# ---------------------------------------------------------------------- POSTs: redirects and bounded bodies


def answered_post(respond: Callable[[SocketStream, dict[str, object], Server], Awaitable[bool]]) -> Handler:
    """An HTTP+SSE server whose POSTs ``respond`` answers (``False``: a 202 and the reply on the stream)."""

    async def handle(stream: SocketStream, method: str, path: str, body: bytes, server: Server) -> None:
        if method == "GET":
            await stream_then("/messages?sessionId=abc")(stream, method, path, body, server)
            return
        if path.startswith("/moved"):  # where a same-origin redirect leads
            await accepted(stream)
            await answer_on_stream(server, body)
            return
        if not await respond(stream, json.loads(body), server):
            await accepted(stream)
            await answer_on_stream(server, body)

    return handle


def redirecting(location: str, status: int = 307, only: str = "initialize") -> Handler:
    async def respond(stream: SocketStream, message: dict[str, object], server: Server) -> bool:
        if message.get("method") != only:
            return False
        server.posts.append(message)
        head = f"HTTP/1.1 {status} Moved\r\nlocation: {location}\r\ncontent-length: 0\r\n\r\n"
        await stream.send(head.encode())
        return True

    return answered_post(respond)


async def nothing_may_arrive(
    stream: SocketStream, method: str, path: str, body: bytes, server: Server
) -> None:
    server.posts.append({"method": method, "path": path})
    await stream.send(b"HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n")


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_a_post_redirected_to_another_origin_fails_at_once_naming_the_target(status: int) -> None:
    """docs/security.md: never followed, whatever the status; a ProtocolError naming the target at once
    (the client's own deadline is two minutes; the test's 30 s would end first if it waited)."""
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(nothing_may_arrive) as elsewhere:
            target = f"http://127.0.0.1:{elsewhere.port}/steal?sessionId=abc"
            async with serving(redirecting(target, status, only="tools/call")) as server:
                async with Client(
                    SSETransport(server.url, timeout=120), mode="legacy", timeout=120
                ) as client:
                    with pytest.raises(ProtocolError) as caught:
                        await client.call_tool("echo", {})
                    assert target in str(caught.value)
                    assert (await client.list_tools()).tools[0].name == "echo"  # the session goes on
            assert elsewhere.posts == []  # not one byte went there


async def test_the_initialize_post_redirected_to_another_origin_fails_connecting_at_once() -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(nothing_may_arrive) as elsewhere:
            target = f"http://127.0.0.1:{elsewhere.port}/steal?sessionId=abc"
            async with serving(redirecting(target, 307)) as server:
                with pytest.raises(MCPConnectionError, match="another origin") as caught:
                    async with Client(SSETransport(server.url, timeout=120), mode="legacy", timeout=120):
                        pass
                assert isinstance(caught.value.__cause__, ProtocolError)
                assert target in str(caught.value)
            assert elsewhere.posts == []


async def test_a_post_redirected_within_the_origin_is_followed_by_307() -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(redirecting("/moved?sessionId=abc", 307, only="tools/call")) as server:
            async with Client(SSETransport(server.url, timeout=120), mode="legacy", timeout=120) as client:
                result = await client.call_tool("echo", {})
                assert result.content[0].text == "ok"  # type: ignore[union-attr]


async def test_a_post_redirected_by_303_within_the_origin_is_refused_at_once() -> None:
    """303 would turn the POST into a GET: refused, saying which redirects are followed."""
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(redirecting("/moved?sessionId=abc", 303, only="tools/call")) as server:
            async with Client(SSETransport(server.url, timeout=120), mode="legacy", timeout=120) as client:
                with pytest.raises(ProtocolError, match="follows only 307 and 308"):
                    await client.call_tool("echo", {})


async def test_the_event_stream_redirected_to_another_origin_is_refused_naming_the_target() -> None:
    async def handle(stream: SocketStream, method: str, path: str, body: bytes, server: Server) -> None:
        head = f"HTTP/1.1 307 Moved\r\nlocation: {server.target}\r\ncontent-length: 0\r\n\r\n"
        await stream.send(head.encode())

    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(nothing_may_arrive) as elsewhere, serving(handle) as server:
            server.target = f"http://127.0.0.1:{elsewhere.port}/sse"  # type: ignore[attr-defined]
            with pytest.raises(ProtocolError, match="another origin") as caught:
                async with Client(SSETransport(server.url, timeout=120), mode="legacy", timeout=120):
                    pass
            assert server.target in str(caught.value)  # type: ignore[attr-defined]
            assert elsewhere.posts == []


def gzip_of_zeros(mib: int) -> bytes:
    squeeze = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(1 << 20)
    return b"".join(squeeze.compress(block) for _ in range(mib)) + squeeze.flush()


BOMB = gzip_of_zeros(160)
"""160 MiB of zeros, about 160 KiB on the wire."""


def bomb_answer(status: int, only: str) -> Handler:
    async def respond(stream: SocketStream, message: dict[str, object], server: Server) -> bool:
        if message.get("method") != only:
            return False
        head = (
            f"HTTP/1.1 {status} Whatever\r\ncontent-encoding: gzip\r\ncontent-type: text/plain\r\n"
            f"content-length: {len(BOMB)}\r\n\r\n"
        )
        await stream.send(head.encode() + BOMB)
        return True

    return answered_post(respond)


@pytest.mark.parametrize("status", [202, 500], ids=["acknowledgement", "error-body"])
async def test_a_gzip_bomb_answering_a_post_is_refused_within_the_limit(status: int) -> None:
    """docs/security.md: the acknowledgement and an error body count against ``max_message_bytes``,
    once decompressed too; memory stays a small multiple of the limit (it was 320 MiB at 1 MiB)."""
    limit = 1 << 20
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(bomb_answer(status, "tools/call")) as server:
            transport = SSETransport(server.url, timeout=60, max_message_bytes=limit)
            async with Client(transport, mode="legacy", timeout=60) as client:
                with peak_memory() as peak, pytest.raises(ProtocolError, match=f"larger than {limit} bytes"):
                    await client.call_tool("echo", {})
                assert peak[0] < 12 * limit, f"peak {peak[0] >> 20} MiB"
                assert [tool.name for tool in (await client.list_tools()).tools] == ["echo"]  # still works


async def test_an_answer_the_server_never_acknowledges_ends_at_the_timeout(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The server asks mid-call, answers the call as soon as our answer arrives, and never acknowledges
    the answer's POST. The answer is not cancelled with its call (issue 43), so the transport's own
    timeout must end it: a warning, and the client closes without waiting on it."""

    async def handle(stream: SocketStream, method: str, path: str, body: bytes, server: Server) -> None:
        if method == "GET":
            await stream_then("/messages?sessionId=abc")(stream, method, path, body, server)
            return
        message = json.loads(body)
        assert server.event_stream is not None
        if message.get("method") == "tools/call":
            server.posts.append(message)
            await accepted(stream)
            question = {
                "jsonrpc": "2.0",
                "id": "q1",
                "method": "elicitation/create",
                "params": {"message": "Go?", "requestedSchema": {"type": "object", "properties": {}}},
            }
            await server.event_stream.send(f"event: message\ndata: {json.dumps(question)}\n\n".encode())
            return
        if message.get("id") == "q1" and "method" not in message:  # our answer: the call ends, no 202
            reply = {"jsonrpc": "2.0", "id": server.posts[-1]["id"], "result": {"content": []}}
            await server.event_stream.send(f"event: message\ndata: {json.dumps(reply)}\n\n".encode())
            await anyio.sleep_forever()
        await accepted(stream)
        await answer_on_stream(server, body)

    async def accept(context: object, params: object) -> ElicitResult:
        return ElicitResult(action="accept", content={})

    caplog.set_level("WARNING", logger="mcp_client.sse")
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(handle) as server:
            transport = SSETransport(server.url, timeout=1)
            async with Client(transport, mode="legacy", timeout=10, elicitation_callback=accept) as client:
                result = await client.call_tool("echo", {})
                assert result.content == []
                while "did not acknowledge a response within 1s" not in caplog.text:  # noqa: ASYNC110
                    await anyio.sleep(0.05)  # the warning is the event


# ---------------------------------------------------------------------- a URL with user:password@


def _with_password(url: str) -> str:
    return url.replace("http://", "http://user:s3cret@", 1)


def _get_answered(head: bytes) -> Handler:
    async def handle(stream: SocketStream, method: str, path: str, body: bytes, server: Server) -> None:
        await stream.send(head)

    return handle


def _post_answered(head: bytes) -> Handler:
    async def respond(stream: SocketStream, message: dict[str, object], server: Server) -> bool:
        if message.get("method") != "tools/call":
            return False
        await stream.send(head)
        return True

    return answered_post(respond)


_TEXT_500 = b"HTTP/1.1 500 Internal Server Error\r\ncontent-length: 4\r\n\r\nboom"
_CONNECT_FAILURES = {
    "no-endpoint-event": (stream_then(None), '{url} sent no "endpoint" event within 1 s'),
    "closed-before-endpoint": (stream_then(None, close=True), "{url} closed its event stream"),
    "endpoint-elsewhere": (
        stream_then("http://127.0.0.1:1/messages"),
        "{url} named an endpoint on another origin (http://127.0.0.1:1); refused",
    ),
    "endpoint-not-a-url": (stream_then("http://h:abc/x"), "{url} named an endpoint that is not a URL: "),
    "message-before-endpoint": (
        stream_then(None, extra=b"event: message\ndata: {}\n\n"),
        "{url} sent a 'message' event before its \"endpoint\" event",
    ),
    "get-refused": (
        _get_answered(_TEXT_500),
        "{url} answered the event stream's GET with HTTP 500 Internal Server Error",
    ),
    "get-not-a-stream": (
        _get_answered(b"HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 0\r\n\r\n"),
        "{url} answered the event stream's GET with text/html, not an event stream",
    ),
    "event-too-large": (
        stream_then(None, extra=b"event: message\ndata: " + b"x" * 70_000),
        "{url} sent an SSE event larger than 65536 bytes",
    ),
}


@pytest.mark.parametrize("case", sorted(_CONNECT_FAILURES))
async def test_a_failed_connect_names_the_server_without_its_password(case: str) -> None:
    handler, says = _CONNECT_FAILURES[case]
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(handler) as server:
            transport = SSETransport(_with_password(server.url), timeout=1, max_message_bytes=65536)
            assert transport.label == server.url
            with pytest.raises((MCPConnectionError, ProtocolError)) as caught:
                async with Client(transport, mode="legacy"):
                    pass
    assert says.format(url=server.url) in str(caught.value), str(caught.value)
    assert "s3cret" not in "".join(traceback.format_exception(caught.value))


_CALL_FAILURES = {
    "post-404": (
        _post_answered(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"),
        "{url} no longer knows our session (HTTP 404 from {origin}/messages?sessionId=abc); connect again",
    ),
    "post-500": (
        _post_answered(_TEXT_500),
        "HTTP 500 Internal Server Error from {origin}/messages?sessionId=abc: boom",
    ),
    "post-too-large": (
        _post_answered(b"HTTP/1.1 500 Whatever\r\ncontent-length: 70000\r\n\r\n" + b"x" * 70_000),
        "{origin}/messages?sessionId=abc sent a message larger than 65536 bytes",
    ),
    "post-connection-lost": (
        _post_answered(b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nshort"),
        "the connection to {url} failed: ",
    ),
}


@pytest.mark.parametrize("case", sorted(_CALL_FAILURES))
async def test_a_failed_call_names_the_server_and_its_endpoint_without_the_password(case: str) -> None:
    handler, says = _CALL_FAILURES[case]
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(handler) as server:
            transport = SSETransport(_with_password(server.url), timeout=5, max_message_bytes=65536)
            async with Client(transport, mode="legacy", timeout=10, reconnect=False) as client:
                with pytest.raises(MCPClientError) as caught:
                    await client.call_tool("echo", {})
    origin = f"http://127.0.0.1:{server.port}"
    assert says.format(url=server.url, origin=origin) in str(caught.value), str(caught.value)
    assert "s3cret" not in "".join(traceback.format_exception(caught.value))


async def test_the_log_names_the_server_without_its_password(caplog: pytest.LogCaptureFixture) -> None:
    """A malformed message, a stray response and a notification never acknowledged: log lines naming
    the server as shown."""

    async def respond(stream: SocketStream, message: dict[str, object], server: Server) -> bool:
        if message.get("method") != "tools/call" or server.event_stream is None:
            return False
        await accepted(stream)
        await server.event_stream.send(b"event: message\ndata: {not json\n\n")
        stray = b'event: message\ndata: {"jsonrpc": "2.0", "id": 424242, "result": {}}\n\n'
        await server.event_stream.send(stray)  # a response for no request of ours
        await answer_on_stream(server, json.dumps(message).encode())
        return True

    async def handle(stream: SocketStream, method: str, path: str, body: bytes, server: Server) -> None:
        if method == "POST" and json.loads(body).get("method") == "notifications/cancelled":
            await anyio.sleep_forever()  # never acknowledged
        await answered_post(respond)(stream, method, path, body, server)

    caplog.set_level("DEBUG", logger="mcp_client")
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(handle) as server:
            transport = SSETransport(_with_password(server.url), timeout=1)
            async with Client(transport, mode="legacy", timeout=10) as client:
                assert (await client.call_tool("echo", {})).content[0].text == "ok"  # type: ignore[union-attr]
                await client._session.transport.send(  # pyright: ignore[reportPrivateUsage]
                    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}, {}
                )
    lines = [record.getMessage() for record in caplog.records if record.name.startswith("mcp_client")]
    assert any(line.startswith(f"{server.url}: ignoring a malformed message") for line in lines), lines
    assert f"{server.url}: ignoring a response for unknown request 424242" in lines, lines
    assert f"{server.url} did not acknowledge a notifications/cancelled within 1s" in lines, lines
    assert not [line for line in lines if "s3cret" in line]


async def test_a_call_cut_short_by_closing_names_the_server_without_its_password() -> None:
    """The client closes while a call waits for its answer: the call fails saying so."""

    async def respond(stream: SocketStream, message: dict[str, object], server: Server) -> bool:
        if message.get("method") != "tools/call":
            return False
        server.posts.append(message)
        await accepted(stream)  # and never answered
        return True

    failures: list[BaseException] = []
    with anyio.fail_after(TEST_TIMEOUT):
        async with serving(answered_post(respond)) as server, anyio.create_task_group() as tasks:
            transport = SSETransport(_with_password(server.url), timeout=60)
            async with Client(transport, mode="legacy", timeout=60) as client:

                async def call() -> None:
                    try:
                        await client.call_tool("echo", {})
                    except MCPClientError as exc:
                        failures.append(exc)

                tasks.start_soon(call)
                with anyio.fail_after(TEST_TIMEOUT):
                    while not [p for p in server.posts if p.get("method") == "tools/call"]:  # noqa: ASYNC110
                        await anyio.sleep(0.05)
    (failure,) = failures
    assert isinstance(failure, MCPConnectionError)
    assert str(failure) == f"the connection to {server.url} was closed"
    assert "s3cret" not in "".join(traceback.format_exception(failure))
