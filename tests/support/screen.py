"""A real terminal, seen as a person sees it: a pty (pexpect) whose output is replayed on a pyte screen.

pexpect gives the bytes a program writes; what a person reads is what those bytes leave on a grid of
cells after every cursor move, erase and redraw. ``Screen`` keeps both: ``expect`` on the byte stream
(pexpect's own), and ``wait_for`` / ``lines`` on the emulated screen. Every wait is bounded.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import pexpect
import pyte

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60  # seconds per wait: a bound, never reached when things work


def terminal_signals() -> None:
    """``preexec_fn`` for a program under a test terminal: Ctrl-C and Ctrl-\\ act as on a user's terminal.

    A test suite started in the background by a non-interactive shell (``cmd &``, as CI scripts do)
    inherits SIGINT and SIGQUIT ignored, and so would the program under test: its Ctrl-C test would
    wait out the call's timeout instead. A shell gives its foreground jobs the default handlers.
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


class Screen:
    """A child process on a pty of ``rows`` x ``columns``, with its output replayed on a pyte screen."""

    def __init__(self, child: pexpect.spawn[str], rows: int, columns: int) -> None:
        self.child = child
        self._screen = pyte.Screen(columns, rows)
        # A real terminal answers the program's questions (where is the cursor?) on its input; prompt_toolkit
        # asks unless PROMPT_TOOLKIT_NO_CPR=1 and sizes its layout from the answer.
        self._screen.write_process_input = child.send  # type: ignore[method-assign]
        self._stream = pyte.Stream(self._screen)
        self.output = ""

    def _pump(self, seconds: float) -> bool:
        """Read what the child wrote within ``seconds``; False once it has exited and all is read."""
        try:
            data = self.child.read_nonblocking(65536, timeout=seconds)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        self.output += data
        self._stream.feed(data)
        return True

    @property
    def lines(self) -> list[str]:
        """The screen's rows, trailing spaces removed."""
        return [line.rstrip() for line in self._screen.display]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def cursor_row(self) -> int:
        return self._screen.cursor.y

    def wait_for(self, pattern: str, seconds: float = TIMEOUT) -> re.Match[str]:
        """Wait until ``pattern`` (a regex) is on the screen; fail after ``seconds`` with the screen shown."""
        deadline = time.monotonic() + seconds
        regex = re.compile(pattern, re.M)
        while True:
            match = regex.search(self.text)
            if match:
                return match
            if time.monotonic() > deadline or not self._pump(0.05):
                match = regex.search(self.text)
                if match:
                    return match
                raise AssertionError(f"{pattern!r} never appeared on the screen:\n{self.text}")

    def settle(self, seconds: float = 0.5) -> None:
        """Read until the child has written nothing for ``seconds`` (bounded by the overall timeout)."""
        deadline = time.monotonic() + TIMEOUT
        before = -1
        while len(self.output) != before and time.monotonic() < deadline:
            before = len(self.output)
            if not self._pump(seconds):
                return

    def send(self, keys: str) -> None:
        self.child.send(keys)

    def wait_exit(self, seconds: float = TIMEOUT) -> int:
        """Read to the end and return the exit status."""
        deadline = time.monotonic() + seconds
        while self._pump(0.1):
            if time.monotonic() > deadline:
                raise AssertionError(f"the program did not exit; screen:\n{self.text}")
        self.child.close()
        status = self.child.exitstatus
        assert status is not None, self.child.signalstatus
        return status


def terminal_env(**extra: str) -> dict[str, str]:
    """The environment of a program under a test terminal; ``PROMPT_TOOLKIT_NO_CPR="0"`` lets
    prompt_toolkit ask where the cursor is, as it does on a person's terminal (the screen answers)."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER", "NO_COLOR")
    }
    env.update(PYTHONUNBUFFERED="1", PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm")
    env.update(extra)
    return env


@contextmanager
def spawn(
    args: Sequence[str],
    *,
    dimensions: tuple[int, int] = (40, 120),
    env: Mapping[str, str] | None = None,
    timeout: float = TIMEOUT,
) -> Iterator[pexpect.spawn[str]]:
    """``python ARGS`` on a pty of ``dimensions`` (rows, columns), killed on the way out.

    ``env`` is the whole environment (default: ``terminal_env()``); ``timeout`` bounds each
    ``expect``. Ctrl-C reaches the program as on a user's terminal (``terminal_signals``).
    """
    environment = dict(env) if env is not None else terminal_env()
    # rich sizes its output by COLUMNS / LINES before the terminal's own size: one inherited from the
    # shell that started the tests (80 under some CI wrappers) would lay out for another width.
    environment.update(LINES=str(dimensions[0]), COLUMNS=str(dimensions[1]))
    child = pexpect.spawn(
        sys.executable,
        list(args),
        cwd=str(ROOT),
        env=environment,
        encoding="utf-8",
        dimensions=dimensions,
        timeout=timeout,
        preexec_fn=terminal_signals,
    )
    try:
        yield child
    finally:
        child.close(force=True)


def approved(args: Sequence[str]) -> list[str]:
    """``args`` with ``--yes`` after a leading ``call`` or ``apps``: the tests of questions, output and
    errors run the tool without the approval asked for a tool not marked read-only (its own tests, in
    tests/cli/test_call_approval.py and test_apps_approval.py, pass ``yes=False``)."""
    words = list(args)
    if words[:1] in (["call"], ["apps"]) and "--yes" not in words:
        words.insert(1, "--yes")
    return words


@contextmanager
def spawn_cli(
    args: Sequence[str],
    *,
    dimensions: tuple[int, int] = (40, 120),
    env: Mapping[str, str] | None = None,
    timeout: float = TIMEOUT,
    yes: bool = True,
) -> Iterator[pexpect.spawn[str]]:
    """``mcp-client ARGS`` (as ``python -m ui_adapters.cli``) on a pty, as ``spawn`` runs it; ``yes``:
    a ``call`` or ``apps`` runs without the approval prompt (``approved``)."""
    words = approved(args) if yes else list(args)
    with spawn(["-m", "ui_adapters.cli", *words], dimensions=dimensions, env=env, timeout=timeout) as child:
        yield child


@contextmanager
def screen(args: Sequence[str], *, rows: int = 40, columns: int = 120, **env: str) -> Iterator[Screen]:
    """``python ARGS`` on a pty of ``rows`` x ``columns``, replayed on a pyte screen."""
    with spawn(args, dimensions=(rows, columns), env=terminal_env(**env)) as child:
        yield Screen(child, rows, columns)


@contextmanager
def cli_screen(*args: str, rows: int = 40, columns: int = 120, **env: str) -> Iterator[Screen]:
    """``mcp-client ARGS`` (as ``python -m ui_adapters.cli``) on a pty of ``rows`` x ``columns``; a
    ``call`` runs without the approval prompt (``approved``)."""
    with screen(["-m", "ui_adapters.cli", *approved(args)], rows=rows, columns=columns, **env) as term:
        yield term
