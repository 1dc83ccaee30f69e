"""A private venv for fastmcp, so its many dependencies never land in the project's venv.

Built on first use under ``.cache/bench-venvs/fastmcp-<version>`` with the repo venv's python, pinned to
the same versions of shared packages (mcp, httpx, pydantic, anyio, ...) via a constraints file taken from
the repo venv, so the comparison differs only in the client library.
"""

from __future__ import annotations

import subprocess
import sys
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


def ensure_fastmcp_venv(log=print) -> Path:
    """Return the venv's python, creating the venv if needed (needs the package index, ~1 min)."""
    python = fastmcp_python()
    if _works(python):
        return python
    log(f"creating {VENV.relative_to(ROOT)} (fastmcp=={FASTMCP_VERSION}) ...")
    VENV.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True, timeout=300)
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
    constraints = VENV / "constraints.txt"
    constraints.write_text("\n".join(pins) + "\n")
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
