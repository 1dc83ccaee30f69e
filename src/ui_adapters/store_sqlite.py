"""Deprecated: moved to ``ui_adapters.broker.stores.sqlite``; this path goes in the next release.

See the changelog. Import from ``ui_adapters`` (``from ui_adapters import ...``) or from
``ui_adapters.broker.stores.sqlite``.
"""

from __future__ import annotations

from ui_adapters.broker._moved import warn_moved
from ui_adapters.broker.stores.sqlite import SqliteStore

__all__ = ["SqliteStore"]

warn_moved(__name__, "ui_adapters.broker.stores.sqlite")
