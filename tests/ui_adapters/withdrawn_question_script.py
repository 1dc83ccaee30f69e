"""A question open on the terminal when its server dies: the form closes and says why.

    python tests/ui_adapters/withdrawn_question_script.py

Starts tests/servers/restart_server.py over stdio (legacy: the question is pushed while the call
waits), prints ``SERVER PID <pid>``, and calls ``ask``, whose form the ``TerminalFormAdapter`` shows.
The test kills the server under the open form; the script prints ``CALL FAILED: <error type>`` (or
``CALL RESULT: ...``) and exits.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio

from mcp_client import Client, MCPClientError, StdioServerParameters
from ui_adapters.terminal import TerminalFormAdapter

RESTART_SERVER = Path(__file__).resolve().parents[1] / "servers" / "restart_server.py"
PEER_PYTHON = os.environ.get("MCP_CLIENT_TEST_PEER_PYTHON") or sys.executable


async def main() -> None:
    server = StdioServerParameters(PEER_PYTHON, [str(RESTART_SERVER), "stdio"])
    async with Client(server, mode="legacy", elicitation_callback=TerminalFormAdapter()) as client:
        pid = (await client.call_tool("pid", {})).content[0].text  # type: ignore[union-attr]
        print(f"SERVER PID {pid}", flush=True)
        try:
            with anyio.fail_after(60):
                result = await client.call_tool("ask", {})
        except MCPClientError as exc:
            print(f"CALL FAILED: {type(exc).__name__}", flush=True)
            return
        print(f"CALL RESULT: {result.content}", flush=True)


anyio.run(main)
