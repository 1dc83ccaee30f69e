"""``mcp-client demo``: in a real terminal (a pty driven by pexpect), with piped answers, and without mcp.

The demo starts its own example server on a free 127.0.0.1 port and must stop it before exiting.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pexpect
import pytest

from tests.cli._cli import ROOT, TIMEOUT, cli_env, cli_pty, run_cli

# A text prompt is on screen: the key hint line, then the "›" input line (pick lists have no "›").
TEXT_PROMPT = r"Enter confirm[^›]*›"

pytestmark = pytest.mark.slow

BACKSPACE = "\x7f"
ENTER = "\r"


def _server_is_stopped(output: str) -> bool:
    match = re.search(r"ready at (http://127\.0\.0\.1:\d+/mcp)", output)
    assert match, output
    port = urlsplit(match.group(1)).port
    assert port is not None
    with socket.socket() as sock:
        sock.settimeout(2)
        return sock.connect_ex(("127.0.0.1", port)) != 0


def test_demo_in_a_terminal() -> None:
    with cli_pty("demo") as child:
        child.expect(r"ready at http://127\.0\.0\.1:\d+/mcp")
        ready = child.after
        child.expect("Booking a table for 2 on 2025-12-25 \\(the bistro is full that day\\)")
        child.expect("No tables for 2 on 2025-12-25")
        child.expect("y/n or Up/Down")
        child.send("y" + ENTER)  # accept the alternative
        child.expect(TEXT_PROMPT)
        child.send(BACKSPACE * 2 + "27" + ENTER)  # 2025-12-26 -> 2025-12-27
        child.expect("Send these answers")
        child.send(ENTER)
        child.expect(r"\[SUCCESS\] Booked for 2025-12-27")
        child.expect("Protocol 2026-07-28")
        child.expect("Really delete ~/projects/old-drafts")
        child.expect("y/n or Up/Down")
        child.send("y" + ENTER)
        child.expect("Send these answers")
        child.send(ENTER)
        child.expect("deleted ~/projects/old-drafts")
        child.expect("the example server is stopped")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    assert _server_is_stopped(str(ready))


def test_demo_with_answers_piped_in() -> None:
    done = run_cli("demo", stdin="y\n2025-12-27\n\ny\n\n")
    assert done.returncode == 0, done.stderr
    assert "Booking a table for 2 on 2025-12-25 (the bistro is full that day)…" in done.stdout
    assert "→ [SUCCESS] Booked for 2025-12-27" in done.stdout
    assert "→ deleted ~/projects/old-drafts" in done.stdout
    assert "Protocol 2025-11-25 (legacy era)" in done.stdout
    assert "Protocol 2026-07-28 (modern era)" in done.stdout
    assert _server_is_stopped(done.stdout)


def test_demo_with_no_input_at_all_finishes() -> None:
    done = run_cli("demo")
    assert done.returncode == 0, done.stderr
    assert "→ [CANCELLED] user cancelled" in done.stdout
    assert "→ kept ~/projects/old-drafts (outcome: cancel)" in done.stdout
    assert _server_is_stopped(done.stdout)


def test_demo_without_the_mcp_package_says_how_to_install_it() -> None:
    script = (
        "import sys; sys.modules['mcp'] = None; from ui_adapters.cli import main; sys.exit(main(['demo']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=ROOT,
        env=cli_env(),
    )
    assert done.returncode == 3
    assert 'pip install "mcp-elicit-client[examples]"' in done.stderr  # installed from the index
    assert 'pip install -e ".[examples]"' in done.stderr  # a checkout
    assert "ready at" not in done.stdout


def test_the_commands_the_demo_suggests_run_as_printed() -> None:
    """After ``bash scripts/demo`` the console script is in .venv/bin, which is not on PATH."""
    script = Path(sys.executable).with_name("mcp-client")
    env = cli_env(PATH="/usr/bin:/bin")
    done = subprocess.run(
        [str(script), "demo"], capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT, env=env
    )
    assert done.returncode == 0, done.stderr
    tail = done.stdout.split("Try the same yourself:")[1]
    commands = [line.strip() for line in tail.splitlines() if line.startswith("  ")]
    assert len(commands) == 3
    assert "source" in tail and "activate" in tail
    for command in commands:
        # No terminal here to approve the call at (a person at one is asked first): --yes, as the
        # refusal says, so this checks that the printed paths and programs run.
        command = command.replace(" call ", " call --yes ", 1)
        ran = subprocess.run(
            command, shell=True, capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT, env=env
        )
        assert ran.returncode == 0, (command, ran.stderr)
