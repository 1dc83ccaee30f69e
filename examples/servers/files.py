"""A file-store MCP server whose ``delete_folder`` asks for a confirmation with a ``Resolve(...)`` resolver.

A resolver declares the question next to the tool's parameters; the SDK asks it in whichever protocol
era the client speaks: pushed over the open call in 2025-11-25 (legacy), returned as "input required"
in 2026-07-28 (the client answers and calls again). Nothing is ever deleted: this is an example.

Built with the official MCP Python SDK (``pip install "mcp==2.3.0"``, or ``pip install -e ".[examples]"``)::

    python examples/servers/files.py                         # stdio
    python examples/servers/files.py --http --port 8000      # http://127.0.0.1:8000/mcp

    mcp-client call examples/servers/files.py delete_folder path=/tmp/old-drafts
"""

import argparse
import sys
from typing import Annotated

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve
from pydantic import BaseModel, Field

mcp = MCPServer("files", log_level="WARNING")


class Confirm(BaseModel):
    confirm: bool = Field(description="Tick to confirm deletion")


async def confirm_delete(path: str) -> Elicit[Confirm] | Confirm:
    """Ask before deleting, unless the folder is empty (then there is nothing to lose)."""
    if path.rstrip("/").endswith("/empty"):
        return Confirm(confirm=True)
    return Elicit(f"Really delete {path}? This cannot be undone.", Confirm)


@mcp.tool()
async def delete_folder(
    path: str, confirmation: Annotated[ElicitationResult[Confirm], Resolve(confirm_delete)]
) -> str:
    """Delete the folder at `path` (pretend: this example never touches the disk)."""
    if confirmation.action == "accept":
        if confirmation.data.confirm:
            return f"deleted {path}"
        return f"kept {path} (not confirmed)"
    return f"kept {path} (outcome: {confirmation.action})"


def main() -> None:
    parser = argparse.ArgumentParser(description="The files example MCP server.")
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    args = parser.parse_args()
    if args.http:
        print(f"files: serving http://127.0.0.1:{args.port}/mcp (Ctrl-C to stop)", file=sys.stderr)
        mcp.run("streamable-http", host="127.0.0.1", port=args.port)
    else:
        mcp.run("stdio")


if __name__ == "__main__":
    main()
