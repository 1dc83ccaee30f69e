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

In http mode it prints `FORMS_SERVER_READY <url>` once it accepts connections.
"""

import json
from collections.abc import Sequence
from typing import Any

from _serve import serve, transport_parser
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult
from mcp_types.version import is_version_at_least

MODERN_VERSION = "2026-07-28"
READY_MARKER = "FORMS_SERVER_READY"

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


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, _ = transport_parser(__doc__)
    serve(parser.parse_args(argv), ready_marker=READY_MARKER, server=mcp)


if __name__ == "__main__":
    main()
