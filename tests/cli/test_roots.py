"""``--root`` with the reference filesystem server (``@modelcontextprotocol/server-filesystem``, from npm).

That server asks for roots by itself after ``notifications/initialized`` and denies every path until it
has applied the answer; a call sent at once raced it and was refused ("Access denied ... not in "),
most of the time. ``call --root`` now waits for that question, so the call works every time.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from tests.cli._cli import TYPED, run_cli
from tests.interop._peers import FILESYSTEM_ENTRY, require_installed, require_node

RUNS = 20


def test_root_reaches_the_filesystem_server_before_the_call_every_time(tmp_path: Path) -> None:
    entry = require_installed(FILESYSTEM_ENTRY, "@modelcontextprotocol/server-filesystem")
    server = f"{shlex.quote(require_node())} {shlex.quote(str(entry))}"
    (tmp_path / "notes.txt").write_text("hello\n")
    folder = str(tmp_path)
    for run in range(RUNS):
        done = run_cli("call", "--root", folder, server, "list_directory", f"path={folder}")
        assert "Access denied" not in done.stdout + done.stderr, f"run {run + 1} of {RUNS}: {done.stderr}"
        assert (done.returncode, done.stdout) == (0, "[FILE] notes.txt\n"), f"run {run + 1}: {done.stderr}"


def test_root_given_to_a_server_that_never_asks_for_roots_still_calls_the_tool(tmp_path: Path) -> None:
    done = run_cli("call", "--mode", "legacy", "--root", str(tmp_path), str(TYPED), "no_params")
    assert (done.returncode, done.stdout) == (0, "nothing needed\n"), done.stderr
