"""A stand-in for the OpenAI, Anthropic and Gemini HTTP APIs on 127.0.0.1: the real SDKs talk to it.

It records every request body the SDK sends (``requests``: ``(path, json)``) and answers each with the
next reply a test queued (``reply(...)``: a dict, or a str sent as it is, for JSON that Starlette would
refuse to write, such as ``NaN``), or else what ``respond(path, body)`` says (a scripted model); the
helpers below build replies in each API's own shape (a tool call, or a final text). Served by uvicorn
in a thread of its own, so the test's event loop (asyncio or trio) is free, and on a port the OS picks.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route


class FakeProvider:
    """Recorded requests and queued replies; ``url`` is the server's root (``http://127.0.0.1:N``)."""

    def __init__(self) -> None:
        self.url = ""
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self._replies: deque[dict[str, Any] | str] = deque()
        # Answers a request when no reply is queued: ``respond(path, body)`` (a scripted model).
        self.respond: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None
        self._lock = threading.Lock()
        self.app = Starlette(routes=[Route("/{path:path}", self._answer, methods=["POST"])])

    def reply(self, *bodies: dict[str, Any] | str) -> None:
        with self._lock:
            self._replies.extend(bodies)

    def bodies(self, path_part: str) -> list[dict[str, Any]]:
        """The bodies of the requests whose path contains ``path_part``."""
        return [body for path, body in self.requests if path_part in path]

    async def _answer(self, request: Request) -> Response:
        body = json.loads(await request.body() or b"{}")
        with self._lock:
            self.requests.append((request.url.path, body))
            reply = self._replies.popleft() if self._replies else None
        if reply is None:
            if self.respond is None:
                return JSONResponse({"error": {"message": "the test queued no reply"}}, status_code=500)
            reply = self.respond(request.url.path, body)
        if isinstance(reply, str):
            return Response(reply, media_type="application/json")
        return JSONResponse(reply)


@contextmanager
def running_fake_provider() -> Iterator[FakeProvider]:
    provider = FakeProvider()
    config = uvicorn.Config(provider.app, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="fake-provider", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the fake provider did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    provider.url = f"http://127.0.0.1:{port}"
    try:
        yield provider
    finally:
        server.should_exit = True
        thread.join(60)


# ---------------------------------------------------------------- replies in each API's shape


def chat_tool_call(name: str, arguments: dict[str, Any] | str, call_id: str = "call_1") -> dict[str, Any]:
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    return _chat(message, "tool_calls")


def chat_text(text: str) -> dict[str, Any]:
    return _chat({"role": "assistant", "content": text}, "stop")


def _chat(message: dict[str, Any], finish_reason: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-test",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
    }


def responses_function_call(name: str, arguments: dict[str, Any], call_id: str = "call_1") -> dict[str, Any]:
    item = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": call_id,
        "name": name,
        "arguments": json.dumps(arguments),
        "status": "completed",
    }
    return _response([item])


def responses_text(text: str) -> dict[str, Any]:
    item = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }
    return _response([item])


def _response(output: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 0,
        "model": "gpt-test",
        "status": "completed",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


def anthropic_tool_use(name: str, arguments: dict[str, Any], use_id: str = "toolu_1") -> dict[str, Any]:
    return _message([{"type": "tool_use", "id": use_id, "name": name, "input": arguments}], "tool_use")


def anthropic_text(text: str) -> dict[str, Any]:
    return _message([{"type": "text", "text": text}], "end_turn")


def _message(content: list[dict[str, Any]], stop_reason: str) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def gemini_function_call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return _candidate([{"functionCall": {"name": name, "args": arguments}}])


def gemini_text(text: str) -> dict[str, Any]:
    return _candidate([{"text": text}])


def _candidate(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
        "modelVersion": "gemini-test",
    }
