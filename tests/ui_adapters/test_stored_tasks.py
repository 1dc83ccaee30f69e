"""Tool tasks kept in the question store (issue 25): followed by one worker, taken over when it dies.

The server is fastmcp-tasks (its ``ask_name`` tool runs as a SEP-2663 task and asks a form question
inside it). First two brokers of one process on one store (SQLite, Redis): a task started on one is
answered on the other, its outcome stored once, and nothing secret in the store. Then real worker
processes of ``examples/clients/web_app.py``: on Redis, the worker holding a task is killed with
SIGKILL mid-question and the other takes the task over, asks again, gets the answer and serves the
result; on SQLite, the worker is stopped and a new process lists the task and finishes it.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from mcp_client import Client, ToolTask
from mcp_client.types import TextContent
from tests.support.servers import run_http_server
from ui_adapters import MemoryStore, QuestionBroker, QuestionNotPendingError, RedisStore, SqliteStore
from ui_adapters.broker.stores import QuestionStore
from ui_adapters.broker.tasks import TaskOutcome

pytestmark = pytest.mark.anyio

WEB_APP = Path(__file__).resolve().parents[2] / "examples" / "clients" / "web_app.py"
LEASE = 2.0  # seconds, for the worker processes
BOUND = 120  # seconds for a whole test
SECRET = "Bearer s3cr3t-task-token"
ASK = {"tool": "ask_name", "arguments": {"greeting": "Welcome"}}


def text_of(result: Any) -> str:
    assert result is not None and not result.is_error, result
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


async def finished(broker: QuestionBroker, task_id: str) -> TaskOutcome:
    """The task's outcome, asked again until its worker (this broker or another) has stored it."""
    outcome = await broker.task_outcome(task_id)
    while outcome is None:  # written by another broker maybe: polled (no event to wait on)
        await anyio.sleep(0.05)
        outcome = await broker.task_outcome(task_id)
    return outcome


# ------------------------------------------------------------------- two brokers, one process


async def test_a_task_started_on_one_broker_is_answered_on_another_and_ends_once(
    shared_stores: Callable[[], QuestionStore], fastmcp_tasks_url: str
) -> None:
    starter, other = (
        QuestionBroker(store=shared_stores(), lease=5),
        QuestionBroker(store=shared_stores(), lease=5),
    )
    with anyio.fail_after(BOUND):
        async with starter, other:
            url = fastmcp_tasks_url.replace("http://", "http://user:pa55word@")
            async with Client(
                url, tasks=True, elicitation_callback=starter, headers={"Authorization": SECRET}
            ) as client:
                task = await starter.call_tool(client, "ask_name", {"greeting": "Hi"}, as_task=True)
                assert isinstance(task, ToolTask) and task.id is not None
                (stored,) = await other.stored_tasks()
                assert (stored.id, stored.tool, stored.worker) == (task.id, "ask_name", starter.worker)
                feed = aiter(other)
                question = await anext(feed)
                await feed.aclose()
                assert question.message == "What is your name?"
                assert question.context.task_id == task.id
                with pytest.raises(QuestionNotPendingError, match="alive"):
                    await other.resume_task(task.id, client)  # its holder is alive: not taken over
                await _assert_no_credentials(starter.store)
                await other.answer(question.id, {"name": "Lin"})
                outcome = await finished(other, task.id)  # the starter finishes it, in its own time
            assert (outcome.status, outcome.worker, outcome.error) == ("completed", starter.worker, None)
            assert text_of(outcome.result) == "Hi, Lin!"
            assert await other.stored_tasks() == []
            described = await other.describe_task(task.id)
            assert described is not None and described["result"]["content"][0]["text"] == "Hi, Lin!"
            with pytest.raises(QuestionNotPendingError, match="ended already"):
                await other.resume_task(task.id, client)


class WatchedStore(MemoryStore):
    """A ``MemoryStore`` that notes, for each ``"task"`` record written, its status and whether the
    task's outcome was in the store at that moment."""

    def __init__(self) -> None:
        super().__init__()
        self.task_writes: list[tuple[str, bool]] = []

    async def put_record(self, kind: str, record_id: str, payload: Any) -> None:
        if kind == "task":
            outcome = await self.get_record("task-result", record_id)
            self.task_writes.append((str(payload.get("status")), outcome is not None))
        await super().put_record(kind, record_id, payload)


async def test_a_tasks_record_never_says_it_ended_before_its_outcome_is_stored(
    fastmcp_tasks_url: str,
) -> None:
    """The follower keeps the task's status in its record while it runs; the end is said by the outcome
    record alone. A record saying ``completed`` with no outcome beside it would make ``describe_task`` show
    an ended task without a result (issue 33 §6, mutation 11)."""
    store = WatchedStore()
    broker = QuestionBroker(store=store, lease=5)
    with anyio.fail_after(BOUND):
        async with broker, Client(fastmcp_tasks_url, tasks=True, elicitation_callback=broker) as client:
            task = await broker.call_tool(client, "ask_name", {"greeting": "Hi"}, as_task=True)
            assert task.id is not None
            feed = aiter(broker)
            question = await anext(feed)
            await feed.aclose()
            await broker.answer(question.id, {"name": "Ada"})
            outcome = await finished(broker, task.id)  # the follower finishes it, in its own time
            assert outcome.status == "completed" and text_of(outcome.result) == "Hi, Ada!"
    assert store.task_writes and store.task_writes[0][0] == "working"
    ended = [status for status, _ in store.task_writes if status in ("completed", "failed", "cancelled")]
    assert ended == []


async def test_tasks_need_a_store() -> None:
    with pytest.raises(RuntimeError, match="MemoryStore"):
        await QuestionBroker().stored_tasks()
    # Refused before the server is asked to start a task nobody would follow: the client here was never
    # opened, so reaching it would raise a different error.
    never_opened = Client("http://127.0.0.1:9/mcp", tasks=True)
    with pytest.raises(RuntimeError, match=r"call_tool\(\.\.\., as_task=True\) keeps tasks in a store"):
        await QuestionBroker().call_tool(never_opened, "ask_name", {}, as_task=True)


async def _assert_no_credentials(store: QuestionStore | None) -> None:
    """The task record, as text: the task is there, the token and the URL's password are not."""
    if isinstance(store, SqliteStore):
        with sqlite3.connect(store.path) as connection:
            dump = "\n".join(connection.iterdump())
    elif isinstance(store, RedisStore):
        import redis.asyncio as aioredis

        raw = aioredis.from_url(store.url, decode_responses=True)
        try:
            keys = [key async for key in raw.scan_iter(match=store.namespace + ":*")]
            dump = json.dumps([await raw.get(key) for key in keys if await raw.type(key) == "string"])
        finally:
            await raw.aclose()
    else:
        assert isinstance(store, MemoryStore)
        dump = json.dumps(await store.list_records("task"))
    assert "ask_name" in dump and "askedKeys" in dump
    assert "s3cr3t" not in dump and "pa55word" not in dump


# ------------------------------------------------------------- worker processes of the web app


@contextmanager
def worker(server: str, store: str) -> Iterator[str]:
    """One process of the web app on its own port, sharing ``store``."""
    with run_http_server(
        lambda port: [
            *(sys.executable, str(WEB_APP), server),
            *("--store", store, "--lease", str(LEASE), "--port", str(port)),
        ],
        path="",
        ready_timeout=30,
    ) as url:
        yield url


async def task_question(
    http: httpx.AsyncClient, url: str, task_id: str, not_id: str | None = None
) -> dict[str, Any]:
    """The pending question of task ``task_id`` as ``url`` lists it (other than ``not_id``); polled."""
    while True:
        for question in (await http.get(url + "/api/questions")).json():
            if question["task_id"] == task_id and question["id"] != not_id:
                return question
        await anyio.sleep(0.1)


async def task_result(http: httpx.AsyncClient, url: str, task_id: str) -> dict[str, Any]:
    while True:
        reply = await http.get(f"{url}/api/tasks/{task_id}")
        assert reply.status_code == 200, reply.text
        if reply.json()["status"] not in ("working", "input_required"):
            return reply.json()
        await anyio.sleep(0.1)


async def whoami(http: httpx.AsyncClient, url: str) -> dict[str, Any]:
    return (await http.get(url + "/api/worker")).json()


@pytest.mark.slow
async def test_a_killed_workers_task_is_taken_over_answered_and_served_by_another(
    redis_url: str, fastmcp_tasks_url: str
) -> None:
    with worker(fastmcp_tasks_url, redis_url) as doomed, worker(fastmcp_tasks_url, redis_url) as survivor:
        with anyio.fail_after(BOUND):
            async with httpx.AsyncClient(timeout=BOUND) as http:
                started = await http.post(doomed + "/api/tasks", json=ASK)
                assert started.status_code == 202, started.text
                task_id = started.json()["task"]
                first = await task_question(http, survivor, task_id)  # asked on the doomed worker
                assert first["message"] == "What is your name?"
                listed = (await http.get(survivor + "/api/tasks")).json()
                assert [(t["id"], t["worker"]) for t in listed] == [
                    (task_id, (await whoami(http, doomed))["worker"])
                ]
                os.kill((await whoami(http, doomed))["pid"], signal.SIGKILL)
                # the lease ends: the question is withdrawn, the survivor takes the task over and asks again
                again = await task_question(http, survivor, task_id, not_id=first["id"])
                assert again["message"] == "What is your name?"
                assert (await http.get(f"{survivor}/api/questions/{first['id']}")).json()[
                    "status"
                ] == "withdrawn"
                reply = await http.post(
                    f"{survivor}/api/questions/{again['id']}",
                    json={"action": "accept", "content": {"name": "Kim"}},
                )
                assert reply.status_code == 200, reply.text
                done = await task_result(http, survivor, task_id)
                heir = (await whoami(http, survivor))["worker"]
                assert done["status"] == "completed" and done["worker"] == heir
                assert done["result"] == {"text": "Welcome, Kim!", "is_error": False}
                assert (await http.get(survivor + "/api/tasks")).json() == []  # finished once, gone


@pytest.mark.slow
async def test_sqlite_a_task_outlives_its_worker_process_and_is_finished_by_the_next(
    tmp_path: Path, fastmcp_tasks_url: str
) -> None:
    store = f"sqlite://{tmp_path / 'tasks.db'}"
    with anyio.fail_after(BOUND):
        async with httpx.AsyncClient(timeout=BOUND) as http:
            with worker(fastmcp_tasks_url, store) as first:
                started = await http.post(first + "/api/tasks", json=ASK)
                assert started.status_code == 202, started.text
                task_id = started.json()["task"]
                asked = await task_question(http, first, task_id)
                stopped_worker = (await whoami(http, first))["worker"]
            # the first process stopped (SIGTERM): the task is still in the file, and so is the server's task
            with worker(fastmcp_tasks_url, store) as second:
                listed = (await http.get(second + "/api/tasks")).json()
                assert [task["id"] for task in listed] == [task_id]
                again = await task_question(http, second, task_id, not_id=asked["id"])
                reply = await http.post(
                    f"{second}/api/questions/{again['id']}",
                    json={"action": "accept", "content": {"name": "Max"}},
                )
                assert reply.status_code == 200, reply.text
                done = await task_result(http, second, task_id)
                assert done["status"] == "completed"
                assert done["worker"] not in ("", stopped_worker)
                assert done["result"] == {"text": "Welcome, Max!", "is_error": False}
            with worker(fastmcp_tasks_url, store) as third:  # a restart later: the outcome is still served
                assert (await http.get(f"{third}/api/tasks/{task_id}")).json()["result"][
                    "text"
                ] == "Welcome, Max!"
                assert (await http.get(third + "/api/tasks")).json() == []
