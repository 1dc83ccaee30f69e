"""The protocol era the CLI speaks by default, and tools that need one it lacks (issue 26, items 8, 11).

A tool that asks with ``ctx.elicit`` (official SDK 2.x, fastmcp) works only over the legacy
back-channel, so the default connects with the handshake whenever the server speaks it, and in
2026-07-28 only when the server refuses the handshake. A tool is never called twice by the CLI.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.cli._cli import EXAMPLE_SERVERS, GUIDE, TYPED, run_cli
from tests.interop._peers import FASTMCP_PYTHON, require_installed

MODERN_ONLY = Path(__file__).with_name("modern_only_server.py")
FASTMCP_ELICIT = Path(__file__).with_name("fastmcp_elicit_server.py")


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_the_default_answers_an_official_sdk_ctx_elicit_question(
    transport: str, request: pytest.FixtureRequest
) -> None:
    """The guide server's ``book_table`` asks with ``ctx.elicit`` (the bistro's asks with a resolver)."""
    server = f"{GUIDE} stdio" if transport == "stdio" else request.getfixturevalue("guide_http_url")
    done = run_cli(
        "call", server, "book_table", "date=2025-12-25", "party_size=2", stdin="y\n2025-12-27\n\n"
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "[SUCCESS] Booked for 2025-12-27\n"), done.stderr
    assert "back-channel" not in done.stderr


def test_the_default_answers_a_fastmcp_ctx_elicit_question() -> None:
    python = require_installed(FASTMCP_PYTHON, "fastmcp 4.1.6 (its venv)")
    server = shlex.join([str(python), str(FASTMCP_ELICIT)])
    done = run_cli("call", server, "ask_name", stdin="Ada\n\n")
    assert (done.returncode, done.stdout) == (0, "accept: Ada (protocol 2025-11-25)\n"), done.stderr


def test_a_resolver_question_still_works_by_default() -> None:
    done = run_cli("call", str(EXAMPLE_SERVERS / "files.py"), "delete_folder", "path=/tmp/x", stdin="y\n\n")
    assert (done.returncode, done.stdout) == (0, "deleted /tmp/x\n"), done.stderr


def test_a_server_that_speaks_only_2026_07_28_is_called_once_in_that_era(tmp_path: Path) -> None:
    calls = tmp_path / "calls.txt"
    done = run_cli("call", str(MODERN_ONLY), "era", env={"MODERN_ONLY_CALLS": str(calls)})
    assert (done.returncode, done.stdout) == (0, "called in 2026-07-28\n"), done.stderr
    assert calls.read_text() == "2026-07-28\n"


def test_a_tool_that_runs_only_as_a_task_is_listed_like_any_other() -> None:
    """Tasks work now: the listing no longer marks such a tool as one the CLI cannot call."""
    done = run_cli("tools", str(TYPED))
    assert done.returncode == 0, done.stderr
    assert "long_job" in done.stdout
    assert "needs tasks" not in done.stdout and "cannot call" not in done.stdout


def test_a_tool_that_runs_only_as_a_task_is_called_once_in_2026_07_28() -> None:
    """The default era is the handshake; a task-only tool is called (once) in the era that has tasks."""
    done = run_cli("call", str(TYPED), "long_job")
    assert (done.returncode, done.stdout) == (0, "long_job ran without a task\n"), done.stderr


def test_a_tool_that_runs_only_as_a_task_is_not_called_in_a_forced_legacy_era() -> None:
    done = run_cli("call", "--mode", "legacy", str(TYPED), "long_job")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "runs only as a task" in done.stderr
    assert "Use --mode auto or --mode 2026-07-28" in done.stderr


def test_a_task_refusal_from_a_2026_07_28_server_is_explained() -> None:
    done = run_cli("call", str(MODERN_ONLY), "must_task")
    assert done.returncode == 3
    assert "This tool runs only as a task" in done.stderr
    assert "the server did not run it" in done.stderr


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_a_2026_07_28_only_tool_refused_in_the_legacy_era_gets_advice(mode: str) -> None:
    guide = shlex.join([sys.executable, str(GUIDE), "stdio"])
    done = run_cli("call", "--mode", mode, guide, "poll_only")
    assert done.returncode == 3
    assert "try again with --mode 2026-07-28" in done.stderr
