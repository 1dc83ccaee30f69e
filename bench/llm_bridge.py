"""What ``mcp_client.llm.ToolBridge`` adds: exporting 500 tools, and ``run_openai`` over ``call_tool``.

    .venv/bin/python -m bench.llm_bridge [--calls 300] [--rounds 5]

1. ``bridge.openai_tools()`` over a ``ClientGroup`` of 5 stdio servers with 100 tools each, in each
   era: the first export (listing + conversion) and the following ones (the list as the client's cache
   gives it, unchanged: no conversion), medians over rounds. A legacy list is cached until
   ``list_changed``; a 2026-07-28 list only as long as the server's cache hints allow (none here), so
   there each export lists again. (The official server declares no ``tools.listChanged``, so our
   client lists again on each call in both eras here.) Then the conversion alone, without I/O.
2. ``run_openai(call)`` against ``client.call_tool`` on ``bench.server``'s ``echo`` over stdio, call by
   call in turn; the overhead is the ratio of the medians (over rounds) of their mean times per call.

Prints a small table; nothing is written. The bench peers need the repo venv (``mcp==2.3.0``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import anyio

from mcp_client import Client, ClientGroup, StdioServerParameters
from mcp_client.llm import ToolBridge, _openai


async def conversion_time(rounds: int) -> float:
    """The conversion alone (no listing): 500 tools to Chat Completions dicts, strict where possible."""
    servers = {"s": {"command": sys.executable, "args": ["-m", "bench.many_tools_server", "500"]}}
    times: list[float] = []
    async with ClientGroup({"mcpServers": servers}) as group:
        bridge = ToolBridge(group)
        await bridge.openai_tools()
        listing = bridge._listing
        assert listing is not None
        for _ in range(rounds):
            start = time.perf_counter()
            exported = bridge._build(listing)
            [_openai.chat_tool(tool) for tool in exported]
            times.append(time.perf_counter() - start)
    return statistics.median(times)


async def export_times(rounds: int, mode: str) -> tuple[float, float, int]:
    servers = {
        f"s{i}": {"command": sys.executable, "args": ["-m", "bench.many_tools_server", "100"], "mode": mode}
        for i in range(5)
    }
    firsts: list[float] = []
    agains: list[float] = []
    count = 0
    async with ClientGroup({"mcpServers": servers}) as group:
        for _ in range(rounds):
            bridge = ToolBridge(group)
            start = time.perf_counter()
            tools = await bridge.openai_tools()
            firsts.append(time.perf_counter() - start)
            count = len(tools)
            start = time.perf_counter()
            for _ in range(10):
                await bridge.openai_tools()
            agains.append((time.perf_counter() - start) / 10)
    return statistics.median(firsts), statistics.median(agains), count


async def call_overhead(calls: int, rounds: int) -> tuple[float, float]:
    server = StdioServerParameters(sys.executable, ["-m", "bench.server", "stdio"])
    plain: list[float] = []
    bridged: list[float] = []
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "echo", "arguments": json.dumps({"text": "hi"})},
    }
    async with Client(server) as client:
        bridge = ToolBridge(client)
        await bridge.openai_tools()
        for _ in range(20):  # warm up both paths
            await client.call_tool("echo", {"text": "hi"})
            await bridge.run_openai(call)
        for _ in range(rounds):  # the two loops interleaved call by call: a busy machine slows both alike
            plain_total = bridged_total = 0.0
            for _ in range(calls):
                start = time.perf_counter()
                await client.call_tool("echo", {"text": "hi"})
                middle = time.perf_counter()
                await bridge.run_openai(call)
                plain_total += middle - start
                bridged_total += time.perf_counter() - middle
            plain.append(plain_total / calls)
            bridged.append(bridged_total / calls)
    return statistics.median(plain), statistics.median(bridged)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for mode in ("legacy", "2026-07-28"):
        first, again, count = await export_times(args.rounds, mode)
        print(f"{mode}: openai_tools() over {count} tools in a group of 5: first {first * 1e3:.1f} ms, "
              f"unchanged list {again * 1e3:.1f} ms")  # fmt: skip
    print(f"conversion alone, 500 tools: {await conversion_time(args.rounds) * 1e3:.1f} ms")
    plain, bridged = await call_overhead(args.calls, args.rounds)
    print(f"call_tool {plain * 1e6:.0f} us/call, run_openai {bridged * 1e6:.0f} us/call: "
          f"overhead {100 * (bridged / plain - 1):+.1f} %")  # fmt: skip


if __name__ == "__main__":
    anyio.run(main)
