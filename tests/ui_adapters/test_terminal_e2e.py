"""In a real terminal (a pty driven by pexpect): our Client + TerminalFormAdapter + the guide server.

``e2e_terminal_script.py`` connects to tests/servers/guide_server.py over stdio with the adapter as its
elicitation callback and calls ``book_table`` for a full date; we read the form on the pty, press keys
like a person would, and read the tool's answer back. A second script mode cancels a call while its
prompt is open and checks the tty settings came back exactly as they were.
"""

from __future__ import annotations

import signal
from contextlib import AbstractContextManager
from pathlib import Path

import pexpect
import pytest

from tests.support.screen import spawn

SCRIPT = Path(__file__).with_name("e2e_terminal_script.py")
TIMEOUT = 30  # seconds per expectation; a bound, never reached when things work

# A text prompt is on screen: the key hint line, then the "›" input line (pick lists have no "›").
TEXT_PROMPT = r"Enter confirm[^›]*›"

pytestmark = pytest.mark.slow


def run_script(*args: str) -> AbstractContextManager[pexpect.spawn[str]]:
    """``e2e_terminal_script.py ARGS`` on a 40 x 100 pty."""
    return spawn([str(SCRIPT), *args], dimensions=(40, 100), timeout=TIMEOUT)


def test_book_table_accepting_the_alternative_date() -> None:
    with run_script("--mode", "legacy") as child:
        child.expect("No tables for 4 on 2025-12-25")
        child.expect("y/n or Up/Down")
        child.send("y\r")  # Accept Alternative: y moves to Yes, Enter confirms
        child.expect(TEXT_PROMPT)
        child.send("\r")  # keep the default date, 2025-12-26
        child.expect("Send these answers")
        child.send("\r")
        child.expect(r"TOOL RESULT: \[SUCCESS\] Booked for 2025-12-26")
        child.expect(pexpect.EOF)


def test_book_table_changing_the_date_at_the_review() -> None:
    with run_script("--mode", "legacy") as child:
        child.expect("y/n or Up/Down")
        child.send("y\r")
        child.expect(TEXT_PROMPT)
        child.send("\r")
        child.expect("Send these answers")
        child.send("\x1b[B\x1b[B\r")  # Change 2. Date
        child.expect(TEXT_PROMPT)
        child.send("\x7f\x7f" + "30\r")
        child.expect("Send these answers")
        child.send("\r")
        child.expect(r"TOOL RESULT: \[SUCCESS\] Booked for 2025-12-30")
        child.expect(pexpect.EOF)


def test_book_table_declined_with_ctrl_n() -> None:
    with run_script("--mode", "legacy") as child:
        child.expect("y/n or Up/Down")
        child.send("\x0e")
        child.expect(r"TOOL RESULT: \[DECLINED\] user declined")
        child.expect(pexpect.EOF)


def test_book_table_cancelled_with_esc() -> None:
    with run_script("--mode", "legacy") as child:
        child.expect("y/n or Up/Down")
        child.send("\x1b")
        child.expect(r"TOOL RESULT: \[CANCELLED\] user cancelled")
        child.expect(pexpect.EOF)


def test_two_questions_of_one_modern_round_are_asked_in_turn() -> None:
    arguments = '{"destination": "Lisbon"}'
    with run_script("--mode", "2026-07-28", "--tool", "plan_trip", "--arguments", arguments) as child:
        child.expect("CONNECTED: 2026-07-28")
        child.expect("Question 1 of 2")
        child.expect(r"· plan_trip\S* asks")  # the call that asks (\S*: the style change between)
        child.expect("When do you want to go to Lisbon")
        child.expect("Start")
        child.expect(TEXT_PROMPT)
        child.send("2026-05-01\r")
        child.expect("Nights")
        child.expect(TEXT_PROMPT)
        child.send("3\r")
        child.expect("Send these answers")
        child.send("\r")
        child.expect("Question 2 of 2")
        child.expect("What is your budget for Lisbon")
        child.expect("Max Eur")
        child.expect(TEXT_PROMPT)
        child.send("900\r")
        child.expect("Send these answers")
        child.send("\r")
        child.expect(r"TOOL RESULT: Lisbon: 2026-05-01 x3 nights, <= 900(\.0)? EUR, luxury=False")
        child.expect(pexpect.EOF)


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_terminal_is_restored_when_the_call_is_cancelled_under_the_prompt(backend: str) -> None:
    with run_script("--sanity", "--backend", backend) as child:
        child.expect("WAITING FOR SIGUSR1")
        child.expect(TEXT_PROMPT)  # the prompt is drawn: the tty is in raw mode now
        child.kill(signal.SIGUSR1)
        child.expect(["TERMINAL SANE", "TERMINAL BROKEN"])
        assert child.after == "TERMINAL SANE", child.before
        child.expect(TEXT_PROMPT)  # asked again, and it works
        child.send("Lisbon\r")
        child.expect("Send these answers")
        child.send("\r")
        child.expect(r"SECOND ANSWER: \{'action': 'accept', 'content': \{'city': 'Lisbon'\}\}")
        child.expect(pexpect.EOF)
