"""Where a ``QuestionBroker`` keeps its questions, paused calls and task handles: the seam and its stores.

* ``QuestionStore`` (``stores.base``): what a broker needs from a store, and what a store holds.
* ``MemoryStore`` (``stores.memory``): in this process's memory.
* ``SqliteStore`` (``stores.sqlite``): one SQLite file, shared by the processes of one machine.
* ``RedisStore`` (``stores.redis``): Redis or Valkey, shared by every worker on every machine (the
  ``redis`` extra, imported when the store is opened).

``SqliteStore`` and ``RedisStore`` are imported from their modules (or from ``ui_adapters``), so
importing the seam loads neither ``sqlite3`` nor ``redis``.
"""

from __future__ import annotations

from ui_adapters.broker.stores.base import DEFAULT_KEEP_FOR, DEFAULT_LEASE, QuestionStore, redact_server
from ui_adapters.broker.stores.memory import MemoryStore

__all__ = ["DEFAULT_KEEP_FOR", "DEFAULT_LEASE", "MemoryStore", "QuestionStore", "redact_server"]
