"""Dates and times typed in words ("24 Dec", "tomorrow", "next friday 7pm"), through ``dateparser``.

``dateparser`` is the ``chat`` extra, imported on first use: a chat reads dates the way people write
them, and a well-kept parser of natural language does that better than rules of our own. Without it,
only ISO dates and times are understood and the reply says so (``pip install 'mcp-elicit-client[chat]'``).
Relative words are read against ``now`` (the conversation's clock, so tests and restored
conversations agree), and a date without a year is taken in the future: a booking for "24 Dec" asked
on 5 January means this December, not last.
"""

from __future__ import annotations

import re
from datetime import date, datetime, tzinfo
from typing import Any

__all__ = ["dateparser_available", "read_date", "read_date_time"]

# A date in words has a letter ("24 Dec", "tomorrow") or separated numbers ("24/12", "24.12.2026").
_DATE_LIKE = re.compile(r"[^\W\d_]|\d\s*[-/.]\s*\d")
_ISO_LIKE = re.compile(r"^\s*\d{4}-\d{1,2}-\d{1,2}\b")
_EXTRA_HINT = "install mcp-elicit-client[chat] to type dates in words"


def dateparser_available() -> bool:
    try:
        import dateparser  # noqa: F401  # pyright: ignore[reportUnusedImport]
    except ImportError:
        return False
    return True


def read_date(text: str, *, now: datetime) -> date:
    """The calendar date ``text`` names, or ``ValueError`` saying what is expected."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        pass
    moment = _parse(text, now=now, zone=None)
    if moment is None:
        raise ValueError(_reason("a date, like 2026-12-24, 24 Dec or tomorrow"))
    return moment.date()


def read_date_time(text: str, *, now: datetime, zone: tzinfo) -> datetime:
    """The moment ``text`` names, with a time zone (``zone`` when the text gives none)."""
    try:
        moment = datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        moment = _parse(text, now=now, zone=zone)
        if moment is None:
            raise ValueError(_reason("a date and time, like 2026-12-24 19:30, or tomorrow 7pm")) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment


def _parse(text: str, *, now: datetime, zone: tzinfo | None) -> datetime | None:
    if not _DATE_LIKE.search(text) or _ISO_LIKE.match(text):
        return None  # "2" alone is a slip, not the 2nd; "2026-13-01" a wrong ISO date, not 13 January
    try:
        import dateparser
    except ImportError:
        return None
    settings: dict[str, Any] = {
        "PREFER_DATES_FROM": "future",
        "RELATIVE_BASE": now.replace(tzinfo=None),
        "RETURN_AS_TIMEZONE_AWARE": False,
        "STRICT_PARSING": False,
    }
    parsed: datetime | None = dateparser.parse(text, languages=["en"], settings=settings)  # pyright: ignore
    if parsed is None:
        return None
    if zone is not None and parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=zone)
    return parsed


def _reason(expected: str) -> str:
    if dateparser_available():
        return f"type {expected}"
    return f"type {expected.split(',')[0]} ({_EXTRA_HINT})"
