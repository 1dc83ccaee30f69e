"""The tool calls a view makes while ``mcp-client apps`` serves it: asked about as ``call`` asks.

The view is the server's own HTML running in the browser; its ``tools/call`` goes through the CLI's
``Client``, so the client's approval gate judges it: ``ToolPolicy(ask="unless_read_only")``, a tool the
server marks read-only runs, any other is asked about. At a terminal the person answers
``terminal_approval()``'s prompt (its "for this session" holds until the command ends). Without a terminal
nobody can be asked: the view's call is refused (the view gets the gate's error, which says nobody was
asked and to run with ``--yes``; nothing reaches the server) and one line on stderr says what was
refused and the command line with ``--yes``. ``--yes`` puts no gate on
the client: the view's calls run unasked, as the first call did.

``ViewLines`` prints the lines the command writes while it serves the view (the view's logs, what it
asked and was refused): held while an approval is on screen, so they never land inside the prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio
from rich.text import Text

from mcp_client import ApprovalRequest, ApprovalResult, ClientRequestContext, ToolPolicy
from ui_adapters.cli._approval import stdin_is_terminal
from ui_adapters.text import sanitize

if TYPE_CHECKING:
    from rich.console import Console

    from mcp_client import ApprovalCallback
    from ui_adapters.cli._status import StatusLine

__all__ = ["VIEW_REFUSAL", "ViewApprovals", "ViewLines", "view_approvals"]

VIEW_REFUSAL = "no terminal to ask on; run mcp-client apps with --yes to allow the view's tool calls"
"""Why the view's call was refused without a terminal, as the view and the audit log read it."""


class ViewLines:
    """What the command prints on stderr while it serves the view: held while a prompt is on screen,
    printed in order once it is gone."""

    def __init__(self, err: Console) -> None:
        self._err = err
        self._prompts = 0
        self._held: list[Callable[[], object]] = []

    def print(self, line: Text) -> None:
        """Print ``line`` on stderr (after the prompt on screen, if any)."""
        self.write(lambda: self._err.print(line, soft_wrap=True))

    def write(self, show: Callable[[], object]) -> None:
        """Run ``show`` (it prints on stderr) now, or once the prompt on screen is gone."""
        if self._prompts:
            self._held.append(show)
        else:
            show()

    def hold(self) -> None:
        """A prompt is on screen: hold what would be printed until the matching ``release``."""
        self._prompts += 1

    def release(self) -> None:
        self._prompts -= 1
        if not self._prompts:
            held, self._held = self._held, []
            for show in held:
                show()


@dataclass(frozen=True)
class ViewApprovals:
    """``Client(tool_policy=..., approval_callback=...)`` for ``apps``: ``None`` both with ``--yes``."""

    tool_policy: ToolPolicy | None
    approval_callback: ApprovalCallback | None


def view_approvals(
    err: Console, lines: ViewLines, status: StatusLine, *, yes: bool, command: str
) -> ViewApprovals:
    """How the view's calls are judged: unasked with ``yes``; else asked at the terminal, or refused
    without one (``command`` is the command line to suggest, with ``--yes``)."""
    if yes:
        return ViewApprovals(None, None)
    _quiet_audit()
    policy = ToolPolicy(ask="unless_read_only")
    if stdin_is_terminal():
        return ViewApprovals(policy, _AskAtTerminal(err, lines, status))
    return ViewApprovals(policy, _RefuseWithoutTerminal(lines, command))


def _quiet_audit() -> None:
    """The gate logs each decision on ``mcp_client.approvals`` (a denial at WARNING); with no logging
    set up, Python's last-resort handler would print that on stderr beside what the command says
    itself. A ``NullHandler`` keeps it off the terminal; a handler the app configured still gets it."""
    import logging

    audit = logging.getLogger("mcp_client.approvals")
    if not any(isinstance(handler, logging.NullHandler) for handler in audit.handlers):
        audit.addHandler(logging.NullHandler())


class _AskAtTerminal:
    """``terminal_approval(console=err)``, one prompt at a time, the status line and the view's lines
    out of its way while it is on screen."""

    def __init__(self, err: Console, lines: ViewLines, status: StatusLine) -> None:
        from ui_adapters.terminal import terminal_approval

        self._ask = terminal_approval(console=err)
        self._lines = lines
        self._status = status
        self._one_at_a_time = anyio.Lock()

    async def __call__(self, context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        async with self._one_at_a_time:
            self._status.pause()
            self._lines.hold()
            try:
                return await self._ask(context, request)
            finally:
                self._lines.release()
                self._status.resume()


class _RefuseWithoutTerminal:
    """Nobody to ask: refuse the view's call, and say so on stderr with the way to allow it."""

    def __init__(self, lines: ViewLines, command: str) -> None:
        self._lines = lines
        self._command = command

    async def __call__(self, context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        tool = sanitize(request.tool, max_length=200, single_line=True)
        server = sanitize(request.server, max_length=200, single_line=True)
        self._lines.print(
            Text(
                f"The view called {tool} on {server}, which the server does not mark read-only: refused, "
                f"as stdin is not a terminal to ask on. To let the view's calls run without asking, "
                f"pass --yes: {self._command}",
                style="yellow",
            )
        )
        # What the view (and the log) reads: nobody was asked, and the way to let such calls run. Not
        # the command line itself: the view is the server's code, and that line may carry a header.
        return ApprovalResult(decision="deny", note=VIEW_REFUSAL, asked=False)
