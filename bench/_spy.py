"""Sample one benchmark loop with py-spy and say where the client's CPU goes.

py-spy samples only running threads (idle waits in epoll are left out), at a low overhead, so shares are
close to the real CPU split. Samples from imports, connect/close and the
warm-up are left out (see ``_in_loop``); background tasks (stdio readers, the event loop) stay in, so
use enough calls that connect-time background work is negligible.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^()]*?):(?P<line>\d+)\)$")


def py_spy() -> str | None:
    here = Path(sys.executable).with_name("py-spy")
    return str(here) if here.exists() else shutil.which("py-spy")


def record(
    driver: str, workload: str, target: str, calls: int, rate: int = 1000
) -> list[tuple[list[str], int]]:
    spy = py_spy()
    if spy is None:
        raise RuntimeError("py-spy is not installed (.venv/bin/pip install py-spy)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "raw.txt"
        env = dict(os.environ, BENCH_SERVER_PYTHON=sys.executable)
        cmd = [spy, "record", "--nonblocking", "-r", str(rate), "-f", "raw", "-o", str(out), "--"]
        cmd += [sys.executable, "-m", "bench._run", driver, workload, target, "--calls", str(calls)]
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        if not out.exists():
            raise RuntimeError(f"py-spy failed: {proc.stderr[-2000:]}")
        stacks: list[tuple[list[str], int]] = []
        for line in out.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            frames = stack.split(";")
            if _in_loop(frames):
                stacks.append((frames, int(count)))
        return stacks


def _in_loop(frames: list[str]) -> bool:
    """Keep the timed loop: the calls (through ``worker``) and background tasks (readers, event loop).

    Drop imports, connect/close (the driver's ``_open`` body, which also runs the warm-up calls) and the
    warm-up: main-task stacks through ``_measure`` but not through ``worker``.
    """
    leaf = frames[-1] if frames else ""
    if not leaf.strip(" ()") or leaf.startswith(("EpollSelector.select (", "select (")):
        return False  # idle: --nonblocking sampling cannot tell a thread blocked in epoll from a busy one
    in_measure = in_worker = False
    for f in frames:
        if "importlib._bootstrap" in f or f.startswith("_open (") or f.startswith("_open.<locals>._"):
            return False
        if f.startswith("_measure ("):
            in_measure = True
        elif f.startswith("_measure.<locals>.worker ("):
            in_worker = True
    return in_worker or not in_measure


def _split(frame: str) -> tuple[str, str, int]:
    m = _FRAME.match(frame)
    if not m:
        return frame, "", 0
    return m["func"], m["file"], int(m["line"])


def analyze(stacks: list[tuple[list[str], int]], package: str, calls: int, rate: int, top: int = 25) -> str:
    total = sum(c for _, c in stacks) or 1
    self_fn: Counter[str] = Counter()
    incl_fn: Counter[str] = Counter()
    blame_line: Counter[str] = Counter()  # deepest frame of `package` on the stack (incl. everything below)
    own_pkg = 0
    for frames, count in stacks:
        func, file, _ = _split(frames[-1])
        self_fn[f"{func} ({file})"] += count
        for key in {f"{_split(f)[0]} ({_split(f)[1]})" for f in frames}:
            incl_fn[key] += count
        mine = [f for f in frames if package in _split(f)[1]]
        if mine:
            blame_line[mine[-1]] += count
            if package in file:
                own_pkg += count
        else:
            blame_line["(outside the package: harness/event loop)"] += count
    ms_per_sample = 1000 / rate
    lines = [
        f"{total} samples in the timed loop at {rate} Hz = "
        f"{total * ms_per_sample / calls:.3f} ms CPU per call (sampled; getrusage is exact)",
        f"own time in {package!r} code itself: {own_pkg / total * 100:.1f}%",
        "",
        f"where {package!r} spends it: the deepest {package} frame of each sample (that line + all below)",
    ]
    for key, c in blame_line.most_common(top):
        lines.append(f"  {c / total * 100:5.1f}%  {c * ms_per_sample / calls * 1000:7.1f} us/call  {key}")
    lines += ["", "inclusive (any frame on the stack), all code"]
    for key, c in incl_fn.most_common(top + 15):
        lines.append(f"  {c / total * 100:5.1f}%  {key}")
    lines += ["", "self (leaf frame), all code"]
    for key, c in self_fn.most_common(top):
        lines.append(f"  {c / total * 100:5.1f}%  {key}")
    return "\n".join(lines)
