"""A real Redis for the shared-store tests: Debian's ``redis-server`` on a loopback port, in a temp dir.

``scripts/test`` installs the package (apt, idempotently, like chromium). Where it is missing the tests
that need it are skipped with the reason, except under CI (``CI`` set), where they fail: a CI run can
never pass without having run them. Nothing is persisted (no RDB, no AOF); the process is killed and
its folder removed when the block ends.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.support import temp
from tests.support.servers import LOOPBACK, free_loopback_port, serves_on

READY_TIMEOUT = 15.0
_SPAWN_ATTEMPTS = 3  # a port picked free can be taken by another process before redis-server binds it


def redis_server_binary() -> str:
    found = shutil.which("redis-server") or shutil.which("valkey-server")
    if found is None:
        problem = (
            "redis-server is not installed (Debian: apt-get install redis-server; bash scripts/test "
            "installs it when it runs as root or with sudo)"
        )
        if os.environ.get("CI"):
            pytest.fail(f"the shared-store tests must run in CI: {problem}")
        pytest.skip(problem)
    return found


@contextmanager
def run_redis() -> Iterator[str]:
    """Yield ``redis://127.0.0.1:PORT/0`` of a fresh Redis that lives for the block."""
    binary = redis_server_binary()
    folder = temp.mkdtemp("redis")
    try:
        for _ in range(_SPAWN_ATTEMPTS):
            port = free_loopback_port()
            log = os.path.join(folder, f"log-{port}")
            argv = [binary, "--bind", LOOPBACK, "--port", str(port), "--dir", folder, "--logfile", log]
            argv += ["--save", "", "--appendonly", "no", "--protected-mode", "yes"]
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
            try:
                if _ready(proc, port, log):
                    yield f"redis://{LOOPBACK}:{port}/0"
                    return
            finally:
                proc.kill()
                proc.wait(timeout=10)
        raise RuntimeError(f"redis-server lost the race for a free port {_SPAWN_ATTEMPTS} times")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _ready(proc: subprocess.Popen[bytes], port: int, log_path: str) -> bool:
    """Wait until this redis-server answers PING on ``port``; ``False`` if another process took the port."""
    deadline = time.monotonic() + READY_TIMEOUT
    ping = ["redis-cli", "-h", LOOPBACK, "-p", str(port), "ping"]
    while True:
        if serves_on(proc, port):
            if subprocess.run(ping, capture_output=True, text=True, check=False).stdout.strip() == "PONG":
                return True
        if proc.poll() is not None or time.monotonic() > deadline:
            log = open(log_path).read() if os.path.exists(log_path) else ""
            if proc.poll() is not None and "address already in use" in log.lower():
                return False
            raise RuntimeError(f"redis-server did not start on port {port}: {log[-2000:]}")
        time.sleep(0.05)
