"""In a real terminal (a pty driven by pexpect): our Client + SamplingReview + the questions server.

``e2e_sampling_script.py`` connects to tests/servers/questions_server.py over stdio with the reviewer
as its sampling callback and calls ``haiku``; we read the request on the pty, press keys like a person
would, and read the tool's answer (or the refusal) back, in both eras.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

import pexpect
import pytest

from tests.support.screen import spawn

SCRIPT = Path(__file__).with_name("e2e_sampling_script.py")
TIMEOUT = 30  # seconds per expectation; a bound, never reached when things work

pytestmark = pytest.mark.slow


def run_script(era: str) -> AbstractContextManager[pexpect.spawn[str]]:
    """``e2e_sampling_script.py --mode ERA`` on a 40 x 120 pty."""
    return spawn([str(SCRIPT), "--mode", era], dimensions=(40, 120), timeout=TIMEOUT)


def test_edit_the_prompt_approve_and_send(era: str) -> None:
    with run_script(era) as child:
        child.expect("questions-server wants to ask your model")
        # (labels are bold: escape codes sit between a label and its value on a real terminal)
        child.expect("System prompt: .*You are a terse poet.")
        child.expect("user: .*Write a haiku about rain.")
        child.expect("Token limit: .*60")
        child.expect(r"\[a\]pprove, \[e\]dit the prompt, \[r\]efuse")
        child.send("e\r")
        child.expect("Prompt:")
        child.send("\x15A haiku about snow.\r")
        child.expect("Prompt now: .*A haiku about snow.")
        child.expect(r"\[a\]pprove")
        child.send("a\r")
        child.expect("echo: A haiku about snow.")
        child.expect(r"Send this answer to questions-server\? \[y/N\]")
        child.send("y\r")
        child.expect(r"TOOL RESULT: model=echo-model stop=endTurn text=echo: A haiku about snow\.")
        child.expect(pexpect.EOF)


def test_refuse(era: str) -> None:
    with run_script(era) as child:
        child.expect(r"\[a\]pprove, \[e\]dit the prompt, \[r\]efuse")
        child.send("r\r")
        child.expect("Refused: nothing was sent to the model.")
        child.expect("REFUSED: User rejected sampling request")
        child.expect(pexpect.EOF)
