"""The checks a saved chat conversation passes on its way back (``ChatForm.restore``,
``ChatApproval.restore``): a snapshot comes from a store, so each part is read as untrusted JSON and
one that could not have been written is a ``ValueError`` naming the part."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, cast

from mcp_client import ClientRequestContext
from ui_adapters.broker._question_record import context_from_record, context_record

__all__ = [
    "APPROVAL_FORMAT",
    "FORM_FORMAT",
    "context_from_saved",
    "mapping",
    "saved_context",
    "text_or_none",
    "whole",
]

FORM_FORMAT: Final = "ui_adapters.chat/1"
"""The ``format`` of a saved ``ChatForm``."""
APPROVAL_FORMAT: Final = "ui_adapters.chat.approval/1"
"""The ``format`` of a saved ``ChatApproval``: told apart, so each ``restore`` names the other."""


def mapping(value: object, what: str) -> Mapping[str, Any]:
    """``value`` as a JSON object, else ``ValueError`` naming ``what``."""
    if not isinstance(value, Mapping):
        raise ValueError(f"the saved {what} must be an object, not {type(value).__name__}")
    return cast(Mapping[str, Any], value)


def whole(value: object, what: str) -> int:
    """``value`` as a whole number (0 or more, not a boolean), else ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"the saved {what} must be a whole number, not {value!r}")
    return value


def text_or_none(value: object, what: str) -> str | None:
    """``value`` as text or ``None``, else ``ValueError``."""
    if value is not None and not isinstance(value, str):
        raise ValueError(f"the saved {what} must be text or null, not {value!r}")
    return value


def saved_context(context: ClientRequestContext | None) -> dict[str, Any] | None:
    """Who asked, as a store keeps it (the server URL without ``user:password@``; never a token)."""
    if context is None:
        return None
    return context_record(context)


def context_from_saved(stored: object) -> ClientRequestContext | None:
    """The context ``saved_context`` wrote (``None`` for none); the names shown must be text."""
    if stored is None:
        return None
    record = mapping(stored, "context")
    for key in ("config_name", "tool_name"):  # shown to the user
        if not isinstance(record.get(key), str | None):
            raise ValueError(f"the saved context's {key} must be text or null, not {record[key]!r}")
    return context_from_record(record)
