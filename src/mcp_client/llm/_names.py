"""Tool names every provider accepts: ``[A-Za-z0-9_-]``, at most 64 characters, unique in one export.

OpenAI, Anthropic and Gemini each reject a function name outside ``^[a-zA-Z0-9_-]{1,64}$`` (Gemini
also wants a letter or ``_`` first), and an MCP tool name may hold dots, slashes or 128 characters. One
mapping serves all three providers, so ``ToolBridge.tool_for(name)`` needs no provider argument.

The names are unique whatever the server sends, because the server chooses them: a crafted name
(``a_b_<the hash another tool would get>``) or the same name twice must not make two tools share one
exported name, or the model's call of one would run the other. They are also unique ignoring case: a
model may not tell ``Search`` from ``search`` apart, and some hosts compare names that way.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

MAX_LENGTH = 64
_HASH_LENGTH = 8
_NOT_ALLOWED = re.compile(r"[^A-Za-z0-9_-]")


def _plain(name: str) -> str:
    cleaned = _NOT_ALLOWED.sub("_", name) or "_"
    if not (cleaned[0].isascii() and (cleaned[0].isalpha() or cleaned[0] == "_")):
        cleaned = "_" + cleaned  # Gemini: a function name starts with a letter or an underscore
    return cleaned


def _hashed(name: str, cleaned: str, attempt: int = 0) -> str:
    """``cleaned`` cut to fit, with a short hash of ``name`` (and of ``attempt`` after the first try)."""
    key = name if attempt == 0 else f"{name}\n{attempt}"
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH_LENGTH]
    return f"{cleaned[: MAX_LENGTH - _HASH_LENGTH - 1]}_{digest}"


def provider_names(names: Iterable[str]) -> list[str]:
    """One provider name for each of ``names``, in order: no two alike, even ignoring case.

    A name that is already valid stays as it is (unless an earlier one differs from it only in case).
    One that had to change (characters replaced, or cut to 64) gets a short hash of the original when
    it was cut or when it would collide with another; a hash that is taken too (a name crafted to
    take it, or the same name given twice) is tried again with a counter until one is free. The
    result is stable across listings of the same names.
    """
    names = list(names)
    out: list[str | None] = [None] * len(names)
    taken: set[str] = set()  # lower-cased
    changed: list[int] = []
    for index, name in enumerate(names):
        if _plain(name) == name and len(name) <= MAX_LENGTH and name.lower() not in taken:
            out[index] = name
            taken.add(name.lower())
        else:
            changed.append(index)
    for index in changed:
        name = names[index]
        cleaned = _plain(name)
        candidate = cleaned if len(cleaned) <= MAX_LENGTH else _hashed(name, cleaned)
        attempt = 0
        while candidate.lower() in taken:
            candidate = _hashed(name, cleaned, attempt)
            attempt += 1
        out[index] = candidate
        taken.add(candidate.lower())
    return [name for name in out if name is not None]
