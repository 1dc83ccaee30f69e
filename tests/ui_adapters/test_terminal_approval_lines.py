"""terminal_approval() without a terminal: one plain line read per answer (a pipe, CI), or denied at once;
and with prompt_toolkit's pipe input, on asyncio and trio."""

from __future__ import annotations

import io

import anyio
import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output
from rich.console import Console

from mcp_client import ApprovalResult
from tests.ui_adapters._approval_helpers import CONTEXT, DELETE, ESCAPES, hostile
from ui_adapters import terminal_approval

pytestmark = pytest.mark.anyio


def console() -> tuple[Console, io.StringIO]:
    shown = io.StringIO()
    return Console(file=shown, width=100, color_system=None), shown


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ("o\n\n", ApprovalResult(decision="allow")),
        ("session\nfine for today\n", ApprovalResult("allow", "session", "fine for today")),
        ("a\n\n", ApprovalResult("allow", "always")),
        ("d\nbecause it's prod\n", ApprovalResult("deny", note="because it's prod")),
        ("maybe\nd\n\n", ApprovalResult("deny")),
    ],
)
async def test_line_mode_reads_a_choice_then_a_note(lines: str, expected: ApprovalResult) -> None:
    shown_on, shown = console()
    approve = terminal_approval(console=shown_on, line_input=io.StringIO(lines))
    assert await approve(CONTEXT, DELETE) == expected
    assert "This app asks before it runs a tool call (the app asks you, not the server)." in shown.getvalue()


async def test_line_mode_denies_at_the_end_of_input_and_after_three_wrong_answers() -> None:
    shown_on, shown = console()
    ended = await terminal_approval(console=shown_on, line_input=io.StringIO(""))(CONTEXT, DELETE)
    # Nobody decided: not the user's refusal (the gate says "nobody decided", not "the user refused").
    assert ended == ApprovalResult("deny", note="the input ended before an answer", asked=False)
    wrong = await terminal_approval(console=shown_on, line_input=io.StringIO("x\ny?\nplease\no\n"))(
        CONTEXT, DELETE
    )
    assert wrong == ApprovalResult("deny", note="no valid answer after 3 tries", asked=False)
    assert shown.getvalue().count("Answer o, s, a or d.") == 3


async def test_non_interactive_deny_asks_nobody(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("o\n"))  # not a terminal; must not be read
    shown_on, shown = console()
    result = await terminal_approval(console=shown_on, non_interactive="deny")(CONTEXT, DELETE)
    why = "no terminal to ask on (non_interactive='deny')"
    assert result == ApprovalResult("deny", note=why, asked=False)
    assert "Denied without asking: no terminal to ask on (non_interactive='deny')." in shown.getvalue()


def test_an_unknown_non_interactive_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="non_interactive must be 'stdin' or 'deny'"):
        terminal_approval(non_interactive="allow")  # type: ignore[arg-type]


async def test_hostile_text_in_line_mode_prints_no_control_character() -> None:
    shown_on, shown = console()
    await terminal_approval(console=shown_on, line_input=io.StringIO("d\n\n"))(CONTEXT, hostile())
    text = shown.getvalue()
    assert not any(piece in text for piece in ("\x1b", "\x07", "\x9b", "\u202e")), ESCAPES
    assert "[bold]loud[/bold]" in text


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_the_pick_list_and_the_note_on_either_backend(anyio_backend: str) -> None:
    shown_on, _ = console()
    drawn = io.StringIO()
    screen = Vt100_Output(drawn, lambda: Size(rows=40, columns=100), term="xterm")

    async def drawn_text(text: str) -> None:
        while text not in drawn.getvalue():  # noqa: ASYNC110 - written from prompt_toolkit's thread
            await anyio.sleep(0.01)

    with create_pipe_input() as keys:
        approve = terminal_approval(console=shown_on, input=keys, output=screen)
        results: list[ApprovalResult] = []

        async def ask() -> None:
            results.append(await approve(CONTEXT, DELETE))

        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:
                group.start_soon(ask)
                await drawn_text("Deny (d)")
                keys.send_text("s\r")
                await drawn_text("Note (optional)")
                keys.send_text("ok for now\r")
    assert results == [ApprovalResult("allow", "session", "ok for now")]


async def test_a_cancelled_call_closes_the_pick_list_and_says_so() -> None:
    shown_on, shown = console()
    drawn = io.StringIO()
    screen = Vt100_Output(drawn, lambda: Size(rows=40, columns=100), term="xterm")
    with create_pipe_input() as keys:
        approve = terminal_approval(console=shown_on, input=keys, output=screen)
        results: list[ApprovalResult] = []
        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:

                async def ask() -> None:
                    results.append(await approve(CONTEXT, DELETE))

                group.start_soon(ask)
                while "Deny (d)" not in drawn.getvalue():  # noqa: ASYNC110
                    await anyio.sleep(0.01)
                group.cancel_scope.cancel()
    assert results == []
    assert "Withdrawn: the tool call was cancelled while you were asked." in shown.getvalue()
