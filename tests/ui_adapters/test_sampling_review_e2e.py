"""In a real terminal (a pty driven by pexpect): our Client + SamplingReview + the questions server.

``e2e_sampling_script.py`` connects to tests/servers/questions_server.py over stdio with the reviewer
as its sampling callback and calls ``haiku``; we read the request on the pty, press keys like a person
would, and read the tool's answer (or the refusal) back, in both eras.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Generator
from contextlib import contextmanager
from pathlib import Path

import pexpect
import pytest

from tests.support.screen import terminal_signals

SCRIPT = Path(__file__).with_name("e2e_sampling_script.py")
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 30  # seconds per expectation; a bound, never reached when things work

pytestmark = pytest.mark.slow


@contextmanager
def spawn(mode: str) -> Generator[pexpect.spawn[str]]:
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", PYTHONUNBUFFERED="1")
    child = pexpect.spawn(
        sys.executable,
        [str(SCRIPT), "--mode", mode],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        dimensions=(40, 120),
        timeout=TIMEOUT,
        preexec_fn=terminal_signals,
    )
    try:
        yield child
    finally:
        child.close(force=True)


def test_edit_the_prompt_approve_and_send(era: str) -> None:
    with spawn(era) as child:
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
    with spawn(era) as child:
        child.expect(r"\[a\]pprove, \[e\]dit the prompt, \[r\]efuse")
        child.send("r\r")
        child.expect("Refused: nothing was sent to the model.")
        child.expect("REFUSED: User rejected sampling request")
        child.expect(pexpect.EOF)
