"""The bistro's deposit desk: URL-mode elicitation, and the notification that says the step is done.

``pay_deposit`` asks the user to open a payment page (``ctx.elicit_url``): the client shows the link
and opens it only with the user's consent; the answer only means "the user agreed to go there".
When the payment provider has finished, the server sends ``notifications/elicitation/complete``;
here ``confirm_deposit`` plays the provider and sends it. Both need the legacy (2025-11-25) era.

Built with the official MCP Python SDK (``pip install "mcp==2.3.0"``, or ``pip install -e ".[examples]"``)::

    python examples/servers/bistro_url.py                      # stdio
    python examples/servers/bistro_url.py --http --port 8000   # http://127.0.0.1:8000/mcp

    mcp-client call examples/servers/bistro_url.py pay_deposit booking_id=B42
"""

import argparse
import sys

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("bistro-deposits", log_level="WARNING")


@mcp.tool()
async def pay_deposit(booking_id: str, ctx: Context) -> str:
    """Ask the user to pay the 20 EUR deposit for `booking_id` on the payment page."""
    elicitation_id = f"pay-{booking_id}"
    result = await ctx.elicit_url(
        message=f"Pay the 20 EUR deposit for booking {booking_id} on our payment page.",
        url=f"https://pay.example.com/deposit?booking={booking_id}",
        elicitation_id=elicitation_id,
    )
    if result.action == "accept":
        return f"Waiting for the payment of booking {booking_id} (elicitation {elicitation_id})"
    return f"No deposit paid for booking {booking_id} (outcome: {result.action})"


@mcp.tool()
async def confirm_deposit(elicitation_id: str, ctx: Context) -> str:
    """Pretend the payment page finished: tell the client that `elicitation_id` is complete."""
    await ctx.session.send_elicit_complete(elicitation_id)
    return f"Deposit confirmed ({elicitation_id})"


def main() -> None:
    parser = argparse.ArgumentParser(description="The bistro deposit-desk example MCP server.")
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    args = parser.parse_args()
    if args.http:
        print(f"bistro_url: serving http://127.0.0.1:{args.port}/mcp (Ctrl-C to stop)", file=sys.stderr)
        mcp.run("streamable-http", host="127.0.0.1", port=args.port)
    else:
        mcp.run("stdio")


if __name__ == "__main__":
    main()
