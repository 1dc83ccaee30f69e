"""``SqliteStore``: the broker's store in one SQLite file, shared by the processes of one machine.

The standard library's ``sqlite3`` in WAL mode (readers never block the writer), every statement run in
a worker thread (``anyio.to_thread``) so the event loop never waits on the disk. A pending question is
moved to its final status by one ``UPDATE ... WHERE status = 'pending'``, so of two answers (two
processes, or a retry) exactly one wins. Other processes' writes are noticed by polling SQLite's
``data_version`` (a cheap read, every ``poll`` seconds): that is how an answer written by one process
reaches the legacy call waiting in another.

The file survives restarts: paused calls and tasks stored before a restart are listed, answered and
resumed after it. See ``ui_adapters.broker.stores`` for what is stored and for how long.
"""

from __future__ import annotations

import json
import math
import sqlite3
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import anyio
import anyio.to_thread

from mcp_client import MCPClientError
from ui_adapters.broker.stores.base import (
    DEFAULT_KEEP_FOR,
    UnreadableEntries,
    approval_decision,
    checked_decision,
)

__all__ = ["SqliteStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS questions (
    id TEXT PRIMARY KEY, status TEXT NOT NULL, owner TEXT, call_id TEXT,
    record TEXT NOT NULL, result TEXT, created REAL NOT NULL, expires REAL NOT NULL);
CREATE INDEX IF NOT EXISTS questions_pending ON questions (status, created);
CREATE TABLE IF NOT EXISTS records (
    kind TEXT NOT NULL, id TEXT NOT NULL, payload TEXT NOT NULL, expires REAL NOT NULL,
    PRIMARY KEY (kind, id));
CREATE TABLE IF NOT EXISTS leases (worker TEXT PRIMARY KEY, until REAL NOT NULL);
CREATE TABLE IF NOT EXISTS claims (
    kind TEXT NOT NULL, id TEXT NOT NULL, worker TEXT NOT NULL, PRIMARY KEY (kind, id));
CREATE TABLE IF NOT EXISTS approvals (key TEXT PRIMARY KEY, decision TEXT NOT NULL);
"""
_OPEN_TIMEOUT = 30.0
"""Seconds a statement waits for another process's lock (SQLite's busy timeout), opening included."""
_OWNER_DEAD = "owner IS NOT NULL AND owner NOT IN (SELECT worker FROM leases WHERE until > ?)"
"""A question whose call waited in a worker that is gone (its lease ended): one ``?``, the time now."""


class SqliteStore:
    """A ``QuestionStore`` in the SQLite file ``path`` (created if missing; several processes may share it).

    ``keep_for``: seconds settled questions and records are kept (default one day). ``poll``: seconds
    between checks for other processes' writes (default 0.05).
    """

    def __init__(self, path: str | Path, *, keep_for: float = DEFAULT_KEEP_FOR, poll: float = 0.05) -> None:
        self.path: Path = Path(path)
        self.keep_for = keep_for
        self.poll = poll
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._seen_version: int | None = None
        self._unreadable = UnreadableEntries(self)

    def __repr__(self) -> str:
        return f"SqliteStore({str(self.path)!r})"

    # ----------------------------------------------------------------------------- plumbing

    def _connect(self) -> sqlite3.Connection:
        """Open the file, switch it to WAL and create the tables; an ``MCPClientError`` if it cannot be.

        Several processes opening a new file at once (``--workers 4``) race for the switch to WAL, which
        SQLite may refuse at once with "database is locked" instead of waiting its busy timeout: those
        attempts are repeated, for as long as the busy timeout (``_OPEN_TIMEOUT``).
        """
        deadline = time.monotonic() + _OPEN_TIMEOUT
        delay = 0.005
        while True:
            connection: sqlite3.Connection | None = None
            try:
                connection = sqlite3.connect(
                    self.path, timeout=_OPEN_TIMEOUT, isolation_level=None, check_same_thread=False
                )
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=NORMAL")
                connection.executescript(f"BEGIN IMMEDIATE; {_SCHEMA} COMMIT;")
                return connection
            except sqlite3.Error as exc:
                if connection is not None:
                    connection.close()
                if not (_busy(exc) and time.monotonic() < deadline):
                    raise _open_error(self.path, exc) from exc
            time.sleep(delay)  # in the store's worker thread, never on the event loop
            delay = min(delay * 2, 0.1)

    async def _run(self, statement: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        def work() -> list[tuple[Any, ...]]:
            with self._lock:
                if self._connection is None:
                    self._connection = self._connect()
                return self._connection.execute(statement, parameters).fetchall()

        return await anyio.to_thread.run_sync(work)

    async def _change(self, statement: str, parameters: tuple[Any, ...]) -> int:
        def work() -> int:
            with self._lock:
                if self._connection is None:
                    self._connection = self._connect()
                return self._connection.execute(statement, parameters).rowcount

        return await anyio.to_thread.run_sync(work)

    async def open(self) -> None:
        await self._run("SELECT 1")

    async def close(self) -> None:
        def work() -> None:
            with self._lock:
                if self._connection is not None:
                    self._connection.close()
                    self._connection = None

        await anyio.to_thread.run_sync(work)

    # ---------------------------------------------------------------------------- questions

    async def add_question(self, record: Mapping[str, Any], *, owner: str | None, expires_in: float) -> None:
        now = time.time()
        await self._change(
            "INSERT INTO questions (id, status, owner, call_id, record, result, created, expires) "
            "VALUES (?, 'pending', ?, ?, ?, NULL, ?, ?)",
            (str(record["id"]), owner, record.get("call_id"), json.dumps(record), now, now + expires_in),
        )

    async def get_question(self, question_id: str) -> dict[str, Any] | None:
        rows = await self._run(
            "SELECT id, status, owner, call_id, record, result FROM questions WHERE id = ? AND expires > ?",
            (question_id, time.time()),
        )
        return self._question(rows[0]) if rows else None

    async def pending_questions(self) -> list[dict[str, Any]]:
        rows = await self._run(
            "SELECT id, status, owner, call_id, record, result FROM questions "
            "WHERE status = 'pending' AND expires > ? ORDER BY created",
            (time.time(),),
        )
        return [entry for entry in map(self._question, rows) if entry is not None]

    async def settle_question(self, question_id: str, status: str, result: Mapping[str, Any] | None) -> bool:
        """One ``UPDATE``: the status asked for, or ``withdrawn`` if the owner's lease has ended."""
        now = time.time()
        rows = await self._run(
            f"UPDATE questions SET status = CASE WHEN {_OWNER_DEAD} THEN 'withdrawn' ELSE ? END, "
            f"result = CASE WHEN {_OWNER_DEAD} THEN NULL ELSE ? END, expires = ? "
            "WHERE id = ? AND status = 'pending' RETURNING status",
            (
                now,
                status,
                now,
                json.dumps(result) if result is not None else None,
                now + self.keep_for,
                question_id,
            ),
        )
        return bool(rows) and rows[0][0] == status

    # ------------------------------------------------------------------------------ records

    async def put_record(self, kind: str, record_id: str, payload: Mapping[str, Any]) -> None:
        await self._change(
            "INSERT OR REPLACE INTO records (kind, id, payload, expires) VALUES (?, ?, ?, ?)",
            (kind, record_id, json.dumps(payload), time.time() + self.keep_for),
        )

    async def get_record(self, kind: str, record_id: str) -> dict[str, Any] | None:
        rows = await self._run(
            "SELECT payload FROM records WHERE kind = ? AND id = ? AND expires > ?",
            (kind, record_id, time.time()),
        )
        return self._unreadable.json_object(f"{kind} record", record_id, rows[0][0]) if rows else None

    async def list_records(self, kind: str) -> list[dict[str, Any]]:
        rows = await self._run(
            "SELECT id, payload FROM records WHERE kind = ? AND expires > ? ORDER BY rowid",
            (kind, time.time()),
        )
        read = (self._unreadable.json_object(f"{kind} record", record_id, text) for record_id, text in rows)
        return [payload for payload in read if payload is not None]

    async def take_record(self, kind: str, record_id: str) -> dict[str, Any] | None:
        rows = await self._run(
            "DELETE FROM records WHERE kind = ? AND id = ? AND expires > ? RETURNING payload",
            (kind, record_id, time.time()),
        )
        await self._change("DELETE FROM claims WHERE kind = ? AND id = ?", (kind, record_id))
        return self._unreadable.json_object(f"{kind} record", record_id, rows[0][0]) if rows else None

    async def claim_record(self, kind: str, record_id: str, worker: str) -> bool:
        """One upsert: inserted, or updated only if the holder is ``worker`` or its lease has ended."""
        changed = await self._change(
            "INSERT INTO claims (kind, id, worker) VALUES (?, ?, ?) "
            "ON CONFLICT (kind, id) DO UPDATE SET worker = excluded.worker "
            "WHERE claims.worker = excluded.worker "
            "OR claims.worker NOT IN (SELECT worker FROM leases WHERE until > ?)",
            (kind, record_id, worker, time.time()),
        )
        return changed == 1

    # ------------------------------------------------------------------ leases and upkeep

    async def heartbeat(self, worker: str, lease: float) -> None:
        await self._change(
            "INSERT OR REPLACE INTO leases (worker, until) VALUES (?, ?)", (worker, time.time() + lease)
        )

    async def release(self, worker: str) -> None:
        await self._change("DELETE FROM leases WHERE worker = ?", (worker,))

    async def sweep(self) -> int:
        now = time.time()
        withdrawn = await self._change(
            "UPDATE questions SET status = 'withdrawn', expires = ? "
            f"WHERE status = 'pending' AND {_OWNER_DEAD}",
            (now + self.keep_for, now),
        )
        await self._change("DELETE FROM questions WHERE expires <= ?", (now,))
        await self._change("DELETE FROM records WHERE expires <= ?", (now,))
        await self._change(  # claims whose record is gone, once their holder is gone too
            "DELETE FROM claims WHERE NOT EXISTS (SELECT 1 FROM records "
            "WHERE records.kind = claims.kind AND records.id = claims.id) "
            "AND worker NOT IN (SELECT worker FROM leases WHERE until > ?)",
            (now,),
        )
        await self._change("DELETE FROM leases WHERE until <= ?", (now - 3600,))
        return withdrawn

    async def wait_for_change(self, within: float) -> None:
        """Poll ``PRAGMA data_version`` (it changes when another connection commits)."""
        deadline = time.monotonic() + (within if within < math.inf else 3600)
        while time.monotonic() < deadline:
            (version,) = (await self._run("PRAGMA data_version"))[0]
            if self._seen_version is None:
                self._seen_version = version
            elif version != self._seen_version:
                self._seen_version = version
                return
            await anyio.sleep(self.poll)

    async def purge(self) -> None:
        for table in ("questions", "records", "leases", "claims", "approvals"):
            await self._change(f"DELETE FROM {table}", ())  # fixed table names

    # ----------------------------------------------------------- approvals remembered "always"

    async def get_approval(self, key: str) -> Literal["allow", "deny"] | None:
        rows = await self._run("SELECT decision FROM approvals WHERE key = ?", (key,))
        return approval_decision(rows[0][0]) if rows else None

    async def set_approval(self, key: str, decision: Literal["allow", "deny"]) -> None:
        await self._change(
            "INSERT OR REPLACE INTO approvals (key, decision) VALUES (?, ?)",
            (key, checked_decision(decision)),
        )

    def _question(self, row: tuple[Any, ...]) -> dict[str, Any] | None:
        """A question row as an entry; ``None`` (logged once) if its record or result is not JSON."""
        question_id, status, owner, call_id, record, result = row
        stored = self._unreadable.json_object("question", question_id, record)
        answer = self._unreadable.json_object("question", question_id, result)
        if stored is None or (result is not None and answer is None):
            return None
        return {
            "id": question_id,
            "status": status,
            "owner": owner,
            "call_id": call_id,
            "record": stored,
            "result": answer,
        }


def _busy(error: sqlite3.Error) -> bool:
    """Another connection holds the lock right now (worth trying again)."""
    return getattr(error, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))


def _open_error(path: Path, error: sqlite3.Error) -> MCPClientError:
    """What went wrong opening the store's file, naming the file and the fix (the file is not changed)."""
    if getattr(error, "sqlite_errorname", "") in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
        return MCPClientError(
            f"{path} is not a SQLite database ({error}); SqliteStore left it untouched. Give SqliteStore "
            "the path of a new file (it is created) or of a file an SqliteStore made, or move this file away"
        )
    if _busy(error):
        return MCPClientError(
            f"the SQLite store {path} stayed locked for {_OPEN_TIMEOUT:g} s ({error}): another process "
            "holds it; stop that process or give SqliteStore another file"
        )
    return MCPClientError(
        f"cannot open the SQLite store {path}: {error}; check that its folder exists and that this "
        "process may read and write there"
    )
