"""Read ``WWW-Authenticate`` (RFC 9110 section 11.6.1) for the Bearer challenge a protected MCP server sends.

The fields the flow uses (RFC 6750, RFC 9728): ``resource_metadata`` (where the protected resource
metadata lives), ``scope`` (what this request needs), ``error`` (``insufficient_scope`` asks for a
step-up). Other schemes (``Basic``, ``DPoP``...) in the same header are skipped. A malformed header
yields what could be read before the damage, never an exception: the flow then falls back to the
well-known URLs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

_MAX_HEADER = 8192
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_TOKEN68 = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
_SPACE = re.compile(r"[ \t]*")


@dataclass(frozen=True, slots=True)
class Challenge:
    """One authentication challenge: its scheme (lower-cased) and its parameters (names lower-cased)."""

    scheme: str
    params: dict[str, str] = field(default_factory=lambda: {})

    @property
    def scope(self) -> str | None:
        """The space-separated scopes the server asks for, normalized; ``None`` if absent or empty."""
        value = " ".join(self.params.get("scope", "").split())
        return value or None

    @property
    def resource_metadata(self) -> str | None:
        return self.params.get("resource_metadata") or None

    @property
    def error(self) -> str | None:
        return self.params.get("error") or None


def parse_challenges(values: Iterable[str]) -> list[Challenge]:
    """Every challenge in the given ``WWW-Authenticate`` header values, in order."""
    challenges: list[Challenge] = []
    for value in values:
        if len(value) > _MAX_HEADER:
            continue
        challenges.extend(_parse_one(value))
    return challenges


def bearer_challenge(values: Iterable[str]) -> Challenge | None:
    """The first ``Bearer`` challenge, or ``None``."""
    for challenge in parse_challenges(values):
        if challenge.scheme == "bearer":
            return challenge
    return None


def _parse_one(text: str) -> list[Challenge]:
    challenges: list[Challenge] = []
    pos = 0
    current: Challenge | None = None
    while pos < len(text):
        pos = _skip(text, pos)
        if pos >= len(text):
            break
        if text[pos] == ",":
            pos += 1
            continue
        token = _TOKEN.match(text, pos)
        if token is None:
            break  # garbage: keep what was read so far
        after = _SPACE.match(text, token.end())
        assert after is not None
        if after.end() < len(text) and text[after.end()] == "=" and current is not None:
            # An auth-param "name = value" (or a token68 that ends in "=": told apart below).
            value_start = _SPACE.match(text, after.end() + 1)
            assert value_start is not None
            value, end = _read_value(text, value_start.end())
            if value is None:
                break
            name = token.group().lower()
            current.params.setdefault(name, value)
            pos = end
            continue
        # A new challenge: "scheme" followed by params or a token68.
        current = Challenge(token.group().lower())
        challenges.append(current)
        pos = after.end()
        token68 = _TOKEN68.match(text, pos)
        if token68 is not None and not _looks_like_param(text, pos):
            end = _skip(text, token68.end())
            if end >= len(text) or text[end] == ",":
                pos = end  # a token68 credential blob: not used, skipped
    return challenges


def _looks_like_param(text: str, pos: int) -> bool:
    token = _TOKEN.match(text, pos)
    if token is None:
        return False
    after = _SPACE.match(text, token.end())
    assert after is not None
    end = after.end()
    return end < len(text) and text[end] == "=" and (end + 1 >= len(text) or text[end + 1] != "=")


def _read_value(text: str, pos: int) -> tuple[str | None, int]:
    if pos < len(text) and text[pos] == '"':
        out: list[str] = []
        i = pos + 1
        while i < len(text):
            char = text[i]
            if char == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 2
                continue
            if char == '"':
                return "".join(out), i + 1
            out.append(char)
            i += 1
        return None, len(text)  # unterminated quoted string
    token = _TOKEN.match(text, pos)
    if token is None:
        return None, pos
    return token.group(), token.end()


def _skip(text: str, pos: int) -> int:
    match = _SPACE.match(text, pos)
    assert match is not None
    return match.end()
