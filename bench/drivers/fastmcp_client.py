"""``fastmcp.Client`` (fastmcp==4.1.6), run from its own venv (see bench/_venvs.py).

Variants: ``legacy`` and ``auto`` (passed as fastmcp's ``mode=``). The elicitation handler is the
documented form: it returns the answer's data and fastmcp wraps it as an ``accept``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastmcp import Client
from fastmcp.client.transports import StdioTransport, StreamableHttpTransport

from bench.drivers._stdio_cmd import server_command

VARIANTS = ("legacy", "auto")


@asynccontextmanager
async def _open(
    variant: str, transport: str, target: str, answer_delay: float
) -> AsyncIterator[Callable[[str, dict[str, Any]], Awaitable[str]]]:
    async def _elicit(message: str, response_type: Any, params: Any, context: Any) -> dict[str, Any]:
        if answer_delay:
            await asyncio.sleep(answer_delay)
        return {"confirm": True}

    if transport == "stdio":
        command, args, cwd = server_command()
        tr: Any = StdioTransport(command=command, args=args, cwd=cwd)
    else:
        tr = StreamableHttpTransport(target)
    async with Client(tr, mode=variant, elicitation_handler=_elicit) as client:

        async def call(tool: str, arguments: dict[str, Any]) -> str:
            result = await client.call_tool(tool, arguments)
            return result.content[0].text  # type: ignore[union-attr]

        yield call


def open_client(variant: str, transport: str, target: str, answer_delay: float = 0.0):
    return _open(variant, transport, target, answer_delay)
