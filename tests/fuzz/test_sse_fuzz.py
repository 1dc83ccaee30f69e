"""Fuzzing the HTTP transport's SSE reading with arbitrary byte streams, split at arbitrary places.

``httpx2.MockTransport`` is only a byte source here (the server semantics are exercised against real
servers elsewhere): the response body is a hypothesis-chosen stream, delivered in hypothesis-chosen
chunks, into ``StreamableHTTPTransport.request``. Whatever the bytes, the outcome is our reply or an
``MCPClientError``; it does not depend on how the bytes were split; an event over
``max_message_bytes`` is refused; and garbage never hides a well-formed answer that came first.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import anyio
import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_client._errors import MCPClientError, ProtocolError
from mcp_client._transports import http_body
from mcp_client._transports.http import StreamableHTTPTransport

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_BYTES = 2048
REQUEST_ID = 7
URL = "http://127.0.0.1:9/mcp"  # never connected to: MockTransport answers


@pytest.fixture(autouse=True, scope="module")
def _no_resume_delay() -> Iterator[None]:
    """A stream that drops after an event id is resumed after ``retry`` ms (1 s by default): make the
    default 0 so a few hundred examples stay fast. The resume logic itself runs unchanged."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(http_body, "DEFAULT_RETRY_MS", 0)
        yield


class _Chunks(httpx2.AsyncByteStream):
    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks:
            yield chunk


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points) if b > a]


async def _request(chunks: list[bytes]) -> tuple[str, Any, list[dict[str, Any]]]:
    """Run one request against the byte stream: ("reply", message) or ("error", exception type)."""
    seen: list[dict[str, Any]] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        if request.method == "GET":  # a resume attempt: nothing more to give
            return httpx2.Response(405)
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, stream=_Chunks(chunks))

    async def on_message(message: dict[str, Any], related_request: Any = None) -> None:
        seen.append(message)

    client = httpx2.AsyncClient(transport=httpx2.MockTransport(handler))
    transport = StreamableHTTPTransport(URL, http_client=client, max_message_bytes=MAX_BYTES)
    await transport.open(lambda fn: None, on_message)
    message = {"jsonrpc": "2.0", "id": REQUEST_ID, "method": "tools/call", "params": {"name": "x"}}
    try:
        reply = await transport.request(message, {})
    except MCPClientError as exc:
        return "error", type(exc), seen
    finally:
        await client.aclose()
    assert reply["id"] == REQUEST_ID and ("result" in reply) != ("error" in reply)
    return "reply", reply, seen


def run(chunks: list[bytes]) -> tuple[str, Any, list[dict[str, Any]]] | None:
    """The outcome, or None if it took longer than the bound (only a server ``retry:`` can do that)."""

    async def bounded() -> tuple[str, Any, list[dict[str, Any]]] | None:
        with anyio.move_on_after(10):
            return await _request(chunks)
        return None

    return anyio.run(bounded)


# --------------------------------------------------------------------------------- building streams

_EOL = st.sampled_from(["\n", "\r\n", "\r"])


def _answer(text: str, request_id: Any = REQUEST_ID) -> str:
    return json.dumps(
        {"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": text}]}}
    )


@st.composite
def sse_event(draw: st.DrawFn) -> tuple[str, str, str | None]:
    """One SSE event: what it is, its lines (unterminated), and the text of the answer it carries."""
    kind = draw(
        st.sampled_from(
            [
                "answer",
                "other_answer",
                "notification",
                "comment",
                "priming",
                "garbage",
                "huge",
                "fields",
                "retry",
            ]
        )
    )
    answer = None
    if kind == "answer":
        answer = draw(st.text(max_size=20))
        lines = ["event: message", f"data: {_answer(answer)}"]
    elif kind == "other_answer":
        lines = [f"data: {_answer('not ours', draw(st.integers(100, 200) | st.text(max_size=4)))}"]
    elif kind == "notification":
        lines = ["data: " + json.dumps({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}})]
    elif kind == "comment":
        lines = [": " + draw(st.text(alphabet=st.characters(exclude_characters="\r\n"), max_size=20))]
    elif kind == "priming":
        lines = [f"id: {draw(st.text(alphabet='abc123', min_size=1, max_size=5))}", "data:"]
    elif kind == "garbage":
        lines = [
            "data: "
            + draw(st.text(alphabet=st.characters(exclude_characters="\r\n"), min_size=1, max_size=30))
        ]
    elif kind == "huge":
        lines = ["data: " + "x" * (MAX_BYTES + draw(st.integers(1, 3000)))]
    elif kind == "retry":
        lines = [f"retry: {draw(st.integers(0, 50))}"]
    else:  # odd but legal field lines, split data
        lines = ["event: ping", "unknown: field", "data: {", 'data: "jsonrpc": "2.0", "method": "x"}']
    return kind, draw(_EOL).join(lines), answer


@st.composite
def sse_stream(draw: st.DrawFn) -> tuple[list[tuple[str, str | None]], bytes]:
    events = draw(st.lists(sse_event(), max_size=6))
    body = ""
    for _, text, _ in events:
        eol = draw(_EOL)
        body += text + eol + eol
    if draw(st.booleans()):  # a truncated tail
        body += draw(st.text(max_size=30))
    return [(kind, answer) for kind, _, answer in events], body.encode("utf-8", "surrogatepass")


# ------------------------------------------------------------------------------------------- tests


@FUZZ
@given(st.binary(max_size=600), st.lists(st.integers(0, 10_000), max_size=8))
def test_arbitrary_bytes_give_a_reply_or_a_client_error(data: bytes, cuts: list[int]) -> None:
    outcome = run(_split(data, cuts))
    assert outcome is not None or b"retry" in data


@FUZZ
@given(sse_stream(), st.lists(st.integers(0, 10_000), max_size=10))
def test_the_outcome_does_not_depend_on_how_the_bytes_are_split(
    stream: tuple[list[tuple[str, str | None]], bytes], cuts: list[int]
) -> None:
    _, data = stream
    whole = run([data] if data else [])
    split = run(_split(data, cuts))
    assert whole is not None and split is not None
    assert whole[:2] == split[:2]
    assert whole[2] == split[2]  # the same notifications reached the client, in the same order


@FUZZ
@given(sse_stream())
def test_a_well_formed_answer_before_any_garbage_is_the_one_returned(
    stream: tuple[list[tuple[str, str | None]], bytes],
) -> None:
    events, data = stream
    outcome = run([data])
    assert outcome is not None
    kinds = [kind for kind, _ in events]
    clean = kinds[: next((i for i, k in enumerate(kinds) if k in ("garbage", "huge", "fields")), len(kinds))]
    if "answer" in clean:
        first = next(answer for kind, answer in events if kind == "answer")
        assert outcome[0] == "reply"
        assert outcome[1]["result"]["content"][0]["text"] == first


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 20), st.sampled_from([1, 7, 4096]))
def test_an_event_over_the_limit_is_refused_however_it_arrives(extra_kb: int, chunk: int) -> None:
    data = b"data: " + b"x" * (MAX_BYTES + extra_kb * 1024) + b"\n\n" + _answer("late").encode()
    outcome = run([data[i : i + chunk] for i in range(0, len(data), chunk)])
    assert outcome is not None and outcome[:2] == ("error", ProtocolError)
