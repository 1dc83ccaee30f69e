"""A config file's bytes to JSON, every failure said as a place in the file (line and column).

``json.loads`` on a hostile file fails in ways that name no place: a byte that is not UTF-8
(``UnicodeDecodeError``), brackets nested deeper than Python's recursion limit (``RecursionError``),
an integer longer than Python converts (``ValueError``, 4,300 digits). Each becomes a ``JsonTextError``
saying what is wrong and where, which ``config.load_config`` puts after the file's name. A UTF-8 byte
order mark (some Windows editors write one) is read as nothing.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

__all__ = ["JsonTextError", "parse_json"]

_BOM = b"\xef\xbb\xbf"
_BRACKET_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_DEEPEST_SHOWN = 512
"""How deep a bracket is named as "too deep" when Python's own limit was hit first (a deeper file is
nonsense for a config; the place only has to point at where the nesting runs away)."""


class JsonTextError(ValueError):
    """The file is not JSON the loader can read; the message names the place (no file name)."""


def parse_json(raw: bytes) -> Any:
    """The JSON value of ``raw`` (UTF-8, a byte order mark allowed); ``JsonTextError`` naming the place."""
    if raw.startswith(_BOM):
        raw = raw[len(_BOM) :]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _place(raw, exc.start)
        raise JsonTextError(
            f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at line {line}, column {column}; "
            "save the file as UTF-8"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        line, column = _place(text, _too_deep(text))
        raise JsonTextError(
            f"brackets nested too deeply (past {_DEEPEST_SHOWN} levels) at line {line}, column {column}"
        ) from None
    except ValueError:  # an integer past sys.get_int_max_str_digits()
        found = re.search(rf"\d{{{sys.get_int_max_str_digits() + 1},}}", text)
        where = _place(text, found.start()) if found is not None else (1, 1)
        raise JsonTextError(
            f"a number too long to read ({len(found.group()) if found else 'thousands of'} digits) at "
            f"line {where[0]}, column {where[1]}"
        ) from None


def _too_deep(text: str) -> int:
    """The offset of the first bracket past ``_DEEPEST_SHOWN`` levels (else of the deepest one)."""
    depth = deepest = 0
    deepest_at = 0
    for match in _BRACKET_OR_STRING.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > _DEEPEST_SHOWN:
                return match.start()
            if depth > deepest:
                deepest, deepest_at = depth, match.start()
        elif token in "]}":
            depth -= 1
    return deepest_at


def _place(text: str | bytes, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset``, as an editor shows them (columns in characters of the
    line; for bytes that are not UTF-8, in bytes)."""
    newline = "\n" if isinstance(text, str) else b"\n"
    before = text[:offset]
    line = before.count(newline) + 1  # type: ignore[arg-type]
    start = before.rfind(newline) + 1  # type: ignore[arg-type]
    head = before[start:]
    column = len(head.decode("utf-8", "replace") if isinstance(head, bytes) else head) + 1
    return line, column
