"""Profile one driver's timed loop: ``python -m bench.profile ours-modern http-echo [--calls N]``.

Default: py-spy samples a ``bench._run`` subprocess (low overhead, CPU only, timed loop only; see
bench/_spy.py) and prints, for the client package, the deepest package line on each sample with its
share and microseconds per call, then inclusive and self shares for all code. ``--cprofile`` runs the
loop in this process under cProfile with a CPU-time clock instead (exact call counts, but it inflates
call-heavy code). Confirm any fix with ``python -m bench --drivers ...``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import os
import pstats
import sys
import time
from pathlib import Path

from bench._run import _measure
from bench._workloads import WORKLOADS

ROOT = Path(__file__).resolve().parents[1]
_PACKAGES = {"ours": "mcp_client", "official": "mcp/", "fastmcp": "fastmcp", "floor": "bench/drivers"}


def _short(filename: str) -> str:
    for marker in ("/site-packages/", "/src/", "/lib/python3.11/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return os.path.relpath(filename, ROOT) if filename.startswith(str(ROOT)) else filename


def report(profiler: cProfile.Profile, package: str, top: int, calls: int) -> str:
    stats = pstats.Stats(profiler)
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(tt for (_, _, tt, _, _) in raw.values()) or 1e-9
    rows = []
    for (filename, line, func), (_cc, nc, tt, ct, _callers) in raw.items():
        rows.append((tt, ct, nc, f"{_short(filename)}:{line}", func, filename))
    out = io.StringIO()
    out.write(f"total profiled CPU {total:.3f} s = {total / calls * 1e6:.0f} us per call\n")
    out.write("own%/cum%: share of the profiled CPU; us/call: own time per benchmark call\n\n")
    out.write(f"top {top} by own time (all code)\n")
    out.write(f"{'own%':>6} {'cum%':>6} {'us/call':>8} {'calls':>8}  function\n")
    for tt, ct, nc, where, func, _ in sorted(rows, reverse=True)[:top]:
        out.write(f"{tt / total * 100:6.1f} {ct / total * 100:6.1f} {tt / calls * 1e6:8.1f} ")
        out.write(f"{nc:8d}  {func}  ({where})\n")
    mine = [r for r in rows if package in r[5]]
    out.write(f"\ntop {top} by cumulative time in {package!r}\n")
    out.write(f"{'own%':>6} {'cum%':>6} {'us/call':>8} {'calls':>8}  function\n")
    for tt, ct, nc, where, func, _ in sorted(mine, key=lambda r: r[1], reverse=True)[:top]:
        out.write(f"{tt / total * 100:6.1f} {ct / total * 100:6.1f} {tt / calls * 1e6:8.1f} ")
        out.write(f"{nc:8d}  {func}  ({where})\n")
    own = sum(r[0] for r in mine)
    out.write(f"\nown time inside {package!r}: {own / total * 100:.1f}% of the profiled time\n")
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile")
    parser.add_argument("driver")
    parser.add_argument("workload", choices=sorted(WORKLOADS))
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--dump", help="also write the raw pstats file here (cProfile only)")
    parser.add_argument("--cprofile", action="store_true", help="use cProfile in-process instead of py-spy")
    parser.add_argument("--rate", type=int, default=1000, help="py-spy samples per second")
    parser.add_argument("--url", help="an already running bench server (default: start one)")
    args = parser.parse_args(argv)
    server = None
    url = args.url
    if url is None and WORKLOADS[args.workload].transport == "http":
        from bench.__main__ import _start_server

        server, url = _start_server()
    os.environ.setdefault("BENCH_SERVER_PYTHON", sys.executable)
    package = _PACKAGES[args.driver.split("-")[0]]
    if not args.cprofile:
        from bench import _spy

        try:
            stacks = _spy.record(args.driver, args.workload, url or "-", args.calls, args.rate)
        finally:
            if server is not None:
                server.terminate()
                server.wait(10)
        print(f"{args.driver} {args.workload}: {args.calls} calls, py-spy")
        print(_spy.analyze(stacks, package, args.calls, args.rate, args.top))
        return 0
    # CPU time, not wall time: waiting in epoll is not the client's cost.
    profiler = cProfile.Profile(time.process_time)
    try:
        result = asyncio.run(
            _measure(args.driver, WORKLOADS[args.workload], url or "-", args.calls, 20, profiler=profiler)
        )
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
    print(
        f"{args.driver} {args.workload}: {result['calls']} calls, ok={result['ok']}, "
        f"{result['cpu_per_call_ms']:.3f} ms CPU/call under the profiler"
    )
    print(report(profiler, package, args.top, result["calls"]))
    if args.dump:
        profiler.dump_stats(args.dump)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
