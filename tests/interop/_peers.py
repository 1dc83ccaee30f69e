"""Where the third-party peer servers live, and how to run one on loopback and always reap it.

The peers are installed by ``scripts/install_peers.py`` into ``.cache/peers/``; a test whose peer is missing
fails (never skips) and says to run that script. A peer is started as a real subprocess whose output goes
to a log file (a pipe nobody reads would fill up and freeze a chatty server), and the fixture waits, with a
deadline, for the line in which the server reports the port it bound. Every failure to start quotes the
server's own log.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from tests.support import temp
from tests.support.servers import listening_addresses as listening_addresses  # tests use it from here

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PEERS = REPO / ".cache" / "peers"

FASTMCP_PYTHON = PEERS / "fastmcp-venv" / "bin" / "python"
FASTMCP_SERVER = HERE / "fastmcp_server.py"
FASTMCP_TASKS_PYTHON = PEERS / "fastmcp-tasks-venv" / "bin" / "python"
FASTMCP_TASKS_SERVER = HERE / "fastmcp_tasks_server.py"

EVERYTHING_ENTRY = PEERS / "everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
FILESYSTEM_ENTRY = PEERS / "filesystem/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
LOOPBACK_PRELOAD = HERE / "loopback_only.cjs"

LOOPBACK = "127.0.0.1"
READY_TIMEOUT = 45.0  # fastmcp imports for ~2.5 s on an idle 2-core machine; leave room for a busy one
STOP_TIMEOUT = 5.0
INSTALL_HINT = "run `python scripts/install_peers.py` (it installs the interop peers into .cache/peers/)"


class PeerStartError(RuntimeError):
    """A peer server did not report a listening port in time, or exited first (message carries its log)."""


def require_installed(path: Path, what: str) -> Path:
    """``path`` if it exists, else fail the test with the command that installs it."""
    if not path.exists():
        pytest.fail(f"{what} is not installed ({path} is missing): {INSTALL_HINT}", pytrace=False)
    return path


def require_node() -> str:
    """The ``node`` executable, or a failed test saying Node.js is needed."""
    import shutil

    node = shutil.which("node")
    if node is None:
        pytest.fail("server-everything needs Node.js 18+ on PATH (apt-get install nodejs)", pytrace=False)
    return node


@contextlib.contextmanager
def running_peer(
    cmd: Sequence[str],
    *,
    ready_pattern: str,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = READY_TIMEOUT,
) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """Run ``cmd`` until the ``with`` block ends; yield the process and the port it reported.

    ``ready_pattern`` is a regex with one group, the port, searched for in the server's combined output.
    The process is terminated (then killed) on exit, whatever happened.
    """
    log = tempfile.NamedTemporaryFile(prefix=f"{temp.PREFIX}peer-", suffix=".log", delete=False)
    log_path = Path(log.name)
    process = subprocess.Popen(
        list(cmd),
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        start_new_session=True,
    )
    log.close()
    try:
        port = _wait_for_port(process, log_path, re.compile(ready_pattern), timeout)
        yield process, port
    finally:
        stop(process)
        with contextlib.suppress(OSError):
            log_path.unlink()


def stop(process: subprocess.Popen[bytes]) -> None:
    """Terminate ``process``; kill it if it is still there after ``STOP_TIMEOUT`` seconds."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(STOP_TIMEOUT)


def _wait_for_port(
    process: subprocess.Popen[bytes], log_path: Path, pattern: re.Pattern[str], timeout: float
) -> int:
    deadline = time.monotonic() + timeout
    while True:
        text = log_path.read_text(encoding="utf-8", errors="replace")
        match = pattern.search(text)
        if match:
            return int(match.group(1))
        if process.poll() is not None:
            raise PeerStartError(
                f"peer {process.args!r} exited with code {process.returncode} before listening; "
                f"its output:\n{text}"
            )
        if time.monotonic() > deadline:
            raise PeerStartError(
                f"peer {process.args!r} did not listen within {timeout:.0f} s; its output:\n{text}"
            )
        time.sleep(0.05)


def wait_http_ready(port: int, path: str = "/mcp", timeout: float = READY_TIMEOUT) -> None:
    """Wait until an HTTP server on 127.0.0.1:``port`` answers a GET at all (any status counts)."""
    deadline = time.monotonic() + timeout
    while True:
        connection = http.client.HTTPConnection(LOOPBACK, port, timeout=2.0)
        try:
            connection.request("GET", path, headers={"accept": "application/json"})
            connection.getresponse().read()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise PeerStartError(
                    f"nothing answered HTTP on {LOOPBACK}:{port} within {timeout:.0f} s"
                ) from None
            time.sleep(0.1)
        finally:
            connection.close()
