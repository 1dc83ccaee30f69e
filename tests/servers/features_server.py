"""Dual-era test peer for everything a server says besides questions, built on the official `mcp==2.3.0`.

Progress, log messages, resource templates, completions, subscriptions, list-changed notices and output
schemas, each in the form the official server gives it in both eras (legacy handshake and 2026-07-28),
over streamable HTTP and stdio. Start it with `tests/support/servers.py`, never import it from a test.

    python tests/servers/features_server.py stdio
    python tests/servers/features_server.py http --port N [--host 127.0.0.1]

See README.md in this folder for the tools.
"""

import json
import warnings
from collections.abc import Sequence
from typing import Any

import anyio
from _serve import serve, transport_parser
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.request_state import RequestStateSecurity
from mcp_types import (
    CallToolResult,
    Completion,
    CompletionArgument,
    CompletionContext,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    EmptyResult,
    InputRequiredResult,
    LoggingLevel,
    PromptReference,
    ResourceTemplateReference,
    SetLevelRequestParams,
    SubscribeRequestParams,
    TextContent,
    UnsubscribeRequestParams,
)
from mcp_types.version import is_version_at_least
from pydantic import BaseModel

SERVER_NAME = "features"
READY_MARKER = "FEATURES_SERVER_READY"
MODERN_VERSION = "2026-07-28"
LEVELS: tuple[LoggingLevel, ...] = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)
TOPICS = ("python", "pytest", "pydantic", "rust", "ruby")
CUISINES = ("italian", "indian", "indonesian", "thai")

# Logging and subscriptions are legacy features; the official server warns each time they are used.
warnings.filterwarnings("ignore", message=".*deprecated as of 2026-07-28.*")

# A fixed request-state key: a paused call can be resumed by another server process (stdio: each
# Client starts its own), as it could behind a load balancer that shares its keys.
STATE_KEY = "features-server-test-key-not-a-secret-0123456789"

mcp: MCPServer = MCPServer(
    SERVER_NAME,
    version="1.0.0",
    log_level="WARNING",
    request_state_security=RequestStateSecurity(keys=[STATE_KEY]),
)

# Legacy-era state, per session: one per Mcp-Session-Id over HTTP, one per process over stdio.
_legacy_levels: dict[str, LoggingLevel] = {}
_legacy_subscriptions: dict[str, set[str]] = {}


def _session_key(ctx: Any) -> str:
    request = getattr(ctx, "request_context", ctx).request
    headers = getattr(request, "headers", None) or {}
    return headers.get("mcp-session-id", "stdio")


def _is_modern(ctx: Context) -> bool:
    version = ctx.protocol_version
    return version is not None and is_version_at_least(version, MODERN_VERSION)


# ---------------------------------------------------------------- progress and time


@mcp.tool(description="Report progress `steps` times, `interval` seconds apart; message 'step i of n'.")
async def count(steps: int, interval: float, ctx: Context) -> str:
    for step in range(1, steps + 1):
        await anyio.sleep(interval)
        await ctx.report_progress(step, steps, f"step {step} of {steps}")
    return f"counted to {steps}"


@mcp.tool(description="Sleep `seconds` without a word, then answer.")
async def silent(seconds: float) -> str:
    await anyio.sleep(seconds)
    return f"silent for {seconds}"


@mcp.tool(description="Answer with the request's _meta as JSON (keys sorted).")
async def show_meta(ctx: Context) -> str:
    meta: Any = ctx.request_context.meta
    if meta is not None and not isinstance(meta, dict):
        meta = meta.model_dump(mode="json", by_alias=True, exclude_none=True)
    return json.dumps(meta or {}, sort_keys=True, default=str)


# ---------------------------------------------------------------- pausing and resuming


class Confirm(BaseModel):
    confirm: bool


@mcp.tool(description="Ask to confirm the order (legacy: ctx.elicit; modern: InputRequiredResult 'confirm').")
async def order(item: str, ctx: Context) -> str | InputRequiredResult:
    if not _is_modern(ctx):
        asked = await ctx.elicit(f"Order {item}?", schema=Confirm)
        return f"ordered {item}" if asked.action == "accept" and asked.data.confirm else f"no {item}"
    answer = (ctx.input_responses or {}).get("confirm")
    if answer is None or ctx.request_state != f"order:{item}":
        schema = {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}
        question = ElicitRequest(
            params=ElicitRequestFormParams(message=f"Order {item}?", requested_schema=schema)
        )
        return InputRequiredResult(input_requests={"confirm": question}, request_state=f"order:{item}")
    confirmed = (
        isinstance(answer, ElicitResult)
        and answer.action == "accept"
        and (answer.content or {}).get("confirm")
    )
    return f"ordered {item}" if confirmed else f"no {item}"


# ---------------------------------------------------------------- logging


async def _log(ctx: Context, level: LoggingLevel, text: str) -> None:
    """Legacy: honour the session's `logging/setLevel` (the app's job there); modern: the server does."""
    if not _is_modern(ctx):
        wanted = _legacy_levels.get(_session_key(ctx))
        if wanted is not None and LEVELS.index(level) < LEVELS.index(wanted):
            return
    await ctx.log(level, text, logger_name="features.logs")


@mcp.tool(description="Log one message at each of debug, info, warning and error; answer 'logged'.")
async def chatty(ctx: Context) -> str:
    for level in ("debug", "info", "warning", "error"):
        await _log(ctx, level, f"a {level} message")
    return "logged"


async def _set_level(ctx: Any, params: SetLevelRequestParams) -> EmptyResult:
    _legacy_levels[_session_key(ctx)] = params.level
    return EmptyResult()


# ---------------------------------------------------------------- structured output


class Weather(BaseModel):
    city: str
    temperature: float
    conditions: list[str]


@mcp.tool(description="Structured weather that fits its output schema.")
async def weather(city: str) -> Weather:
    return Weather(city=city, temperature=21.5, conditions=["sunny"])


def _weather_result(structured: Any) -> CallToolResult:
    return CallToolResult(content=[TextContent(text="weather")], structured_content=structured)


@mcp.tool(description="Declares the Weather schema but returns a temperature that is a string.")
async def bad_weather(city: str) -> CallToolResult:
    return _weather_result({"city": city, "temperature": "warm", "conditions": ["sunny"]})


@mcp.tool(description="Declares the Weather schema but returns no structuredContent at all.")
async def text_weather(city: str) -> CallToolResult:
    return _weather_result(None)


@mcp.tool(description="Declares the Weather schema, fails with isError (not checked).")
async def failing_weather(city: str) -> str:
    raise ToolError(f"no weather for {city}")


def _declare_weather_schema(*names: str) -> None:
    """Advertise Weather's schema on tools whose results the server does not check (hand-built metadata)."""
    schema = Weather.model_json_schema()
    for name in names:
        tool = mcp._tool_manager.get_tool(name)
        assert tool is not None
        tool.fn_metadata.output_schema = schema


_declare_weather_schema("bad_weather", "text_weather", "failing_weather")


# ---------------------------------------------------------------- templates and completions


@mcp.resource("notes://today", name="today", description="Subscribe to it.", mime_type="text/plain")
def today() -> str:
    return "nothing yet"


@mcp.resource("notes://{topic}", name="note", description="A note about a topic.", mime_type="text/plain")
def note(topic: str) -> str:
    return f"a note about {topic}"


@mcp.prompt(description="A recipe in a cuisine (the argument completes).")
def recipe(cuisine: str) -> str:
    return f"Give me a {cuisine} recipe."


@mcp.completion()
async def complete(
    ref: PromptReference | ResourceTemplateReference,
    argument: CompletionArgument,
    context: CompletionContext | None,
) -> Completion | None:
    if (
        isinstance(ref, ResourceTemplateReference)
        and ref.uri == "notes://{topic}"
        and argument.name == "topic"
    ):
        values = [t for t in TOPICS if t.startswith(argument.value)]
    elif isinstance(ref, PromptReference) and ref.name == "recipe" and argument.name == "cuisine":
        values = [c for c in CUISINES if c.startswith(argument.value)]
    else:
        return None
    if context is not None and context.arguments:
        given = ", ".join(f"{k}={x}" for k, x in sorted(context.arguments.items()))
        values = [f"{v} ({given})" for v in values]
    return Completion(values=values, total=len(values), has_more=False)


# ---------------------------------------------------------------- change notices and subscriptions


@mcp.tool(description="Add a tool named `name` and announce that the tool list changed.")
async def add_tool(name: str, ctx: Context) -> str:
    async def added() -> str:
        return f"{name} was added"

    mcp.add_tool(added, name=name, description="Added at run time.")
    if _is_modern(ctx):
        await ctx.notify_tools_changed()
    else:
        await ctx.session.send_tool_list_changed()
    return f"added {name}"


@mcp.tool(description="Announce that the prompt list and the resource list changed.")
async def shuffle(ctx: Context) -> str:
    if _is_modern(ctx):
        await ctx.notify_prompts_changed()
        await ctx.notify_resources_changed()
    else:
        await ctx.session.send_prompt_list_changed()
        await ctx.session.send_resource_list_changed()
    return "shuffled"


@mcp.tool(description="Announce that the resource `uri` was updated (legacy: only if subscribed).")
async def touch(uri: str, ctx: Context) -> str:
    if _is_modern(ctx):
        await ctx.notify_resource_updated(uri)
    elif uri in _legacy_subscriptions.get(_session_key(ctx), set()):
        await ctx.session.send_resource_updated(uri)
    return f"touched {uri}"


async def _subscribe(ctx: Any, params: SubscribeRequestParams) -> EmptyResult:
    _legacy_subscriptions.setdefault(_session_key(ctx), set()).add(params.uri)
    return EmptyResult()


async def _unsubscribe(ctx: Any, params: UnsubscribeRequestParams) -> EmptyResult:
    _legacy_subscriptions.get(_session_key(ctx), set()).discard(params.uri)
    return EmptyResult()


_low = mcp._lowlevel_server
_low.add_request_handler("logging/setLevel", SetLevelRequestParams, _set_level)
_low.add_request_handler("resources/subscribe", SubscribeRequestParams, _subscribe)
_low.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, _unsubscribe)


# ---------------------------------------------------------------- entry point


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, _ = transport_parser(__doc__)
    serve(parser.parse_args(argv), ready_marker=READY_MARKER, server=mcp)


if __name__ == "__main__":
    main()
