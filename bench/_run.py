"""Run one driver on one workload in this process and print one JSON line with the measurements.

Usage: python -m bench._run DRIVER WORKLOAD TARGET --calls N [--warmup K]
  DRIVER   e.g. floor-modern, official-auto, fastmcp-modern, ours-legacy
  TARGET   the server URL for HTTP workloads; for stdio the driver starts ``python -m bench.server stdio``.

CPU is this process's user+system time (getrusage RUSAGE_SELF) around the timed loop only; peak RSS is
ru_maxrss at the end. Every answer is compared with the expected text; a wrong answer fails the run.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import resource
import socket
import sys
import time
from typing import Any
from urllib.parse import urlsplit

from bench._workloads import WORKLOADS, Workload

_FAMILIES = {"floor": "raw", "official": "official", "fastmcp": "fastmcp_client", "ours": "ours"}


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def _pct(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[k]


async def _measure(
    driver: str, workload: Workload, target: str, calls: int, warmup: int, profiler: Any = None
) -> dict[str, Any]:
    family, _, variant = driver.partition("-")
    module = importlib.import_module(f"bench.drivers.{_FAMILIES[family]}")
    wrong: list[str] = []
    calls = workload.calls_for(calls)

    cpu0 = _cpu()
    t0 = time.perf_counter()
    async with module.open_client(variant, workload.transport, target, workload.answer_delay_s) as call:
        connect_s = time.perf_counter() - t0
        connect_cpu_s = _cpu() - cpu0
        tool = workload.tool
        # The first call is timed on its own: lazy work (validators built on first use, a first
        # tools/list) lands there, and it is what a short-lived script or CLI waits for.
        first_cpu = _cpu()
        first_t = time.perf_counter()
        got = await call(tool, workload.arguments(0))
        first_call_s = time.perf_counter() - first_t
        first_call_cpu_s = _cpu() - first_cpu
        if got != workload.expected(0):
            wrong.append(f"first call: {got!r}")
        for i in range(warmup):
            got = await call(tool, workload.arguments(-1 - i))
            if got != workload.expected(-1 - i):
                wrong.append(f"warmup {i}: {got!r}")
        latencies: list[float] = []
        perf = time.perf_counter
        args = [workload.arguments(i) for i in range(calls)]
        expected = [workload.expected(i) for i in range(calls)]

        async def worker(indices: range) -> None:
            for i in indices:
                s = perf()
                got = await call(tool, args[i])
                latencies.append(perf() - s)
                if got != expected[i]:
                    wrong.append(f"call {i}: {got!r} != {expected[i]!r}")

        connections_before = _connections(target) if workload.transport == "http" else None
        if profiler is not None:
            profiler.enable()
        rss_before_kb = _maxrss_kb()
        cpu1 = _cpu()
        w1 = perf()
        if workload.concurrency == 1:
            await worker(range(calls))
        else:
            c = workload.concurrency
            await asyncio.gather(*(worker(range(k, calls, c)) for k in range(c)))
        wall = perf() - w1
        cpu = _cpu() - cpu1
        if profiler is not None:
            profiler.disable()
        connections_after = _connections(target) if connections_before is not None else None
    latencies.sort()
    # New TCP connections the client opened in the timed loop (the second query's own left out).
    new_connections = (
        connections_after - connections_before - 1
        if connections_before is not None and connections_after is not None
        else None
    )
    rss_growth_kb = _maxrss_kb() - rss_before_kb
    return {
        "driver": driver,
        "workload": workload.name,
        "calls": calls,
        "ok": not wrong and len(latencies) == calls,
        "wrong": wrong[:5],
        "connect_ms": connect_s * 1e3,
        "connect_cpu_ms": connect_cpu_s * 1e3,
        "first_call_ms": first_call_s * 1e3,
        "first_call_cpu_ms": first_call_cpu_s * 1e3,
        "wall_s": wall,
        "cpu_s": cpu,
        "cpu_per_call_ms": cpu / calls * 1e3,
        "wall_per_call_ms": wall / calls * 1e3,
        "calls_per_s": calls / wall if wall > 0 else float("inf"),
        "p50_ms": _pct(latencies, 0.50) * 1e3,
        "p99_ms": _pct(latencies, 0.99) * 1e3,
        "maxrss_mb": _maxrss_kb() / 1024,
        # What the timed loop added to the peak, per call it had in flight at once (fan-out levels).
        "rss_per_waiting_call_kb": rss_growth_kb / workload.concurrency,
        "new_connections": new_connections,
        "new_connections_per_call": new_connections / calls if new_connections is not None else None,
    }


def _connections(target: str) -> int | None:
    """The TCP connections the bench server accepted so far (``bench.server``), this query's own
    included; ``None`` for a server that does not count (stdio, another server).

    A raw socket, not urllib: the driver's peak RSS must be its client's alone.
    """
    parts = urlsplit(target)
    if parts.scheme != "http" or parts.hostname is None:
        return None
    try:
        with socket.create_connection((parts.hostname, parts.port or 80), timeout=10) as sock:
            sock.sendall(b"GET /bench/connections HTTP/1.1\r\nhost: bench\r\nconnection: close\r\n\r\n")
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            return None
        return int(json.loads(body)["connections"])
    except (OSError, ValueError, KeyError):
        return None


def _maxrss_kb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench._run")
    parser.add_argument("driver")
    parser.add_argument("workload", choices=sorted(WORKLOADS))
    parser.add_argument("target")
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args(argv)
    workload = WORKLOADS[args.workload]
    result = asyncio.run(_measure(args.driver, workload, args.target, args.calls, args.warmup))
    print("RESULT " + json.dumps(result), flush=True)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
