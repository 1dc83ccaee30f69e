"""Deprecated: moved to ``ui_adapters.broker.tasks``; this path goes in the next release.

See the changelog. Import from ``ui_adapters`` (``from ui_adapters import ...``) or from
``ui_adapters.broker.tasks``.
"""

from __future__ import annotations

from ui_adapters.broker._moved import warn_moved
from ui_adapters.broker.tasks import TASK, TASK_RESULT, StoredTask, TaskOutcome, task_record

__all__ = ["TASK", "TASK_RESULT", "StoredTask", "TaskOutcome", "task_record"]

warn_moved(__name__, "ui_adapters.broker.tasks")
