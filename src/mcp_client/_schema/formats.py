"""Checks for the four string ``format`` values an elicitation schema may use.

The spec names ``email``, ``uri``, ``date`` and ``date-time`` but no grammar, so these are deliberately
sane rather than exhaustive: they catch typing mistakes before an answer is sent, and the server is
expected to validate again. Each check takes a string and returns ``True`` if it fits.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from urllib.parse import urlsplit

__all__ = ["is_date", "is_date_time", "is_email", "is_uri"]

_WHITESPACE_OR_CONTROL = re.compile(r"[\s\x00-\x1f\x7f]")
_URI_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# RFC 3339 ``date-time``: seconds and a time zone are required; ``t``/space and ``z`` are tolerated.
_DATE_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})"
)


def is_email(text: str) -> bool:
    """``local@domain``: one ``@``, no spaces, a non-empty local part and dot-separated domain labels."""
    if _WHITESPACE_OR_CONTROL.search(text) or text.count("@") != 1:
        return False
    local, _, domain = text.partition("@")
    return bool(local) and bool(domain) and all(domain.split("."))


def is_uri(text: str) -> bool:
    """An absolute URI: a scheme, a colon and something after it, parsable by ``urllib``."""
    if _WHITESPACE_OR_CONTROL.search(text):
        return False
    scheme, colon, rest = text.partition(":")
    if not colon or not rest or not _URI_SCHEME.fullmatch(scheme):
        return False
    try:
        parts = urlsplit(text)
        _ = parts.port  # raises ValueError for a port that is not a number
    except ValueError:
        return False
    return bool(parts.scheme) and bool(parts.netloc or parts.path or parts.query)


def is_date(text: str) -> bool:
    """An ISO calendar date ``YYYY-MM-DD`` that exists (no week dates, no ``20250101``)."""
    if not _DATE.fullmatch(text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def is_date_time(text: str) -> bool:
    """An RFC 3339 date-time such as ``2025-12-26T18:30:00Z`` or ``2025-12-26T18:30:00.5+01:00``."""
    if not _DATE_TIME.fullmatch(text):
        return False
    try:
        datetime.fromisoformat(text.upper())
    except ValueError:
        return False
    return True
