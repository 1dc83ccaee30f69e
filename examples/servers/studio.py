"""A video studio MCP server for the docs' examples: progress, logs, change notices, sampling and roots.

``render_video`` reports its progress and logs a warning; ``publish`` adds a tool and announces that
the tool list changed; ``haiku`` asks the client's model (sampling) and ``workspace`` the client's
folders (roots), with ``Resolve(...)`` resolvers, so both work in either protocol era.

Built with the official MCP Python SDK (``pip install "mcp==2.3.0"``, or ``pip install -e ".[examples]"``)::

    python examples/servers/studio.py                         # stdio
    python examples/servers/studio.py --http --port 8000      # http://127.0.0.1:8000/mcp

    mcp-client call examples/servers/studio.py render_video id=7
"""

import argparse
import sys
import warnings
from typing import Annotated

import anyio
from mcp.server.mcpserver import Context, MCPServer, Resolve
from mcp.server.mcpserver.resolve import ListRoots, Sample
from mcp_types import CreateMessageResult, ListRootsResult, SamplingMessage, TextContent

# Logging is a legacy feature in 2026-07-28 terms; the official server warns each time it is used.
warnings.filterwarnings("ignore", message=".*deprecated as of 2026-07-28.*")

mcp = MCPServer("studio", log_level="WARNING")


@mcp.tool()
async def render_video(id: int, ctx: Context) -> str:
    """Render video `id`: three progress reports, and a warning in the server's log."""
    await ctx.log("warning", f"video {id}: rendering at low quality (disk almost full)", logger_name="studio")
    for step in range(1, 4):
        await anyio.sleep(0.1)
        await ctx.report_progress(step, 3, f"pass {step} of 3")
    return f"rendered video {id}"


@mcp.tool()
async def publish(name: str, ctx: Context) -> str:
    """Publish a new tool called `name`, and tell listening clients that the tool list changed."""

    async def published() -> str:
        return f"{name} is live"

    mcp.add_tool(published, name=name, description="Published at run time.")
    version = ctx.protocol_version or ""
    if version >= "2026":
        await ctx.notify_tools_changed()
    else:
        await ctx.session.send_tool_list_changed()
    return f"published {name}"


async def ask_model(topic: str) -> Sample:
    prompt = SamplingMessage(
        role="user", content=TextContent(type="text", text=f"Write a haiku about {topic}.")
    )
    return Sample([prompt], max_tokens=60, system_prompt="You are a terse poet.")


@mcp.tool()
async def haiku(topic: str, answer: Annotated[CreateMessageResult, Resolve(ask_model)]) -> str:
    """Ask the client's model for a haiku about `topic` (sampling)."""
    text = answer.content.text if isinstance(answer.content, TextContent) else "<no text>"
    return f"{answer.model} wrote: {text}"


async def ask_roots() -> ListRoots:
    return ListRoots()


@mcp.tool()
async def workspace(roots: Annotated[ListRootsResult, Resolve(ask_roots)]) -> str:
    """Name the folders the client lets this server work in (roots)."""
    return "working in: " + ", ".join(f"{root.name} ({root.uri})" for root in roots.roots)


def main() -> None:
    parser = argparse.ArgumentParser(description="The studio example MCP server.")
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    args = parser.parse_args()
    if args.http:
        print(f"studio: serving http://127.0.0.1:{args.port}/mcp (Ctrl-C to stop)", file=sys.stderr)
        mcp.run("streamable-http", host="127.0.0.1", port=args.port)
    else:
        mcp.run("stdio")


if __name__ == "__main__":
    main()
