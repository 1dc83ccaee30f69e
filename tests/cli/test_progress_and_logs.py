"""``mcp-client call``: a progress bar for a long call, server log lines on stderr, ``--timeout`` per request.

Against the official server (tests/servers/features_server.py) over stdio, in a real terminal (pexpect)
where the screen matters and as a plain subprocess where only the streams do.
"""

from __future__ import annotations

import shlex
import sys

import pexpect
import pytest

from tests.cli._cli import ROOT, cli_pty, run_cli

SERVER_FILE = ROOT / "tests" / "servers" / "features_server.py"
FEATURES = f"{shlex.quote(sys.executable)} {shlex.quote(str(SERVER_FILE))} stdio"


@pytest.mark.slow
def test_a_long_call_shows_a_progress_bar_and_outlives_the_timeout() -> None:
    """Six steps 0.4 s apart with --timeout 1: only the restart on each progress report lets it finish."""
    with cli_pty(
        "call", "--mode", "legacy", FEATURES, "count", "steps=6", "interval=0.4", "--timeout", "1"
    ) as child:
        child.expect("Calling count")
        child.expect("step 3 of 6")
        child.expect("50%")
        child.expect("counted to 6")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0


def test_a_silent_call_still_times_out() -> None:
    done = run_cli("call", "--mode", "legacy", FEATURES, "silent", "seconds=10", "--timeout", "1")
    assert done.returncode == 3, done.stderr
    assert "no answer within 1s" in done.stderr


def test_server_logs_are_printed_on_stderr_at_the_level_asked() -> None:
    done = run_cli("call", "--mode", "legacy", FEATURES, "chatty", "--log-level", "warning")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "logged"
    assert "server warning features.logs: a warning message" in done.stderr
    assert "server error features.logs: a error message" in done.stderr
    assert "a info message" not in done.stderr and "a debug message" not in done.stderr


def test_the_default_log_level_is_info(era: str) -> None:
    done = run_cli("call", "--mode", era, FEATURES, "chatty")
    assert done.returncode == 0, done.stderr
    assert "server info features.logs: a info message" in done.stderr
    assert "a debug message" not in done.stderr
    assert "logged" not in done.stderr  # the result goes to stdout, logs to stderr


def test_no_progress_bar_when_stderr_is_not_a_terminal() -> None:
    done = run_cli("call", FEATURES, "count", "steps=2", "interval=0.01")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "counted to 2"
    assert "step" not in done.stderr and "%" not in done.stderr


def test_log_level_must_be_a_level() -> None:
    done = run_cli("call", FEATURES, "chatty", "--log-level", "loud")
    assert done.returncode == 2
    assert "--log-level" in done.stderr
