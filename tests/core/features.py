"""Helpers for the tests against tests/servers/features_server.py (both eras, both transports)."""

from __future__ import annotations

from typing import Any

import anyio

from mcp_client import StdioServerParameters
from tests.core.helpers import text_of

__all__ = ["features_server", "text_of", "wait_for"]


def features_server(transport: str, http_url: str, stdio_command: tuple[str, list[str]]) -> Any:
    if transport == "http":
        return http_url
    command, args = stdio_command
    return StdioServerParameters(command, args)


async def wait_for(items: list[Any], count: int, seconds: float = 30.0) -> list[Any]:
    """Wait (bounded) until ``items`` has at least ``count`` entries; return them."""
    with anyio.move_on_after(seconds):
        while len(items) < count:  # noqa: ASYNC110 - polling a plain list the callback appends to
            await anyio.sleep(0.02)
    return items
