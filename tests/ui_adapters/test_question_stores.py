"""The store seam (ui_adapters.broker.stores) on each store, and two brokers of one process sharing a store.

Every store is checked against the same contract: a question settles once (the second answer loses),
a record is taken once, a dead worker's questions are withdrawn by a sweep, ``purge`` empties it.
SQLite is reopened from its file (a restart); Redis is a real ``redis-server`` on loopback. Then the
broker's own API (``pending``, ``async for``, ``answer``, ``decline``, ``resume``) is used across two
brokers on one store, against the forms test server, and the store is searched for the token the
client sent: it must not be there.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sqlite3
import sys
import time
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_client import Client, ClientRequestContext, MCPClientError
from mcp_client.types import CallToolResult, ElicitRequestFormParams, ElicitResult, Implementation
from tests.hostile.conftest import HTTP_SCRIPT
from tests.support.servers import LOOPBACK, run_http_server
from ui_adapters import (
    MemoryStore,
    PausedCall,
    QuestionBroker,
    QuestionNotPendingError,
    RedisStore,
    SqliteStore,
)
from ui_adapters.broker._question_record import apply_entry, question_from_entry, question_record, result_wire
from ui_adapters.broker.pending import PendingQuestion
from ui_adapters.broker.stores import QuestionStore, redact_server
from ui_adapters.broker.stores.base import UnreadableEntries

pytestmark = pytest.mark.anyio

BOUND = 30
SECRET = "Bearer s3cr3t-token-never-stored"
SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
OPEN_SCRIPT = Path(__file__).with_name("sqlite_open_script.py")


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[QuestionStore]:
    made: QuestionStore
    if request.param == "memory":
        made = MemoryStore()
    elif request.param == "sqlite":
        made = SqliteStore(tmp_path / "q.db")
    else:
        made = RedisStore(request.getfixturevalue("redis_url"), namespace=f"test-{tmp_path.name}")
    await made.open()
    try:
        yield made
    finally:
        await made.purge()
        await made.close()


def record(question_id: str, call_id: str | None = None) -> dict[str, Any]:
    return {"id": question_id, "call_id": call_id, "view": {"message": "?"}}


async def test_a_question_settles_once(store: QuestionStore) -> None:
    await store.heartbeat("w1", 60)  # the owner lives: its call can take the answer
    await store.add_question(record("q1"), owner="w1", expires_in=60)
    await store.add_question(record("q2", call_id="c1"), owner=None, expires_in=60)
    assert [entry["id"] for entry in await store.pending_questions()] == ["q1", "q2"]
    answer = {"action": "accept", "content": {"n": 1}}
    assert await store.settle_question("q1", "answered", answer) is True
    assert await store.settle_question("q1", "declined", {"action": "decline"}) is False
    entry = await store.get_question("q1")
    assert entry is not None and (entry["status"], entry["result"]) == ("answered", answer)
    assert [entry["id"] for entry in await store.pending_questions()] == ["q2"]
    assert await store.get_question("nope") is None


async def test_a_record_is_taken_once(store: QuestionStore) -> None:
    await store.put_record("task", "t1", {"taskId": "abc", "server": "http://x"})
    assert await store.list_records("task") == [{"taskId": "abc", "server": "http://x"}]
    assert await store.get_record("task", "t1") == {"taskId": "abc", "server": "http://x"}
    taken = await store.take_record("task", "t1")
    assert taken == {"taskId": "abc", "server": "http://x"}
    assert await store.take_record("task", "t1") is None
    assert await store.list_records("task") == []


async def test_of_two_claimants_one_wins_and_keeps_it_while_its_lease_lives(store: QuestionStore) -> None:
    await store.heartbeat("w1", 60)
    await store.heartbeat("w2", 60)
    await store.put_record("task", "t1", {"id": "t1"})
    outcomes: dict[str, bool] = {}

    async def claim(worker: str) -> None:
        outcomes[worker] = await store.claim_record("task", "t1", worker)

    async with anyio.create_task_group() as tg:
        tg.start_soon(claim, "w1")
        tg.start_soon(claim, "w2")
    assert sorted(outcomes.values()) == [False, True]
    (winner,) = [worker for worker, won in outcomes.items() if won]
    loser = "w2" if winner == "w1" else "w1"
    assert await store.claim_record("task", "t1", winner) is True  # a renewal
    assert await store.claim_record("task", "t1", loser) is False
    assert await store.claim_record("task", "t2", loser) is True  # another record: its own claim


async def test_a_claim_passes_on_when_its_holders_lease_ends_and_ends_with_the_record(
    store: QuestionStore,
) -> None:
    await store.heartbeat("dying", 0.3)
    await store.heartbeat("heir", 60)
    await store.heartbeat("late", 60)
    assert await store.claim_record("task", "t", "dying") is True  # claimed before it is put
    await store.put_record("task", "t", {"id": "t"})
    assert await store.claim_record("task", "t", "heir") is False
    await anyio.sleep(0.6)  # the lease ends without a heartbeat: the holder is dead
    assert await store.claim_record("task", "t", "heir") is True
    assert await store.claim_record("task", "t", "late") is False  # taken over exactly once
    await store.sweep()
    assert await store.claim_record("task", "t", "late") is False  # a sweep keeps a live claim
    await store.release("heir")  # a clean stop: at once
    assert await store.claim_record("task", "t", "late") is True
    assert await store.take_record("task", "t") == {"id": "t"}
    await store.put_record("task", "t", {"id": "t", "again": True})
    assert await store.claim_record("task", "t", "heir") is True  # the old claim went with the record


async def test_a_dead_workers_questions_are_withdrawn_by_a_sweep(store: QuestionStore) -> None:
    await store.heartbeat("alive", 60)
    await store.heartbeat("dying", 0.2)
    await store.add_question(record("mine"), owner="alive", expires_in=60)
    await store.add_question(record("theirs"), owner="dying", expires_in=60)
    await store.add_question(record("paused", call_id="c"), owner=None, expires_in=60)
    await anyio.sleep(0.5)
    assert await store.sweep() == 1
    entry = await store.get_question("theirs")
    assert entry is not None and entry["status"] == "withdrawn"
    assert sorted(entry["id"] for entry in await store.pending_questions()) == ["mine", "paused"]


async def test_an_answer_to_a_dead_workers_question_is_refused_before_any_sweep(
    store: QuestionStore,
) -> None:
    """Issue 33 §2: the owner's lease ended, no sweep ran: the answer is refused, the question withdrawn."""
    await store.heartbeat("dying", 0.2)
    await store.heartbeat("alive", 60)
    await store.add_question(record("theirs"), owner="dying", expires_in=60)
    await store.add_question(record("mine"), owner="alive", expires_in=60)
    await store.add_question(record("paused", call_id="c"), owner=None, expires_in=60)
    await anyio.sleep(0.5)  # the lease ends without a heartbeat
    answer = {"action": "accept", "content": {"n": 1}}
    assert await store.settle_question("theirs", "answered", answer) is False
    entry = await store.get_question("theirs")
    assert entry is not None and (entry["status"], entry["result"]) == ("withdrawn", None)
    assert await store.settle_question("theirs", "answered", answer) is False  # and stays so
    assert await store.settle_question("mine", "answered", answer) is True  # a live owner's: taken
    assert await store.settle_question("paused", "answered", answer) is True  # no owner: no lease
    assert await store.sweep() == 0  # nothing left for the sweep
    await store.add_question(record("late"), owner="dying", expires_in=60)
    assert await store.settle_question("late", "withdrawn", None) is True  # what a sweep asks


async def test_purge_empties_the_store(store: QuestionStore) -> None:
    await store.add_question(record("q"), owner=None, expires_in=60)
    await store.put_record("paused-call", "c", {"id": "c"})
    await store.heartbeat("w", 60)
    assert await store.claim_record("task", "t", "w") is True
    await store.purge()
    assert await store.claim_record("task", "t", "other") is True
    assert await store.pending_questions() == []
    assert await store.get_question("q") is None
    assert await store.list_records("paused-call") == []


async def test_pending_questions_expire(store: QuestionStore) -> None:
    await store.add_question(record("short"), owner=None, expires_in=0.2)
    await anyio.sleep(0.5)
    await store.sweep()
    assert await store.pending_questions() == []
    assert await store.get_question("short") is None


async def test_a_sqlite_file_outlives_its_store(tmp_path: Path) -> None:
    first = SqliteStore(tmp_path / "q.db")
    await first.add_question(record("q"), owner=None, expires_in=60)
    await first.put_record("paused-call", "c", {"id": "c"})
    await first.close()
    again = SqliteStore(tmp_path / "q.db")
    assert [entry["id"] for entry in await again.pending_questions()] == ["q"]
    assert await again.take_record("paused-call", "c") == {"id": "c"}
    await again.close()


async def test_redis_keys_stay_in_their_namespace(redis_url: str) -> None:
    import redis.asyncio as aioredis

    one, other = RedisStore(redis_url, namespace="app-one"), RedisStore(redis_url, namespace="app-two")
    await one.open()
    await other.open()
    try:
        await one.add_question(record("q"), owner=None, expires_in=60)
        assert await other.pending_questions() == []
        raw = aioredis.from_url(redis_url, decode_responses=True)
        keys = sorted(await raw.keys("*"))
        await raw.aclose()
        assert keys and all(key.startswith("app-one:") for key in keys)
        assert 0 < await _ttl(redis_url, "app-one:q:q") <= 60_000
        await one.purge()
        assert await other.get_question("q") is None and await one.get_question("q") is None
    finally:
        await one.close()
        await other.close()
    with pytest.raises(ValueError, match="namespace"):
        RedisStore(redis_url, namespace="bad *")


async def _ttl(url: str, key: str) -> int:
    import redis.asyncio as aioredis

    raw = aioredis.from_url(url)
    try:
        return int(await raw.pttl(key))
    finally:
        await raw.aclose()


# ------------------------------------------------------------ two brokers on one store, one process


@pytest.fixture(params=["sqlite", "redis"])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A factory of stores on the same data (two workers' views)."""
    if request.param == "sqlite":
        return lambda: SqliteStore(tmp_path / "shared.db")
    url = request.getfixturevalue("redis_url")
    return lambda: RedisStore(url, namespace=f"brokers-{tmp_path.name}")


def with_credentials(url: str) -> str:
    return url.replace("http://", "http://user:pa55word@")


async def test_a_legacy_call_waiting_on_one_broker_is_answered_on_another(
    shared: Any, forms_http_url: str
) -> None:
    await legacy_call_across_brokers(shared, forms_http_url)


@pytest.mark.parametrize("anyio_backend", ["trio"])
async def test_sqlite_store_on_trio(forms_http_url: str, tmp_path: Path) -> None:
    await legacy_call_across_brokers(lambda: SqliteStore(tmp_path / "trio.db"), forms_http_url)


async def legacy_call_across_brokers(shared: Any, forms_http_url: str) -> None:
    asker, answerer = QuestionBroker(store=shared(), lease=5), QuestionBroker(store=shared(), lease=5)
    outcome: list[CallToolResult] = []
    with anyio.fail_after(BOUND):
        async with asker, answerer:
            async with (
                Client(
                    with_credentials(forms_http_url),
                    mode="legacy",
                    elicitation_callback=asker,
                    headers={"Authorization": SECRET},
                ) as client,
                anyio.create_task_group() as tg,
            ):

                async def call(message: str) -> None:
                    outcome.append(await client.call_tool("ask", {"message": message, "schema": SCHEMA}))

                tg.start_soon(call, "first?")
                feed = aiter(answerer)  # async for: the asker's questions, seen by the other broker
                question = await anext(feed)
                assert question.message == "first?" and question.call_id is None
                assert [q.id for q in answerer.pending()] == [question.id]
                await answerer.answer(question.id, {"n": 1})
                with pytest.raises(QuestionNotPendingError):
                    await asker.decline(question.id)  # answered elsewhere already
                tg.start_soon(call, "second?")
                second = await anext(feed)
                assert second.message == "second?" and answerer.pending() == [second]
                await answerer.decline(second.id)
                await feed.aclose()
            described = await asker.describe(question.id)
            assert described is not None and described["status"] == "answered"
            await _assert_no_credentials(asker)
    assert sorted(texts(result) for result in outcome) == ['accept {"n": 1}', "decline null"]


async def test_a_paused_call_is_resumed_by_the_other_broker(shared: Any, forms_http_url: str) -> None:
    first, second = QuestionBroker(store=shared()), QuestionBroker(store=shared())
    with anyio.fail_after(BOUND):
        async with first, second:
            async with Client(forms_http_url, mode="2026-07-28") as client:
                paused = await first.call_tool(client, "ask", {"message": "n?", "schema": SCHEMA})
            assert isinstance(paused, PausedCall)
            (stored,) = await second.stored_calls()
            assert stored.id == paused.id and not stored.ready
            question = await second._find(next(iter(paused.questions.values())).id)  # pyright: ignore[reportPrivateUsage]
            await second.answer(question.id, {"n": 5})
            async with Client(forms_http_url, mode="2026-07-28") as other:
                result = await second.resume(paused.id, other)
                with pytest.raises(QuestionNotPendingError, match="resumed already"):
                    await first.resume(paused.id, other)
    assert texts(result) == 'accept {"n": 5}'


class BothReadStore(MemoryStore):
    """A ``MemoryStore`` whose ``get_record`` of a paused call returns only once two workers have read
    it: two ``resume`` calls then both find the call before either takes it off the store."""

    def __init__(self) -> None:
        super().__init__()
        self.readers = 0
        self.both_read = anyio.Event()

    async def get_record(self, kind: str, record_id: str) -> dict[str, Any] | None:
        found = await super().get_record(kind, record_id)
        if kind == "paused-call":
            self.readers += 1
            if self.readers == 2:
                self.both_read.set()
            await self.both_read.wait()
        return found


async def test_of_two_workers_resuming_one_paused_call_at_once_exactly_one_sends_it(
    forms_http_url: str,
) -> None:
    """``take_record`` decides which worker resumes: the other is refused and sends nothing (issue 33 §6,
    mutation 10)."""
    store = BothReadStore()
    first, second = QuestionBroker(store=store), QuestionBroker(store=store)
    outcomes: list[object] = []
    with anyio.fail_after(BOUND):
        async with first, second, Client(forms_http_url, mode="2026-07-28") as client:
            paused = await first.call_tool(client, "ask", {"message": "n?", "schema": SCHEMA})
            assert isinstance(paused, PausedCall)
            (question,) = paused.questions.values()
            await second.answer(question.id, {"n": 8})

            async def resume(broker: QuestionBroker) -> None:
                try:
                    outcomes.append(await broker.resume(paused.id, client))
                except QuestionNotPendingError as exc:
                    outcomes.append(exc)

            async with anyio.create_task_group() as tg:
                tg.start_soon(resume, first)
                tg.start_soon(resume, second)
            assert await first.stored_calls() == []
    results = [outcome for outcome in outcomes if isinstance(outcome, CallToolResult)]
    refusals = [outcome for outcome in outcomes if isinstance(outcome, QuestionNotPendingError)]
    assert [texts(result) for result in results] == ['accept {"n": 8}']
    assert len(refusals) == 1 and "another worker" in str(refusals[0])


def texts(result: Any) -> str:
    assert isinstance(result, CallToolResult), result
    return "\n".join(block.text for block in result.content if block.type == "text")


async def _assert_no_credentials(broker: QuestionBroker) -> None:
    """Everything in the store, as text: the token and the URL's password are not in it."""
    store = broker.store
    if isinstance(store, SqliteStore):
        with sqlite3.connect(store.path) as connection:
            dump = "\n".join(connection.iterdump())
    elif isinstance(store, MemoryStore):
        dump = json.dumps(store._questions)  # pyright: ignore[reportPrivateUsage]
    else:
        import redis.asyncio as aioredis

        assert isinstance(store, RedisStore)
        raw = aioredis.from_url(store.url, decode_responses=True)
        try:
            dump = json.dumps(
                [await raw.hgetall(key) async for key in raw.scan_iter(match=store.namespace + ":q:*")]
            )
        finally:
            await raw.aclose()
    assert "question" in dump or "first?" in dump
    assert "s3cr3t" not in dump and "pa55word" not in dump


# ------------------------------------------------------------------------- the SQLite file itself


async def test_four_processes_opening_one_new_sqlite_file_at_once_all_succeed(tmp_path: Path) -> None:
    """Issue 33 §1.10: ``--workers 4`` on a new file; switching it to WAL must wait, never fail.

    Each of 96 rounds, four processes open a new file within a fraction of a millisecond of each other
    (1 to 3 in 100 opens failed at once with "database is locked" before the fix: 4 to 12 of these 384).
    """
    workers, rounds = 4, 96
    start = str(time.time() + 5)  # every process imported and waiting by then, even on a busy machine
    command = [sys.executable, str(OPEN_SCRIPT), str(tmp_path), start, str(rounds)]
    processes = [await anyio.open_process(command) for _ in range(workers)]
    lines: list[str] = []
    with anyio.fail_after(120):
        for process in processes:
            async with process:
                assert process.stdout is not None
                lines += (await _read_all(process.stdout)).decode().splitlines()
                assert await process.wait() == 0
    assert len(lines) == workers * rounds
    assert [line for line in lines if line != "ok"] == []


async def _read_all(stream: Any) -> bytes:
    chunks = [chunk async for chunk in stream]
    return b"".join(chunks)


async def test_a_file_that_is_not_sqlite_is_named_and_left_untouched(tmp_path: Path) -> None:
    """Issue 33 §1.9: an ``MCPClientError`` naming the file and the fix; the file keeps its bytes."""
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    before = path.read_bytes()
    store = SqliteStore(path)
    with pytest.raises(MCPClientError) as raised:
        await store.open()
    message = str(raised.value)
    assert str(path) in message and "not a SQLite database" in message
    assert "SqliteStore" in message  # the fix: another path
    assert not isinstance(raised.value, sqlite3.Error)
    await store.close()
    assert path.read_bytes() == before
    assert _names(tmp_path) == ["notes.db"]  # no -wal or -shm beside it


async def test_a_paused_call_is_stored_without_the_urls_password(tmp_path: Path, forms_http_url: str) -> None:
    """Issue 33 §1.8: the raw SQLite file (and its WAL) never holds the ``user:password@`` of the URL."""
    path = tmp_path / "paused.db"
    with anyio.fail_after(BOUND):
        async with QuestionBroker(store=SqliteStore(path)) as broker:
            async with Client(with_credentials(forms_http_url), mode="2026-07-28") as client:
                paused = await broker.call_tool(client, "ask", {"message": "n?", "schema": SCHEMA})
                assert isinstance(paused, PausedCall)
                raw = _bytes_of(tmp_path, "paused.db*")
                assert paused.id.encode() in raw  # the call is in the file...
                assert b"pa55word" not in raw and b"user:" not in raw  # ...without the credentials
                (stored,) = await broker.stored_calls()
                assert stored.server == forms_http_url
                (question,) = paused.questions.values()
                await broker.answer(question.id, {"n": 3})
                result = await broker.resume(paused.id, client)  # resumed as before
    assert texts(result) == 'accept {"n": 3}'


@pytest.fixture(scope="module")
def nameless_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The hostile server of tests/hostile: to a client that adopts 2026-07-28 it never gives a name."""
    log = tmp_path_factory.mktemp("hostile") / "access.jsonl"
    argv = lambda port: [  # noqa: E731
        sys.executable, str(HTTP_SCRIPT), "http", "--host", LOOPBACK, "--port", str(port), "--log", str(log)
    ]  # fmt: skip
    with run_http_server(argv, path="") as base:
        yield f"{base}/mcp?t=nameless"


async def test_a_paused_call_of_a_server_without_a_name_leaves_no_password_in_the_store(
    tmp_path: Path, nameless_url: str
) -> None:
    """Issue 42: a server that gave no ``serverInfo`` (the hostile server, its version adopted without
    a handshake) is shown by its URL (``server_name``); the stored question kept that name as the raw
    URL, ``user:password@`` included, though ``server`` was cleaned."""
    path = tmp_path / "nameless.db"
    url = with_credentials(nameless_url)
    with anyio.fail_after(BOUND):
        async with QuestionBroker(store=SqliteStore(path)) as broker:
            async with Client(url, mode="2026-07-28") as client:
                paused = await broker.call_tool(client, "state_tagged", {"tag": "nameless"})
                assert isinstance(paused, PausedCall) and client.server_info is None
                (question,) = paused.questions.values()
                assert question.server_name == nameless_url  # the client never shows the password
                raw = _bytes_of(tmp_path, "nameless.db*")
                assert question.id.encode() in raw and paused.id.encode() in raw  # in the file...
                assert b"pa55word" not in raw and b"user:" not in raw  # ...without the credentials
                described = await broker.describe(question.id)
                assert described is not None
                assert described["server"] == described["server_name"] == nameless_url
                await broker.answer(question.id, {"ok": True})
                result = await broker.resume(paused.id, client)
    assert texts(result) == "nameless: accept {'ok': True}"


def _names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def _bytes_of(folder: Path, pattern: str) -> bytes:
    """The raw bytes of the files matching ``pattern`` (a SQLite file and its WAL)."""
    return b"".join(path.read_bytes() for path in sorted(folder.glob(pattern)))


# ------------------------------------------------------------------ entries nobody can read


@pytest.mark.parametrize("kind", ["memory", "sqlite", "redis"])
async def test_a_question_entry_that_cannot_be_read_is_skipped_and_logged_once(
    kind: str,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    forms_http_url: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 42: a pending question whose record is not JSON ("bad": SQLite, Redis) or is JSON but no
    question ("odd": every store) stopped every worker from seeing new questions, and an answer given
    on another worker never reached its call. Each is skipped, and logged once by each worker; the
    questions around them go on as usual."""
    memory = MemoryStore()
    namespace = f"unreadable-{tmp_path.name}"
    shared: Any = {
        "memory": lambda: memory,
        "sqlite": lambda: SqliteStore(tmp_path / "shared.db"),
        "redis": lambda: RedisStore(request.getfixturevalue("redis_url"), namespace=namespace),
    }[kind]
    planter: QuestionStore = shared()
    await planter.open()
    await planter.add_question({"id": "odd"}, owner=None, expires_in=600)  # JSON, but no question
    await planter.put_record("paused-call", "junk", {"format": 1})  # JSON, but no paused call
    bad = ["odd"]
    if kind == "sqlite":
        with sqlite3.connect(tmp_path / "shared.db") as raw:
            raw.execute(
                "INSERT INTO questions (id, status, owner, call_id, record, result, created, expires) "
                "VALUES ('bad', 'pending', NULL, NULL, 'not json {', NULL, ?, ?)",
                (time.time(), time.time() + 600),
            )
            raw.execute(
                "INSERT INTO records (kind, id, payload, expires) VALUES ('paused-call', 'broken', '{', ?)",
                (time.time() + 600,),
            )
        bad.append("bad")
    elif kind == "redis":
        import redis.asyncio as aioredis

        raw_redis = aioredis.from_url(request.getfixturevalue("redis_url"), decode_responses=True)
        await raw_redis.hset(f"{namespace}:q:bad", mapping={"status": "pending", "record": "not json {"})
        await raw_redis.zadd(f"{namespace}:pending", {"bad": time.time()})
        await raw_redis.set(f"{namespace}:r:paused-call:broken", "{")
        await raw_redis.sadd(f"{namespace}:r:paused-call", "broken")
        await raw_redis.aclose()
        bad.append("bad")
    try:
        with caplog.at_level(logging.WARNING, logger="ui_adapters.broker"):
            await legacy_call_across_brokers(shared, forms_http_url)  # seen, answered, reached its call
            async with QuestionBroker(store=shared()) as looker:
                for question_id in bad:
                    assert await looker.describe(question_id) is None
                    with pytest.raises(QuestionNotPendingError):
                        await looker.answer(question_id, {"n": 1})
                assert await looker.stored_calls() == []  # the bad paused calls skipped, not raised
    finally:
        await planter.purge()
        await planter.close()
    for question_id in bad:
        logged = [r.getMessage() for r in caplog.records if f"question {question_id!r}" in r.getMessage()]
        # once per worker (the two of the call, and the looker), never once per look
        assert len(logged) == 3, logged
        assert "cannot be read" in logged[0] and "purge()" in logged[0]


# ------------------------------------------------------------ entries nobody can read, store by store


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    broker = [r for r in caplog.records if r.name == "ui_adapters.broker"]
    return [r.getMessage() for r in broker if r.levelname == "WARNING"]


def test_an_entry_that_is_not_a_json_object_is_named_once_with_the_fix(
    caplog: pytest.LogCaptureFixture,
) -> None:
    entries = UnreadableEntries("the store")
    with caplog.at_level(logging.WARNING, logger="ui_adapters.broker"):
        assert entries.json_object("question", "q1", None) is None  # no entry: nothing to say
        assert entries.json_object("question", "q1", '{"id": "q1"}') == {"id": "q1"}
        assert entries.json_object("question", "q2", "not json {") is None
        assert entries.json_object("question", "q2", "not json {") is None  # met again: not logged again
        assert entries.json_object("task record", 7, b"[1, 2]") is None
        assert entries.json_object("question", "q3", b"\xff\xfe{") is None
    logged = _warnings(caplog)
    assert logged[0] == (
        "'the store': the question 'q2' in the store cannot be read (not JSON: Expecting value: line 1 "
        "column 1 (char 0)); it is skipped. Delete that entry, or empty the store with purge()"
    )
    assert logged[1] == (
        "'the store': the task record '7' in the store cannot be read (a JSON list, not an object); it is "
        "skipped. Delete that entry, or empty the store with purge()"
    )
    assert logged[2].startswith("'the store': the question 'q3' in the store cannot be read (not JSON: ")
    assert len(logged) == 3


def test_the_oldest_unreadable_entries_are_forgotten_past_the_limit(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(UnreadableEntries, "_MAX", 2)
    entries = UnreadableEntries("store")
    with caplog.at_level(logging.WARNING, logger="ui_adapters.broker"):
        for entry_id in ("a", "b", "b", "c", "c", "b", "a"):  # "a" forgotten when "c" came
            entries.skip("question", entry_id, "broken")
    assert [message.split("'")[3] for message in _warnings(caplog)] == ["a", "b", "c", "a"]


async def test_a_sqlite_store_skips_what_it_cannot_read_and_returns_the_rest(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SqliteStore(tmp_path / "q.db")
    await store.open()
    try:
        await store.add_question(record("good"), owner=None, expires_in=600)
        await store.put_record("task", "kept", {"n": 1})
        now = time.time()
        with sqlite3.connect(tmp_path / "q.db") as raw:
            raw.executemany(
                "INSERT INTO questions (id, status, owner, call_id, record, result, created, expires) "
                "VALUES (?, ?, NULL, NULL, ?, ?, ?, ?)",
                [
                    ("bad-record", "pending", "{", None, now, now + 600),
                    ("bad-result", "answered", json.dumps(record("bad-result")), "[", now, now + 600),
                ],
            )
            raw.execute(
                "INSERT INTO records (kind, id, payload, expires) VALUES ('task', 'broken', '{', ?)",
                (now + 600,),
            )
        with caplog.at_level(logging.WARNING, logger="ui_adapters.broker"):
            assert [entry["id"] for entry in await store.pending_questions()] == ["good"]
            assert await store.get_question("bad-record") is None
            assert await store.get_question("bad-result") is None
            good = await store.get_question("good")
            assert good is not None and good["record"] == record("good") and good["result"] is None
            assert await store.list_records("task") == [{"n": 1}]
            assert await store.get_record("task", "broken") is None
            assert await store.take_record("task", "broken") is None
            assert await store.get_record("task", "kept") == {"n": 1}
            assert await store.get_record("task", "nobody") is None
            assert await store.settle_question("good", "withdrawn", None)  # withdrawn: no answer
            withdrawn = await store.get_question("good")
            assert (
                withdrawn is not None and withdrawn["status"] == "withdrawn" and withdrawn["result"] is None
            )
        logged = _warnings(caplog)
        assert len(logged) == 3
        assert logged[0].startswith(f"SqliteStore({str(tmp_path / 'q.db')!r}): the question 'bad-record' ")
        assert "the question 'bad-result'" in logged[1] and "the task record 'broken'" in logged[2]
    finally:
        await store.close()


# ------------------------------------------------------------------ a question as a store keeps it

NAMELESS = "http://user:pa55word@127.0.0.1:9/mcp"


def _asked(
    server: str = NAMELESS, server_info: Implementation | None = None, **context: Any
) -> PendingQuestion:
    who = ClientRequestContext(
        server=server, server_info=server_info, protocol_version="2026-07-28", era="modern", **context
    )
    params = ElicitRequestFormParams(message="How many?", requested_schema=SCHEMA)
    return PendingQuestion(who, params, call_id="call-1", question_id="q-1")


def test_a_stored_question_names_a_nameless_server_by_its_url_without_the_password() -> None:
    stored = json.loads(json.dumps(question_record(_asked(), 60.0)))
    assert stored["view"]["server"] == stored["view"]["server_name"] == "http://127.0.0.1:9/mcp"
    assert stored["context"]["server"] == "http://127.0.0.1:9/mcp"
    assert "pa55word" not in json.dumps(stored)
    assert (stored["id"], stored["call_id"], stored["timeout"]) == ("q-1", "call-1", 60.0)
    # a name the config gave is kept as it is, cleaned of controls
    named = question_record(_asked(config_name="bistro\x1b[2J\nkitchen"), None)
    assert named["view"]["server_name"] == "bistro kitchen" and named["timeout"] is None


def test_a_stored_question_comes_back_with_who_asked_and_its_outcome() -> None:
    asked = _asked(
        input_key="k", question_index=2, question_count=3, task_id="t-1", config_name="c", tool_name="book"
    )
    stored = json.loads(json.dumps(question_record(asked, 60.0)))
    back = question_from_entry({"record": stored, "status": "pending"})
    assert back.status == "pending" and back.result is None
    assert (back.id, back.call_id, back.created_at) == ("q-1", "call-1", asked.created_at)
    assert back.expires_at == asked.created_at + timedelta(seconds=60)
    assert back.context.server == "http://127.0.0.1:9/mcp"  # never the password, even in memory
    assert dataclasses.replace(back.context, server=NAMELESS) == asked.context
    bistro = Implementation(name="bistro", title="Bistro", version="1.0")
    named = json.loads(json.dumps(question_record(_asked(server_info=bistro), None)))
    assert named["context"]["server_info"] == {"name": "bistro", "title": "Bistro", "version": "1.0"}
    assert question_from_entry({"record": named, "status": "pending"}).context.server_info == bistro
    answer = {"action": "accept", "content": {"n": 2}}
    answered = question_from_entry({"record": stored, "status": "answered", "result": answer})
    assert answered.status == "answered" and answered.result == ElicitResult(
        action="accept", content={"n": 2}
    )
    withdrawn = question_from_entry({"record": stored, "status": "withdrawn"})
    assert withdrawn.status == "withdrawn" and withdrawn.result is None
    cancel = {"action": "cancel"}
    timed_out = question_from_entry({"record": stored, "status": "timed-out", "result": cancel})
    assert timed_out.status == "timed-out" and timed_out.result == ElicitResult(action="cancel")
    timed_out = question_from_entry({"record": stored, "status": "timed-out"})
    assert timed_out.status == "timed-out" and timed_out.result == ElicitResult(action="cancel")
    gone = question_from_entry({"record": stored, "status": "pending"})
    apply_entry(gone, None)  # the entry expired
    assert gone.status == "withdrawn" and gone.result is None
    older = {k: v for k, v in stored["context"].items() if k not in ("question_index", "question_count")}
    first = question_from_entry({"record": {**stored, "context": older}, "status": "pending"}).context
    assert (first.question_index, first.question_count) == (1, 1)


@pytest.mark.parametrize(
    ("server", "stored"),
    [
        ("https://u:p@h.example:8443/mcp?x=1#f", "https://h.example:8443/mcp?x=1#f"),
        ("http://u@h/mcp", "http://h/mcp"),
        ("http://:p@h/mcp", "http://h/mcp"),
        ("http://u:p@[::1]:9/mcp", "http://[::1]:9/mcp"),
        ("http://u:p@/mcp", "http:///mcp"),
        ("http://h:9/mcp", "http://h:9/mcp"),
        ("http://Example.COM:8080/mcp", "http://Example.COM:8080/mcp"),  # no credentials: as it was
        ("stdio: python x.py", "stdio: python x.py"),
    ],
)
def test_a_server_is_stored_without_its_user_or_password(server: str, stored: str) -> None:
    assert redact_server(server) == stored


async def test_a_question_entry_holds_what_was_added(store: QuestionStore) -> None:
    await store.add_question(record("q1", call_id="call-1"), owner="worker-1", expires_in=600)
    entry = await store.get_question("q1")
    assert entry == {
        "id": "q1",
        "status": "pending",
        "owner": "worker-1",
        "call_id": "call-1",
        "record": record("q1", call_id="call-1"),
        "result": None,
    }
    assert await store.pending_questions() == [entry]


async def test_a_closed_sqlite_store_opens_again(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "q.db")
    await store.open()
    await store.put_record("task", "t1", {"n": 1})
    await store.close()
    await store.open()  # a broker entered again
    try:
        assert await store.get_record("task", "t1") == {"n": 1}
    finally:
        await store.close()


async def test_a_sqlite_store_wakes_when_another_process_writes_and_not_before(tmp_path: Path) -> None:
    waiter, writer = SqliteStore(tmp_path / "q.db"), SqliteStore(tmp_path / "q.db")
    await waiter.open()
    await writer.open()
    try:
        started = time.monotonic()
        await waiter.wait_for_change(0.3)  # nothing changes: it waits the whole time
        assert time.monotonic() - started >= 0.3
        with anyio.fail_after(BOUND):
            async with anyio.create_task_group() as tg:
                tg.start_soon(waiter.wait_for_change, 3600.0)
                await anyio.sleep(0.2)
                await writer.put_record("task", "t1", {"n": 1})  # ...until the other one writes
            await writer.put_record("task", "t2", {"n": 2})  # a write between two waits is not missed
            await waiter.wait_for_change(3600.0)
    finally:
        await waiter.close()
        await writer.close()


def test_an_answer_is_stored_as_it_goes_on_the_wire() -> None:
    assert result_wire(None) is None
    answer = ElicitResult(action="accept", content={"n": 1})
    assert result_wire(answer) == {"action": "accept", "content": {"n": 1}}
