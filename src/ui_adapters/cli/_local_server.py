"""Run a Python MCP server module on a free 127.0.0.1 port for as long as a ``with`` block lasts.

The server binds port 0 itself and prints ``<marker> <url>`` on stdout once it accepts connections,
so there is no race for a port and no polling. Every wait is bounded; when the server does not come
up, ``LocalServerError`` carries the end of its stderr. On the way out the server is terminated, then
killed if it lingers, whatever happened in the block (Ctrl-C included).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Generator, Sequence
from contextlib import contextmanager
from typing import IO

__all__ = ["LocalServerError", "local_server"]

_STOP_TIMEOUT = 5.0
_STDERR_TAIL = 3000


class LocalServerError(RuntimeError):
    """The server process did not start; the message says why, with the end of its stderr."""


@contextmanager
def local_server(
    module: str, args: Sequence[str], *, marker: str, ready_timeout: float = 30.0
) -> Generator[str, None, None]:
    """Run ``python -m module *args`` and yield the URL from its ready line."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=log,
            env=env,
        )
        try:
            assert process.stdout is not None
            url = _wait_for_ready_line(process.stdout, marker, ready_timeout)
            if url is None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=1)  # its stdout closed: it is exiting, let it finish
                state = (
                    f"exited with status {process.returncode}"
                    if process.poll() is not None
                    else f"did not start within {ready_timeout:g}s"
                )
                raise LocalServerError(f"the example server {state}.{_tail(log)}")
            yield url
        finally:
            _stop(process)


def _wait_for_ready_line(stdout: IO[bytes], marker: str, timeout: float) -> str | None:
    """The URL after ``marker`` on stdout, or None at end of output or after ``timeout`` seconds.

    A daemon thread reads (a pipe cannot be read with a timeout portably) and keeps draining the pipe
    afterwards, so a chatty server never blocks on a full pipe.
    """
    found: list[str] = []
    ready = threading.Event()

    def read() -> None:
        for raw in stdout:
            line = raw.decode("utf-8", "replace").strip()
            if not found and line.startswith(marker + " "):
                found.append(line[len(marker) + 1 :].strip())
                ready.set()
        ready.set()

    threading.Thread(target=read, name="demo-server-stdout", daemon=True).start()
    ready.wait(timeout)
    return found[0] if found else None


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=_STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=_STOP_TIMEOUT)


def _tail(log: IO[bytes]) -> str:
    log.seek(0)
    text = log.read().decode("utf-8", "replace").strip()
    if not text:
        return ""
    return "\nIts last words:\n" + text[-_STDERR_TAIL:]
