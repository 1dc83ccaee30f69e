"""Deprecated: moved to ``ui_adapters.broker.stores``; this path goes in the next release.

See the changelog. Import from ``ui_adapters`` (``from ui_adapters import ...``) or from
``ui_adapters.broker.stores``.
"""

from __future__ import annotations

from ui_adapters.broker._moved import warn_moved
from ui_adapters.broker.stores import (
    DEFAULT_KEEP_FOR,
    DEFAULT_LEASE,
    MemoryStore,
    QuestionStore,
    redact_server,
)

__all__ = ["DEFAULT_KEEP_FOR", "DEFAULT_LEASE", "MemoryStore", "QuestionStore", "redact_server"]

warn_moved(__name__, "ui_adapters.broker.stores")
