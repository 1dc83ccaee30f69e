"""A bench peer with many tools (official ``mcp==2.3.0`` MCPServer over stdio), for ``bench.llm_bridge``.

    python -m bench.many_tools_server 100      # tools tool_0 ... tool_99, with a mix of schemas

Each tool has a required string, an optional integer with a default, and every third one a nested
model and a list, so the exported schemas cover strict, nullable-optional and ``$ref`` cases.
"""

from __future__ import annotations

import sys

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field


class Address(BaseModel):
    street: str
    city: str = Field(description="City name")


def build(count: int) -> MCPServer:
    server = MCPServer("many-tools", log_level="WARNING")
    for index in range(count):
        if index % 3 == 0:

            async def rich(text: str, where: Address, tags: list[str], limit: int = 10) -> str:
                return text

            server.add_tool(
                rich, name=f"tool_{index}", description=f"Tool number {index}, with a nested model."
            )
        else:

            async def plain(text: str, limit: int = 10) -> str:
                return text

            server.add_tool(plain, name=f"tool_{index}", description=f"Tool number {index}.")
    return server


if __name__ == "__main__":
    build(int(sys.argv[1]) if len(sys.argv) > 1 else 100).run("stdio")
