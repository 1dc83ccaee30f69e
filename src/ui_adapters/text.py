"""Make server-supplied text safe to show in a terminal.

Everything a server sends (messages, titles, descriptions, option labels, even its own name) is
untrusted. Printed raw, it could move the cursor, rewrite earlier lines, change the window title, plant
a clickable OSC 8 hyperlink whose target differs from its text, or reorder characters with bidi
overrides so the user reads something other than what is there. ``sanitize`` removes all of that and
bounds the length, so no adapter has to think about it again.

The result is plain text. It is *not* rich-markup-escaped: put it in a ``rich.text.Text`` (which never
parses markup), or pass it through ``rich.markup.escape`` before using it inside a markup string.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["sanitize"]

# Escape sequences, in both their 7-bit (ESC-prefixed) and 8-bit (C1) forms. Strings (OSC, DCS, SOS,
# PM, APC) run until BEL or ST; an unterminated one runs to the end of the text, since a terminal would
# swallow the rest too.
_STRING_SEQUENCE = r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c|$)"
_CSI_SEQUENCE = r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
_OTHER_ESCAPE = r"\x1b[\x20-\x2f]*[\x30-\x7e]?"
_ESCAPES = re.compile(f"{_STRING_SEQUENCE}|{_CSI_SEQUENCE}|{_OTHER_ESCAPE}")

_LINE_BREAKS = re.compile(r"\r\n|[\r\n\x0b\x0c\x85\u2028\u2029]")
_BLANK_RUNS = re.compile(r"\n{3,}")
_SPACE_RUNS = re.compile(r"[ \t]+")

# Work done on hostile input is bounded: text beyond this many characters per allowed one is never read.
_READ_AHEAD = 8
_MIN_READ = 4096
_ELLIPSIS = "…"


def sanitize(text: str, *, max_length: int | None = None, single_line: bool = False) -> str:
    """``text`` with every terminal control removed, ready to print; at most ``max_length`` characters.

    Removed: ANSI escape sequences (CSI such as colours and cursor moves, OSC such as window titles and
    OSC 8 hyperlinks, DCS/SOS/PM/APC strings, their 8-bit C1 forms), all other C0/C1 control
    characters, and Unicode format characters (bidi embeddings, overrides and isolates U+202A-202E /
    U+2066-2069, LRM/RLM, zero-width spaces and joiners, BOM, soft hyphen...). Tabs become spaces.
    Line breaks of any kind become ``\\n`` (more than one blank line in a row is collapsed), or a single
    space when ``single_line`` is true. Text longer than ``max_length`` is cut and ends with "…".
    """
    if max_length is not None:
        max_length = max(max_length, 1)
        text = text[: max(max_length * _READ_AHEAD, _MIN_READ)]
    text = _ESCAPES.sub("", text)
    text = _LINE_BREAKS.sub(" " if single_line else "\n", text)
    text = "".join(_keep(ch) for ch in text)
    if single_line:
        text = _SPACE_RUNS.sub(" ", text).strip()
    else:
        text = _BLANK_RUNS.sub("\n\n", text).strip()
    if max_length is not None and len(text) > max_length:
        text = text[: max_length - 1].rstrip() + _ELLIPSIS
    return text


def _keep(ch: str) -> str:
    """The character itself if it is printable text, a space for a tab, else nothing."""
    if ch == "\n" or ch == " ":
        return ch
    if ch == "\t":
        return " "
    category = unicodedata.category(ch)
    if category in ("Cc", "Cf", "Cs", "Zl", "Zp"):
        return ""
    return ch
