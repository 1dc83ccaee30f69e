"""A form, a link and a login paste prompt as a person meets them: on a real terminal (a pty replayed
on a pyte screen that answers prompt_toolkit's cursor-position request, as terminals do), at 60 and
120 columns, and with stdin piped from a file.

``form_screen_script.py`` clears the screen and asks one question, so the prompt starts on the top
row: where prompt_toolkit has the most room below it and a misplaced message is farthest away.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.screen import Screen, screen, terminal_env

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).with_name("form_screen_script.py")
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60  # seconds; a bound, never reached when things work
COLUMNS = [60, 120]

ENTER = "\r"
ESC = "\x1b"
DOWN = "\x1b[B"
SPACE = " "
SHIFT_TAB = "\x1b[Z"
CTRL_C = "\x03"
CTRL_U = "\x15"


def _schema(properties: dict[str, Any], required: list[str]) -> str:
    return json.dumps({"type": "object", "properties": properties, "required": required})


def _form(schema: str, columns: int) -> Any:
    """The form on a 30-row terminal that answers cursor-position requests (PROMPT_TOOLKIT_NO_CPR off)."""
    return screen([str(SCRIPT), "form", schema], rows=30, columns=columns, PROMPT_TOOLKIT_NO_CPR="0")


def _row(term: Screen, pattern: str) -> int:
    """The last screen row matching ``pattern`` (a regex)."""
    rows = [row for row, line in enumerate(term.lines) if re.search(pattern, line)]
    assert rows, f"{pattern!r} is not on the screen:\n{term.text}"
    return rows[-1]


def _result(term: Screen) -> dict[str, Any]:
    assert term.wait_exit() == 0, term.text
    match = re.search(r"RESULT: (\{.*\})", term.output)
    assert match, term.output
    return json.loads(match.group(1))


# ----------------------------------------------------------------- 1: the reason is under the prompt

DATE = _schema({"when": {"type": "string", "format": "date", "title": "When"}}, ["when"])


@pytest.mark.parametrize("columns", COLUMNS)
def test_a_validation_message_is_the_row_right_under_a_prompt_at_the_top(columns: int) -> None:
    with _form(DATE, columns) as term:
        term.wait_for(r"^›")
        term.send("abc")
        term.wait_for("must be a date like")
        term.settle()
        assert _row(term, "must be a date like") == _row(term, r"^› abc") + 1, term.text
        term.send(CTRL_U + ENTER)  # Enter on an empty required field
        term.wait_for("this field is required")
        term.settle()
        assert _row(term, "this field is required") == _row(term, r"^›") + 1, term.text
        assert not [line for line in term.lines[_row(term, r"^›") + 2 :] if line], term.text
        term.send("2026-01-02" + ENTER)
        term.wait_for("Send these answers")
        term.send(ENTER)
        assert _result(term) == {"action": "accept", "content": {"when": "2026-01-02"}}


# ------------------------------------------------------ 3: a required choice starts with nothing chosen

RISKY = _schema({"action": {"type": "string", "title": "Action", "enum": ["delete_all", "keep"]}}, ["action"])


@pytest.mark.parametrize("columns", COLUMNS)
def test_enter_enter_enter_does_not_pick_a_required_choices_first_option(columns: int) -> None:
    with _form(RISKY, columns) as term:
        term.wait_for("delete_all")
        term.settle()
        assert "❯" not in term.text  # nothing is chosen
        term.send(ENTER + ENTER + ENTER)
        term.wait_for("nothing is chosen yet: press Up/Down, then Enter")
        term.settle()
        assert "Send these answers" not in term.text and "RESULT" not in term.output
        term.send(DOWN + DOWN + ENTER)  # Down lands on delete_all, the next one on keep
        term.wait_for("Send these answers")
        term.send(ENTER)
        assert _result(term) == {"action": "accept", "content": {"action": "keep"}}


# ------------------------------------------------------------- 4: previous field, back to the review

TWO = _schema(
    {"name": {"type": "string", "title": "Name"}, "count": {"type": "integer", "title": "Count"}},
    ["name", "count"],
)


@pytest.mark.parametrize("columns", COLUMNS)
def test_shift_tab_goes_back_to_the_previous_field_with_its_answer(columns: int) -> None:
    with _form(TWO, columns) as term:
        term.wait_for(r"^›")
        term.settle()
        assert "Shift-Tab" not in term.text  # the first field has no previous one
        term.send("Ada" + ENTER)
        term.wait_for(r"\[2/2\] Count")
        term.wait_for("Shift-Tab previous field")
        term.send(SHIFT_TAB)
        term.wait_for(r"^› Ada")  # field 1 again, its answer pre-filled
        term.send("nne" + ENTER)
        term.wait_for(r"\[2/2\] Count")
        term.send("3" + ENTER)
        term.wait_for("Send these answers")
        term.send(ENTER)
        assert _result(term) == {"action": "accept", "content": {"count": 3, "name": "Adanne"}}


@pytest.mark.parametrize("columns", COLUMNS)
def test_esc_while_changing_a_field_returns_to_the_review_with_every_answer(columns: int) -> None:
    with _form(TWO, columns) as term:
        term.wait_for(r"^›")
        term.send("Ada" + ENTER)
        term.wait_for(r"\[2/2\] Count")
        term.send("3" + ENTER)
        term.wait_for("Send these answers")
        term.send(DOWN + ENTER)  # Change 1. Name
        term.wait_for("Esc back to the review")
        term.wait_for(r"^› Ada")
        term.send("xyz")
        term.wait_for(r"^› Adaxyz")
        term.send(ESC)
        term.wait_for("back to the review, unchanged")
        term.wait_for("Send these answers")
        term.settle()
        assert "Cancelled" not in term.text and "RESULT" not in term.output
        assert any("Ada" in line and "Adaxyz" not in line and "│" in line for line in term.lines), term.text
        term.send(ENTER)
        assert _result(term) == {"action": "accept", "content": {"count": 3, "name": "Ada"}}


def test_ctrl_c_while_changing_a_field_still_cancels_the_question() -> None:
    with _form(TWO, 120) as term:
        term.wait_for(r"^›")
        term.send("Ada" + ENTER)
        term.wait_for(r"\[2/2\] Count")
        term.send("3" + ENTER)
        term.wait_for("Send these answers")
        term.send(DOWN + ENTER)
        term.wait_for("Ctrl-C cancel the question")
        term.send(CTRL_C)
        assert _result(term) == {"action": "cancel"}


# ------------------------------------------------------------------------ 6: y is confirmed by Enter

YES_NO = _schema({"wipe": {"type": "boolean", "title": "Wipe the disk"}}, ["wipe"])


def test_y_in_a_yes_no_waits_for_enter_as_the_link_prompt_does() -> None:
    with _form(YES_NO, 120) as term:
        term.wait_for(r"y/n or Up/Down to move")
        term.send("y")
        term.wait_for("❯ Yes")
        term.settle()
        assert "Send these answers" not in term.text  # nothing answered yet: Enter confirms
        term.send(ENTER)
        term.wait_for("Send these answers")
        term.send(ENTER)
        assert _result(term) == {"action": "accept", "content": {"wipe": True}}


# --------------------------------------------------------------- 12: what a choice's hint promises

PICKS = _schema(
    {
        "toppings": {
            "type": "array",
            "title": "Toppings",
            "items": {"type": "string", "enum": ["cheese", "olives"]},
            "minItems": 1,
            "default": ["cheese"],
        }
    },
    [],
)


@pytest.mark.parametrize("columns", COLUMNS)
def test_a_multi_choice_hint_does_not_promise_what_an_empty_answer_is_refused(columns: int) -> None:
    with _form(PICKS, columns) as term:
        term.wait_for(r"\[x\] cheese")
        term.settle()
        assert "sent if left empty" not in term.text
        assert "default: cheese (Enter keeps it)" in term.text
        assert "choose at least 1" in term.text
        term.send(SPACE + ENTER)  # untick cheese: nothing chosen is refused, as the hint says
        term.wait_for("at least 1")
        term.settle()
        assert "Send these answers" not in term.text
        term.send(SPACE + ENTER)
        term.wait_for("Send these answers")
        term.send(ENTER)
        assert _result(term) == {"action": "accept", "content": {"toppings": ["cheese"]}}


# ---------------------------------------------------- 5: no terminal: plain lines, nothing drawn

_ESCAPE = re.compile(r"\x1b")


def _piped(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=ROOT,
        env=terminal_env(PROMPT_TOOLKIT_NO_CPR="0"),
    )


def _assert_plain(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stderr
    for stream in (done.stdout, done.stderr):
        assert "Input is not a terminal" not in stream
        assert not _ESCAPE.search(stream), repr(stream)


@pytest.mark.parametrize(("answer", "action"), [("y", "accept"), ("", "decline"), ("n", "decline")])
def test_the_link_consent_reads_a_plain_line_from_a_pipe(answer: str, action: str) -> None:
    done = _piped("link", "https://pay.example.com/deposit", stdin=f"{answer}\n")
    _assert_plain(done)
    assert "Will you open this link yourself? [y/N] \n" in done.stdout
    assert f'RESULT: {{"action": "{action}"}}' in done.stdout


def test_the_link_consent_at_the_end_of_a_pipe_cancels() -> None:
    done = _piped("link", "https://pay.example.com/deposit", stdin="")
    _assert_plain(done)
    assert 'RESULT: {"action": "cancel"}' in done.stdout


def test_the_login_paste_prompt_reads_plain_lines_from_a_pipe() -> None:
    good = "https://app.example.com/callback?code=c0de&state=s1"
    done = _piped("paste", stdin=f"https://example.com/\n{good}\n")
    _assert_plain(done)
    assert "That is not the address the login sent the browser to" in done.stderr
    assert f"LOGIN: {good}" in done.stdout


def test_the_login_paste_prompt_at_the_end_of_a_pipe_cancels_the_login() -> None:
    done = _piped("paste", stdin="")
    _assert_plain(done)
    assert "LOGIN FAILED: the login was cancelled" in done.stdout


def test_a_piped_answers_file_holds_one_line_per_field_then_one_for_the_review() -> None:
    # The shape docs/ui.md describes: Name, Count, then the review ("" sends).
    done = _piped("form", TWO, stdin="Ada\n3\n\n")
    _assert_plain(done)
    assert 'RESULT: {"action": "accept", "content": {"count": 3, "name": "Ada"}}' in done.stdout
