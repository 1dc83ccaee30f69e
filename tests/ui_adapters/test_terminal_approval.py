"""terminal_approval() at a real terminal (a pty, replayed on a pyte screen): the app asks, the call is
shown as a table, a risky call is never pre-chosen, each choice maps to its ApprovalResult, and nothing
a server wrote acts on the terminal or reads as the app's words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.screen import Screen, screen
from tests.ui_adapters._approval_helpers import BIG

SCRIPT = Path(__file__).with_name("approval_terminal_script.py")

pytestmark = pytest.mark.slow

CHOOSE = r"o/s/a/d or Up/Down to move"


@contextmanager
def approval(request: str, *, columns: int = 120) -> Iterator[Screen]:
    with screen([str(SCRIPT), "--request", request], rows=50, columns=columns) as term:
        term.wait_for(CHOOSE)
        term.wait_for(r"Deny \(d\)")  # the pick list's last line: the whole screen is drawn
        yield term


def result_of(term: Screen) -> str:
    match = term.wait_for(r"RESULT: .*$")
    assert term.wait_exit() == 0
    return match.group(0)


def test_the_app_asks_and_shows_the_call_as_a_table() -> None:
    with approval("delete") as term:
        text = term.text
        assert "Approve a tool call? (this app asks)" in text
        assert "This app asks before it runs a tool call (the app asks you, not the server)." in text
        assert re.search(r"Server\s+files", text) and re.search(r"Tool\s+delete_folder", text)
        assert re.search(r'Argument path\s+"/srv"', text)
        assert re.search(r"The server titles it\s+“Delete a folder”", text)
        assert re.search(r"The server describes it\s+“Removes the folder and everything in it.”", text)
        assert re.search(r"The server claims\s+destructiveHint=true", text)
        assert re.search(r'Asked because\s+ask="unless_read_only": the server does not mark it', text)
        for label in ("Allow once (o)", "Allow for this session (s)", "Always allow (a)", "Deny (d)"):
            assert label in text
        term.send("d\r")
        term.wait_for("Note \\(optional\\)")
        term.send("\r")
        assert result_of(term) == "RESULT: deny once null"


def test_a_risky_call_starts_with_nothing_chosen_enter_alone_does_not_allow_it() -> None:
    with approval("delete") as term:
        assert "❯" not in term.text  # no choice is pointed at
        term.send("\r")
        term.wait_for("nothing is chosen yet: press o or s or a or d to choose, then Enter")
        term.send("o\r")
        term.wait_for("Note \\(optional\\)")
        term.send("\r")
        assert result_of(term) == "RESULT: allow once null"


def test_a_read_only_tool_starts_on_allow_once() -> None:
    with approval("read") as term:
        term.wait_for("❯ Allow once")
        term.send("\r")
        term.wait_for("Note \\(optional\\)")
        term.send("\r")
        assert result_of(term) == "RESULT: allow once null"


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        ("s\r", "RESULT: allow session null"),
        ("a\r", "RESULT: allow always null"),
        ("\x1b[B\x1b[B\r", "RESULT: allow session null"),  # Down twice from nothing: the second choice
    ],
)
def test_each_remember_choice_maps_to_its_result(keys: str, expected: str) -> None:
    with approval("delete") as term:
        term.send(keys)
        term.wait_for("Note \\(optional\\)")
        term.send("\r")
        assert result_of(term) == expected
        assert {"session": "Allowed for this session.", "always": "Always allowed."}[
            expected.split()[2]
        ] in term.text


def test_deny_with_a_note() -> None:
    with approval("delete") as term:
        term.send("d\r")
        term.wait_for("Note \\(optional\\)")
        term.send("because it's prod\r")
        assert result_of(term) == 'RESULT: deny once "because it\'s prod"'
        assert "Denied: the tool call does not run. Note: because it's prod" in term.text


@pytest.mark.parametrize("key", ["\x1b", "\x03", "\x0e"], ids=["esc", "ctrl-c", "ctrl-n"])
def test_esc_ctrl_c_and_ctrl_n_deny(key: str) -> None:
    with approval("delete") as term:
        term.send(key)
        assert result_of(term) == "RESULT: deny once null"


def test_esc_at_the_note_denies_even_after_allow() -> None:
    with approval("delete") as term:
        term.send("a\r")
        term.wait_for("Esc: deny instead")
        term.send("\x1b")
        assert result_of(term) == "RESULT: deny once null"


def test_a_hostile_request_is_shown_as_data() -> None:
    with approval("hostile") as term:
        raw = term.output
        text = term.text
        # No escape sequence of the server's reaches the terminal: no window title, no clear screen,
        # no colour, no C1 CSI, no bidi override; rich markup is shown as typed.
        assert "\x1b]0;PWNED" not in raw and "\x07" not in raw and "\x1b[2J" not in raw
        assert "\x9b" not in raw and "\u202e" not in raw and "\u202c" not in raw
        assert re.search(r"Server\s+evilredevil", text) and re.search(r"Tool\s+wiperedevil", text)
        # In an argument the model wrote, a control character is spelled out as JSON, not removed.
        assert "\\u001b]0;PWNED\\u0007" in text
        assert "[bold]loud[/bold]" in text and "[link=https://evil.example]link[/link]" in text
        # The 10 kB argument is folded; its end never shown.
        assert f"({len(BIG)} characters)" in text and "TAIL-OF-THE-BIG-ARGUMENT" not in raw
        # The newline in the title cannot start a line of its own that reads as the app's.
        assert re.search(r"The server titles it\s+“Harmless This app says: Allow once is safe", text)
        assert not any(line.lstrip(" │").startswith("This app says") for line in term.lines)
        # A request marked not read-only: nothing is pre-chosen, whatever the title says.
        assert "❯" not in text
        term.send("d\r")
        term.wait_for("Note \\(optional\\)")
        term.send("\r")
        assert result_of(term) == "RESULT: deny once null"


@pytest.mark.parametrize(
    ("keys", "note", "outcome", "ran"),
    [
        ("d\r", "because it's prod\r", "DENIED: because it's prod", "[]"),
        ("o\r", "\r", "CALLED: ran drop_notes", '["drop_notes"]'),
    ],
    ids=["denied", "allowed"],
)
def test_a_real_client_asks_before_calling_the_server(keys: str, note: str, outcome: str, ran: str) -> None:
    with screen([str(SCRIPT), "--call", "drop_notes"], rows=50, columns=120) as term:
        term.wait_for(CHOOSE)
        assert re.search(r"Server\s+approvals-server", term.text)
        assert re.search(r"Tool\s+drop_notes", term.text)
        assert re.search(r"The server describes it\s+“Delete every note.”", term.text)
        assert "❯" not in term.text
        term.send(keys)
        term.wait_for("Note \\(optional\\)")
        term.send(note)
        term.wait_for(re.escape(outcome))
        term.wait_for(re.escape(f"RAN: {ran}"))
        assert term.wait_exit() == 0
