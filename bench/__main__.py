"""``python -m bench``: run every driver on every workload, round by round, and judge the targets.

Each (driver, workload) run is its own subprocess (``bench._run``), so CPU and peak RSS belong to that
client alone. Rounds alternate the drivers (the order rotates each round) and ratios are taken within a
round against that round's floor of the same era, so machine drift cancels; the table shows medians.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench._venvs import (
    ensure_fastmcp_venv,
    ensure_httpx_floor_venv,
    ensure_runtime_venv,
    fastmcp_python,
    httpx_floor_python,
    runtime_python,
)
from bench._workloads import FANOUT_ANSWER_DELAY_S, WORKLOADS, default_workloads

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"


@dataclass(frozen=True)
class Driver:
    name: str
    era: str  # "modern" | "legacy": which floor it is compared with
    venv: str  # "runtime" | "httpx" | "main" | "fastmcp" (see bench/_venvs.py)
    description: str


DRIVERS: dict[str, Driver] = {
    d.name: d
    for d in [
        Driver(
            "floor-modern",
            "modern",
            "runtime",
            "hand-written JSON-RPC, 2026-07-28 envelope, httpx2 / asyncio pipes",
        ),
        Driver(
            "floor-legacy",
            "legacy",
            "runtime",
            "hand-written JSON-RPC, initialize + session, SSE parsed by hand",
        ),
        Driver(
            "floor-httpx-modern",
            "modern",
            "httpx",
            "the modern floor on httpx 0.29 (our HTTP stack before httpx2); over stdio not run",
        ),
        Driver("floor-httpx-legacy", "legacy", "httpx", "the legacy floor on httpx 0.29; over stdio not run"),
        Driver("ours-modern", "modern", "runtime", 'mcp_client.Client(mode="2026-07-28")'),
        Driver("ours-legacy", "legacy", "runtime", 'mcp_client.Client(mode="legacy")'),
        Driver("official-auto", "modern", "main", 'mcp.Client(mode="auto") (probe -> 2026-07-28)'),
        Driver("official-legacy", "legacy", "main", 'mcp.Client(mode="legacy")'),
        Driver("fastmcp-auto", "modern", "fastmcp", 'fastmcp.Client(mode="auto") (probe -> 2026-07-28)'),
        Driver("fastmcp-legacy", "legacy", "fastmcp", 'fastmcp.Client(mode="legacy")'),
    ]
}
FLOOR = {"modern": "floor-modern", "legacy": "floor-legacy"}
HTTPX_FLOOR = {"modern": "floor-httpx-modern", "legacy": "floor-httpx-legacy"}
"""The same floors on httpx: "xfloor" is our layer over its own stack (httpx2), "x httpx" our client
over the floor of the stack it left (httpx 0.29, 1.33x httpx2's instructions per exchange)."""

# (label, python venv, statement). `import mcp_client` against `import httpx2` (the HTTP stack it runs
# on) is the target (<= 1.5x);
# `import mcp_client` is lazy (PEP 562), so `from mcp_client import Client` is measured beside it.
IMPORTS = [
    ("mcp_client", "runtime", "import mcp_client"),
    ("mcp_client.Client", "runtime", "from mcp_client import Client"),
    ("httpx2", "runtime", "import httpx2"),
    ("mcp.client", "main", "import mcp.client"),
    ("fastmcp", "fastmcp", "import fastmcp"),
]


def _env(venv: str) -> dict[str, str]:
    env = dict(os.environ)
    env["BENCH_SERVER_PYTHON"] = sys.executable
    env.pop("PYTHONPATH", None)
    if venv in ("main", "runtime", "httpx"):
        env["PYTHONPATH"] = str(ROOT / "src")  # harmless when mcp_client is installed (editable)
    return env


_IN_REPO_VENV = False
"""``--repo-venv``: run the "runtime" drivers in the repo venv instead (with the test peers beside them)."""


def _python(venv: str) -> str:
    if venv == "runtime":
        return sys.executable if _IN_REPO_VENV else str(runtime_python())
    if venv == "httpx":  # the repo venv has httpx as a test peer
        return sys.executable if _IN_REPO_VENV else str(httpx_floor_python())
    return sys.executable if venv == "main" else str(fastmcp_python())


def _works(venv: str, statement: str) -> bool:
    probe = subprocess.run(
        [_python(venv), "-c", statement], cwd=ROOT, env=_env(venv), capture_output=True, timeout=120
    )
    return probe.returncode == 0


def _start_server() -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.server", "http"],
        cwd=ROOT,
        env=_env("main"),
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()  # the server prints PORT within a few seconds or dies
    if not line.startswith("PORT "):
        proc.kill()
        raise RuntimeError(f"bench server did not start: {line!r}")
    return proc, f"http://127.0.0.1:{int(line.split()[1])}/mcp"


def _run_one(driver: Driver, workload: str, url: str, calls: int, warmup: int) -> dict[str, Any]:
    cmd = [_python(driver.venv), "-m", "bench._run", driver.name, workload, url]
    cmd += ["--calls", str(calls), "--warmup", str(warmup)]
    try:
        proc = subprocess.run(
            cmd,
            cwd=ROOT,
            env=_env(driver.venv),
            capture_output=True,
            text=True,
            timeout=90 + WORKLOADS[workload].calls_for(calls) * 0.2,
        )
    except subprocess.TimeoutExpired:
        return {"driver": driver.name, "workload": workload, "ok": False, "error": "timeout"}
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            result = json.loads(line[7:])
            if not result["ok"]:
                result["error"] = f"wrong answers: {result['wrong']}"
            return result
    lines = [line.strip(" |+-") for line in (proc.stderr or proc.stdout).strip().splitlines()]
    # The exception's own line (a task group's traceback ends in box drawing, not in the error).
    raised = [line for line in lines if re.match(r"^[\w.]+(Error|Timeout|Exception|Group)\b", line)]
    error = raised[-1] if raised else " | ".join(lines[-3:])
    return {"driver": driver.name, "workload": workload, "ok": False, "error": error}


def _import_samples(venv: str, statement: str, runs: int) -> list[float]:
    out: list[float] = []
    python = _python(venv)
    env = _env(venv)
    for _ in range(runs):
        for stmt in ("pass", statement):
            t = time.perf_counter()
            subprocess.run([python, "-c", stmt], cwd=ROOT, env=env, check=True, timeout=60)
            out.append(time.perf_counter() - t)
    # Pairs (baseline, import): the import's own cost is the difference within a pair.
    return [out[i + 1] - out[i] for i in range(0, len(out), 2)]


NAN = float("nan")


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _fmt(x: float, digits: int = 2) -> str:
    return "-" if x != x else f"{x:.{digits}f}"


def _range(lo_hi: list[float] | None) -> str:
    return "-" if not lo_hi else f"{lo_hi[0]:.2f}-{lo_hi[1]:.2f}"


def _summarize(runs: list[dict[str, Any]], drivers: list[Driver], workloads: list[str]) -> dict[str, Any]:
    """Per (workload, driver): medians over rounds, plus median of per-round ratios to the same-era floor."""
    by_key: dict[tuple[str, str, int], dict[str, Any]] = {}
    for r in runs:
        by_key[(r["workload"], r["driver"], r["round"])] = r
    rounds = sorted({r["round"] for r in runs})
    summary: dict[str, Any] = {}
    for w in workloads:
        rows: dict[str, Any] = {}
        for d in drivers:
            own = [by_key.get((w, d.name, k)) for k in rounds]
            if all(x is None for x in own):
                continue
            good = [x for x in own if x is not None and x.get("ok")]
            failed = [x for x in own if x is not None and not x.get("ok")]
            row: dict[str, Any] = {"runs": len(good), "failed": len(failed)}
            if failed:
                row["error"] = failed[0].get("error", "")
            for key in (
                "cpu_per_call_ms",
                "wall_per_call_ms",
                "calls_per_s",
                "p50_ms",
                "p99_ms",
                "connect_ms",
                "first_call_ms",
                "maxrss_mb",
                "rss_per_waiting_call_kb",
            ):
                row[key] = _median([x[key] for x in good if key in x])
            counted = [
                x["new_connections_per_call"] for x in good if x.get("new_connections_per_call") is not None
            ]
            row["new_connections_per_call"] = _median(counted)
            cpu_ratios, tput_ratios, wall_ratios = [], [], []
            httpx_cpu, httpx_tput = [], []
            for k in rounds:
                mine, floor = by_key.get((w, d.name, k)), by_key.get((w, FLOOR[d.era], k))
                if mine and floor and mine.get("ok") and floor.get("ok"):
                    cpu_ratios.append(mine["cpu_per_call_ms"] / floor["cpu_per_call_ms"])
                    wall_ratios.append(mine["wall_per_call_ms"] / floor["wall_per_call_ms"])
                    tput_ratios.append(mine["calls_per_s"] / floor["calls_per_s"])
                other = by_key.get((w, HTTPX_FLOOR[d.era], k))
                if mine and other and mine.get("ok") and other.get("ok"):
                    httpx_cpu.append(mine["cpu_per_call_ms"] / other["cpu_per_call_ms"])
                    httpx_tput.append(mine["calls_per_s"] / other["calls_per_s"])
            row["cpu_ratio"] = _median(cpu_ratios)
            row["cpu_ratio_range"] = [min(cpu_ratios), max(cpu_ratios)] if cpu_ratios else None
            row["wall_ratio"] = _median(wall_ratios)
            row["throughput_ratio"] = _median(tput_ratios)
            row["cpu_ratio_httpx"] = _median(httpx_cpu)
            row["throughput_ratio_httpx"] = _median(httpx_tput)
            rows[d.name] = row
        if rows:
            summary[w] = rows
    return summary


def _targets(summary: dict[str, Any], imports: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def add(name: str, value: float, limit: float, higher_is_better: bool = False, unit: str = "x") -> None:
        if value != value:
            out.append({"target": name, "value": None, "limit": limit, "status": "not measured"})
            return
        met = value >= limit if higher_is_better else value <= limit
        distance = (value / limit - 1) * 100
        out.append(
            {
                "target": name,
                "value": value,
                "limit": limit,
                "unit": unit,
                "met": met,
                "distance_pct": distance,
                "status": "met" if met else "MISSED",
            }
        )

    def get(w: str, d: str, key: str) -> float:
        return summary.get(w, {}).get(d, {}).get(key, float("nan"))

    eras = (("modern", "ours-modern"), ("legacy", "ours-legacy"))
    floors = (("httpx2 floor", ""), ("httpx floor", "_httpx"))  # issue 43: both floors
    for floor, suffix in floors:
        for era, d in eras:
            add(
                f"HTTP echo CPU/call, {era}: <= 1.10x the {floor}",
                get("http-echo", d, "cpu_ratio" + suffix),
                1.10,
            )
    for era, d in eras:
        add(f"stdio echo CPU/call, {era}: <= 1.3x floor", get("stdio-echo", d, "cpu_ratio"), 1.3)
    for floor, suffix in floors:
        for era, d in eras:
            add(
                f"elicitation round trip CPU, {era}: <= 1.15x the {floor}",
                get("http-elicit", d, "cpu_ratio" + suffix),
                1.15,
            )
    for floor, suffix in floors:
        for era, d in eras:
            add(
                f"16 concurrent calls throughput, {era}: >= 0.95x the {floor}",
                get("http-echo-c16", d, "throughput_ratio" + suffix),
                0.95,
                higher_is_better=True,
            )
    opened = get("http-elicit", "ours-legacy", "new_connections_per_call")
    out.append(
        {"target": "legacy elicitation call: opens no new TCP connection", "value": None, "limit": 0.0}
        | (
            {"status": "not measured"}
            if opened != opened
            else {
                "value": opened,
                "unit": " new connections/call",
                "met": opened == 0,
                "distance_pct": opened * 100,
                "status": "met" if opened == 0 else "MISSED",
            }
        )
    )
    ours = imports.get("mcp_client", {}).get("median_s", float("nan"))
    httpx = imports.get("httpx2", {}).get("median_s", float("nan"))
    add("import mcp_client: <= 1.5x import httpx2", ours / httpx if httpx == httpx else float("nan"), 1.5)
    # ``Client`` alone: the session, transports, pydantic and the wire models load when a Client is
    # made (mcp_client._protocol.wire), so the line users write costs little beyond httpx2 (issue 32: 1.1x).
    client = imports.get("mcp_client.Client", {}).get("median_s", float("nan"))
    add(
        "from mcp_client import Client: <= 1.5x import httpx2",
        client / httpx if httpx == httpx else float("nan"),
        1.5,
    )
    fanout = [w for w, load in WORKLOADS.items() if load.fan_out and not load.smoke and w in summary]
    if fanout:
        for era, d in (("modern", "ours-modern"), ("legacy", "ours-legacy")):
            done = [w for w in fanout if summary[w].get(d, {}).get("runs")]
            add(
                f"fan-out, {era}: every level completed ({len(done)} of {len(fanout)})",
                len(done) / len(fanout),
                1.0,
                higher_is_better=True,
            )
            add(
                f"fan-out 128 throughput, {era}: within 1.2x of the floor (>= 0.83x)",
                get("fanout-128", d, "throughput_ratio"),
                1 / 1.2,
                higher_is_better=True,
            )
            add(
                f"fan-out 512 peak RSS per waiting call, {era}: < 20 KB",
                get("fanout-512", d, "rss_per_waiting_call_kb"),
                20.0,
                unit=" KB",
            )
    rss = [
        row["maxrss_mb"]
        for w in summary.values()
        for n, row in w.items()
        if n.startswith("ours-") and row["runs"]
    ]
    add("peak RSS of our client: <= 45 MB", max(rss) if rss else float("nan"), 45.0, unit=" MB")
    return out


def _table(
    summary: dict[str, Any], imports: dict[str, Any], targets: list[dict[str, Any]], meta: dict[str, Any]
) -> str:
    lines = [
        f"calls per run: {meta['calls']} (+{meta['warmup']} warm-up), rounds: {meta['rounds']}, "
        f"python {meta['python']}, {meta['date']}",
        "our client and the floors ran in "
        + (
            "the repo venv (test peers installed)"
            if meta["venv"] == "repo"
            else "a venv of the runtime dependencies only"
        ),
        "CPU = client-process user+sys per call; xfloor = median of per-round ratios to the same-era floor;",
        "x range = lowest-highest per-round CPU ratio (how noisy the machine was);",
        "x httpx = the same ratio to the floor written on httpx 0.29 (xfloor: on httpx2, our own stack);",
        "new conn/call = TCP connections the server accepted during the timed loop, per call.",
        "",
    ]
    head = (
        f"| {'driver':<19}| CPU/call ms | xfloor | x range   | x httpx | wall/call ms | xfloor | calls/s "
        "| xfloor | x httpx | p50 ms | p99 ms | connect ms | 1st call ms | RSS MB | new conn/call |"
    )
    for w, rows in summary.items():
        if WORKLOADS[w].fan_out:
            continue  # one table for every level, below
        lines.append(f"### {w}: {WORKLOADS[w].description}")
        lines.append("")
        lines.append(head)
        lines.append("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
        for name, r in rows.items():
            if not r["runs"]:
                lines.append(f"| {name:<19}| FAILED: {r.get('error', '')[:150]}")
                continue
            lines.append(
                f"| {name:<19}| {_fmt(r['cpu_per_call_ms'], 3):>11} | {_fmt(r['cpu_ratio']):>6} "
                f"| {_range(r.get('cpu_ratio_range')):>9} | {_fmt(r.get('cpu_ratio_httpx', NAN)):>7} "
                f"| {_fmt(r['wall_per_call_ms'], 3):>12} | {_fmt(r['wall_ratio']):>6} "
                f"| {_fmt(r['calls_per_s'], 0):>7} "
                f"| {_fmt(r['throughput_ratio']):>6} | {_fmt(r.get('throughput_ratio_httpx', NAN)):>7} "
                f"| {_fmt(r['p50_ms']):>6} | {_fmt(r['p99_ms']):>6} "
                f"| {_fmt(r['connect_ms'], 1):>10} | {_fmt(r['first_call_ms'], 1):>11} "
                f"| {_fmt(r['maxrss_mb'], 1):>6} | {_fmt(r.get('new_connections_per_call', NAN), 3):>13} |"
                + (f" ({r['failed']} failed)" if r["failed"] else "")
            )
        lines.append("")
    opened = summary.get("http-elicit", {}).get("ours-legacy", {}).get("new_connections_per_call", NAN)
    if opened == opened:
        lines.append(
            f"new TCP connections per legacy elicitation call (ours-legacy, http-elicit): {opened:.3f}"
        )
        lines.append("")
    lines += _fanout_table(summary)
    if imports:
        lines.append("### import time (fresh interpreter, minus `python -c pass`; median)")
        lines.append("")
        lines.append("| import | seconds | x httpx2 |")
        lines.append("|---|---|---|")
        base = imports.get("httpx2", {}).get("median_s", float("nan"))
        for label, r in imports.items():
            lines.append(f"| {label} | {_fmt(r['median_s'], 3)} | {_fmt(r['median_s'] / base)} |")
        lines.append("")
    if meta["quick"]:
        # A smoke run times a handful of calls on whatever else the machine is doing: its ratios say
        # nothing about the targets, so it does not grade them (a "MISSED" here would be noise).
        lines.append("### targets: not graded in a smoke run (`python -m bench` measures them)")
        return "\n".join(lines)
    lines.append("### targets (our client)")
    lines.append("")
    for t in targets:
        if t["status"] == "not measured":
            lines.append(f"- [ ] {t['target']}: not measured")
            continue
        unit = t["unit"]
        if "connections" in unit:
            lines.append(
                f"- [{'x' if t['met'] else ' '}] {t['target']}: {t['value']:.3f}{unit} -> {t['status']}"
            )
            continue
        lines.append(
            f"- [{'x' if t['met'] else ' '}] {t['target']}: {t['value']:.2f}{unit} -> {t['status']} "
            f"({t['distance_pct']:+.0f}% vs the limit)"
        )
    return "\n".join(lines)


def _fanout_table(summary: dict[str, Any]) -> list[str]:
    """One table for the fan-out levels: calls/s, latency and peak RSS per waiting call, by level."""
    levels = [w for w in summary if WORKLOADS[w].fan_out]
    if not levels:
        return []
    lines = [
        f"### fan-out: N calls in flight over HTTP, each asking one question answered after "
        f"{FANOUT_ANSWER_DELAY_S * 1000:g} ms",
        "",
        "| in flight | driver              | calls/s | xfloor | p50 ms | p99 ms | peak RSS MB "
        "| RSS/waiting call KB |",
        "|-----------|---------------------|---------|--------|--------|--------|-------------"
        "|---------------------|",
    ]
    for w in levels:
        for name, r in summary[w].items():
            n = WORKLOADS[w].concurrency
            if not r["runs"]:
                lines.append(f"| {n:>9} | {name:<19} | FAILED: {r.get('error', '')[:120]} |")
                continue
            lines.append(
                f"| {n:>9} | {name:<19} | {_fmt(r['calls_per_s'], 0):>7} | {_fmt(r['throughput_ratio']):>6} "
                f"| {_fmt(r['p50_ms'], 1):>6} | {_fmt(r['p99_ms'], 1):>6} | {_fmt(r['maxrss_mb'], 1):>11} "
                f"| {_fmt(r['rss_per_waiting_call_kb'], 1):>19} |"
                + (f" ({r['failed']} failed)" if r["failed"] else "")
            )
    lines.append("")
    return lines


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--calls", type=int, default=500, help="timed calls per run (default 500)")
    parser.add_argument(
        "--rounds", type=int, default=5, help="rounds; each runs every driver once (default 5)"
    )
    parser.add_argument("--warmup", type=int, default=None, help="untimed calls before the loop (default 20)")
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: 10 calls, 1 round, no fastmcp unless asked"
    )
    parser.add_argument("--drivers", help=f"comma list from: {', '.join(DRIVERS)} (default: all available)")
    parser.add_argument("--workloads", help=f"comma list from: {', '.join(WORKLOADS)} (default: all)")
    parser.add_argument("--no-imports", action="store_true", help="skip the import-time measurement")
    parser.add_argument("--import-runs", type=int, default=3, help="import samples per round (default 3)")
    parser.add_argument("--output", type=Path, default=RESULTS / "latest.json")
    parser.add_argument(
        "--repo-venv",
        action="store_true",
        help="run our client and the floors in the repo venv (test peers installed) instead of a venv "
        "with the runtime dependencies only",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.calls, args.rounds, args.import_runs = min(args.calls, 10), 1, 1
    warmup = args.warmup if args.warmup is not None else (2 if args.quick else 20)

    explicit = args.drivers is not None
    names = args.drivers.split(",") if explicit else list(DRIVERS)
    unknown = [n for n in names if n not in DRIVERS]
    if unknown:
        parser.error(f"unknown drivers: {unknown}")
    workloads = args.workloads.split(",") if args.workloads else default_workloads(args.quick)
    if bad := [w for w in workloads if w not in WORKLOADS]:
        parser.error(f"unknown workloads: {bad}")

    notes: list[str] = []
    global _IN_REPO_VENV
    _IN_REPO_VENV = args.repo_venv
    if not _IN_REPO_VENV:
        try:
            ensure_runtime_venv()
        except Exception as exc:
            _IN_REPO_VENV = True
            notes.append(
                f"runtime-only venv unavailable ({exc}); our client and the floors run in the repo venv"
            )
    if not explicit and args.quick:
        names = [n for n in names if DRIVERS[n].venv != "fastmcp"]
    httpx_floors = not _IN_REPO_VENV
    if httpx_floors:
        try:
            ensure_httpx_floor_venv()
        except Exception as exc:
            httpx_floors = False
            if any(DRIVERS[n].venv == "httpx" for n in names) and explicit:
                raise
            notes.append(f"httpx floors skipped: {exc}")
            names = [n for n in names if DRIVERS[n].venv != "httpx"]
    else:
        httpx_floors = True  # the repo venv has httpx
    if any(DRIVERS[n].venv == "fastmcp" for n in names):
        try:
            ensure_fastmcp_venv()
        except Exception as exc:
            if explicit:
                raise
            notes.append(f"fastmcp drivers skipped: {exc}")
            names = [n for n in names if DRIVERS[n].venv != "fastmcp"]
    if any(n.startswith("ours-") for n in names) and not _works("runtime", "from mcp_client import Client"):
        if explicit:
            print("mcp_client is not importable (from mcp_client import Client failed)", file=sys.stderr)
            return 2
        notes.append("our client skipped: `from mcp_client import Client` fails")
        names = [n for n in names if not n.startswith("ours-")]
    for n in list(names):
        era = DRIVERS[n].era
        for floor in (FLOOR[era], HTTPX_FLOOR[era]) if httpx_floors else (FLOOR[era],):
            if floor not in names:
                names.insert(0, floor)  # every ratio needs its floors in the same run
    drivers = [DRIVERS[n] for n in dict.fromkeys(names)]
    for note in notes:
        print(f"note: {note}")

    # A SIGTERM (CI timeout, kill) must still stop the server subprocess: turn it into an exception.
    signal.signal(signal.SIGTERM, _interrupt)
    server, url = _start_server()
    runs: list[dict[str, Any]] = []
    import_samples: dict[str, list[float]] = {}
    imports_to_run = (
        []
        if args.no_imports
        else [
            (label, venv, stmt)
            for label, venv, stmt in IMPORTS
            if (venv in ("main", "runtime") or any(d.venv == venv for d in drivers))
            and (not label.startswith("mcp_client") or any(d.name.startswith("ours-") for d in drivers))
        ]
    )
    for _label, venv, stmt in imports_to_run:  # warm the bytecode caches once
        _works(venv, stmt)
    started = time.time()
    try:
        for k in range(args.rounds):
            order = drivers[k % len(drivers) :] + drivers[: k % len(drivers)]
            for w in workloads:
                for d in order:
                    if WORKLOADS[w].legacy_only and d.era != "legacy":
                        continue
                    if d.venv == "httpx" and WORKLOADS[w].transport != "http":
                        continue  # over stdio an httpx floor is the plain floor
                    r = _run_one(d, w, url, args.calls, warmup)
                    r["round"] = k
                    runs.append(r)
                    status = (
                        f"{r['cpu_per_call_ms']:.3f} ms CPU/call"
                        if r.get("ok")
                        else f"FAILED {r.get('error')}"
                    )
                    print(f"[round {k + 1}/{args.rounds}] {w:<16} {d.name:<19} {status}", flush=True)
            for label, venv, stmt in imports_to_run:
                import_samples.setdefault(label, []).extend(_import_samples(venv, stmt, args.import_runs))
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()

    imports = {label: {"median_s": _median(s), "samples_s": s} for label, s in import_samples.items()}
    summary = _summarize(runs, drivers, workloads)
    targets = _targets(summary, imports)
    meta = {
        "calls": args.calls,
        "warmup": warmup,
        "rounds": args.rounds,
        "quick": args.quick,
        "python": sys.version.split()[0],
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "elapsed_s": time.time() - started,
        "notes": notes,
        "venv": "repo" if _IN_REPO_VENV else "runtime-only",
    }
    table = _table(summary, imports, targets, meta)
    print()
    print(table)
    if not args.workloads:  # MCP Apps (issue 44): a short report of its own, below the table
        print()
        _apps_report(args.quick)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(
        json.dumps(
            {
                "meta": meta,
                "summary": summary,
                "imports": imports,
                "targets": targets,
                "runs": runs,
                "table": table,
            },
            indent=1,
        )
    )
    print(
        f"\nwrote {args.output.relative_to(ROOT) if args.output.is_relative_to(ROOT) else args.output}"
        f" ({meta['elapsed_s']:.0f} s)"
    )
    # A peer that cannot hold a fan-out level is a finding (the table shows it), not a failed run.
    failed = [
        r
        for r in runs
        if not r.get("ok")
        and not (WORKLOADS[r["workload"]].fan_out and not r["driver"].startswith(("ours-", "floor-")))
    ]
    peer_failures = len([r for r in runs if not r.get("ok")]) - len(failed)
    if peer_failures:
        print(f"{peer_failures} fan-out run(s) of the official client or fastmcp failed (see the table)")
    if failed:
        print(f"{len(failed)} run(s) failed", file=sys.stderr)
        return 1
    if args.quick:
        print(f"smoke run passed: every driver answered every call correctly ({len(runs)} runs)")
    return 0


def _apps_report(quick: bool) -> None:
    from bench import apps_view

    try:
        for line in apps_view.report(quick=quick):
            print(line, flush=True)
    except Exception as exc:  # a report, not a run: the table above stands
        print(f"MCP Apps: not measured ({type(exc).__name__}: {exc})")


if __name__ == "__main__":
    sys.exit(main())
