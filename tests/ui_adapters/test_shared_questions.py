"""examples/clients/web_app.py as several worker processes sharing one store (Redis, SQLite): issue 25.

Each worker is a real process of the example app (``--store ...``), its client talking to the forms
test server over HTTP. A question asked on one worker is listed and answered on another; the answer
reaches the call once (a second answer, on yet another worker, is refused); a worker killed with
SIGKILL leaves its legacy questions ``withdrawn`` once its lease ends, and its paused calls are
resumed by another worker. With SQLite, a worker is restarted in the middle.
"""

from __future__ import annotations

import os
import random
import signal
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from tests.support.servers import run_http_server

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

WEB_APP = Path(__file__).resolve().parents[2] / "examples" / "clients" / "web_app.py"
MODERN = "2026-07-28"
LEASE = 2.0  # seconds; the workers renew it every third of that
BOUND = 120  # seconds for a whole test
SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


@contextmanager
def workers(server: str, mode: str, store: str, count: int, lease: float = LEASE) -> Iterator[list[str]]:
    """``count`` processes of the web app on their own ports, sharing ``store``, each with ``lease``."""
    with ExitStack() as stack:
        urls = [
            stack.enter_context(
                run_http_server(
                    lambda port: [
                        *(sys.executable, str(WEB_APP), server, "--mode", mode),
                        *("--store", store, "--lease", str(lease), "--port", str(port)),
                    ],
                    path="",
                    ready_timeout=30,
                )
            )
            for _ in range(count)
        ]
        yield urls


def ask(i: int) -> dict[str, Any]:
    return {"tool": "ask", "arguments": {"message": f"question {i}", "schema": SCHEMA}}


async def listed_on(http: httpx.AsyncClient, worker: str, message: str) -> dict[str, Any]:
    """The pending question with ``message`` as ``worker`` lists it (polled, bounded by the caller)."""
    while True:
        for question in (await http.get(worker + "/api/questions")).json():
            if question["message"] == message:
                return question
        await anyio.sleep(0.05)


async def status_on(http: httpx.AsyncClient, worker: str, question_id: str) -> str:
    return (await http.get(f"{worker}/api/questions/{question_id}")).json()["status"]


async def one_round_trip(http: httpx.AsyncClient, urls: list[str], i: int, mode: str) -> str:
    """Ask question ``i`` on one worker, answer it on another, try again on a third; the call's text."""
    asker, answerer, late = random.sample(urls, 3)
    if mode == MODERN:
        paused = await http.post(asker + "/api/call", json=ask(i))
        assert paused.status_code == 202, paused.text
        call_id = paused.json()["paused"]
        question = await listed_on(http, answerer, f"question {i}")
        assert question["call_id"] == call_id
        reply = await http.post(
            f"{answerer}/api/questions/{question['id']}", json={"action": "accept", "content": {"n": i}}
        )
        assert reply.status_code == 200, reply.text
        again = await http.post(
            f"{late}/api/questions/{question['id']}", json={"action": "accept", "content": {"n": -1}}
        )
        assert again.status_code == 404
        stored = await http.get(f"{random.choice(urls)}/api/calls/{call_id}")
        assert stored.status_code == 200
        assert reply.json()["result"] == stored.json()
        return stored.json()["text"]
    async with anyio.create_task_group() as tg:
        outcome: list[httpx.Response] = []

        async def call() -> None:
            outcome.append(await http.post(asker + "/api/call", json=ask(i)))

        tg.start_soon(call)
        question = await listed_on(http, answerer, f"question {i}")
        assert question["call_id"] is None
        reply = await http.post(
            f"{answerer}/api/questions/{question['id']}", json={"action": "accept", "content": {"n": i}}
        )
        assert reply.json() == {"ok": True, "result": None} or reply.json() == {"ok": True}, reply.text
        again = await http.post(f"{late}/api/questions/{question['id']}", json={"action": "decline"})
        assert again.status_code == 404
    assert await status_on(http, random.choice(urls), question["id"]) == "answered"
    return outcome[0].json()["text"]


@pytest.mark.parametrize("mode", ["legacy", MODERN])
async def test_answers_posted_to_random_workers_reach_their_call_once(
    redis_url: str, forms_http_url: str, mode: str
) -> None:
    """100 questions per era (200 in all), 4 workers on Redis; each answered through another worker."""
    with workers(forms_http_url, mode, redis_url, 4) as urls:
        texts: dict[int, str] = {}
        limiter = anyio.CapacityLimiter(16)
        with anyio.fail_after(BOUND):
            async with httpx.AsyncClient(timeout=BOUND) as http, anyio.create_task_group() as tg:

                async def one(i: int) -> None:
                    async with limiter:
                        texts[i] = await one_round_trip(http, urls, i, mode)

                for i in range(100):
                    tg.start_soon(one, i)
            async with httpx.AsyncClient(timeout=BOUND) as http:
                assert (await http.get(urls[0] + "/api/questions")).json() == []
    assert texts == {i: f'accept {{"n": {i}}}' for i in range(100)}


async def kill(http: httpx.AsyncClient, worker: str) -> None:
    pid = (await http.get(worker + "/api/worker")).json()["pid"]
    os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("kind", ["redis", "sqlite"])
async def test_a_killed_worker_has_its_legacy_questions_withdrawn(
    request: pytest.FixtureRequest, tmp_path: Path, forms_http_url: str, kind: str
) -> None:
    store = request.getfixturevalue("redis_url") if kind == "redis" else f"sqlite://{tmp_path / 'q.db'}"
    with workers(forms_http_url, "legacy", store, 2) as (doomed, survivor):
        with anyio.fail_after(BOUND):
            async with httpx.AsyncClient(timeout=BOUND) as http, anyio.create_task_group() as tg:
                failed: list[BaseException] = []

                async def call() -> None:
                    try:
                        await http.post(doomed + "/api/call", json=ask(1))
                    except httpx.HTTPError as exc:  # the worker died under the call
                        failed.append(exc)

                tg.start_soon(call)
                question = await listed_on(http, survivor, "question 1")
                await kill(http, doomed)
                with anyio.fail_after(LEASE * 3 + 10):  # the lease, one sweep, and a busy machine
                    while True:
                        if await status_on(http, survivor, question["id"]) == "withdrawn":
                            break
                        await anyio.sleep(0.1)
                refused = await http.post(
                    f"{survivor}/api/questions/{question['id']}", json={"action": "decline"}
                )
                assert refused.status_code == 404
                assert (await http.get(survivor + "/api/questions")).json() == []
        assert failed


@pytest.mark.parametrize("kind", ["redis", "sqlite"])
async def test_an_answer_to_a_killed_workers_question_is_refused_before_any_sweep(
    request: pytest.FixtureRequest, tmp_path: Path, forms_http_url: str, kind: str
) -> None:
    """Issue 33 §2: the dead worker's lease has ended but no sweep has run yet (the survivor's lease is
    long, so it sweeps rarely). The answer must be refused and the question withdrawn, not taken for a
    call that died with its worker."""
    store = request.getfixturevalue("redis_url") if kind == "redis" else f"sqlite://{tmp_path / 'q.db'}"
    with (
        workers(forms_http_url, "legacy", store, 1) as (doomed,),
        workers(forms_http_url, "legacy", store, 1, lease=600) as (survivor,),
    ):
        with anyio.fail_after(BOUND):
            async with httpx.AsyncClient(timeout=BOUND) as http, anyio.create_task_group() as tg:

                async def call() -> None:
                    with pytest.raises(httpx.HTTPError):  # the worker dies under the call
                        await http.post(doomed + "/api/call", json=ask(2))

                tg.start_soon(call)
                question = await listed_on(http, survivor, "question 2")
                await kill(http, doomed)
                await anyio.sleep(LEASE + 1)  # its lease has ended; the survivor sweeps every 200 s
                assert await status_on(http, survivor, question["id"]) == "pending"  # no sweep yet
                late = await http.post(
                    f"{survivor}/api/questions/{question['id']}",
                    json={"action": "accept", "content": {"n": 2}},
                )
                assert late.status_code == 404, late.text
                assert await status_on(http, survivor, question["id"]) == "withdrawn"
                assert (await http.get(survivor + "/api/questions")).json() == []


async def test_a_killed_workers_paused_call_is_resumed_by_another(
    redis_url: str, forms_http_url: str
) -> None:
    with workers(forms_http_url, MODERN, redis_url, 2) as (doomed, survivor):
        with anyio.fail_after(BOUND):
            async with httpx.AsyncClient(timeout=BOUND) as http:
                call_id = (await http.post(doomed + "/api/call", json=ask(7))).json()["paused"]
                question = await listed_on(http, survivor, "question 7")
                await kill(http, doomed)
                await anyio.sleep(LEASE + 1)  # the lease ends: a paused call does not depend on it
                reply = await http.post(
                    f"{survivor}/api/questions/{question['id']}",
                    json={"action": "accept", "content": {"n": 7}},
                )
                assert reply.json() == {"ok": True, "result": {"text": 'accept {"n": 7}', "is_error": False}}
                assert (await http.get(f"{survivor}/api/calls/{call_id}")).json()["text"] == 'accept {"n": 7}'


@pytest.mark.parametrize("mode", ["legacy", MODERN])
async def test_sqlite_two_processes_and_a_restart(tmp_path: Path, forms_http_url: str, mode: str) -> None:
    """Two workers on one SQLite file; the first is restarted halfway; every answer reaches its call once."""
    store = f"sqlite://{tmp_path / 'questions.db'}"
    texts: dict[int, str] = {}
    with anyio.fail_after(BOUND):
        async with httpx.AsyncClient(timeout=BOUND) as http:
            with workers(forms_http_url, mode, store, 1) as (second,):
                paused: list[tuple[int, str]] = []
                with workers(forms_http_url, mode, store, 1) as (first,):
                    for i in range(10):
                        texts[i] = await one_round_trip_pair(http, first, second, i, mode)
                    if mode == MODERN:  # paused calls asked before the restart, answered after it
                        for i in range(10, 15):
                            paused.append(
                                (i, (await http.post(first + "/api/call", json=ask(i))).json()["paused"])
                            )
                with workers(forms_http_url, mode, store, 1) as (first,):  # the restart
                    for i, call_id in paused:
                        question = await listed_on(http, first, f"question {i}")
                        assert question["call_id"] == call_id
                        answered = await http.post(
                            f"{first}/api/questions/{question['id']}",
                            json={"action": "accept", "content": {"n": i}},
                        )
                        texts[i] = answered.json()["result"]["text"]
                    for i in range(20, 30):
                        texts[i] = await one_round_trip_pair(http, second, first, i, mode)
    expected = [*range(10), *range(20, 30)] if mode == "legacy" else [*range(15), *range(20, 30)]
    assert texts == {i: f'accept {{"n": {i}}}' for i in expected}


async def one_round_trip_pair(http: httpx.AsyncClient, asker: str, answerer: str, i: int, mode: str) -> str:
    if mode == MODERN:
        call_id = (await http.post(asker + "/api/call", json=ask(i))).json()["paused"]
        question = await listed_on(http, answerer, f"question {i}")
        reply = await http.post(
            f"{answerer}/api/questions/{question['id']}", json={"action": "accept", "content": {"n": i}}
        )
        assert (
            await http.post(f"{asker}/api/questions/{question['id']}", json={"action": "decline"})
        ).status_code == 404
        assert (await http.get(f"{asker}/api/calls/{call_id}")).json() == reply.json()["result"]
        return reply.json()["result"]["text"]
    outcome: list[httpx.Response] = []
    async with anyio.create_task_group() as tg:

        async def call() -> None:
            outcome.append(await http.post(asker + "/api/call", json=ask(i)))

        tg.start_soon(call)
        question = await listed_on(http, answerer, f"question {i}")
        reply = await http.post(
            f"{answerer}/api/questions/{question['id']}", json={"action": "accept", "content": {"n": i}}
        )
        assert reply.status_code == 200
        assert (
            await http.post(f"{asker}/api/questions/{question['id']}", json={"action": "decline"})
        ).status_code == 404
    return outcome[0].json()["text"]


async def test_workers_4_behind_one_port(redis_url: str, forms_http_url: str) -> None:
    """``web_app.py --workers 4 --store redis://...``: uvicorn's worker processes on one port."""
    with run_http_server(
        lambda port: [
            *(sys.executable, str(WEB_APP), forms_http_url, "--mode", "legacy", "--workers", "4"),
            *("--store", redis_url, "--port", str(port)),
        ],
        path="",
        ready_timeout=60,
    ) as url:
        fresh = httpx.Limits(max_keepalive_connections=0)  # every request a new connection: any worker
        async with httpx.AsyncClient(timeout=BOUND, limits=fresh) as http:
            with anyio.fail_after(BOUND):
                pids: set[int] = set()
                while len(pids) < 4:  # the workers start one after the other
                    reply = await http.get(url + "/api/worker")
                    if reply.status_code == 200:
                        pids.add(reply.json()["pid"])
                texts: dict[int, str] = {}
                async with anyio.create_task_group() as tg:

                    async def one(i: int) -> None:
                        texts[i] = await one_round_trip_pair(http, url, url, i, "legacy")

                    for i in range(12):
                        tg.start_soon(one, i)
    assert texts == {i: f'accept {{"n": {i}}}' for i in range(12)}
