"""OUR client, ``mcp_client.Client``, with a canned elicitation callback (form mode only declared).

Variants: ``legacy`` (``mode="legacy"``) and ``modern`` (``mode="2026-07-28"``, no probe, like the
floor-modern driver).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from bench.drivers._stdio_cmd import server_command
from mcp_client import Client, StdioServerParameters
from mcp_client.types import ElicitResult, TextContent

VARIANTS = ("legacy", "modern")
_MODES = {"legacy": "legacy", "modern": "2026-07-28", "auto": "auto"}

_ACCEPT = ElicitResult(action="accept", content={"confirm": True})


@asynccontextmanager
async def _open(
    variant: str, transport: str, target: str, answer_delay: float
) -> AsyncIterator[Callable[[str, dict[str, Any]], Awaitable[str]]]:
    async def _elicit(context: Any, params: Any) -> ElicitResult:
        if answer_delay:
            await asyncio.sleep(answer_delay)
        return _ACCEPT

    server: Any = target
    if transport == "stdio":
        command, args, cwd = server_command()
        server = StdioServerParameters(command=command, args=args, cwd=cwd)
    async with Client(
        server, mode=_MODES[variant], elicitation_callback=_elicit, elicitation_modes=["form"]
    ) as client:

        async def call(tool: str, arguments: dict[str, Any]) -> str:
            result = await client.call_tool(tool, arguments)
            first = result.content[0]
            if result.is_error or not isinstance(first, TextContent):
                raise RuntimeError(f"tool error: {result}")
            return first.text

        yield call


def open_client(variant: str, transport: str, target: str, answer_delay: float = 0.0):
    return _open(variant, transport, target, answer_delay)
