"""``mcp-client call`` and ``apps`` ask before running a tool the server does not mark read-only.

The CLI is the host: the person typed the command, but the tool may delete, send or pay, and only the
server's ``readOnlyHint: true`` (its claim) lets a call through unasked. With a terminal, the person
is asked with ``terminal_approval()`` (the call as a table, Allow once / for this session / Always /
Deny; any allow runs this one call, the CLI remembers nothing). Without one (stdin is a pipe: a script,
CI) nobody can be asked, so the call is refused before anything is sent, and the message says to pass
``--yes``. ``--yes`` runs it without asking, as before. ``mcp-client apps`` asks the same before its
first call (``verb="apps"``); the calls its view makes later pass the client's gate (``_view_approval``).

``call --config FILE SERVER TOOL`` follows the ``tool_policy`` the file gives that server instead
(``check_call``), as a ``ClientGroup`` of the file would: its ``deny`` refuses the call (exit 4, and
``--yes`` does not change that: it answers the CLI's question, it does not override the file), its
``allow`` (or ``ask: "never"``) runs it unasked, and a call it asks about is asked as above.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from mcp_client import ApprovalRequest, ApprovalResult, Client, ClientRequestContext, ToolPolicy
from mcp_client.config import ServerConfig
from mcp_client.types import Tool
from ui_adapters.cli._status import StatusAwareCallback

__all__ = [
    "FilePolicy",
    "NotApprovedError",
    "ask_before_call",
    "check_call",
    "is_read_only",
    "stdin_is_terminal",
]


class NotApprovedError(Exception):
    """The call was not run: the person denied it, or there was no terminal to ask (exit code 4)."""


@dataclass(frozen=True)
class FilePolicy:
    """The ``tool_policy`` of the --config file's ``entry``, read from ``source`` (the file's path)."""

    policy: ToolPolicy
    entry: ServerConfig
    source: str

    def decide(self, tool: Tool) -> tuple[str, str]:
        """``(action, why)`` for a call of ``tool``, on the names a ``ClientGroup`` of the file judges:
        the group's name for it (``notes_drop_notes``) and ``server.tool`` (``notes.drop_notes``)."""
        entry = self.entry
        decision = self.policy.decide(
            entry.tool_name(tool.name), _annotations(tool), server=entry.name, own_name=tool.name
        )
        why = f"the tool_policy of server {entry.name!r} in {self.source}: {decision.reason}"
        return decision.action, why


async def check_call(
    client: Client,
    label: str,
    tool: Tool,
    arguments: Mapping[str, Any],
    ui: StatusAwareCallback,
    err: Console,
    *,
    command: str,
    yes: bool,
    policy: FilePolicy | None,
) -> None:
    """Return if ``call`` may run ``tool``; ``NotApprovedError`` (exit 4) if not.

    Without a file policy: ``ask_before_call`` unless ``yes``. With one: its deny refuses whatever
    ``yes`` says, its allow runs, and what it asks about is asked (``yes``: runs unasked)."""
    if policy is None:
        if not yes:
            await ask_before_call(client, label, tool, arguments, ui, err, command=command)
        return
    action, why = policy.decide(tool)
    if action == "deny":
        raise NotApprovedError(
            f"{tool.name} on {label} is denied by {why}. Nothing was sent. --yes does not override a "
            f"deny: to run it, change that tool_policy in {policy.source}"
        )
    if action == "ask" and not yes:
        await ask_before_call(client, label, tool, arguments, ui, err, command=command, why=why)


def is_read_only(tool: Tool) -> bool:
    """The server marks the tool read-only (``readOnlyHint: true``, a JSON boolean): its claim."""
    annotations = _annotations(tool)
    return annotations is not None and annotations.get("readOnlyHint") is True


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
    why: str | None = None,
) -> ApprovalResult | None:
    """Return if the call may run (read-only, or the person allowed it); ``NotApprovedError`` if not.

    ``label`` is the server as the command line gave it (URL or command); ``command`` the command line
    to suggest with ``--yes`` when there is no terminal to ask; ``verb`` the subcommand that asks.
    ``why``: the rule of a file's ``tool_policy`` that asks (then a read-only tool is asked about too).
    Returns the person's answer (``None``: read-only, nobody was asked), for a caller that keeps it.
    """
    if why is None and is_read_only(tool):
        return None
    info = client.server_info
    server = info.name if info is not None and info.name else label  # what it calls itself, if it says
    if not stdin_is_terminal():
        if why is None:
            asks = f"is not marked read-only by the server, so {verb} asks before it runs"
        else:
            asks = f"is asked about before it runs ({why})"
        raise NotApprovedError(
            f"{tool.name} on {server} {asks}, and stdin is not a terminal to ask on. Nothing was sent. "
            f"To run it without asking, pass --yes: {command}"
        )
    from ui_adapters.terminal import terminal_approval

    annotations = _annotations(tool)
    request = ApprovalRequest(
        server=server,
        tool=tool.name,
        arguments=dict(arguments),
        annotations=dict(annotations) if annotations is not None else None,
        title=tool.title,
        description=tool.description,
        reason=why
        or f"mcp-client {verb} asks unless the server marks the tool read-only (--yes: never asks)",
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


def _annotations(tool: Tool) -> Mapping[str, Any] | None:
    """The tool's annotations as the server listed them (a mapping), else ``None``."""
    annotations: object = tool.annotations
    return annotations if isinstance(annotations, Mapping) else None  # pyright: ignore[reportUnknownVariableType]


def stdin_is_terminal() -> bool:
    """Whether stdin is a terminal a person can be asked on."""
    try:
        return sys.stdin.isatty()
    except (ValueError, OSError):
        return False
