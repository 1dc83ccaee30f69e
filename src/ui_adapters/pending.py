"""Deprecated: moved to ``ui_adapters.broker.pending``; this path goes in the next release.

See the changelog. Import from ``ui_adapters`` (``from ui_adapters import ...``) or from
``ui_adapters.broker.pending``.
"""

from __future__ import annotations

from ui_adapters.broker._moved import warn_moved
from ui_adapters.broker.pending import PendingQuestion, QuestionNotPendingError, QuestionStatus

__all__ = ["PendingQuestion", "QuestionNotPendingError", "QuestionStatus"]

warn_moved(__name__, "ui_adapters.broker.pending")
