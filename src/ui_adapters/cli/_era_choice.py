"""Which protocol era ``mcp-client`` speaks when ``--mode auto`` (the default) leaves it the choice.

The CLI answers questions in the terminal, and the way a server asks decides the era that works:

* a tool that asks with ``ctx.elicit`` (the official SDK 2.x, fastmcp) asks over the legacy
  back-channel: on a 2026-07-28 connection the call fails after the tool has started;
* a tool that asks with a resolver (``Resolve``, answered through "input required") works in both;
* a tool that runs only as a task (``execution.taskSupport: "required"``) needs the tasks extension,
  which exists only in 2026-07-28; its server says so in the legacy tool list, before anything runs.

So the CLI connects with the ``initialize`` handshake first, and speaks 2026-07-28 when the server
refuses the handshake (it speaks only that era). A tool is never called twice: which era a call goes
out in is settled before it is sent. ``docs/cli.md`` has the measurements behind this choice.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from contextlib import AsyncExitStack, asynccontextmanager

from mcp_client import (
    Client,
    MCPClientError,
    MCPConnectionError,
    MCPError,
    UnsupportedProtocolVersionError,
)

__all__ = ["connected"]


@asynccontextmanager
async def connected(mode: str, build: Callable[[str], Client]) -> AsyncGenerator[Client]:
    """A connected client; ``build(mode)`` makes one. ``auto``: the handshake first, else 2026-07-28."""
    async with AsyncExitStack() as stack:
        if mode != "auto":
            yield await stack.enter_async_context(build(mode))
            return
        try:
            client = await stack.enter_async_context(build("legacy"))
        except MCPClientError as error:
            if not refused_handshake(error):
                raise
            client = await stack.enter_async_context(build("auto"))
        yield client


def refused_handshake(error: MCPClientError) -> bool:
    """True when the server answered ``initialize`` with a refusal (it does not speak the legacy era).

    A server that could not be reached, died or timed out is not asked again: the error stands.
    """
    if isinstance(error, UnsupportedProtocolVersionError):
        return True
    return isinstance(error, MCPConnectionError) and isinstance(error.__cause__, MCPError)
