"""End-to-end: our Client, with TerminalFormAdapter as its callback, books a table on the guide server.

Run in a real terminal (the tests drive it through a pty with pexpect):

    python tests/ui_adapters/e2e_terminal_script.py [--mode auto|legacy|2026-07-28] [--date 2025-12-25]
    python tests/ui_adapters/e2e_terminal_script.py --mode 2026-07-28 --tool plan_trip \
        --arguments '{"destination": "Lisbon"}'

The guide server (tests/servers/guide_server.py) is started over stdio. ``book_table`` on 2025-12-25
asks a form question (another date?), which the adapter puts on the terminal. The tool's answer is
printed as ``TOOL RESULT: ...``. ``--tool``/``--arguments`` call another tool, e.g. ``plan_trip``,
whose first 2026-07-28 round asks two questions at once.

``--sanity`` instead checks the terminal itself: it opens the question, waits for SIGUSR1, cancels the
call under the open prompt, prints ``TERMINAL SANE`` if the tty settings are exactly what they were
before (``TERMINAL BROKEN`` otherwise), then asks the same question again and prints its answer.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import termios
from pathlib import Path
from typing import Any

import anyio

from mcp_client import Client, StdioServerParameters
from mcp_client._session.context import ClientRequestContext
from mcp_client.types import ElicitRequestFormParams, Implementation
from ui_adapters.terminal import TerminalFormAdapter

GUIDE_SERVER = Path(__file__).resolve().parents[1] / "servers" / "guide_server.py"
# The interpreter with the official `mcp` SDK for the peer server (see tests/support/servers.py).
PEER_PYTHON = os.environ.get("MCP_CLIENT_TEST_PEER_PYTHON") or sys.executable


async def call(mode: str, tool: str, arguments: dict[str, Any]) -> None:
    server = StdioServerParameters(command=PEER_PYTHON, args=[str(GUIDE_SERVER), "stdio"])
    async with Client(server, mode=mode, elicitation_callback=TerminalFormAdapter()) as client:
        print(f"CONNECTED: {client.protocol_version}", flush=True)
        result = await client.call_tool(tool, arguments)
    texts = [getattr(block, "text", "") for block in result.content]
    print(f"TOOL RESULT: {' '.join(texts)}", flush=True)


async def sanity() -> None:
    fd = sys.stdin.fileno()
    before = termios.tcgetattr(fd)
    adapter = TerminalFormAdapter()
    context = ClientRequestContext(
        server="sanity", server_info=Implementation(name="sanity-check"), protocol_version="x", era="legacy"
    )
    params = ElicitRequestFormParams(
        message="Cancelled under the prompt?",
        requested_schema={
            "type": "object",
            "properties": {"city": {"type": "string", "title": "City"}},
            "required": ["city"],
        },
    )
    with anyio.CancelScope() as scope:

        async def cancel_on_signal() -> None:
            with anyio.open_signal_receiver(signal.SIGUSR1) as signals:
                print("WAITING FOR SIGUSR1", flush=True)
                async for _ in signals:
                    scope.cancel()
                    return

        async with anyio.create_task_group() as group:
            group.start_soon(cancel_on_signal)
            await anyio.sleep(0.1)  # the signal handler is installed before the prompt shows
            await adapter(context, params)
    after = termios.tcgetattr(fd)
    print("TERMINAL SANE" if after == before else f"TERMINAL BROKEN {before!r} != {after!r}", flush=True)
    result = await adapter(context, params)
    print(f"SECOND ANSWER: {result.model_dump_wire()}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", default="auto")
    parser.add_argument("--date", default="2025-12-25", help="the date to book (book_table)")
    parser.add_argument("--tool", default="book_table")
    parser.add_argument("--arguments", default=None, help="JSON arguments for --tool")
    parser.add_argument("--backend", default="asyncio", choices=["asyncio", "trio"])
    parser.add_argument("--sanity", action="store_true")
    args: Any = parser.parse_args(argv)
    if args.sanity:
        anyio.run(sanity, backend=args.backend)
    else:
        arguments = (
            {"date": args.date, "party_size": 4} if args.arguments is None else json.loads(args.arguments)
        )
        anyio.run(call, args.mode, args.tool, arguments, backend=args.backend)


if __name__ == "__main__":
    main()
