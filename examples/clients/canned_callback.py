"""The elicitation guide's client: one callback answers the bistro's question with fixed values.

    python examples/clients/canned_callback.py

Starts ``examples/servers/bistro.py`` over stdio (the official MCP SDK must be installed:
``pip install -e ".[examples]"``), books a table for the full date 2025-12-25, and answers the
server's "another date?" question from code: the callback prints the message and accepts the
alternative date.
"""

import sys
from pathlib import Path

import anyio

from mcp_client import Client, ClientRequestContext, StdioServerParameters
from mcp_client.types import ElicitRequestParams, ElicitResult, TextContent

BISTRO = Path(__file__).resolve().parent.parent / "servers" / "bistro.py"


async def handle_elicitation(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    print(f"{context.server_name} asks: {params.message}")
    return ElicitResult(action="accept", content={"accept_alternative": True, "date": "2025-12-27"})


async def main() -> None:
    server = StdioServerParameters(sys.executable, [str(BISTRO)])
    async with Client(server, elicitation_callback=handle_elicitation) as client:
        result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
    for block in result.content:
        if isinstance(block, TextContent):
            print(block.text)  # [SUCCESS] Booked for 2025-12-27


if __name__ == "__main__":
    anyio.run(main)
