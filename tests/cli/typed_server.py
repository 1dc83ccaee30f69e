"""Test peer for the CLI: tools whose parameters cover every JSON type, built on the official MCPServer.

    python tests/cli/typed_server.py            # stdio
    python tests/cli/typed_server.py --http --port N

``describe`` echoes what it received, as structured content ({name: [value, python type name]}), so a
test can see exactly how ``mcp-client call`` typed each ``KEY=VALUE`` word. ``headers`` returns the
HTTP request headers it saw; ``no_params`` takes nothing; ``summary`` returns only structured content.
``create_entities`` takes an array of objects (like server-memory); ``read_note`` returns its text
twice, as text and as ``{"content": text}`` (like server-filesystem). ``forecast`` has a description
and a parameter description longer than 80 columns (how the listing lays out long lines).
``long_job`` declares ``execution.taskSupport: "required"`` (runs only as a task, like a fastmcp-tasks
tool); the CLI calls it in 2026-07-28 (where tasks exist), and it answers at once, saying so.
"""

import argparse
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolExecution
from mcp_types import Tool as MCPTool
from pydantic import BaseModel, Field

TASK_ONLY = "long_job"


class _TypedServer(MCPServer):
    async def list_tools(self) -> list[MCPTool]:
        tools = await super().list_tools()
        for tool in tools:
            if tool.name == TASK_ONLY:
                tool.execution = ToolExecution(task_support="required")
        return tools


mcp = _TypedServer("typed", log_level="WARNING")


def _typed(value: Any) -> list[Any]:
    return [value, type(value).__name__]


@mcp.tool()
async def describe(
    count: int,
    ratio: float,
    flag: bool,
    tags: list[str],
    options: dict[str, int],
    colour: Literal["red", "green", "blue"] = "red",
    note: str | None = None,
    label: str = "",
) -> dict[str, Any]:
    """Echo every argument with its type."""
    received = {"count": count, "ratio": ratio, "flag": flag, "tags": tags, "options": options}
    received |= {"colour": colour, "note": note, "label": label}
    return {name: _typed(value) for name, value in received.items()}


class Point(BaseModel):
    x: int
    y: int


@mcp.tool()
async def nested(point: Point, either: int | str = 0) -> str:
    """A $ref parameter and an anyOf one."""
    return f"point=({point.x},{point.y}) either={either!r}"


@mcp.tool()
async def no_params() -> str:
    """Takes nothing."""
    return "nothing needed"


@mcp.tool()
async def headers(ctx: Context) -> dict[str, str]:
    """The HTTP headers of this request (empty over stdio)."""
    request = getattr(ctx.request_context, "request", None)
    found = getattr(request, "headers", None)
    return {k.lower(): v for k, v in found.items()} if found is not None else {}


@mcp.tool()
async def summary() -> CallToolResult:
    """Only structured content, no text."""
    return CallToolResult(content=[], structured_content={"total": 3, "items": ["a", "b", "c"]})


@mcp.tool()
async def shout(text: str) -> CallToolResult:
    """Text with terminal escapes in it (a hostile server)."""
    return CallToolResult(content=[TextContent(type="text", text=f"\x1b[2J\x1b]0;pwned\x07{text}")])


class Entity(BaseModel):
    name: str
    entityType: str
    observations: list[str]


@mcp.tool()
async def create_entities(entities: list[Entity]) -> str:
    """Like server-memory's create_entities: an array of objects."""
    return ", ".join(f"{e.name} ({e.entityType})" for e in entities)


@mcp.tool()
async def read_note(text: str) -> CallToolResult:
    """Like server-filesystem: the text, and the same text again as structured content."""
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content={"content": text})


@mcp.tool()
async def broken() -> str:
    """Always fails (isError)."""
    raise ToolError("the oven is on fire")


FORECAST_DESCRIPTION = (
    "Look up the weather forecast for a city several days ahead, with temperatures in Celsius and the "
    "chance of rain for each half day."
)
CITY_DESCRIPTION = (
    "The city to forecast, spelled in English or in the local language, for example Lisbon or Lisboa."
)


@mcp.tool(description=FORECAST_DESCRIPTION)
async def forecast(city: Annotated[str, Field(description=CITY_DESCRIPTION)], days: int = 3) -> str:
    return f"{city}: sunny for {days} days"


@mcp.tool(name=TASK_ONLY)
async def long_job(minutes: int = 5) -> str:
    """Runs only as a task (execution.taskSupport: required)."""
    return "long_job ran without a task"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", action="store_true")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    if args.http:
        mcp.run("streamable-http", host="127.0.0.1", port=args.port)
    else:
        mcp.run("stdio")


if __name__ == "__main__":
    main()
