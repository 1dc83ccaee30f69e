"""The floor: JSON-RPC written by hand, as cheap as a correct client can be.

HTTP: one ``httpx2.AsyncClient`` (one reused keep-alive connection for sequential calls), bodies built
with ``json.dumps``, answers parsed with ``json.loads``; both reply content types handled; every SSE
stream read to its end so the connection goes back to the pool.

* ``modern``: 2026-07-28 envelope in ``_meta`` plus the routing headers; an ``input_required`` result is
  answered by hand (canned accept) and retried with a fresh id, ``inputResponses`` and ``requestState``.
* ``legacy``: ``initialize`` handshake, ``Mcp-Session-Id``, SSE replies parsed by hand; a mid-call
  ``elicitation/create`` is answered with a POST (202) while the call's stream stays open; DELETE on close.

The pool has no cap on connections (as our client's): with hundreds of calls in flight (the fan-out
levels), each call's stream holds one while its answer needs another. Answers wait ``answer_delay``
seconds first, as a person or a model would take.

stdio: JSON lines to the server subprocess's stdin, replies read with ``readline`` (asyncio streams).

Variants ``httpx-modern`` / ``httpx-legacy`` (drivers ``floor-httpx-*``) are the same code on httpx
0.29 instead of httpx2 (same API): the floor our client was measured against before the port to
httpx2, so the bench shows both "our layer over its stack" (the httpx2 floor) and "our client over
the cheapest correct client" (whichever floor is cheaper). They run in a venv with httpx beside the
runtime dependencies (``bench/_venvs.py``). Over stdio they are the plain floors.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx2

from bench.drivers._stdio_cmd import server_command

VARIANTS = ("modern", "legacy", "httpx-modern", "httpx-legacy")
MODERN = "2026-07-28"
LEGACY = "2025-11-25"
CLIENT_INFO = {"name": "bench-floor", "version": "1.0"}
CAPS = {"elicitation": {"form": {}}}
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    "io.modelcontextprotocol/clientCapabilities": CAPS,
}
ACCEPT_CONFIRM = {"action": "accept", "content": {"confirm": True}}

Call = Callable[[str, dict[str, Any]], Awaitable[str]]


def _http_lib(variant: str) -> Any:
    """httpx2, or httpx for an ``httpx-`` variant (imported only then: it is not a runtime dependency)."""
    if variant.startswith("httpx-"):
        import httpx

        return httpx
    return httpx2


def _pool(lib: Any) -> Any:
    return lib.Limits(max_connections=None, max_keepalive_connections=20)


def _text(msg: dict[str, Any]) -> str:
    if "error" in msg:
        raise RuntimeError(f"JSON-RPC error: {msg['error']}")
    return msg["result"]["content"][0]["text"]


def _sse_messages(body: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    data: list[str] = []
    for line in body.splitlines():
        if not line:
            if data:
                out.append(json.loads("\n".join(data)))
                data = []
        elif line.startswith("data:"):
            chunk = line[5:]
            data.append(chunk[1:] if chunk.startswith(" ") else chunk)
    if data:
        out.append(json.loads("\n".join(data)))
    return [m for m in out if m]


def _reply(response: Any, rid: int) -> dict[str, Any]:
    if response.headers.get("content-type", "").startswith("application/json"):
        return json.loads(response.content)
    for msg in _sse_messages(response.text):
        if msg.get("id") == rid and ("result" in msg or "error" in msg):
            return msg
    raise RuntimeError(f"no response for id {rid} (HTTP {response.status_code})")


@asynccontextmanager
async def _http_modern(url: str, answer_delay: float, lib: Any = httpx2) -> AsyncIterator[Call]:
    ids = itertools.count(1)
    async with lib.AsyncClient(timeout=30.0, limits=_pool(lib)) as http:

        async def call(tool: str, arguments: dict[str, Any]) -> str:
            headers = {
                "accept": "application/json, text/event-stream",
                "content-type": "application/json",
                "mcp-protocol-version": MODERN,
                "mcp-method": "tools/call",
                "mcp-name": tool,
            }
            params: dict[str, Any] = {"name": tool, "arguments": arguments, "_meta": META}
            for _ in range(10):
                rid = next(ids)
                body = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params})
                msg = _reply(await http.post(url, content=body, headers=headers), rid)
                result = msg.get("result")
                if result is None or result.get("resultType") != "input_required":
                    return _text(msg)
                if answer_delay:
                    await asyncio.sleep(answer_delay)
                answers = {key: ACCEPT_CONFIRM for key in result.get("inputRequests", {})}
                params = {"name": tool, "arguments": arguments, "_meta": META, "inputResponses": answers}
                if "requestState" in result:
                    params["requestState"] = result["requestState"]
            raise RuntimeError("too many input rounds")

        yield call


@asynccontextmanager
async def _http_legacy(url: str, answer_delay: float, lib: Any = httpx2) -> AsyncIterator[Call]:
    ids = itertools.count(1)
    base = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    async with lib.AsyncClient(timeout=30.0, limits=_pool(lib)) as http:
        init = {
            "jsonrpc": "2.0",
            "id": next(ids),
            "method": "initialize",
            "params": {"protocolVersion": LEGACY, "capabilities": CAPS, "clientInfo": CLIENT_INFO},
        }
        r = await http.post(url, content=json.dumps(init), headers=base)
        _reply(r, 1)["result"]
        headers = {**base, "mcp-session-id": r.headers["mcp-session-id"], "mcp-protocol-version": LEGACY}
        note = await http.post(
            url, content='{"jsonrpc":"2.0","method":"notifications/initialized"}', headers=headers
        )
        assert note.status_code == 202, note.status_code

        async def call(tool: str, arguments: dict[str, Any]) -> str:
            rid = next(ids)
            body = json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": rid,
                    "method": "tools/call",
                    "params": {"name": tool, "arguments": arguments},
                }
            )
            if tool == "echo":
                return _text(_reply(await http.post(url, content=body, headers=headers), rid))
            # A call that may elicit: read its SSE stream as it arrives and answer server requests.
            answer: dict[str, Any] | None = None
            async with http.stream("POST", url, content=body, headers=headers) as response:
                if response.headers.get("content-type", "").startswith("application/json"):
                    return _text(json.loads(await response.aread()))
                data: list[str] = []
                async for line in response.aiter_lines():
                    if line.startswith("data:"):
                        chunk = line[5:]
                        data.append(chunk[1:] if chunk.startswith(" ") else chunk)
                        continue
                    if line or not data:
                        continue
                    msg = json.loads("\n".join(data))
                    data = []
                    if msg.get("method") == "elicitation/create":
                        if answer_delay:
                            await asyncio.sleep(answer_delay)
                        reply = json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": ACCEPT_CONFIRM})
                        ack = await http.post(url, content=reply, headers=headers)
                        assert ack.status_code == 202, ack.status_code
                    elif msg.get("id") == rid:
                        answer = msg
            if answer is None:
                raise RuntimeError("stream ended without a response")
            return _text(answer)

        try:
            yield call
        finally:
            await http.delete(url, headers=headers)


@asynccontextmanager
async def _stdio(era: str) -> AsyncIterator[Call]:
    command, args, cwd = server_command()
    proc = await asyncio.create_subprocess_exec(
        command, *args, cwd=cwd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 24
    )
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout
    ids = itertools.count(1)

    async def roundtrip(message: dict[str, Any]) -> dict[str, Any]:
        stdin.write(json.dumps(message).encode() + b"\n")
        while True:
            msg = json.loads(await stdout.readline())
            if msg.get("id") == message["id"] and "method" not in msg:
                return msg
            if msg.get("method") == "elicitation/create":
                reply = {"jsonrpc": "2.0", "id": msg["id"], "result": ACCEPT_CONFIRM}
                stdin.write(json.dumps(reply).encode() + b"\n")

    try:
        if era == "legacy":
            init = {
                "jsonrpc": "2.0",
                "id": next(ids),
                "method": "initialize",
                "params": {"protocolVersion": LEGACY, "capabilities": CAPS, "clientInfo": CLIENT_INFO},
            }
            (await roundtrip(init))["result"]
            stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

            async def call(tool: str, arguments: dict[str, Any]) -> str:
                req = {
                    "jsonrpc": "2.0",
                    "id": next(ids),
                    "method": "tools/call",
                    "params": {"name": tool, "arguments": arguments},
                }
                return _text(await roundtrip(req))

        else:

            async def call(tool: str, arguments: dict[str, Any]) -> str:
                params: dict[str, Any] = {"name": tool, "arguments": arguments, "_meta": META}
                for _ in range(10):
                    req = {"jsonrpc": "2.0", "id": next(ids), "method": "tools/call", "params": params}
                    msg = await roundtrip(req)
                    result = msg.get("result")
                    if result is None or result.get("resultType") != "input_required":
                        return _text(msg)
                    answers = {key: ACCEPT_CONFIRM for key in result.get("inputRequests", {})}
                    params = {"name": tool, "arguments": arguments, "_meta": META, "inputResponses": answers}
                    if "requestState" in result:
                        params["requestState"] = result["requestState"]
                raise RuntimeError("too many input rounds")

        yield call
    finally:
        stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), 5)
        except TimeoutError:
            proc.kill()
            await proc.wait()


def open_client(variant: str, transport: str, target: str, answer_delay: float = 0.0):
    era = variant.removeprefix("httpx-")
    if transport == "stdio":
        return _stdio(era)  # one call at a time: no fan-out over stdio here
    if era == "modern":
        return _http_modern(target, answer_delay, _http_lib(variant))
    return _http_legacy(target, answer_delay, _http_lib(variant))
