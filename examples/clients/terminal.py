"""Answer the servers' questions in the terminal with the ready-made adapters of ``ui_adapters``.

    python examples/clients/terminal.py

Starts ``examples/servers/bistro.py`` and ``examples/servers/files.py`` over stdio (the official MCP
SDK must be installed: ``pip install -e ".[examples]"``). ``terminal_callback()`` shows form questions
as a terminal form and link questions with their real host, opening a link only if you agree. The
same callback serves both protocol eras: the bistro is asked in the legacy era (its question arrives
while the call is open), the file store in the 2026-07-28 era (its question comes back as "input
required").
"""

import sys
from pathlib import Path

import anyio

from mcp_client import Client, StdioServerParameters
from mcp_client.types import CallToolResult, TextContent
from ui_adapters import terminal_callback

SERVERS = Path(__file__).resolve().parent.parent / "servers"


def text_of(result: CallToolResult) -> str:
    return " ".join(block.text for block in result.content if isinstance(block, TextContent))


async def main() -> None:
    ui = terminal_callback()
    bistro = StdioServerParameters(sys.executable, [str(SERVERS / "bistro.py")])
    async with Client(
        bistro,
        mode="legacy",
        elicitation_callback=ui,
        elicitation_complete_callback=ui.elicitation_complete_callback,
    ) as client:
        booking = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
    print("bistro:", text_of(booking))

    files = StdioServerParameters(sys.executable, [str(SERVERS / "files.py")])
    async with Client(files, mode="2026-07-28", elicitation_callback=ui) as client:
        deletion = await client.call_tool("delete_folder", {"path": "/tmp/old-drafts"})
    print("files:", text_of(deletion))


if __name__ == "__main__":
    anyio.run(main)
