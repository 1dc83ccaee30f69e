"""How a person leaves a prompt other than by answering: the exceptions every prompt may raise.

A prompt raises ``UserDeclined`` when the person says no (the decline key or choice) and
``UserCancelled`` when they walk away (Esc, Ctrl-C, Ctrl-D, end of input). The adapter turns them into
``ElicitResult(action="decline")`` and ``ElicitResult(action="cancel")``; nothing else needs to know.
``GoBack`` is a step back inside the form (the previous field, or the review a change started from);
the form's course (``_flow``) handles it and it never reaches the adapter.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["Back", "GoBack", "UserCancelled", "UserDeclined"]

Back = Literal["previous", "review"] | None
"""Where a prompt's back key leads: the previous field (Shift-Tab), the review a change started from
(Esc or Shift-Tab), or nowhere (the first field, the review itself)."""


class UserDeclined(Exception):
    """The person explicitly refused to answer."""


class UserCancelled(Exception):
    """The person dismissed the question without deciding (or the input ended)."""


class GoBack(Exception):
    """The person asked to go back one step: to the previous field, or to the review."""
