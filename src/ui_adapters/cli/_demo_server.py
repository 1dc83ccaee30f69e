"""The example tools, written once: the bistro's ``book_table`` and the file store's ``delete_folder``.

``mcp-client demo`` runs both in one server (this module); ``examples/servers/bistro.py`` and
``examples/servers/files.py`` serve one each (``bistro()``, ``files()``, ``run_example``). They live
inside the package so the demo finds them however the package was installed (a wheel has no
``examples/`` folder); the example files import them, so there is no copy to drift apart.
``tests/cli/test_examples.py`` runs them all. Built with the official MCP SDK (the ``examples``
extra); the demo only ever runs as a subprocess::

    python -m ui_adapters.cli._demo_server                     # stdio
    python -m ui_adapters.cli._demo_server --http --port 0     # 127.0.0.1, a free port

In HTTP mode it prints ``MCP_DEMO_SERVER_READY <url>`` on stdout once it accepts connections.
The library never imports this module.
"""

# pyright: basic
# (the official SDK's decorators and generics are only partly typed; strict mode would flag them all)

import argparse
import socket
import sys
from typing import Annotated

import anyio
from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve
from pydantic import BaseModel, Field

READY_MARKER = "MCP_DEMO_SERVER_READY"
FULL_DATE = "2025-12-25"
LOOPBACK = "127.0.0.1"
_START_TIMEOUT = 20


class AlternativeDate(BaseModel):
    accept_alternative: bool = Field(description="Book the alternative date instead?")
    date: str = Field(
        default="2025-12-26",
        description="Alternative date (YYYY-MM-DD)",
        json_schema_extra={"format": "date"},  # a real date field: 2025-13-45 is refused as it is typed
    )


async def ask_other_date(date: str, party_size: int) -> Elicit[AlternativeDate] | None:
    """Ask for another date when ``date`` is full (a resolver: asked in either era); else nothing to ask."""
    if date != FULL_DATE:
        return None
    return Elicit(f"No tables for {party_size} on {date}. Would you like another date?", AlternativeDate)


async def book_table(
    date: str,
    party_size: int,
    other: Annotated[ElicitationResult[AlternativeDate], Resolve(ask_other_date)],
) -> str:
    """Book a table for `party_size` people on `date` (YYYY-MM-DD); 2025-12-25 is full."""
    if date != FULL_DATE:
        return f"[SUCCESS] Booked for {date}"
    if other.action == "accept":
        if other.data.accept_alternative:
            return f"[SUCCESS] Booked for {other.data.date}"
        return "[CANCELLED] No booking made"
    if other.action == "decline":
        return "[DECLINED] user declined"
    return "[CANCELLED] user cancelled"


class Confirm(BaseModel):
    confirm: bool = Field(description="Tick to confirm deletion")


async def confirm_delete(path: str) -> Elicit[Confirm] | Confirm:
    """Ask before deleting, unless the folder is empty (then there is nothing to lose)."""
    if path.rstrip("/").endswith("/empty"):
        return Confirm(confirm=True)
    return Elicit(f"Really delete {path}? This cannot be undone.", Confirm)


async def delete_folder(
    path: str, confirmation: Annotated[ElicitationResult[Confirm], Resolve(confirm_delete)]
) -> str:
    """Delete the folder at `path` (pretend: this example never touches the disk)."""
    if confirmation.action == "accept":
        if confirmation.data.confirm:
            return f"deleted {path}"
        return f"kept {path} (not confirmed)"
    return f"kept {path} (outcome: {confirmation.action})"


def bistro(name: str = "bistro") -> MCPServer:
    """A server with ``book_table`` (a ``Resolve(...)`` resolver, asking only for a full date: either era)."""
    server = MCPServer(name, log_level="WARNING")
    server.tool()(book_table)
    return server


def files(name: str = "files") -> MCPServer:
    """A server with ``delete_folder`` (a ``Resolve(...)`` resolver: asked in either era)."""
    server = MCPServer(name, log_level="WARNING")
    server.tool()(delete_folder)
    return server


def demo() -> MCPServer:
    """The server of ``mcp-client demo``: both tools."""
    server = bistro("demo-bistro")
    server.tool()(delete_folder)
    return server


mcp = demo()


def run_example(server: MCPServer, name: str) -> None:
    """``python examples/servers/NAME.py [--http [--port 8000]]``: stdio, or streamable HTTP on 127.0.0.1."""
    parser = argparse.ArgumentParser(description=f"The {name} example MCP server.")
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    args = parser.parse_args()
    if args.http:
        print(f"{name}: serving http://{LOOPBACK}:{args.port}/mcp (Ctrl-C to stop)", file=sys.stderr)
        server.run("streamable-http", host=LOOPBACK, port=args.port)
    else:
        server.run("stdio")


async def _serve_http(port: int) -> None:
    """Serve on a socket bound before uvicorn starts, so port 0 works and the ready line has the port."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind((LOOPBACK, port))
    app = mcp.streamable_http_app(host=LOOPBACK)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    async with anyio.create_task_group() as group:
        group.start_soon(server.serve, [sock])
        with anyio.fail_after(_START_TIMEOUT):
            while not server.started:  # noqa: ASYNC110 - uvicorn only exposes a flag
                await anyio.sleep(0.01)
        print(f"{READY_MARKER} http://{LOOPBACK}:{sock.getsockname()[1]}/mcp", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description="The example server of `mcp-client demo`.")
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP on 127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="HTTP port (default 0: a free one)")
    args = parser.parse_args()
    if args.http:
        anyio.run(_serve_http, args.port)
    else:
        mcp.run("stdio")


if __name__ == "__main__":
    main()
