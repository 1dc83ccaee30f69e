"""The broker's tool tasks in the store: each followed by one worker, taken over once when it dies.

``QuestionBroker`` owns one ``TaskKeeper`` when it has a store and delegates its task methods
(``track_task``, ``resume_task``, ``adopt_tasks``, ``stored_tasks``, ``task_outcome``,
``describe_task``) here, so the broker itself stays about questions and paused calls. What the records
hold is ``ui_adapters.broker.tasks``'s docstring.

Exactly once: a worker follows a task only while it holds the task's claim (``claim_record``, renewed
with its lease, see ``keep``); the worker that takes the ``"task"`` record off the store is the one that
writes the outcome (``_finish``). The keeper's tasks run in the broker's task group, which the broker
hands over on entering (``task_group``).

A record of another shape (``DamagedTaskRecordError``) is skipped where tasks are listed or taken over,
logged once through the broker's ``UnreadableEntries``, and refused with that error where one task is
asked for by its id.
"""

from __future__ import annotations

import logging
from typing import Any

import anyio
from anyio.abc import TaskGroup

from mcp_client import Client, MCPClientError, MCPError, TaskCancelledError, TaskLostError, ToolTask
from mcp_client.types import CallToolResult
from ui_adapters.broker.pending import QuestionNotPendingError
from ui_adapters.broker.stores import QuestionStore, redact_server
from ui_adapters.broker.stores.base import UnreadableEntries
from ui_adapters.broker.tasks import (
    TASK,
    TASK_RESULT,
    DamagedTaskRecordError,
    StoredTask,
    TaskOutcome,
    task_record,
)

__all__ = ["TaskKeeper"]

_log = logging.getLogger("ui_adapters.broker")


class TaskKeeper:
    """One worker's share of the stored tasks (see the module docstring)."""

    def __init__(self, store: QuestionStore, worker: str, unreadable: UnreadableEntries) -> None:
        self.store = store
        self.worker = worker
        self.unreadable = unreadable
        """Where a damaged task record is logged once (the broker's, shared with its questions)."""
        self.task_group: TaskGroup | None = None
        """The broker's task group while it is entered; the followers run in it."""
        self.stopped = False
        self._followed: dict[str, tuple[ToolTask, anyio.CancelScope]] = {}  # tasks this worker follows
        self._taking: set[str] = set()  # tasks being claimed here, not followed yet
        self._adopters: dict[str, Client] = {}  # server (redacted) -> client that takes over its tasks

    def follows(self, task_id: str | None) -> bool:
        """Whether this worker follows the task ``task_id`` (its questions belong to the store)."""
        return task_id is not None and task_id in self._followed

    def stop(self) -> None:
        """Stop following: the questions of the tasks are withdrawn (not cancelled) and the tasks stay in
        the store for another worker, or this one restarted, to take over."""
        self.stopped = True
        for _, scope in self._followed.values():
            scope.cancel()

    async def track(self, task: ToolTask) -> ToolTask:
        """``QuestionBroker.track_task``."""
        task_id = task.id
        if task_id is None:
            return task
        self._taking.add(task_id)
        try:
            if not await self.store.claim_record(TASK, task_id, self.worker):  # claimed before it is listed
                raise QuestionNotPendingError(f"the task {task_id!r} is followed by another live worker")
            await self.store.put_record(TASK, task_id, task_record(task, self.worker))
            self._start_following(task, task_id)
        finally:
            self._taking.discard(task_id)
        return task

    async def resume(self, task_id: str, client: Client) -> ToolTask:
        """``QuestionBroker.resume_task``."""
        followed = self._followed.get(task_id)
        if followed is not None:
            return followed[0]
        record = await self.store.get_record(TASK, task_id)
        if record is None:
            raise QuestionNotPendingError(
                f"no task has the id {task_id!r} in the store: it ended already (see task_outcome), it "
                "expired, or the id is wrong"
            )
        return await self._take_over(StoredTask.from_record(record, task_id), client)

    def adopt(self, client: Client) -> None:
        """``QuestionBroker.adopt_tasks``."""
        self._adopters[redact_server(client.server)] = client

    async def stored(self) -> list[StoredTask]:
        """``QuestionBroker.stored_tasks``: a damaged record is skipped (logged once), not the others."""
        listed: list[StoredTask] = []
        for record in await self.store.list_records(TASK):
            task = self._readable(record)
            if task is not None:
                listed.append(task)
        return listed

    async def outcome(self, task_id: str) -> TaskOutcome | None:
        """``QuestionBroker.task_outcome``; ``DamagedTaskRecordError`` for a damaged record."""
        record = await self.store.get_record(TASK_RESULT, task_id)
        return TaskOutcome.from_record(record, task_id) if record is not None else None

    async def describe(self, task_id: str) -> dict[str, Any] | None:
        """``QuestionBroker.describe_task``; ``DamagedTaskRecordError`` for a damaged record."""
        for _ in range(2):  # the finishing worker takes the task, then stores the outcome: look twice
            outcome = await self.store.get_record(TASK_RESULT, task_id)
            if outcome is not None:
                return TaskOutcome.from_record(outcome, task_id).to_json()
            record = await self.store.get_record(TASK, task_id)
            if record is not None:
                return StoredTask.from_record(record, task_id).to_json()
            await anyio.sleep(0.05)
        return None

    async def keep(self) -> None:
        """With each lease renewal: renew the claims on the tasks followed here, and take over those
        of workers that died (for the servers an ``adopt`` client was given for)."""
        for task_id, (_, scope) in list(self._followed.items()):
            if not await self.store.claim_record(TASK, task_id, self.worker):
                scope.cancel()  # taken over: this worker was thought dead
        if not self._adopters or self.stopped:
            return
        for record in await self.store.list_records(TASK):
            stored = self._readable(record)  # a damaged one is skipped (logged once), not the rest
            if stored is None:
                continue
            task_id = stored.id
            client = self._adopters.get(stored.server)
            if client is None or task_id in self._followed or task_id in self._taking:
                continue  # (a record naming this worker, not followed: this worker restarted, same name)
            try:
                await self._take_over(stored, client)
            except QuestionNotPendingError:
                continue  # its worker is alive
            except MCPClientError as exc:  # claimed by this worker now: tried again next time
                _log.warning("taking over task %s failed: %s", task_id, exc)

    # ------------------------------------------------------------------------------------ helpers

    def _readable(self, record: dict[str, Any]) -> StoredTask | None:
        """The task of a listed record; ``None`` (logged once) for a record no broker could have written."""
        try:
            return StoredTask.from_record(record)
        except DamagedTaskRecordError as exc:
            entry_id: object = record.get("id")
            shown = entry_id if isinstance(entry_id, str) and entry_id else "(no id)"
            self.unreadable.skip("task record", shown, exc.problem)
            return None

    def _start_following(self, task: ToolTask, task_id: str) -> None:
        assert self.task_group is not None
        scope = anyio.CancelScope()
        self._followed[task_id] = (task, scope)
        if self.stopped:
            scope.cancel()
        self.task_group.start_soon(self._follow, task, task_id, scope)

    async def _take_over(self, stored: StoredTask, client: Client) -> ToolTask:
        """Claim the ``stored`` task for this worker and follow it with ``client``."""
        task_id = stored.id
        if task_id in self._taking or task_id in self._followed:
            raise QuestionNotPendingError(f"the task {task_id!r} is being taken over by this worker already")
        self._taking.add(task_id)
        try:
            if not await self.store.claim_record(TASK, task_id, self.worker):
                raise QuestionNotPendingError(
                    f"the task {task_id!r} is followed by worker {stored.worker!r}, which is alive"
                )
            try:
                task = await client.task(stored.saved)
            except TaskLostError as exc:
                await self._finish(task_id, stored.tool, "lost", None, str(exc))
                raise
            await self.store.put_record(TASK, task_id, task_record(task, self.worker))
            self._start_following(task, task_id)
        finally:
            self._taking.discard(task_id)
        _log.info("worker %s took over task %s from worker %s", self.worker, task_id, stored.worker)
        return task

    async def _follow(self, task: ToolTask, task_id: str, scope: anyio.CancelScope) -> None:
        """Follow ``task`` to its end, keep its state in the store, then store its outcome once."""
        store = self.store
        try:
            with scope:
                delay = 1.0
                while True:
                    try:
                        async for _ in task:
                            if not await store.claim_record(TASK, task_id, self.worker):
                                return  # another worker took it over (this one was thought dead)
                            if task.state is None or task.state.done:
                                continue  # the outcome record says it (_finish), never a bare status
                            await store.put_record(TASK, task_id, task_record(task, self.worker))
                        result = await task.result()  # the task ended: at once
                    except TaskCancelledError as exc:
                        await self._finish(task_id, task.tool, "cancelled", None, str(exc))
                    except TaskLostError as exc:
                        await self._finish(task_id, task.tool, "lost", None, str(exc))
                    except MCPError as exc:  # the task failed with the server's error
                        await self._finish(task_id, task.tool, "failed", None, str(exc))
                    except Exception as exc:  # the connection or the store, for a while: try again
                        _log.warning("following task %s failed (%r); again in %gs", task_id, exc, delay)
                        await anyio.sleep(delay)
                        delay = min(delay * 2, 30.0)
                        continue
                    else:
                        await self._finish(task_id, task.tool, "completed", result, None)
                    return
        finally:
            self._followed.pop(task_id, None)

    async def _finish(
        self, task_id: str, tool: str | None, status: str, result: CallToolResult | None, error: str | None
    ) -> None:
        """Store the outcome, if this worker is the one that takes the task off the store."""
        with anyio.CancelScope(shield=True), anyio.move_on_after(10):
            if await self.store.take_record(TASK, task_id) is None:
                return  # another worker finished it
            outcome = TaskOutcome(task_id, tool, status, result, error, self.worker)
            await self.store.put_record(TASK_RESULT, task_id, outcome.to_json())
