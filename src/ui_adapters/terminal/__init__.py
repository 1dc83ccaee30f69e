"""Ask an MCP server's form questions on the terminal: ``TerminalFormAdapter``.

::

    from mcp_client import Client
    from ui_adapters.terminal import TerminalFormAdapter

    async with Client(server, elicitation_callback=TerminalFormAdapter()) as client:
        await client.call_tool("book_table", {...})

``terminal_approval()`` is an ``approval_callback`` (``mcp_client.ToolPolicy``): the app asks at the
terminal whether a tool call may run.

prompt_toolkit and rich are imported here, never by ``mcp_client`` itself.
"""

from __future__ import annotations

from ui_adapters.terminal._adapter import NonInteractivePolicy, TerminalFormAdapter
from ui_adapters.terminal._approval import NonInteractiveApproval, TerminalApproval, terminal_approval

__all__ = [
    "NonInteractiveApproval",
    "NonInteractivePolicy",
    "TerminalApproval",
    "TerminalFormAdapter",
    "terminal_approval",
]
