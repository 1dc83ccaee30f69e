"""The command line and HTTP start-up every test server in this folder shares.

Each server is a script (`python tests/servers/NAME_server.py stdio | http --port N ...`) that
`tests/support/servers.py` starts as a subprocess. What differs between them is the MCP server and how
its HTTP app is built; binding the loopback socket, running uvicorn until it has started and printing
the ready line (`<MARKER> http://127.0.0.1:N/mcp`) is the same for all, and lives here.

Imported as `_serve` (the script's own folder is first on `sys.path`), never from a test.
"""

import argparse
import socket
from collections.abc import Callable
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer

LOOPBACK = "127.0.0.1"
STARTUP_TIMEOUT = 15.0

# An ASGI app built for the origin it will be served at (`http://127.0.0.1:N`): the OAuth server needs
# the real port in its metadata, so it can only be built once the socket is bound.
AppFactory = Callable[[str], Any]


def transport_parser(
    description: str | None, *, stdio: bool = True
) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser | None, argparse.ArgumentParser]:
    """`(parser, stdio, http)`: the `stdio` and `http --host 127.0.0.1 --port N --log-level L` commands.

    A server adds its own options to the `stdio` / `http` sub-parsers before parsing.
    """
    parser = argparse.ArgumentParser(description=(description or "").strip().splitlines()[0])
    sub = parser.add_subparsers(dest="transport", required=True)
    stdio_parser = sub.add_parser("stdio", help="serve on stdin/stdout") if stdio else None
    http = sub.add_parser("http", help="serve streamable HTTP at /mcp on a loopback port")
    http.add_argument("--host", default=LOOPBACK, choices=[LOOPBACK], help="loopback only")
    http.add_argument("--port", type=int, default=0, help="0 picks a free port (see the ready line)")
    http.add_argument(
        "--log-level", default="WARNING", choices=["DEBUG", "INFO", "WARNING", "ERROR"], help="uvicorn's"
    )
    http.add_argument(
        "--sse", action="store_true", help="serve the older HTTP+SSE transport at /sse (protocol 2024-11-05)"
    )
    http.add_argument(
        "--both", action="store_true", help="serve streamable HTTP at /mcp and HTTP+SSE at /sse, as one app"
    )
    http.add_argument("--certfile", help="serve HTTPS with this certificate chain (PEM)")
    http.add_argument("--keyfile", help="the certificate's private key (PEM)")
    http.add_argument("--client-ca", help="with --certfile: require a client certificate from this CA (mTLS)")
    return parser, stdio_parser, http


def serve(
    args: argparse.Namespace,
    *,
    ready_marker: str,
    server: MCPServer | None = None,
    http_app: AppFactory | None = None,
) -> None:
    """Run what `args` (from `transport_parser`) asks for until the process is stopped.

    `stdio`: `server.run("stdio")`. `http`: `http_app(origin)` if given, else the server's own
    streamable HTTP app, on `args.host:args.port`.
    """
    if args.transport == "stdio":
        if server is None:
            raise SystemExit("this server has no stdio mode")
        server.run("stdio")
        return
    if http_app is None:
        if server is None:
            raise TypeError("serve() needs a server or an http_app")
        mcp_server = server
        if getattr(args, "both", False):
            http_app = lambda _origin: _both(mcp_server, args.host)  # noqa: E731
        elif getattr(args, "sse", False):
            http_app = lambda _origin: mcp_server.sse_app(host=args.host)  # noqa: E731
        else:
            http_app = lambda _origin: mcp_server.streamable_http_app(host=args.host)  # noqa: E731
    tls = (args.certfile, args.keyfile) if getattr(args, "certfile", None) else None
    client_ca = getattr(args, "client_ca", None)
    anyio.run(_serve_http, http_app, ready_marker, args.host, args.port, args.log_level, tls, client_ca)


async def _serve_http(
    make_app: AppFactory,
    ready_marker: str,
    host: str,
    port: int,
    log_level: str,
    tls: tuple[str, str] | None = None,
    client_ca: str | None = None,
) -> None:
    import ssl

    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    origin = f"{'https' if tls else 'http'}://{host}:{sock.getsockname()[1]}"
    config = uvicorn.Config(
        make_app(origin),
        log_level=log_level.lower(),
        lifespan="on",
        timeout_graceful_shutdown=1,
        ssl_certfile=tls[0] if tls else None,
        ssl_keyfile=tls[1] if tls else None,
        ssl_ca_certs=client_ca,
        ssl_cert_reqs=ssl.CERT_REQUIRED if client_ca else ssl.CERT_NONE,
    )
    server = uvicorn.Server(config)
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve, [sock])
        with anyio.fail_after(STARTUP_TIMEOUT):
            while not server.started:  # noqa: ASYNC110 - uvicorn only exposes a flag
                await anyio.sleep(0.01)
        print(f"{ready_marker} {origin}/mcp", flush=True)


def _both(server: MCPServer, host: str) -> Any:
    """One app serving both transports, as servers in the middle of a migration do."""
    from starlette.applications import Starlette

    streamable = server.streamable_http_app(host=host)
    sse = server.sse_app(host=host)
    return Starlette(routes=[*streamable.routes, *sse.routes], lifespan=streamable.router.lifespan_context)
