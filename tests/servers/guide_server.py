"""Dual-era test peer built on the official `mcp==2.3.0` MCPServer.

The client's tests talk to this real server instead of mocks. It reproduces the tools the
captures in tests/fixtures/traces were recorded against (same names, texts and resolver
wire keys such as `server_app:confirm_delete`), so a test can compare what it sees with a trace.
One HTTP endpoint serves both eras: the official server picks legacy or 2026-07-28 per request
from the `MCP-Protocol-Version` header.

    python tests/servers/guide_server.py stdio [--page-size N]
    python tests/servers/guide_server.py http --port N [--host 127.0.0.1] [--json-response]
        [--stateless] [--resumable] [--page-size N]

In http mode the server prints `GUIDE_SERVER_READY <url>` on stdout once it accepts connections
(`--port 0` picks a free port). See README.md in this folder for what each tool exercises.
"""

import argparse
import datetime
import json
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Any, Literal, TypeVar

import anyio
from _serve import serve, transport_parser
from mcp import UrlElicitationRequiredError
from mcp.server.elicitation import render_elicitation_schema
from mcp.server.mcpserver import (
    AcceptedElicitation,
    CancelledElicitation,
    Context,
    DeclinedElicitation,
    Elicit,
    ElicitationResult,
    MCPServer,
    Resolve,
)
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitRequestURLParams,
    ElicitResult,
    InputRequiredResult,
    JSONRPCMessage,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    PaginatedRequestParams,
)
from mcp_types.version import is_version_at_least
from pydantic import BaseModel, Field

SERVER_NAME = "elicitation-research"
SERVER_VERSION = "0.0.1"
INSTRUCTIONS = "Research server for elicitation traces."
READY_MARKER = "GUIDE_SERVER_READY"
FULL_DATE = "2025-12-25"
MODERN_VERSION = "2026-07-28"
# Resolver wire keys are `module:qualname`; the captures ran from a module named `server_app`.
WIRE_MODULE = "server_app"

mcp: MCPServer = MCPServer(
    SERVER_NAME, instructions=INSTRUCTIONS, version=SERVER_VERSION, log_level="WARNING"
)

_F = TypeVar("_F", bound=Callable[..., Any])


def _wire_key(fn: _F) -> _F:
    """Pin a resolver's wire key to `server_app:<name>` so inputRequests keys match the traces."""
    fn.__module__ = WIRE_MODULE
    return fn


def _is_modern(ctx: Context) -> bool:
    """True on a 2026-07-28 request, where only InputRequiredResult can ask the client."""
    version = ctx.protocol_version
    return version is not None and is_version_at_least(version, MODERN_VERSION)


# ---------------------------------------------------------------- form schemas


class AlternativeDate(BaseModel):
    accept_alternative: bool = Field(description="Book the alternative date instead?")
    date: str = Field(default="2025-12-26", description="Alternative date (YYYY-MM-DD)")


class Confirm(BaseModel):
    confirm: bool = Field(description="Tick to confirm deletion")


class TripDates(BaseModel):
    start: datetime.date = Field(description="First night")
    nights: int = Field(ge=1, le=30, description="Number of nights")


class Budget(BaseModel):
    max_eur: float = Field(ge=0, description="Maximum budget in EUR")


class Survey(BaseModel):
    """A schema touching every allowed primitive shape."""

    email: str = Field(title="E-mail", min_length=3, max_length=80, json_schema_extra={"format": "email"})
    age: int = Field(default=30, ge=18, le=120)
    rating: float = Field(ge=0, le=5)
    subscribe: bool = False
    colour: Literal["red", "green", "blue"] = "red"
    toppings: list[Literal["cheese", "ham", "olives"]] | None = None
    nickname: str | None = None


class Address(BaseModel):
    city: str


class Resident(BaseModel):
    name: str
    address: Address


NESTED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "address": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
    "required": ["name"],
}
NESTED_MESSAGE = "Where do you live? (nested schema, not spec-valid)"


# ---------------------------------------------------------------- ctx.elicit (legacy back-channel)


@mcp.tool(description="Book a table; 2025-12-25 is full and triggers a form elicitation.")
async def book_table(date: str, party_size: int, ctx: Context) -> str:
    if date != FULL_DATE:
        return f"[SUCCESS] Booked for {date}"
    result = await ctx.elicit(
        f"No tables for {party_size} on {date}. Would you like another date?", schema=AlternativeDate
    )
    return _booking_outcome(result)


def _booking_outcome(result: ElicitationResult[AlternativeDate], suffix: str = "") -> str:
    if result.action == "accept":
        if result.data.accept_alternative:
            return f"[SUCCESS] Booked for {result.data.date}{suffix}"
        return "[CANCELLED] No booking made"
    if result.action == "decline":
        return "[DECLINED] user declined"
    return "[CANCELLED] user cancelled"


@mcp.tool(
    description=(
        "Close this request's SSE stream (needs an event store), then elicit: exercises Last-Event-ID replay."
    )
)
async def book_table_resumable(date: str, party_size: int, ctx: Context) -> str:
    await ctx.close_sse_stream()  # no-op without --resumable or outside HTTP
    result = await ctx.elicit(
        f"(after reconnect) No tables for {party_size} on {date}. Another date?", schema=AlternativeDate
    )
    return _booking_outcome(result, suffix=" after a resumed stream")


@mcp.tool(description="Same rich schema via ctx.elicit (legacy-only path).")
async def survey_direct(ctx: Context) -> str:
    result = await ctx.elicit("Please fill in the survey", schema=Survey)
    if result.action != "accept":
        return f"survey: {result.action}"
    return f"survey: {result.data.model_dump_json()}"


@mcp.tool(description="URL-mode elicitation via ctx.elicit_url (legacy-only path).")
async def pay_deposit(booking_id: str, ctx: Context) -> str:
    elicitation_id = f"pay-{booking_id}"
    result = await ctx.elicit_url(
        f"Pay the 20 EUR deposit for booking {booking_id} on our payment page.",
        url=f"https://pay.example.com/deposit?booking={booking_id}",
        elicitation_id=elicitation_id,
    )
    return f"pay_deposit outcome: {result.action} (elicitation_id={elicitation_id})"


@mcp.tool(
    description=(
        "Pretend the out-of-band payment finished: "
        "emit notifications/elicitation/complete (standalone channel)."
    )
)
async def confirm_payment(elicitation_id: str, ctx: Context) -> str:
    await ctx.session.send_elicit_complete(elicitation_id)
    return f"sent elicitation/complete for {elicitation_id}"


@mcp.tool(description="Same, but request-scoped (related_request_id) so it rides this POST's SSE stream.")
async def confirm_payment_related(elicitation_id: str, ctx: Context) -> str:
    await ctx.session.send_elicit_complete(elicitation_id, related_request_id=ctx.request_context.request_id)
    return f"sent related elicitation/complete for {elicitation_id}"


@mcp.tool(description="Raise the 2025-11-25 URLElicitationRequiredError (-32042).")
async def require_url(booking_id: str) -> str:
    raise UrlElicitationRequiredError(
        [
            ElicitRequestURLParams(
                message="Authorise access to your bank first.",
                url=f"https://bank.example.com/connect?booking={booking_id}",
                elicitation_id=f"bank-{booking_id}",
            )
        ]
    )


@mcp.tool(description="Elicit with no related request: the question can only travel on the GET stream.")
async def ask_on_get_stream(ctx: Context) -> str:
    result = await ctx.session.elicit_form(
        message="Asked on the standalone stream: continue?",
        requested_schema={
            "type": "object",
            "properties": {"confirm": {"type": "boolean"}},
            "required": ["confirm"],
        },
    )
    return f"get-stream answer: {result.action} {result.content}"


@mcp.tool(description="ctx.elicit with a nested model -> rejected before anything is sent.")
async def nested_schema(ctx: Context) -> str:
    result = await ctx.elicit("Where do you live?", schema=Resident)
    return f"nested_schema: {result.action}"


@mcp.tool(
    description="Bypass the render gate: send a nested requestedSchema with ctx.session.elicit_form (legacy)."
)
async def raw_nested_form(ctx: Context) -> str:
    result = await ctx.session.elicit_form(
        message=NESTED_MESSAGE,
        requested_schema=NESTED_SCHEMA,
        related_request_id=ctx.request_context.request_id,
    )
    return f"raw_nested_form: {result.model_dump(exclude_none=True)}"


# ---------------------------------------------------------------- Resolve(...) resolvers (both eras)


@_wire_key
async def confirm_delete(path: str) -> Elicit[Confirm] | Confirm:
    if path.rstrip("/").endswith("/empty"):
        return Confirm(confirm=True)  # nothing to lose: no question asked
    return Elicit(f"Really delete {path}? This cannot be undone.", Confirm)


@mcp.tool(description="Delete a folder after a resolver-driven confirmation.")
async def delete_folder(
    path: str, confirmation: Annotated[ElicitationResult[Confirm], Resolve(confirm_delete)]
) -> str:
    if confirmation.action == "accept":
        if confirmation.data.confirm:
            return f"deleted {path}"
        return f"kept {path} (not confirmed)"
    return f"kept {path} (outcome: {confirmation.action})"


@_wire_key
async def ask_dates(destination: str) -> Elicit[TripDates]:
    return Elicit(f"When do you want to go to {destination}?", TripDates)


@_wire_key
async def ask_budget(destination: str) -> Elicit[Budget]:
    return Elicit(f"What is your budget for {destination}?", Budget)


@_wire_key
async def ask_hotel_class(
    dates: Annotated[TripDates, Resolve(ask_dates)], budget: Annotated[Budget, Resolve(ask_budget)]
) -> Elicit[Confirm] | Confirm:
    if budget.max_eur < 1000:
        return Confirm(confirm=False)  # a small budget never gets the luxury question
    return Elicit(f"{dates.nights} nights is long. Confirm you want a 5-star hotel?", Confirm)


@mcp.tool(
    description="Three resolvers: two independent (batched in one round) + one dependent (second round)."
)
async def plan_trip(
    destination: str,
    dates: Annotated[TripDates, Resolve(ask_dates)],
    budget: Annotated[Budget, Resolve(ask_budget)],
    luxury: Annotated[Confirm, Resolve(ask_hotel_class)],
) -> str:
    stay = f"{dates.start} x{dates.nights} nights"
    return f"{destination}: {stay}, <= {budget.max_eur} EUR, luxury={luxury.confirm}"


@_wire_key
async def ask_survey() -> Elicit[Survey]:
    return Elicit("Please fill in the survey", Survey)


@mcp.tool(description="Resolver with a rich schema (all primitive kinds).")
async def survey(answers: Annotated[Survey, Resolve(ask_survey)]) -> str:
    return f"survey: {answers.model_dump_json()}"


# ---------------------------------------------------------------- hand-written InputRequiredResult (modern)


@mcp.tool(description="Hand-rolled 2026-07-28 MRTR with a URL-mode elicitation inside inputRequests.")
async def pay_deposit_mrtr(booking_id: str, ctx: Context) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("deposit")
    if answer is None or ctx.request_state is None:
        request = ElicitRequest(
            params=ElicitRequestURLParams(
                message=f"Pay the 20 EUR deposit for booking {booking_id}.",
                url=f"https://pay.example.com/deposit?booking={booking_id}",
            )
        )
        state = json.dumps({"booking": booking_id, "step": "awaiting-payment"})
        return InputRequiredResult(input_requests={"deposit": request}, request_state=state)
    action = answer.action if isinstance(answer, ElicitResult) else "unexpected"
    return f"deposit answer={action}; echoed requestState={ctx.request_state}"


@mcp.tool(
    description=(
        "requestState-only InputRequiredResult (no inputRequests): exercises the client's backoff path."
    )
)
async def poll_only(ctx: Context) -> str | InputRequiredResult:
    rounds = json.loads(ctx.request_state)["round"] if ctx.request_state else 0
    if rounds < 2:
        return InputRequiredResult(request_state=json.dumps({"round": rounds + 1}))
    return f"done after {rounds} state-only rounds"


@mcp.tool(description="Never satisfied: re-asks every round (exercises the client's max-rounds cap).")
async def always_input(ctx: Context) -> str | InputRequiredResult:
    rounds = json.loads(ctx.request_state)["round"] if ctx.request_state else 0
    question = ElicitRequest(
        params=ElicitRequestFormParams(
            message=f"Round {rounds}: confirm?",
            requested_schema={"type": "object", "properties": {"confirm": {"type": "boolean"}}},
        )
    )
    return InputRequiredResult(
        input_requests={f"q{rounds}": question}, request_state=json.dumps({"round": rounds + 1})
    )


@mcp.tool(
    description="Hand-rolled InputRequiredResult carrying a nested (non-spec) requestedSchema (modern)."
)
async def raw_nested_mrtr(ctx: Context) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("where")
    if answer is None:
        question = ElicitRequest(
            params=ElicitRequestFormParams(message=NESTED_MESSAGE, requested_schema=NESTED_SCHEMA)
        )
        return InputRequiredResult(input_requests={"where": question})
    return f"where: {answer.model_dump()}"


# ---------------------------------------------------------------- plain tools


@mcp.tool(
    description="Emit progress (only if the caller sent a progressToken) -> modern response commits to SSE."
)
async def slow_progress(ctx: Context) -> str:
    await ctx.report_progress(1, 2, "half way")
    await anyio.sleep(0.05)
    await ctx.report_progress(2, 2, "done")
    return "progress done"


@mcp.tool(description="Return the text unchanged.")
async def echo(text: str) -> str:
    return text


@mcp.tool(description="Add two numbers.")
async def add_numbers(a: float, b: float) -> float:
    return a + b


@mcp.tool(description="Sleep for the given seconds, then answer (timeout and cancellation tests).")
async def slow(seconds: float) -> str:
    await anyio.sleep(seconds)
    return f"slept {seconds}"


@mcp.tool(description="Write a line to stderr and kill the server process with status 3 (server-died tests).")
def crash() -> str:
    sys.stderr.write("guide_server: crash requested, exiting with status 3\n")
    sys.stderr.flush()
    os._exit(3)


@mcp.tool(description="Fail with isError: a ToolError raised by the tool body.")
async def fail(message: str = "something went wrong") -> str:
    raise ToolError(message)


# ---------------------------------------------------------------- prompts and resources


async def _ask_confirm(
    ctx: Context, key: str, message: str
) -> ElicitationResult[Confirm] | InputRequiredResult:
    """Ask a yes/no question in either era.

    MCPServer only honours `Resolve(...)` on tools, so prompts and resource templates ask by hand:
    `ctx.elicit` on a legacy request (back-channel), an `InputRequiredResult` on a modern one.
    """
    if not _is_modern(ctx):
        return await ctx.elicit(message, schema=Confirm)
    answer = (ctx.input_responses or {}).get(key)
    if answer is None or ctx.request_state != json.dumps({"asked": key}):
        question = ElicitRequest(
            params=ElicitRequestFormParams(
                message=message, requested_schema=render_elicitation_schema(Confirm)
            )
        )
        return InputRequiredResult(input_requests={key: question}, request_state=json.dumps({"asked": key}))
    if not isinstance(answer, ElicitResult):
        raise ValueError(f"expected an elicitation answer under {key!r}")
    if answer.action == "accept":
        return AcceptedElicitation(data=Confirm.model_validate(answer.content or {}))
    return DeclinedElicitation() if answer.action == "decline" else CancelledElicitation()


@mcp.prompt(description="Plain prompt: a greeting for the given name.")
def greet(name: str) -> str:
    return f"Hello, {name}!"


@mcp.prompt(description="Prompt that asks (elicitation in both eras) whether to add a packing list.")
async def trip_prompt(destination: str, ctx: Context) -> str | InputRequiredResult:
    outcome = await _ask_confirm(ctx, "packing_list", f"Include a packing list for {destination}?")
    if isinstance(outcome, InputRequiredResult):
        return outcome
    if outcome.action == "accept" and outcome.data.confirm:
        return f"Plan a trip to {destination} with a packing list."
    return f"Plan a trip to {destination} (no packing list; outcome: {outcome.action})."


@mcp.prompt(description="Plain prompt with two messages and no arguments.")
def two_messages() -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": {"type": "text", "text": "First message"}},
        {"role": "assistant", "content": {"type": "text", "text": "Second message"}},
    ]


@mcp.resource("guide://readme", name="readme", description="Plain text resource.", mime_type="text/plain")
def readme() -> str:
    return "Guide server readme: tools for elicitation tests."


@mcp.resource(
    "guide://data.json", name="data", description="Plain JSON resource.", mime_type="application/json"
)
def data_json() -> str:
    return json.dumps({"answer": 42})


@mcp.resource("guide://greeting/{name}", name="greeting", description="Plain resource template.")
def greeting(name: str) -> str:
    return f"Hello {name}"


@mcp.resource(
    "guide://vault/{name}", name="vault", description="Template that asks before revealing (elicitation)."
)
async def vault(name: str, ctx: Context) -> str | InputRequiredResult:
    outcome = await _ask_confirm(ctx, "reveal", f"Reveal the secret {name!r}?")
    if isinstance(outcome, InputRequiredResult):
        return outcome
    if outcome.action == "accept" and outcome.data.confirm:
        return f"secret {name}: s3cr3t-{name}"
    raise ResourceError(f"secret {name} withheld (outcome: {outcome.action})")


# ---------------------------------------------------------------- pagination and resumability


_T = TypeVar("_T")


def _page(items: Sequence[_T], cursor: str | None, size: int) -> tuple[list[_T], str | None]:
    """Slice one page; the cursor is the decimal offset of the next page."""
    start = 0
    if cursor is not None:
        if not cursor.isdigit() or int(cursor) > len(items):
            raise MCPError(code=INVALID_PARAMS, message=f"Invalid cursor: {cursor!r}")
        start = int(cursor)
    end = start + size
    return list(items[start:end]), (str(end) if end < len(items) else None)


def install_pagination(server: MCPServer, size: int) -> None:
    """Replace the list handlers with paginated ones (MCPServer itself never paginates)."""
    low = server._lowlevel_server

    def handler(
        fetch: Callable[[], Awaitable[Sequence[Any]]], build: Callable[[list[Any], str | None], Any]
    ) -> Callable[[Any, PaginatedRequestParams], Awaitable[Any]]:
        async def handle(_ctx: Any, params: PaginatedRequestParams) -> Any:
            page, next_cursor = _page(await fetch(), params.cursor, size)
            return build(page, next_cursor)

        return handle

    low.add_request_handler(
        "tools/list",
        PaginatedRequestParams,
        handler(server.list_tools, lambda p, c: ListToolsResult(tools=p, next_cursor=c)),
    )
    low.add_request_handler(
        "prompts/list",
        PaginatedRequestParams,
        handler(server.list_prompts, lambda p, c: ListPromptsResult(prompts=p, next_cursor=c)),
    )
    low.add_request_handler(
        "resources/list",
        PaginatedRequestParams,
        handler(server.list_resources, lambda p, c: ListResourcesResult(resources=p, next_cursor=c)),
    )
    low.add_request_handler(
        "resources/templates/list",
        PaginatedRequestParams,
        handler(
            server.list_resource_templates,
            lambda p, c: ListResourceTemplatesResult(resource_templates=p, next_cursor=c),
        ),
    )


class InMemoryEventStore(EventStore):
    """Keeps every SSE event so a client can resume a closed stream with Last-Event-ID."""

    def __init__(self) -> None:
        self._events: list[tuple[EventId, StreamId, JSONRPCMessage | None]] = []

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        event_id = f"ev-{len(self._events) + 1}"
        self._events.append((event_id, stream_id, message))
        return event_id

    async def replay_events_after(
        self, last_event_id: EventId, send_callback: EventCallback
    ) -> StreamId | None:
        index = next((i for i, (eid, _, _) in enumerate(self._events) if eid == last_event_id), None)
        if index is None:
            return None
        stream_id = self._events[index][1]
        for event_id, sid, message in self._events[index + 1 :]:
            if sid == stream_id and message is not None:  # priming events carry no message
                await send_callback(EventMessage(message, event_id))
        return stream_id


# ---------------------------------------------------------------- entry point


class _LegacyOnly:
    """ASGI wrapper hiding modern protocol headers, so the endpoint looks like a legacy-only server.

    The official server picks the era from the MCP-Protocol-Version header alone; without it, a
    `server/discover` probe gets the legacy transport's 400 "Missing session ID", as in trace A02.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") == "http":
            headers = [
                (k, v)
                for k, v in scope["headers"]
                if not (k.lower() == b"mcp-protocol-version" and v.startswith(b"2026"))
            ]
            scope = {**scope, "headers": headers}
        await self.app(scope, receive, send)


def _http_app(args: argparse.Namespace) -> Any:
    app: Any = mcp.streamable_http_app(
        json_response=args.json_response,
        stateless_http=args.stateless,
        event_store=InMemoryEventStore() if args.resumable else None,
        retry_interval=300 if args.resumable else None,
        host=args.host,
    )
    return _LegacyOnly(app) if args.legacy_only else app


def main(argv: Sequence[str] | None = None) -> None:
    parser, stdio, http = transport_parser(__doc__)
    assert stdio is not None
    http.add_argument("--json-response", action="store_true", help="answer legacy POSTs with JSON, not SSE")
    http.add_argument("--stateless", action="store_true", help="legacy stateless mode: no session ids")
    http.add_argument("--resumable", action="store_true", help="in-memory event store + retry 300 ms")
    http.add_argument(
        "--legacy-only", action="store_true", help="hide modern headers: a legacy-only endpoint"
    )
    stdio.add_argument("--log-level", default="WARNING", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    for p in (stdio, http):
        p.add_argument("--page-size", type=int, default=0, help="paginate list results (0: one page)")
    args = parser.parse_args(argv)
    if args.page_size > 0:
        install_pagination(mcp, args.page_size)
    serve(args, ready_marker=READY_MARKER, server=mcp, http_app=lambda _origin: _http_app(args))


if __name__ == "__main__":
    main()
