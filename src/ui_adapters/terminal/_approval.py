"""``terminal_approval()``: the app asks the person at the terminal whether a tool call may run.

The call is shown as a table under a panel that says the app asks (not the server): server, tool,
each argument (folded to one line, cleaned), what the server says the tool is (its title and
description, in quotes after "The server titles it"), the hints it claims and the policy rule that
asked. Then a pick list: Allow once / Allow for this session / Always allow / Deny, and an optional
note. A tool the server does not mark read-only starts with nothing chosen, so Enter alone cannot allow
it; ``o``/``s``/``a``/``d`` move to a choice, Enter confirms. Ctrl-N, Esc and Ctrl-C deny.

Everything the server wrote goes through ``ui_adapters._approval_text`` (``sanitize``) and into
``rich.text.Text``, which rich never parses as markup. Without a terminal (a pipe, CI) the same table
goes to stderr and one line is read from stdin (``non_interactive="stdin"``, the default), or the call
is denied at once (``"deny"``). prompt_toolkit and rich are imported with this module, which
``ui_adapters`` loads on first use.
"""

from __future__ import annotations

import sys
from typing import Literal, TextIO

import anyio
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from mcp_client import ApprovalRequest, ApprovalResult, ClientRequestContext
from ui_adapters._approval_text import APP_ASKS, CHOICES, is_read_only, outcome_text, summary_lines
from ui_adapters._terminal_prompt import prompt_line, read_plain_line
from ui_adapters.terminal._outcomes import UserCancelled, UserDeclined
from ui_adapters.terminal._runner import run_application
from ui_adapters.terminal._widgets import Picker

__all__ = ["NonInteractiveApproval", "TerminalApproval", "approval_panel", "terminal_approval"]

NonInteractiveApproval = Literal["stdin", "deny"]
"""Without a terminal: read the answer as a line from ``stdin``, or ``deny`` at once without asking."""

_SHORTCUTS = {"o": 0, "s": 1, "a": 2, "d": 3}
_KEYS = ["o/s/a/d choose", "Enter confirm", "Ctrl-N/Esc/Ctrl-C deny"]
_NOTE_HINT = "A note for the record (told to the model on a denial) · Enter: done · Esc: deny instead"
_LINE_WORDS: dict[str, int] = {
    "o": 0, "once": 0, "y": 0, "yes": 0, "allow": 0,
    "s": 1, "session": 1,
    "a": 2, "always": 2,
    "d": 3, "deny": 3, "n": 3, "no": 3,
}  # fmt: skip
_LINE_TRIES = 3
_MAX_NOTE = 2000
_NO_TERMINAL = "no terminal to ask on (non_interactive='deny')"


def approval_panel(request: ApprovalRequest) -> Panel:
    """The panel that opens an approval: the app's question, then the call as a table."""
    table = Table(show_header=False, box=box.SIMPLE, padding=(0, 1), expand=False)
    table.add_column("what", style="dim", no_wrap=True)
    table.add_column("value", overflow="fold")
    for label, text in summary_lines(request):
        table.add_row(Text(label), Text(text))
    body = Group(Text(APP_ASKS, style="bold"), table)
    title = Text("Approve a tool call? (this app asks)")
    return Panel(body, title=title, title_align="left", border_style="magenta")


class TerminalApproval:
    """An ``approval_callback`` that asks at the terminal (see the module docstring).

    ``console`` is where the call is shown (default: stdout on a terminal, stderr in line mode);
    ``input``/``output`` are prompt_toolkit's (tests pass ``create_pipe_input()`` and a ``Vt100_Output``
    on a ``StringIO``); ``line_input`` is a text stream to read plain lines from instead of a terminal.
    Approvals are asked one at a time.
    """

    def __init__(
        self,
        *,
        console: Console | None = None,
        input: Input | None = None,
        output: Output | None = None,
        non_interactive: NonInteractiveApproval = "stdin",
        line_input: TextIO | None = None,
    ) -> None:
        if non_interactive not in ("stdin", "deny"):
            raise ValueError(f"non_interactive must be 'stdin' or 'deny', not {non_interactive!r}")
        self._console = console
        self._input = input
        self._output = output
        self._non_interactive: NonInteractiveApproval = non_interactive
        self._line_input = line_input
        self._lock: anyio.Lock | None = None

    async def __call__(self, context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        """Show ``request`` and return the person's decision."""
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:  # two approvals at once would garble the terminal
            return await self._ask(request)

    async def _ask(self, request: ApprovalRequest) -> ApprovalResult:
        interactive = self._input is not None or (self._line_input is None and _isatty(sys.stdin))
        console = self._console or Console(highlight=False, emoji=False, markup=False, stderr=not interactive)
        if not interactive and self._line_input is None and self._non_interactive == "deny":
            result = ApprovalResult(decision="deny", note=_NO_TERMINAL, asked=False)  # nobody decided
            console.print(approval_panel(request))
            console.print(Text(f"Denied without asking: {_NO_TERMINAL}.", style="yellow"))
            return result
        console.print(approval_panel(request))
        try:
            if interactive:
                result = await self._ask_on_terminal(request)
            else:
                result = await self._ask_by_lines(console)
        except anyio.get_cancelled_exc_class():
            console.print(Text("Withdrawn: the tool call was cancelled while you were asked.", "yellow"))
            raise
        style = "bold green" if result.decision == "allow" else "bold yellow"
        console.print(Text(outcome_text(result), style=style))
        return result

    async def _ask_on_terminal(self, request: ApprovalRequest) -> ApprovalResult:
        # Only a tool the server marks read-only starts on "Allow once"; any other starts with nothing
        # chosen, so a habitual Enter cannot allow it (as a form's required yes/no starts unchosen).
        picker = Picker(
            title="Run this tool call?",
            labels=[f"{label} ({key})" for (label, _), key in zip(CHOICES, _SHORTCUTS, strict=True)],
            cursor=0 if is_read_only(request) else None,
            shortcuts=dict(_SHORTCUTS),
            keys=_KEYS,
        )
        try:
            indices = await run_application(picker.application(input=self._input, output=self._output))
        except (UserDeclined, UserCancelled):
            return ApprovalResult(decision="deny")
        chosen = CHOICES[indices[0]][1]
        try:
            note = await prompt_line(
                "Note (optional): ", hint=_NOTE_HINT, input=self._input, output=self._output
            )
        except (KeyboardInterrupt, EOFError):
            return ApprovalResult(decision="deny")
        return _with_note(chosen, note)

    async def _ask_by_lines(self, console: Console) -> ApprovalResult:
        stream = self._line_input
        question = "Run this tool call? [o]nce, [s]ession, [a]lways, [d]eny: "
        try:
            for _ in range(_LINE_TRIES):
                word = (await read_plain_line(question, console=console, stream=stream)).strip().lower()
                if word in _LINE_WORDS:
                    chosen = CHOICES[_LINE_WORDS[word]][1]
                    note = await read_plain_line("Note (optional): ", console=console, stream=stream)
                    return _with_note(chosen, note)
                console.print(Text("Answer o, s, a or d.", style="yellow"))
        except EOFError:  # nobody decided: the refusal must not say the user refused it
            return ApprovalResult(decision="deny", note="the input ended before an answer", asked=False)
        return ApprovalResult(decision="deny", note=f"no valid answer after {_LINE_TRIES} tries", asked=False)


def terminal_approval(
    *,
    console: Console | None = None,
    input: Input | None = None,
    output: Output | None = None,
    non_interactive: NonInteractiveApproval = "stdin",
    line_input: TextIO | None = None,
) -> TerminalApproval:
    """An ``approval_callback`` asking at the terminal (see ``TerminalApproval`` for the arguments).

    ``Client(server, approval_callback=terminal_approval(), tool_policy=ToolPolicy(...))``.
    """
    return TerminalApproval(
        console=console, input=input, output=output, non_interactive=non_interactive, line_input=line_input
    )


def _with_note(chosen: ApprovalResult, note: str) -> ApprovalResult:
    note = note.strip()[:_MAX_NOTE]
    return ApprovalResult(decision=chosen.decision, remember=chosen.remember, note=note or None)


def _isatty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):
        return False
