"""``mcp-client apps``'s judge of the view's tool calls (``cli/_view_approval.py``) in this process, against
an official-SDK server in this process (``Client(MCPServer)``): fast enough for ``bash scripts/mutants
src/ui_adapters/cli/_view_approval.py``, which counts only code the tests call in-process (the CLI in a
pipe, a pty and Chromium is ``test_apps_approval.py``'s).

What the view sees is the client's answer (``ToolCallDenied``, or the tool's result), what reached the
server is what it recorded, and what the person sees is stderr: the refusal line without a terminal,
the prompt at one (its line mode, read from a pipe standing for stdin), and the lines the command
prints meanwhile, held until the prompt is answered.
"""

from __future__ import annotations

import io
import logging
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

import anyio
import pytest
from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
from rich.console import Console
from rich.text import Text

from mcp_client import Client, ToolCallDenied
from ui_adapters.cli import _view_approval
from ui_adapters.cli._status import StatusLine
from ui_adapters.cli._view_approval import ViewLines, view_approvals

pytestmark = pytest.mark.anyio

BOUND = 60  # seconds: generous, for a busy machine
COMMAND = "mcp-client apps --yes http://127.0.0.1:1/mcp show_notes"
LONG = "wipe\n" + "x" * 300  # two lines, past the 200 characters a line shows


@dataclass
class Notes:
    """An ``MCPServer`` named ``notes``: ``count_notes`` (read-only), ``delete_note`` (destructive) and a
    destructive tool with a 305-character name of two lines; ``runs`` is what reached it."""

    server: MCPServer
    runs: list[str] = field(default_factory=list[str])


@pytest.fixture
def notes() -> Notes:
    server = MCPServer("notes")
    notes = Notes(server)

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True))
    def count_notes() -> str:
        notes.runs.append("count_notes")
        return "ran count_notes"

    @server.tool(annotations=ToolAnnotations(destructiveHint=True))
    def delete_note(id: str = "n1") -> str:
        notes.runs.append("delete_note")
        return "ran delete_note"

    def wipe() -> str:
        notes.runs.append("wipe")
        return "ran wipe"

    server.add_tool(wipe, name=LONG, annotations=ToolAnnotations(destructiveHint=True))
    return notes


@pytest.fixture
def err() -> Iterator[tuple[Console, io.StringIO]]:
    """The command's stderr: a console on a ``StringIO``."""
    buffer = io.StringIO()  # 80 columns: a line longer is still one line (soft wrap), as on a terminal
    yield Console(file=buffer, width=80, highlight=False, markup=False, color_system=None), buffer


@pytest.fixture
def no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("o\n"))  # an answer nobody may read: not a terminal


def text_of(result: object) -> str:
    content = getattr(result, "content")  # noqa: B009
    return content[0].text


# ------------------------------------------------------------------------------------ no terminal


async def test_without_a_terminal_a_call_not_marked_read_only_is_refused_and_said_once(
    notes: Notes, err: tuple[Console, io.StringIO], no_terminal: None
) -> None:
    console, shown = err
    lines = ViewLines(console)
    approvals = view_approvals(console, lines, StatusLine(console), yes=False, command=COMMAND)
    assert approvals.tool_policy is not None and approvals.tool_policy.ask == "unless_read_only"
    with anyio.fail_after(BOUND):
        async with Client(
            notes.server, tool_policy=approvals.tool_policy, approval_callback=approvals.approval_callback
        ) as client:
            assert text_of(await client.call_tool("count_notes")) == "ran count_notes"  # read-only: runs
            assert shown.getvalue() == ""  # unasked, unsaid
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("delete_note", {"id": "n1"})
            with pytest.raises(ToolCallDenied):
                await client.call_tool(LONG)
    assert notes.runs == ["count_notes"]  # nothing refused reached the server
    assert str(denied.value) == (  # what the view is answered
        "the call of tool 'delete_note' on notes was denied (ask=\"unless_read_only\": the server does "
        "not mark it read-only) and not sent to the server: nobody decided: no terminal to ask on; run "
        "mcp-client apps with --yes to allow the view's tool calls"
    )
    assert not denied.value.by_user and denied.value.unanswered
    said = shown.getvalue().splitlines()
    assert said[0] == (
        "The view called delete_note on notes, which the server does not mark read-only: refused, as "
        "stdin is not a terminal to ask on. To let the view's calls run without asking, pass --yes: "
        + COMMAND
    )
    # A hostile name is one line, cut at 200 characters.
    assert said[1].startswith("The view called wipe " + "x" * 194 + "… on notes, which") and len(said) == 2


async def test_a_hostile_server_name_is_one_line_cut_at_200_characters(
    err: tuple[Console, io.StringIO], no_terminal: None
) -> None:
    server = MCPServer("notes\n" + "n" * 300)

    @server.tool(annotations=ToolAnnotations(destructiveHint=True))
    def delete_note() -> str:
        return "ran delete_note"

    console, shown = err
    approvals = view_approvals(console, ViewLines(console), StatusLine(console), yes=False, command=COMMAND)
    with anyio.fail_after(BOUND):
        async with Client(server, **vars(approvals)) as client:
            with pytest.raises(ToolCallDenied):
                await client.call_tool("delete_note")
    (said,) = shown.getvalue().splitlines()
    assert said.startswith("The view called delete_note on notes " + "n" * 193 + "…, which the server")


async def test_with_yes_nothing_is_gated_and_the_views_calls_run_unasked(
    notes: Notes, err: tuple[Console, io.StringIO], no_terminal: None
) -> None:
    console, shown = err
    approvals = view_approvals(console, ViewLines(console), StatusLine(console), yes=True, command=COMMAND)
    assert (approvals.tool_policy, approvals.approval_callback) == (None, None)
    with anyio.fail_after(BOUND):
        async with Client(notes.server, **vars(approvals)) as client:
            assert text_of(await client.call_tool("delete_note")) == "ran delete_note"
    assert notes.runs == ["delete_note"] and shown.getvalue() == ""


async def test_the_gates_own_denial_log_stays_off_the_terminal_and_reaches_a_handler_the_app_set(
    notes: Notes, err: tuple[Console, io.StringIO], no_terminal: None, caplog: pytest.LogCaptureFixture
) -> None:
    """Python's last-resort handler would print the gate's WARNING on stderr beside the command's own
    line; a ``NullHandler`` keeps it off, added once however many times ``apps`` sets up."""
    audit = logging.getLogger("mcp_client.approvals")
    before = list(audit.handlers)
    console, _ = err
    try:
        for _ in range(2):
            approvals = view_approvals(
                console, ViewLines(console), StatusLine(console), yes=False, command="x"
            )
        added = [handler for handler in audit.handlers if handler not in before]
        assert [type(handler) for handler in added] == [logging.NullHandler] or (
            added == [] and any(isinstance(handler, logging.NullHandler) for handler in before)
        )
        caplog.set_level(logging.WARNING, logger="mcp_client.approvals")
        with anyio.fail_after(BOUND):
            async with Client(notes.server, **vars(approvals)) as client:
                with pytest.raises(ToolCallDenied):
                    await client.call_tool("delete_note")
        assert any("delete_note" in record.getMessage() for record in caplog.records)  # the app's handler
    finally:
        audit.handlers[:] = before


# ------------------------------------------------------------------------------------ at a terminal


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[io.TextIOWrapper]:
    """stdin a terminal to ask on: ``apps`` sees one; the prompt (its line mode) reads what the test
    writes to the pipe returned."""
    read_end, write_end = os.pipe()
    monkeypatch.setattr(sys, "stdin", open(read_end, encoding="utf-8"))
    monkeypatch.setattr(_view_approval, "stdin_is_terminal", lambda: True)
    with open(write_end, "w", encoding="utf-8", buffering=1) as answers:
        yield answers
    sys.stdin.close()


async def wait_for(shown: io.StringIO, text: str) -> None:
    with anyio.fail_after(BOUND):
        while text not in shown.getvalue():  # noqa: ASYNC110 - the console writes to a plain StringIO
            await anyio.sleep(0.02)


async def test_at_a_terminal_the_person_is_asked_and_what_is_printed_meanwhile_waits_for_the_answer(
    notes: Notes, err: tuple[Console, io.StringIO], terminal: io.TextIOWrapper
) -> None:
    console, shown = err
    lines = ViewLines(console)
    status = StatusLine(console)
    approvals = view_approvals(console, lines, status, yes=False, command=COMMAND)
    outcomes: list[str] = []
    with anyio.fail_after(BOUND):
        async with (
            Client(notes.server, **vars(approvals)) as client,
            anyio.create_task_group() as group,
        ):

            async def delete(number: int) -> None:
                try:
                    outcomes.append(f"{number}: {text_of(await client.call_tool('delete_note'))}")
                except ToolCallDenied as denied:
                    outcomes.append(f"{number}: denied: {denied.note}")

            assert text_of(await client.call_tool("count_notes")) == "ran count_notes"  # read-only
            assert shown.getvalue() == ""  # not asked about
            group.start_soon(delete, 1)
            await wait_for(shown, "Run this tool call?")
            group.start_soon(delete, 2)  # asked after the first is answered: one prompt at a time
            lines.print(Text("view [info] waiting for delete_note 1"))
            status.print_line(Text("a line above the status"))
            await anyio.sleep(0.3)
            asked = shown.getvalue()
            assert "delete_note" in asked and asked.count("Run this tool call?") == 1
            assert "waiting for delete_note 1" not in asked and "a line above" not in asked
            terminal.write("d\nnot that one\n")
            await wait_for(shown, "waiting for delete_note 1")
            await wait_for(shown, "Run this tool call?")  # the second call's prompt
            first = shown.getvalue()
            denied_at = first.index("Denied: the tool call does not run. Note: not that one")
            assert denied_at < first.index("waiting for delete_note 1") < first.rindex("Run this tool call?")
            assert first.index("a line above the status") > denied_at
            terminal.write("o\n\n")
    assert outcomes == ["1: denied: not that one", "2: ran delete_note"]
    assert notes.runs == ["count_notes", "delete_note"]
    lines.print(Text("view [info] after"))  # no prompt on screen: printed at once
    assert shown.getvalue().endswith("view [info] after\n")


def test_lines_are_held_while_any_prompt_is_on_screen_and_printed_in_order(
    err: tuple[Console, io.StringIO],
) -> None:
    console, shown = err
    lines = ViewLines(console)
    lines.print(Text("one"))
    lines.hold()
    lines.hold()  # two prompts (the view's and a question's)
    lines.print(Text("two"))
    lines.write(lambda: console.print("three"))
    lines.release()
    assert shown.getvalue() == "one\n"  # one prompt is still up
    lines.release()
    assert shown.getvalue() == "one\ntwo\nthree\n"
    lines.print(Text("four"))
    assert shown.getvalue() == "one\ntwo\nthree\nfour\n"


async def test_the_refusal_line_is_yellow_on_a_colour_terminal(notes: Notes, no_terminal: None) -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, force_terminal=True, color_system="standard", highlight=False)
    approvals = view_approvals(console, ViewLines(console), StatusLine(console), yes=False, command=COMMAND)
    with anyio.fail_after(BOUND):
        async with Client(notes.server, **vars(approvals)) as client:
            with pytest.raises(ToolCallDenied):
                await client.call_tool("delete_note")
    assert buffer.getvalue().startswith("\x1b[33mThe view called delete_note on notes")
