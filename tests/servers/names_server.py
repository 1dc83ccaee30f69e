"""A test peer on the official `mcp==2.3.0` MCPServer whose tool names are made to trip a model bridge.

| tool | why |
|---|---|
| `a.b`, `a_b`, `a_b_<8 hex>` | `a.b` is no provider name; its plain spelling is `a_b`'s, its hash the 3rd's |
| `Search`, `search` | two names only case tells apart |
| `twice` | listed twice in `tools/list` (the same tool) |
| `take(value)` | takes any JSON value: the arguments a model sends reach it unchecked |
| `ran()` | every tool run so far, in order, as a JSON list (itself left out): which tool a call reached |

Each of the others answers `ran <its name>` (the official SDK gives a `-> str` tool an `outputSchema`,
so its result has `structuredContent` `{"result": "ran <name>"}` beside the text). The third name is
`a_b_` + the first 8 hex digits of sha256(`a.b`): what a bridge that only hashes would give `a.b`.

    python tests/servers/names_server.py stdio
    python tests/servers/names_server.py http --port N     # NAMES_SERVER_READY http://127.0.0.1:N/mcp
"""

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from _serve import serve, transport_parser
from mcp.server.mcpserver import MCPServer
from mcp_types import Tool

READY_MARKER = "NAMES_SERVER_READY"
CRAFTED = "a_b_" + hashlib.sha256(b"a.b").hexdigest()[:8]


class _ListsTwice(MCPServer):
    """Lists the tool `twice` twice, as a buggy server (or one that merges two registries) does."""

    async def list_tools(self) -> list[Tool]:
        tools = await super().list_tools()
        return tools + [tool for tool in tools if tool.name == "twice"]


mcp = _ListsTwice("names-lab", version="0.0.1", log_level="WARNING")
runs: list[str] = []


def _add(name: str) -> None:
    def run() -> str:
        runs.append(name)
        return f"ran {name}"

    mcp.add_tool(run, name=name, description=f"The tool named {name!r}.")


for _name in ("a.b", "a_b", CRAFTED, "Search", "search", "twice"):
    _add(_name)


@mcp.tool(description="Take any JSON value and say so.")
def take(value: Any) -> str:
    runs.append("take")
    return "took it"


@mcp.tool(description="Every tool run so far (this one left out), as a JSON list.")
def ran() -> str:
    return json.dumps(runs)


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, _ = transport_parser(__doc__)
    serve(parser.parse_args(argv), ready_marker=READY_MARKER, server=mcp)


if __name__ == "__main__":
    main()
