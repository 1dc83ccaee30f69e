"""``python -m bench.shared_store``: the question broker on Redis with 4 web-app workers (issue 25).

Starts a private ``redis-server`` on loopback (in a temp dir, nothing persisted), the bench server
(``confirm(item)`` asks one boolean question), and 4 processes of ``examples/clients/web_app.py`` with
``--store redis://...``, first in the legacy era, then in 2026-07-28. Reports, per era:

* **answer -> call**: from posting an answer to one worker to the call's reply. Legacy: the call waits
  on *another* worker, so this is the cross-worker delivery (store write, pub/sub, the waiting worker
  sends the answer, the server finishes, the reply comes back). 2026-07-28: the worker that takes the
  answer resumes the call (another worker released it); p50/p99 over ``--questions`` sequential rounds.
* **answered questions per second** with ``--concurrency`` questions in flight across the 4 workers
  (each asked on one worker, answered through another), over ``--questions`` questions.

Report only (no targets). Needs Debian's ``redis-server`` and the repo venv (the web app uses Starlette
and uvicorn from the ``examples`` extra). About 30-60 s with the defaults.

    .venv/bin/python -m bench.shared_store [--questions 100] [--concurrency 16] [--workers 4]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx

ROOT = Path(__file__).resolve().parents[1]
WEB_APP = ROOT / "examples" / "clients" / "web_app.py"
RESULTS = ROOT / "bench" / "results"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_port(port: int, proc: subprocess.Popen[Any], what: str, within: float = 30) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with status {proc.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on port {port} within {within}s")


@contextmanager
def _process(argv: list[str], port: int, what: str) -> Iterator[None]:
    proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        _wait_for_port(port, proc, what)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def _redis() -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("bench.shared_store needs Debian's redis-server (apt-get install redis-server)")
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="mcp-bench-redis-") as folder:
        argv = [binary, "--bind", "127.0.0.1", "--port", str(port), "--dir", folder, "--save", ""]
        with _process([*argv, "--appendonly", "no"], port, "redis-server"):
            yield f"redis://127.0.0.1:{port}/0"


@contextmanager
def _bench_server() -> Iterator[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.server", "http"], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError(f"bench server did not start: {line!r}")
        yield f"http://127.0.0.1:{int(line.split()[1])}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def _workers(server: str, mode: str, store: str, count: int) -> Iterator[list[str]]:
    with ExitStack() as stack:
        urls: list[str] = []
        for _ in range(count):
            port = _free_port()
            argv = [
                sys.executable,
                str(WEB_APP),
                server,
                "--mode",
                mode,
                "--store",
                store,
                "--port",
                str(port),
            ]
            stack.enter_context(_process(argv, port, "web app worker"))
            urls.append(f"http://127.0.0.1:{port}")
        yield urls


async def _question_on(http: httpx.AsyncClient, worker: str, item: str) -> dict[str, Any]:
    message = f"Really process {item}?"
    with anyio.fail_after(60):
        while True:
            for question in (await http.get(worker + "/api/questions")).json():
                if question["message"] == message:
                    return question
            await anyio.sleep(0.01)


async def _round(http: httpx.AsyncClient, urls: list[str], i: int, mode: str) -> float:
    """Ask on worker i, answer on worker i+1; seconds from the answer's POST to the call's reply."""
    asker, answerer = urls[i % len(urls)], urls[(i + 1) % len(urls)]
    item = f"item{i}"
    body = {"tool": "confirm", "arguments": {"item": item}}
    answer = {"action": "accept", "content": {"confirm": True}}
    if mode == "2026-07-28":
        paused = (await http.post(asker + "/api/call", json=body)).json()["paused"]
        question = await _question_on(http, answerer, item)
        started = time.perf_counter()
        reply = (await http.post(f"{answerer}/api/questions/{question['id']}", json=answer)).json()
        elapsed = time.perf_counter() - started
        assert reply["result"]["text"] == f"done {item}", (paused, reply)
        return elapsed
    done = anyio.Event()
    finished: list[float] = []
    async with anyio.create_task_group() as tg:

        async def call() -> None:
            reply = (await http.post(asker + "/api/call", json=body)).json()
            finished.append(time.perf_counter())
            assert reply["text"] == f"done {item}", reply
            done.set()

        tg.start_soon(call)
        question = await _question_on(http, answerer, item)
        started = time.perf_counter()
        await http.post(f"{answerer}/api/questions/{question['id']}", json=answer)
        await done.wait()
    return finished[0] - started


async def _measure(urls: list[str], mode: str, questions: int, concurrency: int) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=4 * concurrency + 8)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        for i in range(3):  # warm-up
            await _round(http, urls, -1 - i, mode)
        latencies = [await _round(http, urls, i, mode) for i in range(questions)]
        limiter = anyio.CapacityLimiter(concurrency)
        started = time.perf_counter()
        async with anyio.create_task_group() as tg:

            async def one(i: int) -> None:
                async with limiter:
                    await _round(http, urls, 10_000 + i, mode)

            for i in range(questions):
                tg.start_soon(one, i)
        wall = time.perf_counter() - started
    ordered = sorted(latencies)
    return {
        "mode": mode,
        "answer_to_call_p50_ms": statistics.median(ordered) * 1000,
        "answer_to_call_p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
        "answered_per_second": questions / wall,
        "questions": questions,
        "concurrency": concurrency,
        "workers": len(urls),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--questions", type=int, default=100, help="questions per measurement (default 100)")
    parser.add_argument("--concurrency", type=int, default=16, help="questions in flight (default 16)")
    parser.add_argument("--workers", type=int, default=4, help="web app worker processes (default 4)")
    parser.add_argument("--output", type=Path, default=RESULTS / "shared_store.json")
    args = parser.parse_args(argv)
    results: list[dict[str, Any]] = []
    with _redis() as store, _bench_server() as server:
        for mode in ("legacy", "2026-07-28"):
            with _workers(server, mode, store, args.workers) as urls:
                results.append(anyio.run(_measure, urls, mode, args.questions, args.concurrency))
    print(
        f"QuestionBroker on Redis, {args.workers} web-app workers, {args.questions} questions per measurement"
    )
    print("| era | answer -> call p50 ms | p99 ms | answered/s (concurrency) |")
    print("|---|---|---|---|")
    for row in results:
        print(
            f"| {row['mode']} | {row['answer_to_call_p50_ms']:.1f} | {row['answer_to_call_p99_ms']:.1f} "
            f"| {row['answered_per_second']:.1f} ({row['concurrency']}) |"
        )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(
        json.dumps({"when": time.strftime("%Y-%m-%d %H:%M:%S"), "results": results}, indent=2)
    )
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
