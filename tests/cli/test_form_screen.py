"""What a person sees on a real terminal (a pty replayed on a pyte screen): the review tells the truth,
a risky yes/no does not start on "Yes", hints sit next to what they explain, nothing is left behind.
"""

from __future__ import annotations

import shlex
import sys

import pytest

from tests.cli._cli import BISTRO_URL, FILES, GUIDE, run_cli
from tests.support.screen import Screen, cli_screen

pytestmark = pytest.mark.slow

ENTER = "\r"
CTRL_U = "\x15"  # erase the line typed so far


def _to_the_date_prompt(term: Screen) -> None:
    term.wait_for(r"Enter to choose\)")
    term.send("y" + ENTER)  # Accept Alternative: y moves to Yes, Enter confirms
    term.wait_for(r"^› 2025-12-26")  # the date prompt, pre-filled with the schema's default


def test_the_review_shows_the_default_that_will_be_sent_for_an_emptied_field() -> None:
    with cli_screen("demo") as term:
        _to_the_date_prompt(term)
        term.send(CTRL_U + ENTER)  # empty the date: the schema default is what the client will send
        term.wait_for("Send these answers")
        assert "(left empty)" not in term.text
        assert any(line.startswith("│ 2 │ Date") and "2025-12-26" in line for line in term.lines), term.text
        term.send(ENTER)
        term.wait_for(r"Booked for 2025-12-26")


def test_a_required_yes_no_without_default_starts_with_nothing_chosen() -> None:
    with cli_screen("demo") as term:
        _to_the_date_prompt(term)
        term.send(ENTER)
        term.wait_for("Send these answers")
        term.send(ENTER)
        term.wait_for("Really delete ~/projects/old-drafts")
        term.wait_for(r"Enter to choose\)")
        assert "❯" not in term.text.split("Really delete")[-1]  # nothing is chosen
        term.send(ENTER + ENTER)  # Enter, Enter must not delete anything
        term.wait_for("nothing is chosen yet: press y or n to choose, then Enter")
        term.send("n" + ENTER)
        term.wait_for("Send these answers")
        term.send(ENTER)
        term.wait_for(r"kept ~/projects/old-drafts")
        assert "→ deleted" not in term.text


def test_the_key_hint_sits_right_above_the_text_input() -> None:
    with cli_screen("demo", rows=40, columns=120) as term:
        _to_the_date_prompt(term)
        term.settle()
        lines = term.lines
        prompt_row = next(row for row, line in enumerate(lines) if line.startswith("› 2025-12-26"))
        assert "Esc/Ctrl-C cancel" in lines[prompt_row - 1]
        assert all("Esc/Ctrl-C cancel" not in line for line in lines[prompt_row + 1 :])


def test_a_field_label_is_shown_once_while_it_is_asked() -> None:
    with cli_screen("demo") as term:
        term.wait_for(r"Enter to choose\)")
        term.settle()
        asked = term.text.split("fields to fill in")[-1].split("Esc/Ctrl-C cancel")[0]
        assert asked.count("Accept Alternative") == 1, term.text


def test_at_50_columns_the_pick_list_is_not_cut() -> None:
    with cli_screen("demo", rows=20, columns=50) as term:
        term.wait_for(r"Enter to")
        term.send("y" + ENTER)
        term.wait_for(r"\[2/2\] Date")
        term.settle()
        term.send(ENTER)
        term.wait_for("Send these answers")
        term.settle()
        text = term.text
        assert "(Up/Down to move, Enter to choose)" in text
        assert "Change 1. Accept Alternative" in text


def test_enter_pressed_during_the_spinner_leaves_no_ghost_lines() -> None:
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(GUIDE))} stdio"
    with cli_screen("call", command, "slow", "seconds=3") as term:
        term.wait_for("Calling slow")
        for _ in range(3):
            term.send(ENTER)
            term.settle(0.3)
        assert term.wait_exit() == 0
    assert not [line for line in term.lines if "Calling slow" in line], term.text


def test_line_mode_with_one_field_says_1_not_1_to_1() -> None:
    done = run_cli("call", str(FILES), "delete_folder", "path=/tmp/old-drafts", stdin="n\n\n")
    assert done.returncode == 0, done.stderr
    assert "1-1" not in done.stderr
    assert "1 = change it" in done.stderr


@pytest.mark.parametrize("columns", [60, 120])
def test_a_date_error_is_the_row_right_under_the_prompt_on_a_terminal_that_answers_cpr(columns: int) -> None:
    # PROMPT_TOOLKIT_NO_CPR off: prompt_toolkit asks where the cursor is, as on a person's terminal, and
    # sizes its layout to every row below it; the message must still be under the prompt, not at the end.
    with cli_screen("demo", rows=40, columns=columns, PROMPT_TOOLKIT_NO_CPR="0") as term:
        _to_the_date_prompt(term)
        term.send(CTRL_U + "2025-13-45")
        term.wait_for("must be a date like")
        term.settle()
        lines = term.lines
        prompt_row = max(row for row, line in enumerate(lines) if line.startswith("› 2025-13-45"))
        assert lines[prompt_row + 1].startswith("must be a date like"), term.text
        term.send(CTRL_U + "2025-12-27" + ENTER)
        term.wait_for("Send these answers")
        term.send(ENTER)
        term.wait_for(r"Booked for 2025-12-27")


def test_a_link_consent_read_from_a_pipe_draws_nothing() -> None:
    done = run_cli("call", "--mode", "legacy", str(BISTRO_URL), "pay_deposit", "booking_id=B42", stdin="y\n")
    assert done.returncode == 0, done.stderr
    assert "Open this link in your browser? [y/N]" in done.stderr
    assert "Input is not a terminal" not in done.stderr
    assert "\x1b" not in done.stderr + done.stdout
