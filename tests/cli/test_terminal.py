"""``mcp-client call`` in a real terminal (a pty driven by pexpect): the form, and hostile server text."""

from __future__ import annotations

import shlex
import sys

import pexpect
import pytest

from tests.cli._cli import BISTRO, GUIDE, TYPED, cli_pty
from tests.cli.test_demo import ENTER, TEXT_PROMPT

pytestmark = pytest.mark.slow


def test_a_form_question_in_the_terminal() -> None:
    with cli_pty(
        "call", "--mode", "legacy", str(BISTRO), "book_table", "date=2025-12-25", "party_size=4"
    ) as child:
        child.expect("No tables for 4 on 2025-12-25")
        child.expect("y/n or Up/Down")
        child.send("y" + ENTER)
        child.expect(TEXT_PROMPT)
        child.send(ENTER)  # keep the default, 2025-12-26
        child.expect("Send these answers")
        child.send(ENTER)
        child.expect(r"\[SUCCESS\] Booked for 2025-12-26")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0


def test_ctrl_n_declines() -> None:
    with cli_pty(
        "call", "--mode", "legacy", str(BISTRO), "book_table", "date=2025-12-25", "party_size=4"
    ) as child:
        child.expect("y/n or Up/Down")
        child.send("\x0e")
        child.expect(r"\[DECLINED\] user declined")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0


def test_terminal_controls_in_a_result_are_not_passed_to_the_terminal() -> None:
    with cli_pty("call", str(TYPED), "shout", "text=hello") as child:
        child.expect(pexpect.EOF)
        output = child.before
        child.close()
        assert child.exitstatus == 0
    assert "hello" in output
    assert "pwned" not in output  # the OSC window-title sequence was removed, payload and all
    assert "\x1b[2J" not in output


def test_ctrl_c_while_a_call_runs_exits_130() -> None:
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(GUIDE))} stdio"
    with cli_pty("call", command, "slow", "seconds=60") as child:
        child.expect("Calling slow")  # the status line, shown on a terminal
        child.sendintr()
        child.expect("Interrupted.")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 130
