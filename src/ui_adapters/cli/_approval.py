"""``mcp-client call`` and ``apps`` ask before running a tool the server does not mark read-only.

The CLI is the host: the person typed the command, but the tool may delete, send or pay, and only the
server's ``readOnlyHint: true`` (its claim) lets a call through unasked. With a terminal, the person
is asked with ``terminal_approval()`` (the call as a table, Allow once / for this session / Always /
Deny; any allow runs this one call, the CLI remembers nothing). Without one (stdin is a pipe: a script,
CI) nobody can be asked, so the call is refused before anything is sent, and the message says to pass
``--yes``. ``--yes`` runs it without asking, as before. ``mcp-client apps`` asks the same before its
first call (``verb="apps"``); the calls its view makes later pass the client's gate (``_view_approval``).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from rich.console import Console

from mcp_client import ApprovalRequest, ApprovalResult, Client, ClientRequestContext
from mcp_client.types import Tool
from ui_adapters.cli._status import StatusAwareCallback

__all__ = ["NotApprovedError", "ask_before_call", "is_read_only", "stdin_is_terminal"]


class NotApprovedError(Exception):
    """The call was not run: the person denied it, or there was no terminal to ask (exit code 4)."""


def is_read_only(tool: Tool) -> bool:
    """The server marks the tool read-only (``readOnlyHint: true``, a JSON boolean): its claim."""
    annotations: object = tool.annotations
    return isinstance(annotations, Mapping) and annotations.get("readOnlyHint") is True  # pyright: ignore[reportUnknownMemberType]


async def ask_before_call(
    client: Client,
    label: str,
    tool: Tool,
    arguments: Mapping[str, Any],
    ui: StatusAwareCallback,
    err: Console,
    *,
    command: str,
    verb: str = "call",
) -> ApprovalResult | None:
    """Return if the call may run (read-only, or the person allowed it); ``NotApprovedError`` if not.

    ``label`` is the server as the command line gave it (URL or command); ``command`` the command line
    to suggest with ``--yes`` when there is no terminal to ask; ``verb`` the subcommand that asks.
    Returns the person's answer (``None``: read-only, nobody was asked), for a caller that keeps it.
    """
    if is_read_only(tool):
        return None
    info = client.server_info
    server = info.name if info is not None and info.name else label  # what it calls itself, if it says
    if not stdin_is_terminal():
        raise NotApprovedError(
            f"{tool.name} on {server} is not marked read-only by the server, so {verb} asks before it "
            f"runs, and stdin is not a terminal to ask on. Nothing was sent. To run it without asking, "
            f"pass --yes: {command}"
        )
    from ui_adapters.terminal import terminal_approval

    annotations: object = tool.annotations
    request = ApprovalRequest(
        server=server,
        tool=tool.name,
        arguments=dict(arguments),
        annotations=dict(annotations) if isinstance(annotations, Mapping) else None,  # pyright: ignore[reportUnknownArgumentType]
        title=tool.title,
        description=tool.description,
        reason=f"mcp-client {verb} asks unless the server marks the tool read-only (--yes: never asks)",
    )
    context = ClientRequestContext(
        server=label,
        server_info=client.server_info,
        protocol_version=client.protocol_version or "",
        era="modern" if client.era == "modern" else "legacy",
        tool_name=tool.name,
        arguments=request.arguments,
    )
    ui.status.pause()
    try:
        result = await terminal_approval(console=err)(context, request)
    finally:
        ui.status.resume()
    if result.decision != "allow":
        said = f" (your note: {result.note})" if result.note else ""
        raise NotApprovedError(f"you denied the call of {tool.name}; nothing was sent to {server}{said}")
    return result


def stdin_is_terminal() -> bool:
    """Whether stdin is a terminal a person can be asked on."""
    try:
        return sys.stdin.isatty()
    except (ValueError, OSError):
        return False
