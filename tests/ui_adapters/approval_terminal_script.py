"""Ask one approval at a real terminal with ``terminal_approval()`` and print the decision.

    python tests/ui_adapters/approval_terminal_script.py [--request delete|read|hostile]
    python tests/ui_adapters/approval_terminal_script.py --call drop_notes

The tests drive it through a pty (pexpect, replayed on a pyte screen). The decision is printed as
``RESULT: <decision> <remember> <note as JSON>``. With ``--call TOOL``, a real Client (with
``ToolPolicy()`` and ``terminal_approval()``) calls TOOL on tests/servers/approvals_server.py over stdio
and prints ``CALLED: <the tool's answer>`` or ``DENIED: <note>``, then ``RAN: <what the server ran>``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mcp_client import Client, StdioServerParameters, ToolCallDenied, ToolPolicy
from tests.support.servers import SERVERS_DIR, stdio_command
from tests.ui_adapters._approval_helpers import CONTEXT, DELETE, READ, hostile
from ui_adapters import terminal_approval

REQUESTS = {"delete": lambda: DELETE, "read": lambda: READ, "hostile": hostile}


async def ask(which: str) -> None:
    result = await terminal_approval()(CONTEXT, REQUESTS[which]())
    print(f"RESULT: {result.decision} {result.remember} {json.dumps(result.note)}", flush=True)


async def call(tool: str) -> None:
    command, args = stdio_command(SERVERS_DIR / "approvals_server.py")
    server = StdioServerParameters(command=command, args=args)
    policy = ToolPolicy(allow=["ran"])
    async with Client(server, approval_callback=terminal_approval(), tool_policy=policy) as client:
        try:
            result = await client.call_tool(tool, {})
            print(f"CALLED: {' '.join(getattr(block, 'text', '') for block in result.content)}", flush=True)
        except ToolCallDenied as denied:
            print(f"DENIED: {denied.note}", flush=True)
        ran = await client.call_tool("ran", {})
        print(f"RAN: {getattr(ran.content[0], 'text', '')}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--request", choices=sorted(REQUESTS), default="delete")
    parser.add_argument("--call", default=None)
    options = parser.parse_args()
    if options.call:
        anyio.run(call, options.call)
    else:
        anyio.run(ask, options.request)
