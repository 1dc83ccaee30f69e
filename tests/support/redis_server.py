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
from tests.support.servers import LOOPBACK, free_loopback_port

READY_TIMEOUT = 15.0


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
    port = free_loopback_port()
    argv = [binary, "--bind", LOOPBACK, "--port", str(port), "--dir", folder, "--save", ""]
    argv += ["--appendonly", "no", "--protected-mode", "yes", "--logfile", os.path.join(folder, "log")]
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + READY_TIMEOUT
        while True:
            ping = subprocess.run(
                ["redis-cli", "-h", LOOPBACK, "-p", str(port), "ping"],
                capture_output=True,
                text=True,
                check=False,
            )
            if ping.stdout.strip() == "PONG":
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                log = (
                    open(os.path.join(folder, "log")).read()
                    if os.path.exists(os.path.join(folder, "log"))
                    else ""
                )
                raise RuntimeError(f"redis-server did not start on port {port}: {log[-2000:]}")
            time.sleep(0.05)
        yield f"redis://{LOOPBACK}:{port}/0"
    finally:
        proc.kill()
        proc.wait(timeout=10)
        if proc.stderr is not None:
            proc.stderr.close()
        shutil.rmtree(folder, ignore_errors=True)
