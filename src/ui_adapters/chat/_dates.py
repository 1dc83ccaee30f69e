"""Dates and times typed in words ("24 Dec", "tomorrow", "next friday 7pm"), through ``dateparser``.

``dateparser`` is the ``chat`` extra (the ``examples`` extra brings it too), imported on first use: a
chat reads dates the way people write them, and a well-kept parser of natural language does that
better than rules of our own. Without it only ISO dates and times are read, and ``date_offer`` says so:
every prompt, placeholder and refusal offers only what the installed reader reads, naming the format
(``YYYY-MM-DD``) when that is all it takes. Relative words are read against ``now`` (the conversation's
clock, so tests and restored conversations agree), and a date without a year is taken in the future: a
booking for "24 Dec" asked on 5 January means this December, not last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from typing import Any

__all__ = ["DateOffer", "date_offer", "dateparser_available", "read_date", "read_date_time"]

# A date in words has a letter ("24 Dec", "tomorrow") or separated numbers ("24/12", "24.12.2026").
_DATE_LIKE = re.compile(r"[^\W\d_]|\d\s*[-/.]\s*\d")
_ISO_LIKE = re.compile(r"^\s*\d{4}-\d{1,2}-\d{1,2}\b")


def dateparser_available() -> bool:
    try:
        import dateparser  # noqa: F401  # pyright: ignore[reportUnusedImport]
    except ImportError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class DateOffer:
    """What a person may type for a date (or a date and time), as the installed reader reads it."""

    what: str
    """``"a date"`` or ``"a date and time"``."""
    layout: str
    """The ISO format always read: ``"YYYY-MM-DD"`` or ``"YYYY-MM-DD HH:MM"``."""
    examples: tuple[str, ...]
    """Replies that are read: the ISO one, then words ("24 Dec", "tomorrow") only when they are."""
    in_words: bool
    """True when words are read (``dateparser`` is installed)."""

    @property
    def sentence(self) -> str:
        """``a date, like 2026-12-24, 24 Dec or tomorrow``; without words ``a date as YYYY-MM-DD, like
        2026-12-24``."""
        if not self.in_words:
            return f"{self.what} as {self.layout}, like {self.examples[0]}"
        *first, last = self.examples
        return f"{self.what}, like {', '.join(first)} or {last}"


def date_offer(*, with_time: bool) -> DateOffer:
    """The date replies to offer now: in words only if ``dateparser`` can be imported."""
    in_words = dateparser_available()
    if with_time:
        words = ("tomorrow 7pm",) if in_words else ()
        return DateOffer("a date and time", "YYYY-MM-DD HH:MM", ("2026-12-24 19:30", *words), in_words)
    words = ("24 Dec", "tomorrow") if in_words else ()
    return DateOffer("a date", "YYYY-MM-DD", ("2026-12-24", *words), in_words)


def read_date(text: str, *, now: datetime) -> date:
    """The calendar date ``text`` names, or ``ValueError`` saying what is expected."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        pass
    moment = _parse(text, now=now, zone=None)
    if moment is None:
        raise ValueError(f"type {date_offer(with_time=False).sentence}")
    return moment.date()


def read_date_time(text: str, *, now: datetime, zone: tzinfo) -> datetime:
    """The moment ``text`` names, with a time zone (``zone`` when the text gives none)."""
    try:
        moment = datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        moment = _parse(text, now=now, zone=zone)
        if moment is None:
            raise ValueError(f"type {date_offer(with_time=True).sentence}") from None
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
    # No RETURN_AS_TIMEZONE_AWARE: dateparser then keeps a zone the person typed ("7pm UTC", "+0200")
    # and returns a naive time otherwise, which takes the conversation's zone below.
    settings: dict[str, Any] = {
        "PREFER_DATES_FROM": "future",
        "RELATIVE_BASE": now.replace(tzinfo=None),
        "STRICT_PARSING": False,
    }
    parsed: datetime | None = dateparser.parse(text, languages=["en"], settings=settings)  # pyright: ignore
    if parsed is None:
        return None
    if zone is not None and parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=zone)
    return parsed
