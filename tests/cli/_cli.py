"""Running ``mcp-client`` as a user would: a subprocess, with bounded time, on loopback servers only."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import AbstractContextManager
from functools import cache
from pathlib import Path

import pexpect

from tests.support import temp
from tests.support.screen import approved, spawn_cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_SERVERS = ROOT / "examples" / "servers"
EXAMPLE_CLIENTS = ROOT / "examples" / "clients"
BISTRO = EXAMPLE_SERVERS / "bistro.py"
BISTRO_URL = EXAMPLE_SERVERS / "bistro_url.py"
FILES = EXAMPLE_SERVERS / "files.py"
TYPED = Path(__file__).with_name("typed_server.py")
GUIDE = ROOT / "tests" / "servers" / "guide_server.py"
TIMEOUT = 60  # seconds per command: a bound, never reached when things work


@cache
def _data_home() -> str:
    """Where the CLI keeps OAuth tokens during tests (never the real user's data folder); made on first
    use and removed when the session ends."""
    path = temp.mkdtemp("cli-data")
    temp.remove_at_end(path)
    return path


def cli_env(**extra: str) -> dict[str, str]:
    """The environment of a CLI run: no browser to open, wide lines, unbuffered output."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    env.update(PYTHONUNBUFFERED="1", COLUMNS="200", NO_COLOR="1", XDG_DATA_HOME=_data_home())
    env.update(extra)
    return env


def terminal_cli_env(**extra: str) -> dict[str, str]:
    """``cli_env`` for a CLI run on a pty (``spawn_cli``): a terminal that takes colour and needs no CPR."""
    env = cli_env(PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", **extra)
    env.pop("NO_COLOR", None)
    return env


def cli_pty(*args: str) -> AbstractContextManager[pexpect.spawn[str]]:
    """``mcp-client ARGS`` on a 40 x 120 pty with the CLI tests' environment (``spawn_cli``)."""
    return spawn_cli(args, env=terminal_cli_env())


def run_cli(
    *args: str,
    stdin: str = "",
    timeout: float = TIMEOUT,
    env: dict[str, str] | None = None,
    yes: bool = True,
) -> subprocess.CompletedProcess[str]:
    """``python -m ui_adapters.cli ARGS`` with ``stdin`` piped in (empty: end of input at once).

    ``env`` adds variables to the CLI's environment (and so to a stdio server's). ``yes``: a ``call``
    or ``apps`` gets ``--yes`` (stdin is no terminal, so a tool not marked read-only would be refused).
    """
    return subprocess.run(
        [sys.executable, "-m", "ui_adapters.cli", *(approved(args) if yes else args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=cli_env(**(env or {})),
    )
