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

A record of another shape (a damaged row, a hand edit, a foreign key in a shared Redis) is refused by
``from_record`` with a ``DamagedTaskRecordError`` (a ``ValueError``) naming the task and the field: the
broker skips it when it lists or takes over tasks, so one bad record never hides the others.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from mcp_client import ToolTask
from mcp_client.types import CallToolResult
from ui_adapters.broker.stores import redact_server

__all__ = ["TASK", "TASK_RESULT", "DamagedTaskRecordError", "StoredTask", "TaskOutcome", "task_record"]

TASK = "task"
"""The record kind of a task some worker follows."""
TASK_RESULT = "task-result"
"""The record kind of a task's outcome."""
_OUTCOME_STATUSES = frozenset({"completed", "failed", "cancelled", "lost"})
"""The ``status`` of a ``"task-result"`` record."""


class DamagedTaskRecordError(ValueError):
    """A ``"task"`` or ``"task-result"`` record in the store that no broker could have written.

    ``task_id`` is the task's id (the record's, or the id it was looked up by; ``None`` when neither
    is known) and ``problem`` says which field is wrong; the message says both and the fix.
    """

    def __init__(self, task_id: str | None, problem: str) -> None:
        self.task_id = task_id
        self.problem = problem
        super().__init__(
            f"the stored record of task {task_id!r} is damaged: {problem}. Delete that record from the "
            "store, or empty the store with purge()"
        )


def _checked_id(record: Mapping[str, Any], stored_as: str | None) -> str:
    """The record's ``"id"``: a non-empty string, the one it is stored under when that is known."""
    if not isinstance(record, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance] (JSON from a store)
        raise DamagedTaskRecordError(stored_as, f"it is a JSON {type(record).__name__}, not an object")
    task_id = record.get("id")
    if task_id is None or task_id == "":
        raise DamagedTaskRecordError(stored_as, "its 'id' is missing")
    if not isinstance(task_id, str):
        raise DamagedTaskRecordError(stored_as, f"its 'id' is {_shown(task_id)}, not a task id (a string)")
    if stored_as is not None and task_id != stored_as:
        raise DamagedTaskRecordError(stored_as, f"its 'id' is {task_id!r}, another task's")
    return task_id


def _text(record: Mapping[str, Any], task_id: str, field: str, default: str | None) -> str | None:
    """``record[field]``, a string (``default`` when it is missing)."""
    value = record.get(field, default)
    if value is None and default is None:
        return None
    if not isinstance(value, str):
        expected = "a string or null" if default is None else "a string"
        raise DamagedTaskRecordError(task_id, f"its {field!r} is {_shown(value)}, not {expected}")
    return value


def _shown(value: object) -> str:
    """A stored value in an error message: its JSON type, and the value itself when it is short."""
    if value is None:
        return "null"
    kind = _JSON_KINDS.get(type(value).__name__, f"a {type(value).__name__}")
    text = repr(value)
    return f"{kind} ({text})" if len(text) <= 40 else kind


_JSON_KINDS = {
    "dict": "an object",
    "list": "a list",
    "bool": "a boolean",
    "str": "a string",
    "int": "a number",
    "float": "a number",
}


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
    def from_record(cls, record: Mapping[str, Any], task_id: str | None = None) -> StoredTask:
        """The task a ``"task"`` record describes (``task_id``: the id it is stored under, if known).

        ``DamagedTaskRecordError`` (a ``ValueError``) naming the task and the field if the record is not
        what ``task_record`` writes: no ``id``, a ``tool`` that is not a string, a ``saved`` that is not
        a ``ToolTask.to_json()`` object (with its ``taskId``)...
        """
        checked = _checked_id(record, task_id)
        saved: object = record.get("saved")
        if saved is None:
            raise DamagedTaskRecordError(checked, "its 'saved' (ToolTask.to_json()) is missing")
        if not isinstance(saved, dict):
            raise DamagedTaskRecordError(
                checked, f"its 'saved' is {_shown(saved)}, not an object (ToolTask.to_json())"
            )
        saved_task: dict[str, Any] = saved  # pyright: ignore[reportUnknownVariableType]
        if not isinstance(saved_task.get("taskId"), str):
            raise DamagedTaskRecordError(checked, "its 'saved' has no 'taskId' (not a ToolTask.to_json())")
        return cls(
            id=checked,
            tool=_text(record, checked, "tool", None),
            server=_text(record, checked, "server", "") or "",
            status=_text(record, checked, "status", "working") or "working",
            worker=_text(record, checked, "worker", "") or "",
            saved=dict(saved_task),
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
    def from_record(cls, record: Mapping[str, Any], task_id: str | None = None) -> TaskOutcome:
        """The outcome a ``"task-result"`` record describes (``task_id``: the id it is stored under).

        ``DamagedTaskRecordError`` (a ``ValueError``) naming the task and the field if the record is not
        what a broker writes: no ``id`` or ``status``, a ``result`` that is not a ``CallToolResult``...
        """
        checked = _checked_id(record, task_id)
        status: object = record.get("status")
        if status is None:
            raise DamagedTaskRecordError(checked, "its 'status' is missing")
        if status not in _OUTCOME_STATUSES:
            known = ", ".join(sorted(_OUTCOME_STATUSES))
            raise DamagedTaskRecordError(checked, f"its 'status' is {_shown(status)}, not one of {known}")
        raw: object = record.get("result")
        try:
            result = CallToolResult.model_validate(raw) if raw is not None else None
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "itself"
            raise DamagedTaskRecordError(
                checked, f"its 'result' is not a CallToolResult ({where}: {first['msg']})"
            ) from None
        return cls(
            id=checked,
            tool=_text(record, checked, "tool", None),
            status=str(status),
            result=result,
            error=_text(record, checked, "error", None),
            worker=_text(record, checked, "worker", "") or "",
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
