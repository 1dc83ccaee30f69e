"""A test peer on the official `mcp==2.3.0` MCPServer that asks whatever form the test gives it.

The browser-form and broker tests need forms the guide server does not have (every field kind with
every constraint, hostile text in every place), so its one tool takes the question as arguments:

    ask(message, schema, key="form")

asks `message` with `schema` as the `requestedSchema`, in either era on one endpoint: through the
legacy back-channel (`session.elicit_form`) on a legacy request, as an `InputRequiredResult` (input
key `key`) on a 2026-07-28 request. It returns what it received, as the text
`<action> <content as sorted JSON>`, so a test can assert on exactly what reached the tool.

    python tests/servers/forms_server.py stdio
    python tests/servers/forms_server.py http --host 127.0.0.1 --port N     # http://127.0.0.1:N/mcp
"""

import argparse
import json
import socket
from collections.abc import Sequence
from typing import Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult
from mcp_types.version import is_version_at_least

MODERN_VERSION = "2026-07-28"

mcp: MCPServer = MCPServer("forms-lab", version="0.0.1", log_level="WARNING")


def _is_modern(ctx: Context) -> bool:
    version = ctx.protocol_version
    return version is not None and is_version_at_least(version, MODERN_VERSION)


def _outcome(result: ElicitResult) -> str:
    return f"{result.action} {json.dumps(result.content, sort_keys=True)}"


@mcp.tool(description="Ask `message` with `schema` as the form; return '<action> <content JSON>'.")
async def ask(
    message: str, schema: dict[str, Any], ctx: Context, key: str = "form"
) -> str | InputRequiredResult:
    if not _is_modern(ctx):
        result = await ctx.session.elicit_form(
            message=message, requested_schema=schema, related_request_id=ctx.request_context.request_id
        )
        return _outcome(result)
    answer = (ctx.input_responses or {}).get(key)
    state = json.dumps({"asked": key})
    if answer is None or ctx.request_state != state:
        question = ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=schema))
        return InputRequiredResult(input_requests={key: question}, request_state=state)
    if not isinstance(answer, ElicitResult):
        raise ValueError(f"expected an elicitation answer under {key!r}")
    return _outcome(answer)


async def _serve_http(host: str, port: int) -> None:
    import uvicorn

    app = mcp.streamable_http_app(host=host)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    await uvicorn.Server(config).serve([sock])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="transport", required=True)
    sub.add_parser("stdio", help="serve on stdin/stdout")
    http = sub.add_parser("http", help="serve streamable HTTP at /mcp on a loopback port")
    http.add_argument("--host", default="127.0.0.1", choices=["127.0.0.1"], help="loopback only")
    http.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    if args.transport == "stdio":
        mcp.run("stdio")
    else:
        anyio.run(_serve_http, args.host, args.port)


if __name__ == "__main__":
    main()
