"""An MCP server (official `mcp==2.3.0` SDK) behind HTTP Basic auth, with no name of its own: the peer of
a client given `http://user:s3cret@127.0.0.1:N/mcp`, whose password must reach this server and nothing
that names it.

A gate in front of the MCP app checks every request (POST, GET, DELETE): it must carry
``Authorization: Basic`` with ``USER:PASSWORD`` (``user`` / ``s3cret``); else ``401`` with
``WWW-Authenticate: Basic``. It records each request's HTTP method and verdict (``accepted``,
``no_credentials``, ``wrong_credentials``); the tool ``gate_log()`` returns that record as JSON.
A ``tools/call`` of ``http_500`` is answered by the gate itself with ``500`` and a plain-text body (a
failing server, not a failing tool).

    python tests/servers/basic_auth_server.py http --port N [--sse]    # --sse: HTTP+SSE at /sse

Tools: `echo(text)` -> the text (read-only); `confirm()` asks a yes/no question with ``ctx.elicit``
(legacy) -> ``confirm: <action> <data>``; `write_note(text)` (not read-only: an approval policy asks
before it) -> ``wrote <text>``; `gate_log()` -> the record. The server's name is empty, so a client
names it by its URL.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any

from _asgi_body import read_body
from _serve import serve, transport_parser
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations
from pydantic import BaseModel

READY_MARKER = "BASIC_AUTH_SERVER_READY"
USER = "user"
PASSWORD = "s3cret"

mcp = MCPServer("nameless")
mcp._lowlevel_server.name = ""  # MCPServer("") would say "mcp-server": this server gives no name at all  # pyright: ignore[reportPrivateUsage]
_log: list[dict[str, str]] = []


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def echo(text: str) -> str:
    return text


class Confirm(BaseModel):
    confirm: bool


@mcp.tool()
async def confirm(ctx: Context) -> str:
    result = await ctx.elicit("Go ahead?", schema=Confirm)
    return f"confirm: {result.action} {getattr(result, 'data', None)}"


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False))
def write_note(text: str) -> str:
    return f"wrote {text}"


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def gate_log() -> str:
    return json.dumps(_log)


class BasicGate:
    """ASGI middleware: every HTTP request needs the Basic credentials (module docstring)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._expected = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
        given = headers.get("authorization")
        if given != self._expected:
            verdict = "no_credentials" if given is None else "wrong_credentials"
            _log.append({"method": scope["method"], "verdict": verdict})
            await _plain(send, 401, b"credentials required", [(b"www-authenticate", b'Basic realm="mcp"')])
            return
        _log.append({"method": scope["method"], "verdict": "accepted"})
        if scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body, replay = await read_body(receive)
        if b'"http_500"' in body:
            await _plain(send, 500, b"the gate failed on purpose", [])
            return
        await self.app(scope, replay, send)


async def _plain(send: Any, status: int, body: bytes, extra: list[tuple[bytes, bytes]]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain"),
                (b"content-length", str(len(body)).encode()),
                *extra,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, _ = transport_parser(__doc__, stdio=False)
    args = parser.parse_args(argv)

    def app(_origin: str) -> Any:
        inner = mcp.sse_app(host=args.host) if args.sse else mcp.streamable_http_app(host=args.host)
        return BasicGate(inner)

    serve(args, ready_marker=READY_MARKER, http_app=app)


if __name__ == "__main__":
    main()
