"""How a person ends a question early: the two exceptions every prompt may raise.

A prompt raises ``UserDeclined`` when the person says no (the decline key or choice) and
``UserCancelled`` when they walk away (Esc, Ctrl-C, Ctrl-D, end of input). The adapter turns them into
``ElicitResult(action="decline")`` and ``ElicitResult(action="cancel")``; nothing else needs to know.
"""

from __future__ import annotations

__all__ = ["UserCancelled", "UserDeclined"]


class UserDeclined(Exception):
    """The person explicitly refused to answer."""


class UserCancelled(Exception):
    """The person dismissed the question without deciding (or the input ended)."""
