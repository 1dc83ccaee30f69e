"""MCP Apps test peer for `AppBridge`, built on the official `mcp==2.3.0` server: a tool with a view, an
app-only tool, a model-only tool and an app-visible tool that asks a question, in both eras.

The npm example servers have no model-only tool a view could try to call and no tool that asks; this
one has both. `calls()` says which tools this process ran, so a test can see that a refused call never
reached the server. Start it with `tests/support/servers.py`, never import it from a test.

    python tests/servers/apps_bridge_server.py stdio
    python tests/servers/apps_bridge_server.py http --port N [--host 127.0.0.1]
"""

import json
from collections.abc import Sequence

from _serve import serve, transport_parser
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.request_state import RequestStateSecurity
from mcp_types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult
from mcp_types.version import is_version_at_least
from pydantic import BaseModel

READY_MARKER = "APPS_BRIDGE_SERVER_READY"
MODERN_VERSION = "2026-07-28"
VIEW_URI = "ui://clock/view.html"
APP_MIME_TYPE = "text/html;profile=mcp-app"
VIEW_HTML = "<!doctype html><html><body><p id='time'>loading</p></body></html>"
STATE_KEY = "apps-bridge-server-test-key-not-a-secret-0123456789"

mcp: MCPServer = MCPServer(
    "clock",
    version="1.0.0",
    log_level="WARNING",
    request_state_security=RequestStateSecurity(keys=[STATE_KEY]),
)

_calls: list[str] = []


def _is_modern(ctx: Context) -> bool:
    version = ctx.protocol_version
    return version is not None and is_version_at_least(version, MODERN_VERSION)


class Confirm(BaseModel):
    confirm: bool


@mcp.tool(meta={"ui": {"resourceUri": VIEW_URI}})
def show_time(zone: str = "UTC") -> str:
    """The time in a zone, with a view (visible to the model and the view)."""
    _calls.append("show_time")
    return f"12:00 in {zone}"


@mcp.tool(meta={"ui": {"resourceUri": VIEW_URI, "visibility": ["app"]}})
def refresh_time() -> str:
    """App only: the view's refresh button."""
    _calls.append("refresh_time")
    return "refreshed 12:01"


@mcp.tool(meta={"ui": {"visibility": ["model"]}})
def delete_everything() -> str:
    """Model only: a view must never call it."""
    _calls.append("delete_everything")
    return "deleted everything"


@mcp.tool(meta={"ui": {"visibility": ["app"]}})
async def set_alarm(at: str, ctx: Context) -> str | InputRequiredResult:
    """App only, asks the person first (legacy: `ctx.elicit`; 2026-07-28: an `InputRequiredResult`)."""
    _calls.append("set_alarm")
    question = f"Set an alarm at {at}?"
    if not _is_modern(ctx):
        asked = await ctx.elicit(question, schema=Confirm)
        return f"alarm set at {at}" if asked.action == "accept" and asked.data.confirm else "no alarm"
    answer = (ctx.input_responses or {}).get("confirm")
    if answer is None or ctx.request_state != f"alarm:{at}":
        schema = {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}
        ask = ElicitRequest(params=ElicitRequestFormParams(message=question, requested_schema=schema))
        return InputRequiredResult(input_requests={"confirm": ask}, request_state=f"alarm:{at}")
    confirmed = (
        isinstance(answer, ElicitResult)
        and answer.action == "accept"
        and (answer.content or {}).get("confirm")
    )
    return f"alarm set at {at}" if confirmed else "no alarm"


@mcp.tool()
def calls() -> str:
    """Every tool this process ran, in order (as a JSON list; itself left out)."""
    return json.dumps(_calls)


@mcp.resource(VIEW_URI, name="clock_view", mime_type=APP_MIME_TYPE)
def view() -> str:
    return VIEW_HTML


@mcp.resource("notes://today", name="notes", mime_type="text/plain")
def notes() -> str:
    return "nothing yet"


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, _ = transport_parser(__doc__)
    serve(parser.parse_args(argv), ready_marker=READY_MARKER, server=mcp)


if __name__ == "__main__":
    main()
