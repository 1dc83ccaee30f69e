"""Deprecated: moved to ``ui_adapters.broker.paused``; this path goes in the next release.

See the changelog. Import from ``ui_adapters`` (``from ui_adapters import ...``) or from
``ui_adapters.broker.paused``.
"""

from __future__ import annotations

from ui_adapters.broker._moved import warn_moved
from ui_adapters.broker.paused import PausedCall, PausedCallNotReadyError

__all__ = ["PausedCall", "PausedCallNotReadyError"]

warn_moved(__name__, "ui_adapters.broker.paused")
