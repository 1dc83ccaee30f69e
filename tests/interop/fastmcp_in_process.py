"""Run by the FastMCP interop test in fastmcp's own venv: ``Client(FastMCP object)`` in one process.

Imports the FastMCP peer's server object (``fastmcp_server.mcp``) and calls its form-asking tool in the
era named on the command line, answering with ``CannedAnswers``; prints one JSON line with what came
back and whether this process ever listened on a TCP port.
"""

import json
import os
import sys
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fastmcp_server import mcp

from mcp_client import Client
from mcp_client.types import TextContent
from ui_adapters.canned import CannedAnswers


def listening() -> int:
    """TCP sockets this process holds in LISTEN state (Linux /proc)."""
    inodes: set[str] = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    count = 0
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:
                count += 1
    return count


async def main(mode: str) -> None:
    answers = CannedAnswers(fields={"name": "Ada", "age": 36}, defaults=True)
    async with Client(mcp, mode=mode, elicitation_callback=answers) as client:
        result = await client.call_tool("ask_profile", {"greeting": "Hi"})
        ports = listening()
    text = "".join(block.text for block in result.content if isinstance(block, TextContent))
    report = {
        "answer": json.loads(text),
        "asked": answers.messages,
        "listening": ports,
        "label": client.server,
    }
    print(json.dumps(report))


anyio.run(main, sys.argv[1])
