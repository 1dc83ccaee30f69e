"""How every stdio driver launches the server: the repo venv's python running ``bench.server``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def server_command() -> tuple[str, list[str], str]:
    """(command, args, cwd). The server always runs in the repo venv, whichever venv the driver uses."""
    python = os.environ.get("BENCH_SERVER_PYTHON", sys.executable)
    return python, ["-m", "bench.server", "stdio"], str(ROOT)
