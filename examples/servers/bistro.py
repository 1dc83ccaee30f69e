"""A bistro MCP server whose ``book_table`` asks a question (form elicitation) when the date is full.

Built with the official MCP Python SDK (``pip install "mcp==2.3.0"``, or ``pip install -e ".[examples]"``
in this repository)::

    python examples/servers/bistro.py                        # stdio
    python examples/servers/bistro.py --http --port 8000     # http://127.0.0.1:8000/mcp

``ctx.elicit`` sends the question over the open call (the legacy back-channel), so it works in the
2025-11-25 protocol era, which ``mcp-client`` speaks by default with a server that offers it::

    mcp-client call examples/servers/bistro.py book_table date=2025-12-25 party_size=2
"""

import argparse
import sys

from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel, Field

FULL_DATE = "2025-12-25"

mcp = MCPServer("bistro", log_level="WARNING")


class AlternativeDate(BaseModel):
    accept_alternative: bool = Field(description="Book the alternative date instead?")
    date: str = Field(
        default="2025-12-26",
        description="Alternative date (YYYY-MM-DD)",
        json_schema_extra={"format": "date"},  # a real date field: 2025-13-45 is refused as it is typed
    )


@mcp.tool()
async def book_table(date: str, party_size: int, ctx: Context) -> str:
    """Book a table for `party_size` people on `date` (YYYY-MM-DD); 2025-12-25 is full."""
    if date != FULL_DATE:
        return f"[SUCCESS] Booked for {date}"
    result = await ctx.elicit(
        message=f"No tables for {party_size} on {date}. Would you like another date?",
        schema=AlternativeDate,
    )
    if result.action == "accept":
        if result.data.accept_alternative:
            return f"[SUCCESS] Booked for {result.data.date}"
        return "[CANCELLED] No booking made"
    if result.action == "decline":
        return "[DECLINED] user declined"
    return "[CANCELLED] user cancelled"


def main() -> None:
    parser = argparse.ArgumentParser(description="The bistro example MCP server.")
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    args = parser.parse_args()
    if args.http:
        print(f"bistro: serving http://127.0.0.1:{args.port}/mcp (Ctrl-C to stop)", file=sys.stderr)
        mcp.run("streamable-http", host="127.0.0.1", port=args.port)
    else:
        mcp.run("stdio")


if __name__ == "__main__":
    main()
