"""``RedisStore``: the broker's store in Redis (or Valkey), shared by every worker on every machine.

Needs the ``redis`` package (``pip install 'mcp-elicit-client[redis]'``), imported when the store is opened,
so ``import ui_adapters`` never loads it. Keys are namespaced per app (``namespace``, default
``"mcp-questions"``)::

    {ns}:q:{id}          hash: status, owner, call_id, record (JSON), result (JSON); expires
    {ns}:pending         sorted set of pending question ids (by creation time)
    {ns}:r:{kind}:{id}   a record (JSON), expires after keep_for
    {ns}:r:{kind}        set of the ids of that kind (stale ids are dropped when listed)
    {ns}:c:{kind}:{id}   the worker holding a record (claim_record), expires with the record
    {ns}:worker:{id}     a worker's lease (expires unless renewed)
    {ns}:a:{key}         an approval remembered "always" ("allow" or "deny"); never expires
    {ns}:changes         pub/sub channel: "something changed", so other workers look at once

Settling a question is one Lua script (status ``pending`` -> final, result, expiry, publish; or
``withdrawn`` if the question's owner has no lease any more), so of two answers posted to two workers
at once exactly one wins, an answer to a dead worker's question is refused, and the worker whose
legacy call waits for it hears about it within milliseconds through the channel. Claiming a record
is another script (read the holder, check its lease, set the holder), so of two workers taking over a
dead worker's task exactly one does.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from typing import Any, Literal

import anyio

from ui_adapters.broker.stores.base import (
    DEFAULT_KEEP_FOR,
    UnreadableEntries,
    approval_decision,
    checked_decision,
)

__all__ = ["RedisStore"]

_SETTLE = """
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then return 0 end
local status, result = ARGV[1], ARGV[2]
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner and owner ~= '' and redis.call('EXISTS', ARGV[5] .. owner) == 0 then
  status, result = 'withdrawn', ''
end
redis.call('HSET', KEYS[1], 'status', status, 'result', result)
redis.call('ZREM', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PUBLISH', KEYS[3], ARGV[3])
if status == ARGV[1] then return 1 end
return 0
"""

_CLAIM = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and redis.call('EXISTS', ARGV[2] .. holder) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1
"""


class RedisStore:
    """A ``QuestionStore`` in Redis at ``url`` (``redis://host:port/db``), under the key prefix ``namespace``.

    ``keep_for``: seconds settled questions and records are kept (default one day).
    """

    def __init__(
        self, url: str, *, namespace: str = "mcp-questions", keep_for: float = DEFAULT_KEEP_FOR
    ) -> None:
        if not namespace or any(character in namespace for character in " *?[]"):
            raise ValueError(
                "namespace must be a non-empty key prefix without spaces or glob characters; "
                f"got {namespace!r}"
            )
        self.url = url
        self.namespace = namespace
        self.keep_for = keep_for
        self._redis: Any = None
        self._pubsub: Any = None
        self._settle: Any = None
        self._claim: Any = None
        self._unreadable = UnreadableEntries(self)

    def __repr__(self) -> str:
        return f"RedisStore(namespace={self.namespace!r})"  # the URL may hold a password: not shown

    def _key(self, *parts: str) -> str:
        return ":".join((self.namespace, *parts))

    @property
    def _client(self) -> Any:
        if self._redis is None:
            raise RuntimeError("RedisStore is not open: enter the broker first (async with broker: ...)")
        return self._redis

    async def open(self) -> None:
        if self._redis is not None:
            return
        try:
            import redis.asyncio as aioredis  # optional extra: imported only when a Redis store is used
        except ImportError as exc:
            raise ImportError(
                "RedisStore needs the redis package: "
                "pip install 'mcp-elicit-client[redis]' (or pip install redis)"
            ) from exc
        self._redis = aioredis.from_url(self.url, decode_responses=True)  # pyright: ignore[reportUnknownMemberType]
        await self._redis.ping()
        self._settle = self._redis.register_script(_SETTLE)
        self._claim = self._redis.register_script(_CLAIM)
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self._key("changes"))

    async def close(self) -> None:
        if self._pubsub is not None:
            await self._pubsub.aclose()
            self._pubsub = None
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None

    async def _publish(self) -> None:
        await self._client.publish(self._key("changes"), "1")

    # ---------------------------------------------------------------------------- questions

    async def add_question(self, record: Mapping[str, Any], *, owner: str | None, expires_in: float) -> None:
        question_id = str(record["id"])
        key = self._key("q", question_id)
        async with self._client.pipeline(transaction=True) as pipe:
            pipe.hset(
                key,
                mapping={
                    "status": "pending",
                    "owner": owner or "",
                    "call_id": record.get("call_id") or "",
                    "record": json.dumps(record),
                    "result": "",
                },
            )
            pipe.pexpire(key, max(1, int(expires_in * 1000)))
            pipe.zadd(self._key("pending"), {question_id: time.time()})
            pipe.publish(self._key("changes"), question_id)
            await pipe.execute()

    async def get_question(self, question_id: str) -> dict[str, Any] | None:
        fields: dict[str, str] = await self._client.hgetall(self._key("q", question_id))
        return self._question(question_id, fields) if fields else None

    async def pending_questions(self) -> list[dict[str, Any]]:
        ids: list[str] = await self._client.zrange(self._key("pending"), 0, -1)
        if not ids:
            return []
        async with self._client.pipeline(transaction=False) as pipe:
            for question_id in ids:
                pipe.hgetall(self._key("q", question_id))
            rows: list[dict[str, str]] = await pipe.execute()
        found: list[dict[str, Any]] = []
        gone: list[str] = []
        for question_id, fields in zip(ids, rows, strict=True):
            if not fields:
                gone.append(question_id)  # expired
            elif fields.get("status") == "pending":
                entry = self._question(question_id, fields)
                if entry is not None:
                    found.append(entry)
        if gone:
            await self._client.zrem(self._key("pending"), *gone)
        return found

    async def settle_question(self, question_id: str, status: str, result: Mapping[str, Any] | None) -> bool:
        settled = await self._settle(
            keys=[self._key("q", question_id), self._key("pending"), self._key("changes")],
            args=[
                status,
                json.dumps(result) if result is not None else "",
                question_id,
                int(self.keep_for * 1000),
                self._key("worker", ""),
            ],
        )
        return settled == 1

    # ------------------------------------------------------------------------------ records

    async def put_record(self, kind: str, record_id: str, payload: Mapping[str, Any]) -> None:
        async with self._client.pipeline(transaction=True) as pipe:
            pipe.set(self._key("r", kind, record_id), json.dumps(payload), px=int(self.keep_for * 1000))
            pipe.sadd(self._key("r", kind), record_id)
            pipe.publish(self._key("changes"), record_id)
            await pipe.execute()

    async def get_record(self, kind: str, record_id: str) -> dict[str, Any] | None:
        raw: str | None = await self._client.get(self._key("r", kind, record_id))
        return self._unreadable.json_object(f"{kind} record", record_id, raw)

    async def list_records(self, kind: str) -> list[dict[str, Any]]:
        ids = sorted(await self._client.smembers(self._key("r", kind)))
        if not ids:
            return []
        raws: list[str | None] = await self._client.mget(
            [self._key("r", kind, record_id) for record_id in ids]
        )
        stale = [record_id for record_id, raw in zip(ids, raws, strict=True) if raw is None]
        if stale:
            await self._client.srem(self._key("r", kind), *stale)
        read = (
            self._unreadable.json_object(f"{kind} record", record_id, raw)
            for record_id, raw in zip(ids, raws, strict=True)
        )
        return [payload for payload in read if payload is not None]

    async def take_record(self, kind: str, record_id: str) -> dict[str, Any] | None:
        async with self._client.pipeline(transaction=True) as pipe:
            pipe.getdel(self._key("r", kind, record_id))
            pipe.srem(self._key("r", kind), record_id)
            pipe.delete(self._key("c", kind, record_id))
            raw, _, _ = await pipe.execute()
        if raw is None:
            return None
        await self._publish()
        return self._unreadable.json_object(f"{kind} record", record_id, raw)

    async def claim_record(self, kind: str, record_id: str, worker: str) -> bool:
        claimed = await self._claim(
            keys=[self._key("c", kind, record_id)],
            args=[worker, self._key("worker", ""), int(self.keep_for * 1000)],
        )
        return claimed == 1

    # ------------------------------------------------------------------ leases and upkeep

    async def heartbeat(self, worker: str, lease: float) -> None:
        await self._client.set(self._key("worker", worker), "1", px=max(1, int(lease * 1000)))

    async def release(self, worker: str) -> None:
        await self._client.delete(self._key("worker", worker))

    async def sweep(self) -> int:
        withdrawn = 0
        for entry in await self.pending_questions():
            owner = entry["owner"]
            if owner and not await self._client.exists(self._key("worker", owner)):
                withdrawn += await self.settle_question(entry["id"], "withdrawn", None)
        return withdrawn

    async def wait_for_change(self, within: float) -> None:
        """Wait for a message on the ``changes`` channel, then take every one already queued."""
        pubsub = self._pubsub
        if pubsub is None:
            await anyio.sleep(min(within, 1.0))
            return
        deadline = time.monotonic() + (within if within < math.inf else 3600)
        while time.monotonic() < deadline:
            message = await pubsub.get_message(timeout=max(0.0, min(1.0, deadline - time.monotonic())))
            if message is not None:
                while await pubsub.get_message(timeout=0) is not None:
                    pass
                return

    async def purge(self) -> None:
        async for key in self._client.scan_iter(match=self._key("*"), count=500):
            await self._client.delete(key)

    # ----------------------------------------------------------- approvals remembered "always"

    async def get_approval(self, key: str) -> Literal["allow", "deny"] | None:
        await self.open()  # a client may use the store before (or without) a broker entering it
        return approval_decision(await self._client.get(self._key("a", key)))

    async def set_approval(self, key: str, decision: Literal["allow", "deny"]) -> None:
        await self.open()
        await self._client.set(self._key("a", key), checked_decision(decision))

    def _question(self, question_id: str, fields: Mapping[str, str]) -> dict[str, Any] | None:
        """A question hash as an entry; ``None`` (logged once) if its record or result is not JSON."""
        record = self._unreadable.json_object("question", question_id, fields.get("record") or "{}")
        result = fields.get("result") or None
        answer = self._unreadable.json_object("question", question_id, result)
        if record is None or (result is not None and answer is None):
            return None
        return {
            "id": question_id,
            "status": fields.get("status", "pending"),
            "owner": fields.get("owner") or None,
            "call_id": fields.get("call_id") or None,
            "record": record,
            "result": answer,
        }
