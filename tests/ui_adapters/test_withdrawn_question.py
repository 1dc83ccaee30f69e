"""A question open in the terminal form when its server dies is withdrawn: the form closes, says why,
and the call fails with the server's exit (a real pty, a real SIGKILL)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.support.screen import screen

SCRIPT = Path(__file__).with_name("withdrawn_question_script.py")

pytestmark = pytest.mark.slow


def test_the_form_closes_and_says_why_when_the_server_dies() -> None:
    with screen([str(SCRIPT)], rows=30, columns=140) as term:
        pid = int(term.wait_for(r"SERVER PID (\d+)").group(1))
        term.wait_for("What is your name")
        killed = time.monotonic()
        os.kill(pid, signal.SIGKILL)
        assert term.wait_exit() == 0
        # Well under the call's timeout (30 s) and the script's bound (60 s): the death withdrew it.
        assert time.monotonic() - killed < 20
        # What was written (the form's own redraw may erase a line printed while it closes).
        assert "no longer needs this answer" in term.output
        assert "Withdrawn: restart-server" in term.output
        assert "CALL FAILED: ServerExitedError" in term.output
        assert "Answer sent" not in term.output
