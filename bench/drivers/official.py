"""The official client, ``mcp.Client`` from mcp==2.3.0, with a canned elicitation callback.

Variants: ``legacy`` (initialize handshake) and ``auto`` (``server/discover`` probe, lands on 2026-07-28
against our server). Output-schema validation and the first call's automatic ``tools/list`` are the
client's defaults and stay on: that is what a user gets.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import ElicitResult, TextContent

from bench.drivers._stdio_cmd import server_command

VARIANTS = ("legacy", "auto")

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
    async with Client(server, mode=variant, elicitation_callback=_elicit) as client:  # type: ignore[arg-type]

        async def call(tool: str, arguments: dict[str, Any]) -> str:
            result = await client.call_tool(tool, arguments)
            first = result.content[0]
            if result.is_error or not isinstance(first, TextContent):
                raise RuntimeError(f"tool error: {result}")
            return first.text

        yield call


def open_client(variant: str, transport: str, target: str, answer_delay: float = 0.0):
    return _open(variant, transport, target, answer_delay)
