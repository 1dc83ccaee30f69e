"""Private venvs for the benchmark, so that each client runs beside what its users install, no more.

* ``.cache/bench-venvs/fastmcp-<version>``: fastmcp and its many dependencies, kept out of the repo venv.
* ``.cache/bench-venvs/httpx-floor-<hash>``: the runtime venv's packages plus httpx (the repo venv's
  version), for the floors written on httpx (``floor-httpx-*``): the cheapest correct client on the
  HTTP stack our client used before the port to httpx2 (docs/performance.md, "The HTTP stack").
* ``.cache/bench-venvs/runtime-<hash>``: only this project's runtime dependencies (pyproject's
  ``dependencies``), for our client and the hand-written floors. The repo venv also holds the test
  peers (``mcp``, uvicorn, trio, click...), and the HTTP stack imports some of them when present
  (httpx loaded click and rich for its CLI; an ``httpx2.AsyncClient`` imports trio): about
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


_FASTMCP_PROBE = f"import fastmcp, mcp; assert fastmcp.__version__ == {FASTMCP_VERSION!r}"


def _works(python: Path, probe: str) -> bool:
    if not python.exists():
        return False
    return subprocess.run([str(python), "-c", probe], capture_output=True, timeout=120).returncode == 0


def _ensure(venv: Path, packages: list[str], probe: str, what: str, log) -> Path:
    """``venv``'s python; first (re)built with ``packages``, pinned like the repo venv, if ``probe`` fails."""
    python = venv / "bin" / "python"
    if _works(python, probe):
        return python
    log(f"creating {venv.relative_to(ROOT)} ({what}) ...")
    venv.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True, timeout=300)
    constraints = _constraints(venv)
    install = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*install, *packages, "-c", str(constraints)], check=True, timeout=900)
    if not _works(python, probe):
        raise RuntimeError(f"the venv at {venv} fails its check after install: {probe}")
    return python


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
        line
        for line in freeze.splitlines()
        if "==" in line and not line.startswith(("-e", "mcp-elicit-client"))
    ]
    constraints = venv / "constraints.txt"
    constraints.write_text("\n".join(pins) + "\n")
    return constraints


def runtime_dependencies() -> list[str]:
    """pyproject's runtime ``dependencies``: what ``pip install mcp-elicit-client`` brings."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        return list(tomllib.load(f)["project"]["dependencies"])


def runtime_venv() -> Path:
    key = hashlib.sha256("\n".join(runtime_dependencies()).encode()).hexdigest()[:10]
    return ROOT / ".cache" / "bench-venvs" / f"runtime-{key}"


def runtime_python() -> Path:
    return runtime_venv() / "bin" / "python"


_RUNTIME_PROBE = "import httpx2, pydantic, anyio, httpcore2"


def ensure_runtime_venv(log=print) -> Path:
    """Return the runtime venv's python, creating it if needed (needs the package index, ~30 s)."""
    what = "the project's runtime dependencies only"
    return _ensure(runtime_venv(), runtime_dependencies(), _RUNTIME_PROBE, what, log)


def httpx_floor_venv() -> Path:
    packages = "\n".join([*runtime_dependencies(), "httpx"])
    key = hashlib.sha256(packages.encode()).hexdigest()[:10]
    return ROOT / ".cache" / "bench-venvs" / f"httpx-floor-{key}"


def httpx_floor_python() -> Path:
    return httpx_floor_venv() / "bin" / "python"


def ensure_httpx_floor_venv(log=print) -> Path:
    """The httpx floors' python: the runtime dependencies plus httpx, pinned to the repo venv's version."""
    what = "the runtime dependencies and httpx, for the httpx floors"
    probe = _RUNTIME_PROBE + ", httpx"
    return _ensure(httpx_floor_venv(), [*runtime_dependencies(), "httpx"], probe, what, log)


def ensure_fastmcp_venv(log=print) -> Path:
    """Return the venv's python, creating the venv if needed (needs the package index, ~1 min)."""
    packages = [f"fastmcp=={FASTMCP_VERSION}", "mcp==2.3.0"]
    return _ensure(VENV, packages, _FASTMCP_PROBE, f"fastmcp=={FASTMCP_VERSION}", log)
