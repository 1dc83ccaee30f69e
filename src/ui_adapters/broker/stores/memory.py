"""``MemoryStore``: the broker's store in this process's memory (tests, or several brokers of one process).

The same seam as the shared stores (``ui_adapters.broker.stores.base``), with the same atomic steps
(a question settles once, a record is taken once, a claim is held by one live worker), kept in dicts:
nothing survives the process.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Literal

import anyio

from ui_adapters.broker.stores.base import DEFAULT_KEEP_FOR, checked_decision

__all__ = ["MemoryStore"]


class MemoryStore:
    """``QuestionStore`` in this process's memory: shared by the brokers of one process, gone on exit."""

    def __init__(self, *, keep_for: float = DEFAULT_KEEP_FOR) -> None:
        self.keep_for = keep_for
        self._questions: dict[str, dict[str, Any]] = {}
        self._expiry: dict[str, float] = {}
        self._records: dict[tuple[str, str], tuple[dict[str, Any], float]] = {}
        self._leases: dict[str, float] = {}
        self._claims: dict[tuple[str, str], str] = {}
        self._changed = anyio.Event()
        self._approvals: dict[str, Literal["allow", "deny"]] = {}

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None

    def _touch(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()

    async def add_question(self, record: Mapping[str, Any], *, owner: str | None, expires_in: float) -> None:
        question_id = str(record["id"])
        self._questions[question_id] = {
            "id": question_id,
            "status": "pending",
            "owner": owner,
            "call_id": record.get("call_id"),
            "record": dict(record),
            "result": None,
        }
        self._expiry[question_id] = time.time() + expires_in
        self._touch()

    async def get_question(self, question_id: str) -> dict[str, Any] | None:
        entry = self._questions.get(question_id)
        return dict(entry) if entry is not None else None

    async def pending_questions(self) -> list[dict[str, Any]]:
        return [dict(entry) for entry in self._questions.values() if entry["status"] == "pending"]

    async def settle_question(self, question_id: str, status: str, result: Mapping[str, Any] | None) -> bool:
        entry = self._questions.get(question_id)
        if entry is None or entry["status"] != "pending":
            return False
        owner = entry["owner"]
        if owner is not None and self._leases.get(owner, 0) < time.monotonic():
            entry["status"], entry["result"] = "withdrawn", None  # its call died with its worker
        else:
            entry["status"], entry["result"] = status, dict(result) if result is not None else None
        self._expiry[question_id] = time.time() + self.keep_for
        self._touch()
        return entry["status"] == status

    async def put_record(self, kind: str, record_id: str, payload: Mapping[str, Any]) -> None:
        self._records[kind, record_id] = (dict(payload), time.time() + self.keep_for)
        self._touch()

    async def get_record(self, kind: str, record_id: str) -> dict[str, Any] | None:
        entry = self._records.get((kind, record_id))
        return dict(entry[0]) if entry is not None else None

    async def list_records(self, kind: str) -> list[dict[str, Any]]:
        return [dict(payload) for (k, _), (payload, _) in self._records.items() if k == kind]

    async def take_record(self, kind: str, record_id: str) -> dict[str, Any] | None:
        entry = self._records.pop((kind, record_id), None)
        self._claims.pop((kind, record_id), None)
        if entry is not None:
            self._touch()
        return entry[0] if entry is not None else None

    async def claim_record(self, kind: str, record_id: str, worker: str) -> bool:
        holder = self._claims.get((kind, record_id))
        if holder is not None and holder != worker and self._leases.get(holder, 0) >= time.monotonic():
            return False
        self._claims[kind, record_id] = worker
        return True

    async def heartbeat(self, worker: str, lease: float) -> None:
        self._leases[worker] = time.monotonic() + lease

    async def release(self, worker: str) -> None:
        self._leases.pop(worker, None)

    async def sweep(self) -> int:
        now, wall = time.monotonic(), time.time()
        withdrawn = 0
        for entry in list(self._questions.values()):
            owner = entry["owner"]
            if entry["status"] == "pending" and owner is not None and self._leases.get(owner, 0) < now:
                withdrawn += await self.settle_question(entry["id"], "withdrawn", None)
        for question_id, expiry in list(self._expiry.items()):
            if expiry < wall:
                self._questions.pop(question_id, None)
                self._expiry.pop(question_id, None)
        for key, (_, expiry) in list(self._records.items()):
            if expiry < wall:
                self._records.pop(key, None)
        for key, holder in list(self._claims.items()):  # a claim made before its record, holder gone
            if key not in self._records and self._leases.get(holder, 0) < now:
                self._claims.pop(key, None)
        return withdrawn

    async def wait_for_change(self, within: float) -> None:
        with anyio.move_on_after(within):
            await self._changed.wait()

    async def purge(self) -> None:
        self._questions.clear()
        self._expiry.clear()
        self._records.clear()
        self._claims.clear()
        self._approvals.clear()
        self._touch()

    async def get_approval(self, key: str) -> Literal["allow", "deny"] | None:
        return self._approvals.get(key)

    async def set_approval(self, key: str, decision: Literal["allow", "deny"]) -> None:
        self._approvals[key] = checked_decision(decision)
