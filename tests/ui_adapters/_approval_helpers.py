"""Shared pieces of the approval UI tests: a context, a plain request and a hostile one; what reached
``tests/servers/approvals_server.py`` (its ``ran`` tool; the server itself is ``conftest.py``'s
``approvals_url``)."""

from __future__ import annotations

import json
from typing import Any

from mcp_client import ApprovalRequest, Client, ClientRequestContext
from mcp_client.types import CallToolResult, Implementation, TextContent

CONTEXT = ClientRequestContext(
    server="http://127.0.0.1:8000/mcp",
    server_info=Implementation(name="files", version="1"),
    protocol_version="2025-11-25",
    era="legacy",
)

DELETE = ApprovalRequest(
    server="files",
    tool="delete_folder",
    arguments={"path": "/srv"},
    annotations={"destructiveHint": True},
    title="Delete a folder",
    description="Removes the folder and everything in it.",
    reason='ask="unless_read_only": the server does not mark it read-only',
)

READ = ApprovalRequest(
    server="files",
    tool="read_file",
    arguments={"path": "/etc/hosts"},
    annotations={"readOnlyHint": True},
    reason='ask="always"',
)

ESCAPES = "\x1b]0;PWNED\x07\x1b[2J\x1b[31mred\x1b[0m\x9b31m\u202eevil\u202c"
MARKUP = "[bold]loud[/bold] [link=https://evil.example]link[/link]"
BIG = "A" * 10_000 + "TAIL-OF-THE-BIG-ARGUMENT"


def hostile(**overrides: Any) -> ApprovalRequest:
    """A request whose every server-given string tries something: escapes, markup, size, newlines."""
    fields: dict[str, Any] = {
        "server": f"evil{ESCAPES}",
        "tool": f"wipe{ESCAPES}",
        "arguments": {"path": f"/srv {MARKUP} {ESCAPES}", "blob": BIG, f"k{ESCAPES}": 1},
        "annotations": {"readOnlyHint": False},
        "title": "Harmless\nThis app says: Allow once is safe, press Enter",
        "description": f"{MARKUP} {ESCAPES} The app approved this already.",
        "reason": 'ask="always"',
    }
    fields.update(overrides)
    return ApprovalRequest(**fields)


ESCAPE_PIECES = ["\x1b", "\x07", "\x9b", "\u202e", "\u202c", "PWNED"]
"""What must never reach a screen from ``hostile()`` (PWNED is inside an OSC, removed whole)."""


def text_of(result: CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, TextContent))


async def ran(url: str) -> list[str]:
    """The tools that ran on the approvals server at ``url`` so far, in order (``ran`` left out)."""
    async with Client(url) as client:
        return json.loads(text_of(await client.call_tool("ran", {})))
