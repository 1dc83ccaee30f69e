"""Tool names every provider accepts: ``[A-Za-z0-9_-]``, at most 64 characters, unique in one export.

OpenAI, Anthropic and Gemini each reject a function name outside ``^[a-zA-Z0-9_-]{1,64}$`` (Gemini
also wants a letter or ``_`` first), and an MCP tool name may hold dots, slashes or 128 characters. One
mapping serves all three providers, so ``ToolBridge.tool_for(name)`` needs no provider argument.
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


def _hashed(name: str, cleaned: str) -> str:
    digest = hashlib.sha256(name.encode()).hexdigest()[:_HASH_LENGTH]
    return f"{cleaned[: MAX_LENGTH - _HASH_LENGTH - 1]}_{digest}"


def provider_names(names: Iterable[str]) -> dict[str, str]:
    """``{mcp name: provider name}`` for names unique among themselves (a client's, or a group's).

    A name that is already valid stays as it is. One that had to change (characters replaced, or cut
    to 64) gets a short hash of the original when it was cut or when it would collide with another,
    so two different MCP names never share a provider name, and the result is stable across listings.
    """
    names = list(names)
    taken: set[str] = set()
    mapping: dict[str, str] = {}
    changed: list[tuple[str, str]] = []
    for name in names:
        cleaned = _plain(name)
        if cleaned == name and len(name) <= MAX_LENGTH:
            mapping[name] = name
            taken.add(name)
        else:
            changed.append((name, cleaned))
    for name, cleaned in changed:
        candidate = cleaned if len(cleaned) <= MAX_LENGTH else _hashed(name, cleaned)
        if candidate in taken:
            candidate = _hashed(name, cleaned)
        mapping[name] = candidate
        taken.add(candidate)
    return mapping
