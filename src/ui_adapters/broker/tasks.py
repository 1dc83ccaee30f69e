"""Tool tasks kept in a question store: followed by one worker, taken over when it dies, results kept.

The spec asks a client to persist the ids of its tasks (SEP-2663); with several workers, the one that
started a task may not be the one that is alive when it ends. ``QuestionBroker`` with a store keeps:

* a ``"task"`` record per task a worker follows (``StoredTask``): the task id, tool, server (without
  ``user:password``), last status, the worker holding it, and ``ToolTask.to_json()`` (what
  ``Client.task`` needs to pick it up: id, tool, server, status, the keys of the questions already
  asked). The holder has a claim on it (``QuestionStore.claim_record``) that lives as long as its
  lease; when the lease ends, one other worker claims it and follows the task to its end.
* a ``"task-result"`` record once it ended (``TaskOutcome``): the status (``completed``, ``failed``,
  ``cancelled``, ``lost``), the tool's result or the error message, and the worker that finished it.
  It is written by the one worker that took the ``"task"`` record off the store (``take_record``), so a
  task is finished exactly once, and any worker can serve its outcome until it expires (``keep_for``).

No tokens, headers or client objects are stored. The task's questions are the broker's questions
(``pending()``), with ``context.task_id`` set.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcp_client import ToolTask
from mcp_client.types import CallToolResult
from ui_adapters.broker.stores import redact_server

__all__ = ["TASK", "TASK_RESULT", "StoredTask", "TaskOutcome", "task_record"]

TASK = "task"
"""The record kind of a task some worker follows."""
TASK_RESULT = "task-result"
"""The record kind of a task's outcome."""


@dataclass(frozen=True)
class StoredTask:
    """A task in the store, as any worker sees it (``await broker.stored_tasks()``).

    ``saved`` is ``ToolTask.to_json()`` (the server's URL without credentials): pass it to
    ``client.task(saved)`` to watch the task yourself, or let the broker take it over
    (``broker.resume_task``).
    """

    id: str
    tool: str | None
    server: str
    status: str
    worker: str
    """The worker holding it (following it to its end); another takes over if this one dies."""
    saved: dict[str, Any]

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> StoredTask:
        return cls(
            id=str(record["id"]),
            tool=record.get("tool"),
            server=str(record.get("server", "")),
            status=str(record.get("status", "working")),
            worker=str(record.get("worker", "")),
            saved=dict(record.get("saved") or {}),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "tool": self.tool,
            "server": self.server,
            "status": self.status,
            "worker": self.worker,
        }


@dataclass(frozen=True)
class TaskOutcome:
    """How a stored task ended (``await broker.task_outcome(task_id)``), served by any worker.

    ``status``: ``completed`` (``result`` is the tool's result), ``failed`` (``error`` is the server's
    message), ``cancelled`` or ``lost`` (the server no longer knows the task). ``worker`` finished it.
    """

    id: str
    tool: str | None
    status: str
    result: CallToolResult | None
    error: str | None
    worker: str

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> TaskOutcome:
        raw = record.get("result")
        return cls(
            id=str(record["id"]),
            tool=record.get("tool"),
            status=str(record["status"]),
            result=CallToolResult.model_validate(raw) if raw is not None else None,
            error=record.get("error"),
            worker=str(record.get("worker", "")),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "tool": self.tool,
            "status": self.status,
            "result": (
                self.result.model_dump(mode="json", by_alias=True, exclude_none=True)
                if self.result is not None
                else None
            ),
            "error": self.error,
            "worker": self.worker,
        }


def task_record(task: ToolTask, worker: str) -> dict[str, Any]:
    """The ``"task"`` record for ``task`` held by ``worker`` (JSON; credentials taken out of the URL)."""
    saved = task.to_json()
    saved["server"] = redact_server(str(saved.get("server", "")))
    return {
        "id": task.id,
        "tool": task.tool,
        "server": saved["server"],
        "status": task.status,
        "status_message": task.status_message,
        "worker": worker,
        "saved": saved,
        "updated": time.time(),
    }
