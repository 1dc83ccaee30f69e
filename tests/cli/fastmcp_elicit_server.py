"""Test peer for the CLI: a FastMCP server whose tool asks with plain ``ctx.elicit`` (fastmcp's venv).

fastmcp sends ``ctx.elicit`` over the legacy back-channel only; on a 2026-07-28 connection the tool
reports "elicitation via server-initiated requests is unavailable". The answer names the era.

    .cache/peers/fastmcp-venv/bin/python tests/cli/fastmcp_elicit_server.py
"""

from fastmcp import Context, FastMCP

mcp = FastMCP("fastmcp-elicit")


@mcp.tool()
async def ask_name(ctx: Context) -> str:
    """Asks for a name with ctx.elicit."""
    answer = await ctx.elicit("Your name?", response_type=str)
    data = getattr(answer, "data", None)
    version = getattr(ctx.request_context, "protocol_version", "?")
    return f"{answer.action}: {data} (protocol {version})"


if __name__ == "__main__":
    mcp.run("stdio", show_banner=False)
