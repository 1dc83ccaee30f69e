"""The older HTTP+SSE transport (2024-11-05) against the official SDK's ``MCPServer.run("sse")``.

Questions of every kind (elicitation, sampling, roots) are pushed on the event stream and answered with
POSTs, progress arrives on the stream, and a cancelled call tells the server.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any

import anyio
import pytest

from mcp_client import Client, ClientRequestContext, MCPClientError
from mcp_client._transports.http_sse import SSETransport
from mcp_client.types import ElicitResult, ListRootsResult, Root, TextContent
from tests.support.servers import FEATURES_SERVER, LOOPBACK, PEER_PYTHON, QUESTIONS_SERVER, run_http_server
from ui_adapters.canned import CannedAnswers
from ui_adapters.canned_sampling import CannedSampling

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 60.0


def sse_server(script: object) -> Any:
    return run_http_server(
        lambda port: [PEER_PYTHON, str(script), "http", "--host", LOOPBACK, "--port", str(port), "--sse"],
        path="/sse",
    )


@pytest.fixture(scope="module")
def features_sse() -> Iterator[str]:
    with sse_server(FEATURES_SERVER) as url:
        yield url


@pytest.fixture(scope="module")
def features_http() -> Iterator[str]:
    argv = lambda port: [PEER_PYTHON, str(FEATURES_SERVER), "http", "--host", LOOPBACK, "--port", str(port)]  # noqa: E731
    with run_http_server(argv) as url:
        yield url


@pytest.fixture(scope="module")
def questions_sse() -> Iterator[str]:
    with sse_server(QUESTIONS_SERVER) as url:
        yield url


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


async def test_a_tool_call_with_a_question_and_progress(features_sse: str) -> None:
    answers = CannedAnswers(fields={"confirm": True})
    progress: list[tuple[float, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))

    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(SSETransport(features_sse), mode="legacy", elicitation_callback=answers) as client:
            assert client.era == "legacy"
            ordered = await client.call_tool("order", {"item": "tea"})
            counted = await client.call_tool(
                "count", {"steps": 3, "interval": 0.01}, progress_callback=on_progress
            )
    assert text_of(ordered) == "ordered tea"
    assert answers.messages == ["Order tea?"]
    assert text_of(counted) == "counted to 3"
    assert [message for _, message in progress] == ["step 1 of 3", "step 2 of 3", "step 3 of 3"]


async def test_sampling_and_roots_are_answered_over_the_stream(questions_sse: str) -> None:
    async def roots(context: ClientRequestContext) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri="file:///work/project", name="project")])

    sampling = CannedSampling(default="an old pond", model="test-model")
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(
            SSETransport(questions_sse), mode="legacy", sampling_callback=sampling, list_roots_callback=roots
        ) as client:
            haiku = await client.call_tool("haiku", {"topic": "frogs"})
            listed = await client.call_tool("my_roots", {})
    assert "model=test-model" in text_of(haiku) and "an old pond" in text_of(haiku)
    assert text_of(listed) == "roots: file:///work/project (project)"


async def test_a_cancelled_call_leaves_the_connection_usable(features_sse: str) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(SSETransport(features_sse), mode="legacy") as client:
            with anyio.move_on_after(0.5):
                await client.call_tool("silent", {"seconds": 30})
            echoed = await client.call_tool("count", {"steps": 1, "interval": 0})
    assert text_of(echoed) == "counted to 1"


async def test_a_decline_reaches_the_tool(features_sse: str) -> None:
    answers = CannedAnswers(script=[ElicitResult(action="decline")])
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(SSETransport(features_sse), mode="legacy", elicitation_callback=answers) as client:
            assert text_of(await client.call_tool("order", {"item": "cake"})) == "no cake"


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_plain_url_falls_back_to_sse(
    features_sse: str, mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    """``Client(url)``: initialize refused with 405 on the event stream's URL, then the GET opens it."""
    caplog.set_level("DEBUG", logger="mcp_client.http")
    answers = CannedAnswers(fields={"confirm": True})
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(features_sse, mode=mode, elicitation_callback=answers) as client:
            assert client.transport_kind == "sse"
            assert text_of(await client.call_tool("order", {"item": "tea"})) == "ordered tea"
    assert "serves the older HTTP+SSE transport" in caplog.text


class _Signing:
    """An auth flow that signs each request and notes which went through it."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str | None]] = []

    def auth_flow(self, request: Any) -> Generator[Any, Any, None]:
        request.headers["Authorization"] = "Bearer chosen"
        self.sent.append((request.method, request.headers.get("x-team")))
        yield request


async def test_sse_chosen_explicitly(features_sse: str) -> None:
    auth = _Signing()
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(features_sse, transport="sse", headers={"X-Team": "bistro"}, auth=auth) as client:
            assert (client.transport_kind, client.era) == ("sse", "legacy")
            assert text_of(await client.call_tool("count", {"steps": 1, "interval": 0})) == "counted to 1"
    assert auth.sent[0] == ("GET", "bistro")  # straight to the event stream: no streamable HTTP tried
    assert ("POST", "bistro") in auth.sent  # the options went along


async def test_streamable_http_chosen_explicitly(features_http: str, features_sse: str) -> None:
    """``transport="http"``: streamable HTTP with the options given, and no fallback to HTTP+SSE."""
    auth = _Signing()
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(
            features_http, transport="http", mode="legacy", headers={"X-Team": "bistro"}, auth=auth
        ) as client:
            assert client.transport_kind == "http"
            assert text_of(await client.call_tool("count", {"steps": 1, "interval": 0})) == "counted to 1"
    assert ("POST", "bistro") in auth.sent
    with anyio.fail_after(TEST_TIMEOUT), pytest.raises(MCPClientError) as caught:
        async with Client(features_sse, transport="http", mode="legacy"):
            pass
    assert "HTTP 405" in str(caught.value) and "HTTP+SSE" not in str(caught.value), caught.value


async def test_a_streamable_server_stays_on_streamable_http(features_http: str) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(features_http, mode="legacy") as client:
            assert client.transport_kind == "http"


async def test_when_neither_transport_works_the_error_says_what_was_tried(features_http: str) -> None:
    wrong = features_http.replace("/mcp", "/nothing-here")
    with anyio.fail_after(TEST_TIMEOUT), pytest.raises(MCPClientError) as caught:
        async with Client(wrong, mode="legacy"):
            pass
    message = str(caught.value)
    assert "tried streamable HTTP: HTTP 404" in message and "HTTP+SSE" in message


async def test_a_server_mounting_both_transports() -> None:
    """The event stream's URL leads to HTTP+SSE, the streamable endpoint stays streamable HTTP."""
    argv = lambda port: [  # noqa: E731
        PEER_PYTHON, str(FEATURES_SERVER), "http", "--host", LOOPBACK, "--port", str(port), "--both",
    ]  # fmt: skip
    with run_http_server(argv) as url:
        with anyio.fail_after(TEST_TIMEOUT):
            async with Client(url.replace("/mcp", "/sse")) as over_sse:
                assert over_sse.transport_kind == "sse"
                assert (
                    text_of(await over_sse.call_tool("count", {"steps": 1, "interval": 0})) == "counted to 1"
                )
            async with Client(url, mode="legacy") as streamable:
                assert streamable.transport_kind == "http"
