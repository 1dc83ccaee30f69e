"""Test peer for sampling and roots, built on the official `mcp==2.3.0` MCPServer (both eras).

Its tools ask the client's model (`sampling/createMessage`) and the client's roots (`roots/list`) the
way the official server does: `Resolve(...)` resolvers returning `Sample(...)` / `ListRoots()` push the
request mid-call on a legacy request and return it in `inputRequests` on a 2026-07-28 request. The
`raw_*` tools skip the server's own capability check, so the client's refusal of an undeclared kind
can be seen. Same CLI convention as guide_server.py:

    python tests/servers/questions_server.py stdio
    python tests/servers/questions_server.py http --port N [--host 127.0.0.1]

Its tools are listed in README.md beside this file.
"""

import json
from collections.abc import Sequence
from typing import Annotated, Any

from _serve import serve, transport_parser
from mcp.server.mcpserver import Context, Elicit, ElicitationResult, MCPServer, Resolve
from mcp.server.mcpserver.resolve import ListRoots, Sample
from mcp.shared.exceptions import MCPError
from mcp_types import (
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    CreateMessageResultWithTools,
    ElicitRequest,
    ElicitRequestFormParams,
    InputRequiredResult,
    ListRootsRequest,
    ListRootsResult,
    ModelHint,
    ModelPreferences,
    NotificationParams,
    SamplingMessage,
    TextContent,
    Tool,
)
from pydantic import BaseModel, Field

READY_MARKER = "QUESTIONS_SERVER_READY"
SYSTEM_PROMPT = "You are a terse poet."

mcp: MCPServer = MCPServer("questions-server", version="0.0.1", log_level="WARNING")
_roots_changes = 0


async def _on_roots_changed(ctx: Any, params: Any) -> None:
    global _roots_changes
    _roots_changes += 1


mcp._lowlevel_server.add_notification_handler(  # pyright: ignore[reportPrivateUsage]
    "notifications/roots/list_changed", NotificationParams, _on_roots_changed
)


def _ask(topic: str) -> list[SamplingMessage]:
    return [
        SamplingMessage(role="user", content=TextContent(type="text", text=f"Write a haiku about {topic}."))
    ]


def _text(result: CreateMessageResult | CreateMessageResultWithTools) -> str:
    blocks = result.content if isinstance(result.content, list) else [result.content]
    return " | ".join(getattr(b, "text", f"<{b.type}>") for b in blocks)


class Confirm(BaseModel):
    confirm: bool = Field(description="Go ahead?")


async def ask_model(topic: str) -> Sample:
    return Sample(
        _ask(topic),
        max_tokens=60,
        system_prompt=SYSTEM_PROMPT,
        model_preferences=ModelPreferences(hints=[ModelHint(name="haiku")], speed_priority=0.8),
    )


async def ask_model_with_tools(topic: str) -> Sample:
    lookup = Tool(name="lookup", input_schema={"type": "object", "properties": {"word": {"type": "string"}}})
    return Sample(_ask(topic), max_tokens=60, tools=[lookup])


async def ask_roots() -> ListRoots:
    return ListRoots()


async def ask_go_ahead(topic: str) -> Elicit[Confirm]:
    return Elicit(f"Ask the model about {topic}?", Confirm)


@mcp.tool(description="Ask the client's model for a haiku (sampling, both eras).")
async def haiku(topic: str, answer: Annotated[CreateMessageResult, Resolve(ask_model)]) -> str:
    return f"model={answer.model} stop={answer.stop_reason} text={_text(answer)}"


@mcp.tool(description="Sampling that offers the model a tool (needs the client's sampling.tools).")
async def haiku_with_tools(
    topic: str, answer: Annotated[CreateMessageResultWithTools, Resolve(ask_model_with_tools)]
) -> str:
    blocks = answer.content if isinstance(answer.content, list) else [answer.content]
    return f"model={answer.model} blocks={','.join(b.type for b in blocks)} stop={answer.stop_reason}"


@mcp.tool(description="List the client's roots (both eras).")
async def my_roots(roots: Annotated[ListRootsResult, Resolve(ask_roots)]) -> str:
    return "roots: " + ", ".join(f"{r.uri} ({r.name})" for r in roots.roots)


@mcp.tool(description="An elicitation and a sampling request, independent: one modern round.")
async def plan_with_model(
    topic: str,
    go: Annotated[ElicitationResult[Confirm], Resolve(ask_go_ahead)],
    answer: Annotated[CreateMessageResult, Resolve(ask_model)],
) -> str:
    return f"go={go.action}:{getattr(getattr(go, 'data', None), 'confirm', None)} text={_text(answer)}"


@mcp.tool(description="Legacy: sampling/createMessage with no capability check (undeclared-kind tests).")
async def raw_sample(ctx: Context, catch: bool = False) -> str:
    try:
        result = await ctx.session.create_message(_ask("rain"), max_tokens=10)
    except MCPError as exc:
        if not catch:
            raise
        return f"sampling refused: {exc.error.code} {exc.error.message}"
    return f"model={result.model} text={_text(result)}"


@mcp.tool(description="Modern: a hand-written InputRequiredResult asking for sampling (no capability check).")
async def raw_sample_mrtr(ctx: Context) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("s")
    if answer is None:
        params = CreateMessageRequestParams(messages=_ask("snow"), max_tokens=10)
        return InputRequiredResult(input_requests={"s": CreateMessageRequest(params=params)})
    return f"sampled: {json.dumps(answer.model_dump(mode='json', by_alias=True, exclude_none=True))}"


@mcp.tool(description="Modern: a hand-written InputRequiredResult asking for roots (no capability check).")
async def raw_roots_mrtr(ctx: Context) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("r")
    if answer is None:
        return InputRequiredResult(input_requests={"r": ListRootsRequest()})
    return f"roots: {json.dumps(answer.model_dump(mode='json', by_alias=True, exclude_none=True))}"


@mcp.tool(description="Modern: one hand-written round asking an elicitation (key `e`) and a sampling (`s`).")
async def raw_mixed_mrtr(ctx: Context) -> str | InputRequiredResult:
    answers = ctx.input_responses or {}
    if not answers:
        sampling = CreateMessageRequest(
            params=CreateMessageRequestParams(messages=_ask("fog"), max_tokens=10)
        )
        form = ElicitRequestFormParams(
            message="Go ahead?",
            requested_schema={"type": "object", "properties": {"confirm": {"type": "boolean"}}},
        )
        return InputRequiredResult(input_requests={"e": ElicitRequest(params=form), "s": sampling})
    return "answered: " + ", ".join(sorted(answers))


@mcp.tool(description="Legacy: ctx.elicit, carrying on (with a report) when the client's answer fails.")
async def elicit_and_carry_on(ctx: Context) -> str:
    try:
        result = await ctx.elicit("Go ahead?", Confirm)
    except MCPError as exc:
        return f"elicitation failed: {exc.error.code} {exc.error.message}"
    return f"elicitation: {result.action}"


@mcp.tool(description="How many notifications/roots/list_changed this server process received.")
async def roots_changes() -> str:
    return f"roots changes: {_roots_changes}"


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, _ = transport_parser(__doc__)
    serve(parser.parse_args(argv), ready_marker=READY_MARKER, server=mcp)


if __name__ == "__main__":
    main()
