"""``auth=`` flows that read bodies: ``requires_response_body`` (a challenge in a 401's JSON body) and
``requires_request_body`` (a signature over the request's bytes), against a real server that demands
them (tests/servers/signed_server.py: the official SDK behind a gate that records what it received).

httpx2 honours ``requires_response_body`` by reading every response to its end, the client's answer
included, which then reached the transport spent (``StreamConsumed``). The answer must reach the call
whether it comes as JSON or as an SSE stream, in both eras, and an SSE answer must still stream: a
question asked on it is answered while it is open (over the older HTTP+SSE transport too, whose one
stream never ends).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Generator, Iterator
from typing import Any

import anyio
import httpx
import httpx2
import pytest

from mcp_client import Client, MCPConnectionError
from mcp_client._connection.http_auth import as_httpx2_auth
from tests.core.helpers import accept, text_of
from tests.support.servers import (
    FEATURES_SERVER,
    LOOPBACK,
    PEER_PYTHON,
    SERVERS_DIR,
    run_http_server,
    start_http_server,
)
from ui_adapters.canned import CannedAnswers

pytestmark = pytest.mark.anyio

SIGNED_SERVER = SERVERS_DIR / "signed_server.py"
KEY = b"signed-server-test-key"  # the server's KEY
BOUND = 20


def _sign(body: bytes, nonce: str = "") -> str:
    return hmac.new(KEY, nonce.encode() + body, hashlib.sha256).hexdigest()


def _signed_server(*args: str) -> Iterator[str]:
    with start_http_server(*args, script=SIGNED_SERVER) as url:
        yield url


@pytest.fixture(scope="module")
def nonce_url() -> Iterator[str]:
    """Every POST needs a nonce that only a 401's JSON body names; calls answered as SSE."""
    yield from _signed_server("--nonce")


@pytest.fixture(scope="module")
def nonce_json_url() -> Iterator[str]:
    """The same, with every POST answered as JSON (both eras)."""
    yield from _signed_server("--nonce", "--json-response")


@pytest.fixture(scope="module")
def hmac_url() -> Iterator[str]:
    """Every POST needs an HMAC of its body."""
    yield from _signed_server("--hmac")


@pytest.fixture(scope="module")
def nonce_hmac_url() -> Iterator[str]:
    """Every POST needs a nonce from a 401's body and an HMAC of that nonce and its body."""
    yield from _signed_server("--nonce", "--hmac")


@pytest.fixture(scope="module")
def features_sse_url() -> Iterator[str]:
    """The features server over the older HTTP+SSE transport (one GET stream, POSTs answered 202)."""
    argv = [PEER_PYTHON, str(FEATURES_SERVER), "http", "--host", LOOPBACK, "--sse"]
    with run_http_server(lambda port: [*argv, "--port", str(port)], path="/sse") as url:
        yield url


class _NonceFlow:
    """Reads the nonce out of a 401's JSON body (nothing in its headers names it) and retries with it."""

    requires_response_body = True

    def __init__(self) -> None:
        self.challenges: list[dict[str, Any]] = []
        self.answers: list[tuple[int, str]] = []  # what each retry got back

    def auth_flow(self, request: Any) -> Generator[Any, Any, None]:
        response = yield request
        if response.status_code == 401:
            challenge = json.loads(response.content)
            self.challenges.append(challenge)
            request.headers["X-Nonce"] = challenge["nonce"]
            answer = yield request
            self.answers.append((answer.status_code, answer.headers["content-type"].partition(";")[0]))


class HttpxNonceAuth(_NonceFlow, httpx.Auth):
    """Written for httpx, as an app would."""


class Httpx2NonceAuth(_NonceFlow, httpx2.Auth):
    """Written for httpx2."""


async def _received(client: Client, since: int, tool: str) -> list[dict[str, str]]:
    """What the server's gate recorded for ``tool`` after the first ``since`` entries."""
    log: list[dict[str, str]] = json.loads(text_of(await client.call_tool("gate_log", {})))
    return [entry for entry in log[since:] if entry["method"] == f"tools/call {tool}"]


async def _log_length(client: Client) -> int:
    return len(json.loads(text_of(await client.call_tool("gate_log", {}))))


@pytest.mark.parametrize("auth_class", [HttpxNonceAuth, Httpx2NonceAuth], ids=["httpx", "httpx2"])
@pytest.mark.parametrize("answer", ["json", "sse"])
async def test_a_flow_reading_a_401_body_retries_and_the_answer_reaches_the_call(
    nonce_url: str, nonce_json_url: str, era: str, answer: str, auth_class: type[_NonceFlow]
) -> None:
    auth = auth_class()
    url = nonce_json_url if answer == "json" else nonce_url
    progress: list[str | None] = []
    async with Client(url, mode=era, auth=auth, timeout=BOUND) as client:  # type: ignore[arg-type]
        since = await _log_length(client)
        with anyio.fail_after(BOUND):
            result = await client.call_tool(
                "echo_streamed", {"text": "signed"}, progress_callback=lambda p, t, m: progress.append(m)
            )
        received = await _received(client, since, "echo_streamed")
    assert text_of(result) == "signed"
    assert progress == ([] if answer == "json" else ["echoing signed"])
    nonce = received[-1].get("nonce")
    assert received == [
        {"method": "tools/call echo_streamed", "verdict": "challenged"},
        {"method": "tools/call echo_streamed", "verdict": "accepted", "nonce": nonce},
    ]
    assert {"error": "nonce_required", "nonce": nonce} in auth.challenges  # read from the 401's body
    kind = "application/json" if answer == "json" else "text/event-stream"
    assert (200, kind) in auth.answers, auth.answers


async def test_a_question_on_the_answer_stream_is_answered_while_the_flow_reads_bodies(
    nonce_url: str,
) -> None:
    """The SSE answer is not read ahead for the flow: the server asks on it and waits for our answer
    (itself a POST the gate challenges), which a client reading the stream to its end never sends."""
    auth = HttpxNonceAuth()
    callback = accept(confirm=True)
    async with Client(
        nonce_url, mode="legacy", auth=auth, elicitation_callback=callback, timeout=BOUND
    ) as client:
        since = await _log_length(client)
        with anyio.fail_after(BOUND):
            result = await client.call_tool("confirm", {})
        log: list[dict[str, str]] = json.loads(text_of(await client.call_tool("gate_log", {})))
    assert text_of(result) == "confirm: accept confirm=True"
    assert callback.questions[0][1].message == "Go ahead?"
    answers = [entry["verdict"] for entry in log[since:] if entry["method"] == "(response)"]
    assert answers == ["challenged", "accepted"]  # our answer too went through the flow


class HmacAuth(httpx.Auth):
    """Signs each request's bytes (``request.content``), as an HMAC-signing API wants."""

    requires_request_body = True

    def __init__(self) -> None:
        self.signed: list[bytes] = []

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        self.signed.append(request.content)
        request.headers["X-Signature"] = _sign(request.content)
        yield request


async def test_a_flow_reading_the_request_body_signs_it(hmac_url: str, era: str) -> None:
    auth = HmacAuth()
    async with Client(hmac_url, mode=era, auth=auth, timeout=BOUND) as client:
        since = await _log_length(client)
        with anyio.fail_after(BOUND):
            result = await client.call_tool("echo", {"text": "hmac"})
        received = await _received(client, since, "echo")
    assert text_of(result) == "hmac"
    assert received == [{"method": "tools/call echo", "verdict": "accepted", "nonce": ""}]
    calls = [json.loads(body)["params"] for body in auth.signed if b'"tools/call"' in body]
    assert {"name": "echo", "arguments": {"text": "hmac"}} in [
        {"name": call["name"], "arguments": call["arguments"]} for call in calls
    ]


class NonceHmacAuth(httpx.Auth):
    """Both flags: the nonce from a 401's body, then an HMAC of the nonce and the request's bytes."""

    requires_request_body = True
    requires_response_body = True

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        response = yield request
        if response.status_code == 401:
            nonce = response.json()["nonce"]
            request.headers["X-Nonce"] = nonce
            request.headers["X-Signature"] = _sign(request.content, nonce)
            yield request


async def test_a_flow_reading_both_bodies_signs_the_retry_with_the_challenge(
    nonce_hmac_url: str, era: str
) -> None:
    progress: list[str | None] = []
    async with Client(nonce_hmac_url, mode=era, auth=NonceHmacAuth(), timeout=BOUND) as client:
        since = await _log_length(client)
        with anyio.fail_after(BOUND):
            result = await client.call_tool(
                "echo_streamed", {"text": "both"}, progress_callback=lambda p, t, m: progress.append(m)
            )
        received = await _received(client, since, "echo_streamed")
    assert text_of(result) == "both"
    assert progress == ["echoing both"]
    assert [entry["verdict"] for entry in received] == ["challenged", "accepted"]


async def test_a_challenge_body_past_max_message_bytes_is_refused_naming_the_limit() -> None:
    """The body read for the flow is bounded like every other: a 401 of 200 KB against 64 KB."""
    auth = HttpxNonceAuth()
    with start_http_server("--nonce", "--padding", "200000", script=SIGNED_SERVER) as url:
        client = Client(url, mode="legacy", auth=auth, timeout=BOUND, max_message_bytes=65536)
        with anyio.fail_after(BOUND), pytest.raises(MCPConnectionError) as caught:
            async with client:
                pass
    message = str(caught.value)
    assert "larger than 65536 bytes" in message and "requires_response_body" in message, message
    assert "max_message_bytes" in message
    assert auth.challenges == []  # the flow never saw a body cut short


async def test_the_refusal_names_the_server_without_the_urls_password() -> None:
    """A URL with ``user:password@`` names its server without them, in this refusal too."""
    with start_http_server("--nonce", "--padding", "200000", script=SIGNED_SERVER) as url:
        secret_url = url.replace("http://", "http://user:s3cret@", 1)
        client = Client(
            secret_url, mode="legacy", auth=HttpxNonceAuth(), timeout=BOUND, max_message_bytes=65536
        )
        with anyio.fail_after(BOUND), pytest.raises(MCPConnectionError) as caught:
            async with client:
                pass
    message = str(caught.value)
    assert "larger than 65536 bytes" in message and "s3cret" not in message, message
    assert url.partition("://")[2].split("/")[0] in message  # the host and port still say which


class _PlainPeek:
    """No flag, not even the attribute (no httpx class): is a 401's body there anyway?"""

    def __init__(self) -> None:
        self.bodies: list[str] = []

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        response = yield request
        try:
            self.bodies.append(response.content.decode())
        except Exception as exc:  # httpx2.ResponseNotRead: the client reads it, not the flow
            self.bodies.append(type(exc).__name__)


class _Peek(_PlainPeek, httpx.Auth):
    """No flag (httpx.Auth's own ``requires_response_body = False``)."""


@pytest.mark.parametrize("peek_class", [_Peek, _PlainPeek], ids=["httpx", "plain"])
async def test_without_the_flag_no_body_is_read_for_the_flow(
    nonce_url: str, peek_class: type[_PlainPeek]
) -> None:
    """The common path buffers nothing: the flow is sent the response as it streams in."""
    peek = peek_class()
    with anyio.fail_after(BOUND), pytest.raises(MCPConnectionError, match="HTTP 401") as caught:
        async with Client(nonce_url, mode="legacy", auth=peek, timeout=BOUND):
            pass
    assert "nonce_required" in str(caught.value)  # the client read the body itself
    assert peek.bodies == ["ResponseNotRead"]
    plain = httpx2.BasicAuth("user", "pass")
    assert as_httpx2_auth(plain) is plain  # nothing between httpx2 and an auth that reads no body


class _Seen(httpx.Auth):
    """Reads each response's body, and notes what it found."""

    requires_response_body = True

    def __init__(self) -> None:
        self.seen: list[tuple[str, int, str]] = []

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        response = yield request
        try:
            body = response.content.decode()
        except Exception as exc:  # httpx2.ResponseNotRead: the event stream, left streaming
            body = type(exc).__name__
        self.seen.append((request.method, response.status_code, body))


async def test_the_older_sse_transport_keeps_its_stream_while_the_flow_reads_bodies(
    features_sse_url: str,
) -> None:
    """HTTP+SSE: the answers come on the one GET stream, which must not be read to its end for the
    flow (it never ends); each POST's short answer is read for it."""
    auth = _Seen()
    answers = CannedAnswers(fields={"confirm": True})
    with anyio.fail_after(BOUND):
        async with Client(
            features_sse_url, transport="sse", mode="legacy", auth=auth, elicitation_callback=answers
        ) as client:
            result = await client.call_tool("order", {"item": "tea"})
    assert text_of(result) == "ordered tea"
    assert answers.messages == ["Order tea?"]
    assert auth.seen[0] == ("GET", 200, "ResponseNotRead")
    posts = [(status, body) for method, status, body in auth.seen if method == "POST"]
    assert posts and all(entry == (202, "Accepted") for entry in posts), posts


async def test_a_flow_reading_bodies_on_the_apps_own_client_works_too(nonce_url: str, era: str) -> None:
    """``StreamableHTTPTransport(url, http_client=httpx2.AsyncClient(auth=...))``: the client's own auth
    runs through the same adapter (httpx2 alone would have read the SSE answer to its end first)."""
    from mcp_client import StreamableHTTPTransport

    auth = Httpx2NonceAuth()
    async with httpx2.AsyncClient(auth=auth, timeout=BOUND) as http:
        transport = StreamableHTTPTransport(nonce_url, http_client=http)
        async with Client(transport, mode=era, timeout=BOUND) as client:
            with anyio.fail_after(BOUND):
                result = await client.call_tool(
                    "echo_streamed", {"text": "own client"}, progress_callback=lambda p, t, m: None
                )
    assert text_of(result) == "own client"
    assert auth.challenges and (200, "text/event-stream") in auth.answers, auth.answers


@pytest.mark.parametrize("transport_name", ["StreamableHTTPTransport", "SSETransport"])
def test_auth_beside_the_apps_own_client_is_refused_naming_the_fix(transport_name: str) -> None:
    """The transport sends with the app's client, so an ``auth=`` beside it would be dropped."""
    from mcp_client import StreamableHTTPTransport
    from mcp_client._transports.http_sse import SSETransport

    transport_class = {"StreamableHTTPTransport": StreamableHTTPTransport, "SSETransport": SSETransport}[
        transport_name
    ]
    with pytest.raises(ValueError) as caught:
        transport_class("http://127.0.0.1:9/mcp", auth=HttpxNonceAuth(), http_client=httpx2.AsyncClient())
    assert str(caught.value) == (
        f"{transport_name}(auth=..., http_client=...): the transport sends with your client, so give "
        "the auth to it instead: httpx2.AsyncClient(auth=...)"
    )


async def test_the_apps_own_client_reads_the_flows_bodies_within_the_transports_limit() -> None:
    """``StreamableHTTPTransport(url, http_client=..., max_message_bytes=N)``: the client's own auth has
    its bodies read within N too, not within the default limit."""
    from mcp_client import StreamableHTTPTransport

    auth = Httpx2NonceAuth()
    with start_http_server("--nonce", "--padding", "200000", script=SIGNED_SERVER) as url:
        async with httpx2.AsyncClient(auth=auth, timeout=BOUND) as http:
            transport = StreamableHTTPTransport(url, http_client=http, max_message_bytes=65536)
            with anyio.fail_after(BOUND), pytest.raises(MCPConnectionError) as caught:
                async with Client(transport, mode="legacy", timeout=BOUND):
                    pass
    assert "sent a body larger than 65536 bytes for the auth flow to read" in str(caught.value), caught.value
    assert auth.challenges == []
