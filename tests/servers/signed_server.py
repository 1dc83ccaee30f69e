"""An MCP server (official `mcp==2.3.0` SDK) whose POSTs must be signed: the peer of an ``auth=`` flow
that reads bodies (``requires_request_body`` / ``requires_response_body``).

A gate in front of the MCP app checks every POST, both eras on one endpoint:

- `--nonce`: the POST must carry ``X-Nonce: <n>``, a nonce this server handed out and nobody used yet.
  Without one it is answered ``401`` with a JSON body ``{"error": "nonce_required", "nonce": "<n>"}``
  (`--padding N` adds N bytes to it): the nonce is in the body only (no ``WWW-Authenticate``), so only
  an auth flow that reads the 401's body can retry.
- `--hmac`: the POST must carry ``X-Signature: <hex>``, the HMAC-SHA256 of its body under ``KEY``
  (with `--nonce`, of the nonce followed by the body); else ``401`` ``{"error": "bad_signature"}``.

The gate records each POST's JSON-RPC method (``tools/call <name>`` for a call) and its verdict
(``challenged``, ``accepted``, ``bad_signature``); the tool ``gate_log()`` returns that record (as
JSON) so a test can assert what the server received.

    python tests/servers/signed_server.py http --port N [--nonce] [--hmac] [--json-response]
        [--padding N]

Tools: `echo(text)` -> the text; `echo_streamed(text)` reports progress first (called with a progress
token, its answer comes as SSE in both eras) -> the text; `confirm()` asks a yes/no question with
``ctx.elicit`` (legacy: on the call's own stream) -> ``confirm: <action> <data>``; `gate_log()` -> the
record.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
from collections.abc import Sequence
from typing import Any

from _asgi_body import read_body
from _serve import serve, transport_parser
from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel

READY_MARKER = "SIGNED_SERVER_READY"
KEY = b"signed-server-test-key"

mcp = MCPServer("signed")
_log: list[dict[str, str]] = []


@mcp.tool()
def echo(text: str) -> str:
    return text


@mcp.tool()
async def echo_streamed(text: str, ctx: Context) -> str:
    await ctx.report_progress(1, 1, f"echoing {text}")  # on the call's own stream: the answer is SSE
    return text


class Confirm(BaseModel):
    confirm: bool


@mcp.tool()
async def confirm(ctx: Context) -> str:
    result = await ctx.elicit("Go ahead?", schema=Confirm)  # legacy: asked on the call's own stream
    return f"confirm: {result.action} {getattr(result, 'data', None)}"


@mcp.tool()
def gate_log() -> str:
    return json.dumps(_log)


def signature(body: bytes, nonce: str = "") -> str:
    return hmac.new(KEY, nonce.encode() + body, hashlib.sha256).hexdigest()


class SigningGate:
    """ASGI middleware: the checks of the module docstring, on every POST."""

    def __init__(self, app: Any, *, nonce: bool, signed: bool, padding: int = 0) -> None:
        self.app = app
        self.nonce = nonce
        self.signed = signed
        self.padding = padding
        self._counter = itertools.count(1)
        self._issued: set[str] = set()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body, replay = await read_body(receive)
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
        method = _method(body)
        nonce = headers.get("x-nonce", "")
        if self.nonce and nonce not in self._issued:
            fresh = f"n{next(self._counter)}"
            self._issued.add(fresh)
            _log.append({"method": method, "verdict": "challenged"})
            challenge = {"error": "nonce_required", "nonce": fresh}
            if self.padding:
                challenge["padding"] = "x" * self.padding
            await _json(send, 401, challenge)
            return
        if self.signed and not hmac.compare_digest(headers.get("x-signature", ""), signature(body, nonce)):
            _log.append({"method": method, "verdict": "bad_signature"})
            await _json(send, 401, {"error": "bad_signature"})
            return
        self._issued.discard(nonce)  # one use each
        _log.append({"method": method, "verdict": "accepted", "nonce": nonce})
        await self.app(scope, replay, send)


def _method(body: bytes) -> str:
    """The JSON-RPC method, with the tool's name for a ``tools/call`` (``tools/call echo``)."""
    try:
        message: Any = json.loads(body)
    except ValueError:
        return "(not JSON)"
    if not isinstance(message, dict):
        return "(batch)"
    method = str(message.get("method", "(response)"))  # pyright: ignore[reportUnknownMemberType]
    params: Any = message.get("params")  # pyright: ignore[reportUnknownMemberType]
    if method == "tools/call" and isinstance(params, dict):
        return f"{method} {params.get('name')}"  # pyright: ignore[reportUnknownMemberType]
    return method


async def _json(send: Any, status: int, payload: dict[str, str]) -> None:
    body = json.dumps(payload).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, http = transport_parser(__doc__, stdio=False)
    http.add_argument("--nonce", action="store_true", help="every POST needs a nonce from a 401's body")
    http.add_argument("--hmac", action="store_true", help="every POST needs an HMAC of its body")
    http.add_argument("--json-response", action="store_true", help="answer POSTs with JSON, not SSE")
    http.add_argument("--padding", type=int, default=0, help="pad the 401's JSON body by N bytes")
    args = parser.parse_args(argv)

    def app(_origin: str) -> Any:
        inner = mcp.streamable_http_app(json_response=args.json_response, host=args.host)
        return SigningGate(inner, nonce=args.nonce, signed=args.hmac, padding=args.padding)

    serve(args, ready_marker=READY_MARKER, http_app=app)


if __name__ == "__main__":
    main()
