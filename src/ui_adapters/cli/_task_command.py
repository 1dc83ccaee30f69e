"""``mcp-client task`` and ``call --detach``: tasks a server runs for a call, seen from the terminal.

``call --detach`` prints the id of the task the server made of the call (``--json``: the task's
``to_json()``) and returns; ``task SERVER TASK_ID`` shows its status and, once it has one, its result;
``--wait`` follows it to its end, its questions answered in the terminal as any call's are, its status
messages on the status line; ``--cancel`` asks the server to cancel it.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from mcp_client import ToolTask
from ui_adapters.cli._exit import EXIT_OK, EXIT_TOOL_ERROR
from ui_adapters.cli._render import print_json, print_result
from ui_adapters.cli._status import terminal_ui
from ui_adapters.text import sanitize

if TYPE_CHECKING:
    from ui_adapters.cli._commands import Connection

__all__ = ["print_detached", "run_task"]

_PROGRAM = "mcp-client"


def status_text(task: ToolTask) -> Text:
    """``Task ID: status — message`` (the server's message made safe for a terminal)."""
    text = Text(f"Task {sanitize(task.id or '', single_line=True)}: ", style="bold")
    text.append(task.status, style="green" if task.status == "completed" else "yellow")
    if task.status_message:
        text.append(" — " + sanitize(task.status_message, single_line=True))
    return text


def print_detached(out: Console, err: Console, task: ToolTask, server: str, *, as_json: bool) -> None:
    """The task's id on stdout (for scripts), and how to come back to it on stderr."""
    if as_json:
        print_json(out, task.to_json())
    else:
        out.print(task.id, markup=False, highlight=False, soft_wrap=True)
    err.print(status_text(task), soft_wrap=True)
    err.print(
        Text(f"See it with: {_PROGRAM} task {shlex.quote(server)} {shlex.quote(task.id or '')}", style="dim"),
        soft_wrap=True,
    )


async def run_task(
    connection: Connection,
    task_id: str,
    out: Console,
    err: Console,
    *,
    as_json: bool,
    wait: bool = False,
    cancel: bool = False,
) -> int:
    """Show (``wait``: follow; ``cancel``: cancel) task ``task_id``; 1 when its result is a tool error."""
    ui = terminal_ui(err)
    with ui.status.show(f"Connecting to {connection.label}…"):
        # Tasks exist only in 2026-07-28: --mode auto speaks that era here (the CLI's choice elsewhere).
        mode = "2026-07-28" if connection.mode == "auto" else None
        async with connection.connect(ui, ui.elicitation_complete_callback, ui.status, None, mode) as client:
            ui.status.update(f"Looking at task {task_id}…")
            task = await client.task(task_id)
            if cancel:
                await task.cancel()
                err.print(status_text(task), soft_wrap=True)
                return EXIT_OK
            if wait:
                polls = 0
                async for state in task:
                    polls += 1
                    ui.status.update(f"Task {task_id}: {state.status}…")
                    if state.status_message:
                        ui.status.progress(float(polls), None, state.status_message)
            state = task.state
            if state is not None and not state.done:  # still running: its status is the answer
                err.print(status_text(task), soft_wrap=True)
                if as_json:
                    print_json(out, state.model_dump_wire())
                return EXIT_OK
            result = await task.result()  # failed / cancelled raise, and are reported as errors
    err.print(status_text(task), soft_wrap=True)
    if as_json:
        print_json(out, result.model_dump_wire())
    else:
        print_result(out, err, result)
    return EXIT_TOOL_ERROR if result.is_error else EXIT_OK
