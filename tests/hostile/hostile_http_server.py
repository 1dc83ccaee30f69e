"""A deliberately hostile MCP server over HTTP, written on raw asyncio so that every byte is ours.

No framework sits between this script and the socket: it can send a body that is not JSON, a wrong
content type, a truncated or endless SSE stream, a body of many megabytes, reset the connection in the
middle of a response, or never answer at all. What it does is chosen per request by the tool name of
a ``tools/call`` (see ``TOOLS``), so one process serves every test. It speaks just enough of both eras
for the client to connect: ``initialize`` (legacy, with ``Mcp-Session-Id``) and ``server/discover``
(2026-07-28); the era of a request is read from its ``MCP-Protocol-Version`` header, as the official
server does.

Every request is appended to an access log (JSON lines: method, path with query, headers, body), and so
are the events a test may want to see ("the client hung up on stream X"). Tests put a tag in the query
string (``/mcp?t=tag``) to find their own lines. ``POST /admin/forget`` makes the server forget every
legacy session (a restart without the restart). Any other path answers 200 and is logged, so a test can
prove that the client never fetched a URL.

    python tests/hostile/hostile_http_server.py http --host 127.0.0.1 --port N --log PATH

Loopback only; every endless behaviour stops by itself after ``_ENDLESS_SECONDS``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gzip
import itertools
import json
import random
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

_ENDLESS_SECONDS = 60.0
_MAX_REQUEST_BODY = 64 * 1024 * 1024
_LOGGED_STRING = 2000
_MODERN_PREFIX = "2026"
_SERVER_INFO = {"name": "hostile-server", "version": "6.6.6"}


@dataclass
class Request:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes
    message: Any = None

    @property
    def path(self) -> str:
        return self.target.partition("?")[0]

    @property
    def modern(self) -> bool:
        return self.headers.get("mcp-protocol-version", "").startswith(_MODERN_PREFIX)


@dataclass
class Server:
    log_path: str
    sessions: set[str] = field(default_factory=set[str])
    pending: dict[Any, asyncio.Future[Any]] = field(default_factory=dict)
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    counters: dict[str, int] = field(default_factory=dict)
    arrivals: dict[str, asyncio.Event] = field(default_factory=dict)
    redeploying: dict[str, int] = field(default_factory=dict)
    """Per URL: how many more POSTs a gateway answers 503 to (the ``redeploy`` tool starts it)."""

    def count(self, key: str) -> int:
        """How many times ``key`` was counted before (0 the first time)."""
        seen = self.counters.get(key, 0)
        self.counters[key] = seen + 1
        return seen

    def log(self, entry: dict[str, Any]) -> None:
        with open(self.log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps(_shorten(entry)) + "\n")


def _shorten(value: Any) -> Any:
    """Long strings (a 4 MB requestState) are logged as their length and first characters."""
    if isinstance(value, str) and len(value) > _LOGGED_STRING:
        return {"$len": len(value), "$head": value[:80]}
    if isinstance(value, dict):
        return {k: _shorten(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shorten(v) for v in value]
    return value


# ----------------------------------------------------------------------------------- raw HTTP/1.1


async def read_request(reader: asyncio.StreamReader) -> Request | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        return None
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    length = min(int(headers.get("content-length", "0") or 0), _MAX_REQUEST_BODY)
    body = await reader.readexactly(length) if length else b""
    request = Request(method, target, headers, body)
    if body:
        try:
            request.message = json.loads(body)
        except ValueError:
            request.message = None
    return request


def _head(status: int, headers: dict[str, str]) -> bytes:
    reason = {
        200: "OK",
        202: "Accepted",
        301: "Moved Permanently",
        302: "Found",
        303: "See Other",
        307: "Temporary Redirect",
        308: "Permanent Redirect",
        404: "Not Found",
        405: "Method Not Allowed",
        500: "Internal Server Error",
    }
    lines = [f"HTTP/1.1 {status} {reason.get(status, 'Whatever')}", "connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def send_body(
    writer: asyncio.StreamWriter,
    status: int,
    body: bytes | dict[str, Any] | list[Any],
    content_type: str | None = "application/json",
    headers: dict[str, str] | None = None,
) -> None:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    all_headers = {"content-length": str(len(data)), **(headers or {})}
    if content_type is not None:
        all_headers["content-type"] = content_type
    writer.write(_head(status, all_headers) + data)
    await writer.drain()


class Sse:
    """A chunked ``text/event-stream`` response; ``end()`` finishes it cleanly."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer

    async def start(self, headers: dict[str, str] | None = None) -> Sse:
        extra = {"content-type": "text/event-stream", "transfer-encoding": "chunked", **(headers or {})}
        self.writer.write(_head(200, extra))
        await self.writer.drain()
        return self

    async def raw(self, data: bytes) -> None:
        self.writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        await self.writer.drain()

    async def event(self, message: Any, *, event_id: str | None = None) -> None:
        prefix = f"id: {event_id}\n" if event_id else ""
        await self.raw(f"{prefix}event: message\ndata: {json.dumps(message)}\n\n".encode())

    async def end(self) -> None:
        self.writer.write(b"0\r\n\r\n")
        await self.writer.drain()


def reset(writer: asyncio.StreamWriter) -> None:
    """Drop the connection at once, mid-response (the client sees a reset or an incomplete body)."""
    writer.transport.abort()


# --------------------------------------------------------------------------------- MCP, both eras


def result(message: dict[str, Any], value: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": message["id"], "result": value}


def text_result(message: dict[str, Any], text: str, **extra: Any) -> dict[str, Any]:
    return result(message, {"content": [{"type": "text", "text": text}], "isError": False, **extra})


def error(request_id: Any, code: int, text: str, data: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": text}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": body}


FORM = {
    "type": "object",
    "properties": {"ok": {"type": "boolean", "title": "OK?"}},
    "required": ["ok"],
}


def form_question(message: str = "Well?") -> dict[str, Any]:
    return {
        "method": "elicitation/create",
        "params": {"mode": "form", "message": message, "requestedSchema": FORM},
    }


def url_question(url: str, elicitation_id: str | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"mode": "url", "message": "Please open this page.", "url": url}
    if elicitation_id is not None:
        params["elicitationId"] = elicitation_id
    return {"method": "elicitation/create", "params": params}


Handler = Callable[
    [Server, Request, dict[str, Any], asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]
]
TOOLS: dict[str, Handler] = {}


TOOL_ANNOTATIONS: dict[str, dict[str, Any]] = {"drop_once": {"annotations": {"readOnlyHint": True}}}
"""What ``tools/list`` says of a tool beyond its name (a client sends a read-only call again)."""


def tool(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        TOOLS[name] = fn
        return fn

    return register


def args_of(message: dict[str, Any]) -> dict[str, Any]:
    return message.get("params", {}).get("arguments") or {}


@tool("echo")
async def _echo(server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any) -> None:
    await send_body(writer, 200, text_result(message, str(args_of(message).get("text", ""))))


@tool("echo_sse")
async def _echo_sse(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    sse = await Sse(writer).start()
    await sse.event(text_result(message, str(args_of(message).get("text", ""))))
    await sse.end()


@tool("not_json")
async def _not_json(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    await send_body(writer, 200, b"<html><body>this is not json</body></html>")


@tool("not_jsonrpc")
async def _not_jsonrpc(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    await send_body(writer, 200, {"hello": "world", "id": message["id"]})


@tool("batch_array")
async def _batch(server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any) -> None:
    await send_body(writer, 200, [text_result(message, "in a batch")])


@tool("unknown_id")
async def _unknown_id(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    await send_body(writer, 200, text_result({"id": 987654321}, "for someone else"))


@tool("no_id")
async def _no_id(server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any) -> None:
    reply = text_result(message, "whose?")
    del reply["id"]
    await send_body(writer, 200, reply)


@tool("null_id_result")
async def _null_id(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    await send_body(writer, 200, text_result({"id": None}, "whose?"))


@tool("notification_as_answer")
async def _notification_as_answer(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """A JSON body that is a notification, where the request's response belongs."""
    note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}}
    await send_body(writer, 200, note)


@tool("result_and_error")
async def _both(server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any) -> None:
    reply = text_result(message, "both")
    reply["error"] = {"code": -32603, "message": "and also an error"}
    await send_body(writer, 200, reply)


@tool("sse_noise_then_answer")
async def _sse_noise(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    sse = await Sse(writer).start()
    await sse.raw(b": a comment\n\n")
    await sse.raw(b"id: prime-1\ndata:\n\n")  # a priming event: a cursor, no message
    await sse.raw(b"event: ping\n\n")
    await sse.event(text_result({"id": 424242}, "for an unknown request"))
    await sse.event({"jsonrpc": "2.0", "method": "notifications/made_up", "params": {"x": 1}})
    await sse.event(
        {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}}
    )
    await sse.event(text_result(message, "first"))
    await sse.event(text_result(message, "duplicate, must be ignored"))
    await sse.end()


@tool("answer_then_garbage")
async def _answer_garbage(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    sse = await Sse(writer).start()
    await sse.event(text_result(message, "the answer"))
    await sse.raw(b"data: {this is not json\n\n")
    await sse.raw(b"data: " + b"x" * (2 * 1024 * 1024))  # and an event over the client's limit
    await sse.end()


@tool("sse_garbage_event")
async def _sse_garbage(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    sse = await Sse(writer).start()
    await sse.raw(b"data: {this is not json\n\n")
    await sse.event(text_result(message, "too late"))
    await sse.end()


@tool("sse_truncated")
async def _sse_truncated(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    sse = await Sse(writer).start()
    whole = json.dumps(text_result(message, "never complete"))
    await sse.raw(f"event: message\ndata: {whole[: len(whole) // 2]}".encode())
    await sse.end()


@tool("sse_truncated_with_id")
async def _sse_truncated_id(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    sse = await Sse(writer).start()
    await sse.raw(b"id: cut-1\nretry: 20\ndata:\n\n")
    await sse.raw(b'data: {"jsonrpc":"2.0","id":')
    await sse.end()


@tool("stream_never_answers")
async def _stream_never_answers(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Legacy: a priming event ``stuck-1``, then the stream ends; resuming from it gives nothing new."""
    sse = await Sse(writer).start()
    await sse.raw(b"id: stuck-1\nretry: 10\ndata:\n\n")
    await sse.end()


async def _until_closed(server: Server, reader: asyncio.StreamReader, what: str, tag: str) -> None:
    """Wait (bounded) until the client hangs up; log it so a test can check it did."""
    with contextlib.suppress(asyncio.TimeoutError, ConnectionError):
        await asyncio.wait_for(reader.read(), _ENDLESS_SECONDS)
    server.log({"event": "client-closed", "what": what, "tag": tag})


@tool("silent")
async def _silent(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    await _until_closed(server, reader, "silent", request.target)


@tool("sse_forever")
async def _sse_forever(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    sse = await Sse(writer).start()
    loop = asyncio.get_running_loop()
    end = loop.time() + _ENDLESS_SECONDS
    try:
        while loop.time() < end:
            await sse.raw(b": still thinking\n\n")
            await asyncio.sleep(0.05)
    except ConnectionError:
        pass
    server.log({"event": "client-closed", "what": "sse_forever", "tag": request.target})


@tool("slow_drip")
async def _slow_drip(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    sse = await Sse(writer).start()
    data = f"data: {json.dumps(text_result(message, 'x' * 200))}\n\n".encode()
    try:
        for byte in data:
            await sse.raw(bytes([byte]))
            await asyncio.sleep(0.05)
    except ConnectionError:
        server.log({"event": "client-closed", "what": "slow_drip", "tag": request.target})


async def _endless(writer: asyncio.StreamWriter, piece: bytes, sse: Sse | None, limit: int) -> None:
    sent = 0
    with contextlib.suppress(ConnectionError):
        while sent < limit:
            if sse is None:
                writer.write(piece)
                await writer.drain()
            else:
                await sse.raw(piece)
            sent += len(piece)


@tool("huge_json")
async def _huge_json(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    size = int(args_of(message).get("mb", 8)) * 1024 * 1024
    head = json.dumps(text_result(message, "@"))[:-4].encode()  # ... "text": " (the string is left open)
    writer.write(_head(200, {"content-type": "application/json", "content-length": str(size)}) + head)
    await _endless(writer, b"x" * 65536, None, size - len(head))


@tool("huge_sse_event")
async def _huge_sse_event(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    sse = await Sse(writer).start()
    await sse.raw(b'data: {"jsonrpc":"2.0","id":' + str(message["id"]).encode() + b',"result":{"x":"')
    await _endless(writer, b"x" * 65536, sse, int(args_of(message).get("mb", 64)) * 1024 * 1024)


@tool("endless_data_lines")
async def _endless_lines(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    sse = await Sse(writer).start()
    await _endless(writer, b"data: x\n" * 8192, sse, int(args_of(message).get("mb", 64)) * 1024 * 1024)


@tool("wrong_content_type")
async def _wrong_type(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    await send_body(writer, 200, json.dumps(text_result(message, "as html")).encode(), "text/html")


@tool("no_content_type")
async def _no_type(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    await send_body(writer, 200, json.dumps(text_result(message, "untyped")).encode(), None)


@tool("empty_200")
async def _empty(server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any) -> None:
    await send_body(writer, 200, b"")


@tool("http_500")
async def _http_500(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    await send_body(writer, 500, b"boom: the database is on fire", "text/plain")


@tool("http_503_jsonrpc")
async def _http_503(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    await send_body(writer, 503, error(None, -32000, "Overloaded, try later"))


@tool("http_500_huge")
async def _http_500_huge(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    size = 8 * 1024 * 1024
    writer.write(_head(500, {"content-type": "text/plain", "content-length": str(size)}))
    await _endless(writer, b"E" * 65536, None, size)


@tool("reset_before_headers")
async def _reset_early(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    reset(writer)


@tool("reset_mid_json")
async def _reset_json(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    writer.write(
        _head(200, {"content-type": "application/json", "content-length": "1000"}) + b'{"jsonrpc":"2.0",'
    )
    await writer.drain()
    await asyncio.sleep(0.05)
    reset(writer)


@tool("reset_mid_sse")
async def _reset_sse(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    sse = await Sse(writer).start()
    await sse.raw(b": hello\n\n")
    writer.write(b'100\r\ndata: {"jsonrpc"')  # a chunk that promises 256 bytes and delivers a few
    await writer.drain()
    await asyncio.sleep(0.05)
    reset(writer)


# --- limits --------------------------------------------------------------------------------------


@tool("input_forever")
async def _input_forever(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    rounds = int(message.get("params", {}).get("requestState") or "0")
    value = {
        "resultType": "input_required",
        "inputRequests": {f"q{rounds}": form_question(f"Round {rounds}")},
    }
    value["requestState"] = str(rounds + 1)
    await send_body(writer, 200, result(message, value))


@tool("state_grows")
async def _state_grows(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    state = message.get("params", {}).get("requestState") or ("s" * 32768)
    value = {"resultType": "input_required", "requestState": state * 2}
    await send_body(writer, 200, result(message, value))


@tool("too_many_questions")
async def _many_q(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    questions = {f"q{i}": form_question(f"Question {i}") for i in range(int(args_of(message).get("n", 5000)))}
    await send_body(
        writer, 200, result(message, {"resultType": "input_required", "inputRequests": questions})
    )


@tool("state_tagged")
async def _state_tagged(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Round 1: a question and a state bound to this call's tag; round 2: check the state came back."""
    params = message.get("params", {})
    tag = str(args_of(message).get("tag"))
    await asyncio.sleep(random.random() * 0.05)  # interleave the concurrent calls
    state = params.get("requestState")
    if state is None:
        value = {
            "resultType": "input_required",
            "inputRequests": {"confirm": form_question(f"Confirm {tag}")},
            "requestState": f"state-for-{tag}-{random.getrandbits(32)}",
        }
        await send_body(writer, 200, result(message, value))
        return
    if not state.startswith(f"state-for-{tag}-"):
        await send_body(writer, 200, text_result(message, f"WRONG STATE {state!r} for {tag}"))
        return
    answer = params.get("inputResponses", {}).get("confirm", {})
    await send_body(
        writer, 200, text_result(message, f"{tag}: {answer.get('action')} {answer.get('content')}")
    )


@tool("url_elicit")
async def _url_elicit(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Ask the user to open ``arguments.url``; modern as ``inputRequests``, legacy as a pushed request."""
    url = str(args_of(message).get("url"))
    if request.modern:
        responses = message.get("params", {}).get("inputResponses")
        if responses is None:
            value = {"resultType": "input_required", "inputRequests": {"open": url_question(url)}}
            await send_body(writer, 200, result(message, value))
        else:
            await send_body(
                writer, 200, text_result(message, f"action={responses.get('open', {}).get('action')}")
            )
        return
    sse = await Sse(writer).start()
    answer = await _ask(server, sse, url_question(url, "hostile-1"))
    await sse.event(text_result(message, f"action={answer.get('result', {}).get('action')}"))
    await sse.end()


@tool("url_required")
async def _url_required(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    url = str(args_of(message).get("url"))
    data = {
        "elicitations": [{"mode": "url", "message": "Open this first.", "url": url, "elicitationId": "req-1"}]
    }
    await send_body(writer, 200, error(message["id"], -32042, "Open a page first", data))


async def _ask(server: Server, sse: Sse, question: dict[str, Any]) -> dict[str, Any]:
    request_id = f"srv-{next(server.ids)}"
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    server.pending[request_id] = future
    await sse.event({"jsonrpc": "2.0", "id": request_id, **question})
    try:
        return await asyncio.wait_for(future, _ENDLESS_SECONDS)
    finally:
        server.pending.pop(request_id, None)


def sampling_question(offer: str) -> dict[str, Any]:
    """A ``sampling/createMessage`` offering the model a tool (``offer="tools"``), a tool choice
    (``"toolChoice"``) or both (``"both"``), sent whatever the client declared: this server never checks."""
    params: dict[str, Any] = {
        "messages": [{"role": "user", "content": {"type": "text", "text": "Look it up."}}],
        "maxTokens": 10,
    }
    if offer in ("tools", "both"):
        params["tools"] = [{"name": "lookup", "inputSchema": {"type": "object"}}]
    if offer in ("toolChoice", "both"):
        params["toolChoice"] = {"mode": "auto"}
    return {"method": "sampling/createMessage", "params": params}


@tool("sample_with_tools")
async def _sample_with_tools(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Ask the client's model with tools offered (``arguments.offer``); answer with what came back, as
    JSON. Modern: an ``inputRequests`` round; legacy: a request pushed on the call's SSE stream."""
    question = sampling_question(str(args_of(message).get("offer", "tools")))
    if request.modern:
        responses = message.get("params", {}).get("inputResponses")
        if responses is None:
            value = {"resultType": "input_required", "inputRequests": {"sample": question}}
            await send_body(writer, 200, result(message, value))
        else:
            await send_body(writer, 200, text_result(message, json.dumps(responses.get("sample"))))
        return
    sse = await Sse(writer).start()
    answer = await _ask(server, sse, question)
    heard = {key: answer[key] for key in ("result", "error") if key in answer}
    await sse.event(text_result(message, json.dumps(heard)))
    await sse.end()


@tool("flood_elicitations")
async def _flood(server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any) -> None:
    """Legacy: push ``n`` questions at once, wait for every answer, report how they were answered."""
    count = int(args_of(message).get("n", 1000))
    sse = await Sse(writer).start()
    loop = asyncio.get_running_loop()
    futures: list[asyncio.Future[Any]] = []
    for index in range(count):
        request_id = f"flood-{next(server.ids)}"
        future: asyncio.Future[Any] = loop.create_future()
        server.pending[request_id] = future
        futures.append(future)
        question = {"jsonrpc": "2.0", "id": request_id, **form_question(f"Flood {index}")}
        await sse.raw(f"data: {json.dumps(question)}\n\n".encode())
    done, _ = await asyncio.wait(futures, timeout=_ENDLESS_SECONDS)
    answers = [f.result() for f in done]
    refused = sum(1 for a in answers if "error" in a)
    accepted = sum(1 for a in answers if "result" in a)
    await sse.event(text_result(message, f"answered={len(answers)} accepted={accepted} refused={refused}"))
    await sse.end()


# --- second round: redirects, compression, chunking, boundaries, streams ---------------------------


@tool("redirect")
async def _redirect(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Redirect to ``arguments.location`` with ``arguments.status``; a request that carries
    ``redirected=1`` in its query is answered (so a same-origin redirect can arrive). ``body_mb`` gives
    the redirect response a body of that many MiB, streamed (it should never be read)."""
    if "redirected=1" in request.target:
        await send_body(writer, 200, text_result(message, "arrived after the redirect"))
        return
    arguments = args_of(message)
    status = int(arguments.get("status", 307))
    location = str(arguments.get("location"))
    size = int(arguments.get("body_mb", 0)) * 1024 * 1024
    headers = {"location": location, "content-type": "text/plain", "content-length": str(size)}
    writer.write(_head(status, headers))
    await writer.drain()
    await _endless(writer, b"R" * 65536, None, size)


@functools.cache
def _bomb(layers: int, megabytes: int, sse: bool) -> bytes:
    payload = (b"data: " if sse else b"") + b"x" * (megabytes * 1024 * 1024)
    for _ in range(layers):
        payload = gzip.compress(payload, 9)
    return payload


@tool("gzip_bomb")
async def _gzip_bomb(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """``layers`` of gzip over ``mb`` MiB of one byte: a few hundred bytes on the wire."""
    arguments = args_of(message)
    layers = int(arguments.get("layers", 2))
    sse = bool(arguments.get("sse", False))
    body = _bomb(layers, int(arguments.get("mb", 64)), sse)
    encoding = ", ".join(["gzip"] * layers)
    content_type = "text/event-stream" if sse else "application/json"
    await send_body(writer, 200, body, content_type, {"content-encoding": encoding})


@tool("bad_gzip")
async def _bad_gzip(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """A body that says it is gzip and is not (JSON, or SSE with ``sse``)."""
    sse = bool(args_of(message).get("sse", False))
    body = f"data: {json.dumps(text_result(message, 'plain'))}\n\n".encode() if sse else b"not gzip at all"
    content_type = "text/event-stream" if sse else "application/json"
    await send_body(writer, 200, body, content_type, {"content-encoding": "gzip"})


@tool("tiny_chunks")
async def _tiny_chunks(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """The answer (``n`` characters of text) as one SSE event, one byte per HTTP chunk, written at once."""
    text = "x" * int(args_of(message).get("n", 30000))
    event = f"data: {json.dumps(text_result(message, text))}\n\n".encode()
    writer.write(_head(200, {"content-type": "text/event-stream", "transfer-encoding": "chunked"}))
    writer.write(b"".join(b"1\r\n" + event[i : i + 1] + b"\r\n" for i in range(len(event))))
    writer.write(b"0\r\n\r\n")
    with contextlib.suppress(ConnectionError):
        await writer.drain()


def _sized(message: dict[str, Any], size: int, frame: Callable[[bytes], int]) -> bytes:
    """A JSON-RPC answer padded so that ``frame(answer)`` is exactly ``size`` bytes."""
    empty = json.dumps(text_result(message, "")).encode()
    return json.dumps(text_result(message, "p" * (size - frame(empty)))).encode()


@tool("sized_json")
async def _sized_json(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """A JSON body of exactly ``size`` bytes."""
    body = _sized(message, int(args_of(message)["size"]), len)
    await send_body(writer, 200, body)


@tool("sized_sse")
async def _sized_sse(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """One SSE event whose data (the message) is exactly ``size`` bytes; its blank line comes in a
    chunk of its own, so the event is still open when its data line is complete."""
    data = _sized(message, int(args_of(message)["size"]), len)
    sse = await Sse(writer).start()
    await sse.raw(b"event: message\r\ndata: " + data + b"\r\n")
    await sse.raw(b"\r\n")
    await sse.end()


@tool("unicode_event_id")
async def _unicode_event_id(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """A priming event whose id is not ASCII, then the stream ends unanswered."""
    sse = await Sse(writer).start()
    await sse.raw("id: évènement-1\nretry: 10\ndata:\n\n".encode())
    await sse.end()


@tool("drop_once_order")  # the same, from a tool with a side effect: never sent again by the client
@tool("drop_once")  # read-only (TOOL_ANNOTATIONS): sent again by the client after the loss
async def _drop_once(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """The first call under a tag: a priming event with an id, half an event, then the stream ends.
    Every later one: the answer, naming how many times it was asked."""
    name = message.get("params", {}).get("name")
    attempt = server.count(f"{name} {request.target}")
    sse = await Sse(writer).start()
    if attempt == 0:
        await sse.raw(b"id: lost-1\ndata:\n\n")
        await sse.raw(b'data: {"jsonrpc":"2.0","id":')
    else:
        await sse.event(text_result(message, f"answered on attempt {attempt + 1}"))
    await sse.end()


@tool("redeploy")
async def _redeploy(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Answer, then have the gateway answer the next ``posts`` POSTs of this URL with HTTP 503."""
    server.redeploying[request.target] = int(args_of(message).get("posts", 3))
    await send_body(writer, 200, text_result(message, "redeploying"))


@tool("barrier_ask")
async def _barrier_ask(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Legacy: hold every call until ``n`` are open (or 10 s pass), then each asks one question and
    answers with the action it got."""
    wanted = int(args_of(message).get("n", 110))
    key = f"barrier {request.target}"
    event = server.arrivals.setdefault(key, asyncio.Event())
    if server.count(key) + 1 >= wanted:
        event.set()
    sse = await Sse(writer).start()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(event.wait(), 10)
    answer = await _ask(server, sse, form_question("Ready?"))
    await sse.event(text_result(message, f"action={answer.get('result', {}).get('action')}"))
    await sse.end()


@tool("ask_then_answer")
async def _ask_then_answer(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Legacy: push one question, and answer the call (with the action it got) as soon as the answer
    arrives: before that answer's POST is acknowledged, as the official server often does."""
    sse = await Sse(writer).start()
    answer = await _ask(server, sse, form_question("Go?"))
    await sse.event(text_result(message, f"action={answer.get('result', {}).get('action')}"))
    await sse.end()


@tool("ask_and_move_on")
async def _ask_and_move_on(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Legacy: push one question, then answer the call at once without waiting for the answer."""
    sse = await Sse(writer).start()
    question_id = f"srv-{next(server.ids)}"
    await sse.event({"jsonrpc": "2.0", "id": question_id, **form_question("Anyone?")})
    await asyncio.sleep(0.2)
    await sse.event(text_result(message, "moved on"))
    await sse.end()


@tool("ask_two_at_once")
async def _ask_two_at_once(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Legacy: push two questions in one write (both open at once), wait for both answers, then say
    which actions came back, in the questions' order."""
    sse = await Sse(writer).start()
    futures: list[asyncio.Future[Any]] = []
    events = b""
    for text in ("First?", "Second?"):
        question_id = f"srv-{next(server.ids)}"
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        server.pending[question_id] = future
        futures.append(future)
        question = {"jsonrpc": "2.0", "id": question_id, **form_question(text)}
        events += f"event: message\ndata: {json.dumps(question)}\n\n".encode()
    await sse.raw(events)
    answers = await asyncio.wait_for(asyncio.gather(*futures), _ENDLESS_SECONDS)
    actions = [a.get("result", {}).get("action") for a in answers]
    await sse.event(text_result(message, f"actions={','.join(str(a) for a in actions)}"))
    await sse.end()


@tool("state_verbatim")
async def _state_verbatim(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Round 1: a requestState that looks like JSON; round 2: say whether it came back byte for byte."""
    original = '{"step": 1}'
    params = message.get("params", {})
    if "requestState" not in params:
        value = {"resultType": "input_required", "requestState": original}
        await send_body(writer, 200, result(message, value))
        return
    state = params["requestState"]
    verdict = "intact" if state == original else f"changed to {state!r}"
    await send_body(writer, 200, text_result(message, f"state {verdict}"))


@tool("ask_then_silent")
async def _ask_then_silent(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Ask one question (pushed in legacy, returned in 2026-07-28), then never answer the call."""
    if request.modern:
        if "inputResponses" not in message.get("params", {}):
            value = {"resultType": "input_required", "inputRequests": {"q": form_question("Quick?")}}
            await send_body(writer, 200, result(message, value))
            return
        await _until_closed(server, reader, "ask_then_silent", request.target)
        return
    sse = await Sse(writer).start()
    await _ask(server, sse, form_question("Quick?"))
    await _until_closed(server, reader, "ask_then_silent", request.target)


@tool("ask_then_cancel")
async def _ask_then_cancel(
    server: Server, request: Request, message: dict[str, Any], reader: Any, writer: Any
) -> None:
    """Legacy: push a question, cancel it ``delay`` seconds later with notifications/cancelled, give
    the client ``watch`` seconds (default 1) to (wrongly) answer it anyway, then answer the call saying
    whether it did."""
    request_id = f"srv-{next(server.ids)}"
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    server.pending[request_id] = future
    sse = await Sse(writer).start()
    await sse.event({"jsonrpc": "2.0", "id": request_id, **form_question("Still there?")})
    await asyncio.sleep(float(args_of(message).get("delay", 0)))
    cancel = {"requestId": request_id, "reason": "the tool changed its mind"}
    await sse.event({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(asyncio.shield(future), float(args_of(message).get("watch", 1.0)))
    server.pending.pop(request_id, None)
    await sse.event(text_result(message, f"answered the cancelled question: {future.done()}"))
    await sse.end()


async def _get_stream(server: Server, request: Request, reader: Any, writer: Any) -> None:
    """A standalone GET stream for a known session, held open until the client hangs up."""
    session = request.headers.get("mcp-session-id", "")
    if session not in server.sessions:
        await send_body(writer, 404, error(None, -32600, "Session not found"))
        return
    sse = await Sse(writer).start()
    await sse.raw(b": open\n\n")
    server.log({"event": "get-open", "session": session, "tag": request.target})
    await _until_closed(server, reader, "get-stream", request.target)


async def _endless_delete(writer: asyncio.StreamWriter) -> None:
    """A DELETE answered 200 with a gigabyte of body, streamed (the client should never read it)."""
    size = 1 << 30
    writer.write(_head(200, {"content-type": "text/plain", "content-length": str(size)}))
    await _endless(writer, b"D" * 65536, None, size)


# ------------------------------------------------------------------------------------ dispatching


async def handle_mcp(
    server: Server, request: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    if request.method == "GET":
        if "get_stream=1" in request.target:
            await _get_stream(server, request, reader, writer)
            return
        if "forget_on_resume=1" in request.target and request.headers.get("last-event-id"):
            await send_body(writer, 404, error(None, -32600, "Session not found"))  # forgot it meanwhile
            return
        if request.headers.get("last-event-id") == "stuck-1":  # stream_never_answers: nothing new
            await (await Sse(writer).start()).end()
            return
        await send_body(writer, 405, b"", None, {"allow": "POST, DELETE"})
        return
    if request.method == "DELETE":
        server.sessions.discard(request.headers.get("mcp-session-id", ""))
        if "huge_delete=1" in request.target:
            await _endless_delete(writer)
            return
        await send_body(writer, 200, b"", None)
        return
    message = request.message
    if not isinstance(message, dict):
        await send_body(writer, 400, error(None, -32700, "Parse error"))
        return
    method = message.get("method")
    session = request.headers.get("mcp-session-id")
    if server.redeploying.get(request.target, 0) > 0:  # a gateway while the server behind it restarts
        server.redeploying[request.target] -= 1
        await send_body(writer, 503, b"<html><body>503 Service Unavailable</body></html>", "text/html")
        return
    if (
        not request.modern
        and method != "initialize"
        and session is not None
        and session not in server.sessions
    ):
        await send_body(writer, 404, error(None, -32600, "Session not found"))
        return
    if method is None:  # the client's answer to one of our requests
        future = server.pending.get(message.get("id"))
        if future is not None and not future.done():
            future.set_result(message)
        if "slow_ack=1" in request.target:
            # The tool writes the call's result meanwhile; a client that hangs up on this exchange
            # before its 202 (it cancelled its answer) is logged.
            await asyncio.sleep(0.5)
            waited = not reader.at_eof()
            server.log(
                {
                    "event": "answer-ack",
                    "id": message.get("id"),
                    "client_waited": waited,
                    "tag": request.target,
                }
            )
            with contextlib.suppress(ConnectionError):
                await send_body(writer, 202, b"", None)
            return
        await send_body(writer, 202, b"", None)
        return
    if "id" not in message:  # a notification
        if "silent_ack" in request.target:  # never acknowledge it
            await _until_closed(server, reader, "silent_ack", request.target)
            return
        if "endless_ack" in request.target:  # answer it with a body that never ends
            writer.write(_head(202, {"content-type": "application/json", "transfer-encoding": "chunked"}))
            await _endless(writer, b"10000\r\n" + b" " * 65536 + b"\r\n", None, 1 << 30)
            return
        if "refused_ack=1" in request.target:  # refuse it
            await send_body(writer, 400, b"no notifications here", "text/plain")
            return
        if "bad_gzip_ack=1" in request.target:  # a body that claims gzip and is not
            await send_body(writer, 202, b"not gzip", "application/json", {"content-encoding": "gzip"})
            return
        await send_body(writer, 202, b"", None)
        return
    capabilities: dict[str, Any] = {"tools": {}}
    if "bad_capabilities=1" in request.target:
        capabilities = {"tools": True, "prompts": {"listChanged": True}, "logging": "yes"}
    if method == "initialize":
        session_id = f"hostile-session-{next(server.ids)}"
        if "unicode_session=1" in request.target:
            session_id = f"sessión-{next(server.ids)}"  # latin-1 on the wire: not visible ASCII
        if "forgetful" not in request.target:  # a forgetful server never knows a session again
            server.sessions.add(session_id)
        value = {"protocolVersion": "2025-11-25", "capabilities": capabilities, "serverInfo": _SERVER_INFO}
        await send_body(writer, 200, result(message, value), headers={"mcp-session-id": session_id})
    elif method == "server/discover":
        value = {
            "supportedVersions": ["2026-07-28"],
            "capabilities": capabilities,
            "resultType": "complete",
            "_meta": {"io.modelcontextprotocol/serverInfo": _SERVER_INFO},
        }
        await send_body(writer, 200, result(message, value))
    elif method == "ping":
        await send_body(writer, 200, result(message, {}))
    elif method == "tools/list":
        tools = [
            {"name": name, "inputSchema": {"type": "object"}, **TOOL_ANNOTATIONS.get(name, {})}
            for name in TOOLS
        ]
        page: dict[str, Any] = {"tools": tools}
        if "repeat_cursor=1" in request.target:  # every page says there is a next one, the same one
            page = {"tools": tools[:1], "nextCursor": "page-2"}
        await send_body(writer, 200, result(message, page))
    elif method == "subscriptions/listen" and "listen=" in request.target:
        await _listen(request, message, writer)
    elif method == "tools/call":
        handler = TOOLS.get(str(message.get("params", {}).get("name")))
        if handler is None:
            await send_body(writer, 200, error(message["id"], -32602, "Unknown tool"))
        else:
            await handler(server, request, message, reader, writer)
    else:
        await send_body(writer, 404, error(message["id"], -32601, "Method not found"))


async def _listen(request: Request, message: dict[str, Any], writer: asyncio.StreamWriter) -> None:
    """A ``subscriptions/listen`` stream: the ack, one tools notice, then ``listen=close`` ends it with
    the result (a graceful close) and ``listen=drop`` resets the connection (a lost stream)."""
    meta = {"io.modelcontextprotocol/subscriptionId": message["id"]}
    filter_ = message.get("params", {}).get("notifications", {})
    sse = await Sse(writer).start()
    ack = {"notifications": filter_, "_meta": meta}
    await sse.event({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": ack})
    notice = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": meta}}
    await sse.event(notice)
    await asyncio.sleep(0.1)
    if "listen=drop" in request.target:
        reset(writer)
        return
    await sse.event(result(message, {"_meta": meta}))
    await sse.end()


async def handle_connection(
    server: Server, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    try:
        request = await read_request(reader)
        if request is None:
            return
        server.log(
            {
                "method": request.method,
                "path": request.target,
                "headers": request.headers,
                "body": request.message
                if request.message is not None
                else request.body.decode("utf-8", "replace"),
            }
        )
        if request.method == "POST" and request.path == "/admin/forget":
            server.sessions.clear()
            await send_body(writer, 200, {"forgot": True})
        elif request.path == "/mcp":
            await handle_mcp(server, request, reader, writer)
        else:
            await send_body(writer, 200, b"you fetched me", "text/plain")
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport", choices=["http"])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log", required=True)
    options = parser.parse_args()
    if options.host not in ("127.0.0.1", "localhost"):
        sys.exit("the hostile server binds loopback only")
    server = Server(options.log)

    async def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await handle_connection(server, reader, writer)

    listener = await asyncio.start_server(
        on_connection, options.host, options.port, limit=1024 * 1024, backlog=4096
    )
    print(f"HOSTILE_SERVER_READY http://{options.host}:{options.port}/mcp", flush=True)
    async with listener:
        await listener.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
