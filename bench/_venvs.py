"""Private venvs for the benchmark, so that each client runs beside what its users install, no more.

* ``.cache/bench-venvs/fastmcp-<version>``: fastmcp and its many dependencies, kept out of the repo venv.
* ``.cache/bench-venvs/runtime-<hash>``: only this project's runtime dependencies (pyproject's
  ``dependencies``), for our client and the hand-written floors. The repo venv also holds the test
  peers (``mcp``, uvicorn, trio, click...), and httpx and httpcore import some of them when present
  (``import httpx`` loads click and rich for its CLI; an ``httpx.AsyncClient`` imports trio): about
  10 MB of peak RSS that a user's app never pays. Our client's code comes from ``src`` on
  ``PYTHONPATH``, as in the repo venv.

Both are built on first use with the repo venv's python, pinned to the repo venv's versions of every
shared package (a constraints file from ``pip freeze``), so comparisons differ only where they should.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FASTMCP_VERSION = "4.1.6"
VENV = ROOT / ".cache" / "bench-venvs" / f"fastmcp-{FASTMCP_VERSION}"


def fastmcp_python() -> Path:
    return VENV / "bin" / "python"


def _works(python: Path) -> bool:
    if not python.exists():
        return False
    probe = subprocess.run(
        [str(python), "-c", f"import fastmcp, mcp; assert fastmcp.__version__ == {FASTMCP_VERSION!r}"],
        capture_output=True,
        timeout=120,
    )
    return probe.returncode == 0


def _constraints(venv: Path) -> Path:
    """The repo venv's versions of everything, as a pip constraints file inside ``venv``."""
    freeze = subprocess.run(
        [sys.executable, "-m", "pip", "freeze", "--exclude-editable"],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    pins = [
        line for line in freeze.splitlines() if "==" in line and not line.startswith(("-e", "mcp-client"))
    ]
    constraints = venv / "constraints.txt"
    constraints.write_text("\n".join(pins) + "\n")
    return constraints


def runtime_dependencies() -> list[str]:
    """pyproject's runtime ``dependencies``: what ``pip install mcp-client`` brings."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        return list(tomllib.load(f)["project"]["dependencies"])


def runtime_venv() -> Path:
    key = hashlib.sha256("\n".join(runtime_dependencies()).encode()).hexdigest()[:10]
    return ROOT / ".cache" / "bench-venvs" / f"runtime-{key}"


def runtime_python() -> Path:
    return runtime_venv() / "bin" / "python"


_RUNTIME_PROBE = "import httpx, pydantic, anyio, httpcore"


def ensure_runtime_venv(log=print) -> Path:
    """Return the runtime venv's python, creating it if needed (needs the package index, ~30 s)."""
    venv = runtime_venv()
    python = venv / "bin" / "python"
    if (
        python.exists()
        and subprocess.run([str(python), "-c", _RUNTIME_PROBE], capture_output=True).returncode == 0
    ):
        return python
    log(f"creating {venv.relative_to(ROOT)} (the project's runtime dependencies only) ...")
    venv.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True, timeout=300)
    constraints = _constraints(venv)
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            *runtime_dependencies(),
            "-c",
            str(constraints),
        ],
        check=True,
        timeout=900,
    )
    if subprocess.run([str(python), "-c", _RUNTIME_PROBE], capture_output=True).returncode != 0:
        raise RuntimeError(f"the runtime venv at {venv} does not import httpx, pydantic and anyio")
    return python


def ensure_fastmcp_venv(log=print) -> Path:
    """Return the venv's python, creating the venv if needed (needs the package index, ~1 min)."""
    python = fastmcp_python()
    if _works(python):
        return python
    log(f"creating {VENV.relative_to(ROOT)} (fastmcp=={FASTMCP_VERSION}) ...")
    VENV.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True, timeout=300)
    constraints = _constraints(VENV)
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            f"fastmcp=={FASTMCP_VERSION}",
            "mcp==2.3.0",
            "-c",
            str(constraints),
        ],
        check=True,
        timeout=900,
    )
    if not _works(python):
        raise RuntimeError(f"fastmcp venv at {VENV} does not import fastmcp=={FASTMCP_VERSION}")
    return python
