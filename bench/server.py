"""The benchmark's peer: one official `mcp==2.3.0` MCPServer serving both eras.

Why a separate process: the client's CPU and RSS are measured in the driver process, so the server
must never share it. Tools:

* ``echo(text)`` returns ``text`` (structured output ``{"result": text}``).
* ``confirm(item)`` fills a parameter with a ``Resolve(...)`` resolver that always asks one boolean
  question; legacy sessions see ``elicitation/create`` mid-call, modern requests an ``InputRequiredResult``.
  The answer must be ``confirm=True`` or the tool answers ``refused <item>``.
* ``confirm_ctx(item)`` asks the same question with ``ctx.elicit`` (legacy era only).

Over HTTP the server counts the TCP connections it accepted; ``GET /bench/connections`` answers
``{"connections": N}`` (that request's own connection included), so a run can tell how many new
connections a client opened per call (``bench._run``: a legacy elicitation call should open none).

Run:  python -m bench.server http [--port 0]   (prints ``PORT <n>`` on stdout once listening)
      python -m bench.server stdio
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.resolve import Elicit, Resolve
from pydantic import BaseModel, Field


class Confirm(BaseModel):
    confirm: bool = Field(description="Tick to confirm")


def ask_confirm(item: str) -> Elicit[Confirm]:
    return Elicit(f"Really process {item}?", Confirm)


def build_server() -> MCPServer:
    server = MCPServer("bench-server", version="1.0", log_level="WARNING")

    @server.tool()
    def echo(text: str) -> str:
        """Return the text unchanged."""
        return text

    @server.tool()
    def confirm(item: str, answer: Annotated[Confirm, Resolve(ask_confirm)]) -> str:
        """Ask once (a resolver), then answer."""
        return f"done {item}" if answer.confirm else f"refused {item}"

    @server.tool()
    async def confirm_ctx(item: str, ctx: Context) -> str:
        """Ask once with ctx.elicit (legacy era only)."""
        result = await ctx.elicit(f"Really process {item}?", Confirm)
        if result.action == "accept" and result.data.confirm:
            return f"done {item}"
        return f"refused {item}"

    return server


CONNECTIONS_PATH = "/bench/connections"


def _counting(app: Any, accepted: list[int]) -> Any:
    """``app``, answering ``GET /bench/connections`` with the count in ``accepted`` itself."""

    async def counted(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == CONNECTIONS_PATH:
            body = json.dumps({"connections": accepted[0]}).encode()
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        await app(scope, receive, send)

    return counted


def _counting_protocol(accepted: list[int]) -> type[Any]:
    """uvicorn's h11 protocol (what it picks here: httptools is not installed), counting connections."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Counting(H11Protocol):
        def connection_made(self, transport: Any) -> None:
            accepted[0] += 1
            super().connection_made(transport)

    return Counting


def _serve_http(port: int) -> None:
    import uvicorn

    accepted = [0]
    app = _counting(build_server().streamable_http_app(), accepted)
    # IPPROTO_TCP explicitly: asyncio only sets TCP_NODELAY on sockets whose proto says TCP, and
    # without it every call stalls ~40 ms (Nagle + delayed ACK), see PERFORMANCE.md.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(512)
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="on", http=_counting_protocol(accepted)
    )
    server = uvicorn.Server(config)

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(server.serve, [sock])
            with anyio.fail_after(30):
                while not server.started:  # noqa: ASYNC110 - uvicorn offers no event for this
                    await anyio.sleep(0.01)
            print(f"PORT {sock.getsockname()[1]}", flush=True)

    anyio.run(main)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.server")
    parser.add_argument("transport", choices=["http", "stdio"])
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    if args.transport == "stdio":
        build_server().run("stdio")
    else:
        _serve_http(args.port)


if __name__ == "__main__":
    main(sys.argv[1:])
