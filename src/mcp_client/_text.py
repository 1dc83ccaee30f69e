"""Server text made fit to quote in our own messages: one line, bounded, nothing that is layout.

Server text is data. Where mcp_client quotes a server (an error message, a note in a schema given to a
model), control characters (C0, DEL, C1) and the zero-width and bidirectional formatting characters,
which could hide or reorder what a person reads, become spaces; runs of whitespace become one space.
"""

from __future__ import annotations

import re

__all__ = ["CONTROL", "one_line"]

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def one_line(text: str, limit: int, *, replacement: str = " ") -> str:
    """``text`` on one line without control or formatting characters, cut at ``limit`` with "…".

    Each such character becomes ``replacement``: a space between words, ``""`` inside a name (so that
    a zero-width character hidden in ``bis\u200btro`` leaves ``bistro``)."""
    cleaned = " ".join(CONTROL.sub(replacement, text).split())
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"
