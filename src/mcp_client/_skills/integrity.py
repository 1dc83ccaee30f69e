"""Checking a skill's files against its entry (SEP-2640): size, SHA-256 digest, SKILL.md frontmatter.

A skill entry (from ``skills/list`` or ``skills/get``) promises each file's ``digest`` (``sha256:<hex>``
of the raw bytes) and, where given, its ``size`` in bytes, and copies the SKILL.md YAML frontmatter
as JSON. A file that breaks any promise must not be used: these functions turn the content a
``resources/read`` returned into verified bytes, or raise ``SkillVerificationError`` naming the file
and what did not match.

The frontmatter is YAML (the Agent Skills format allows lists and maps: ``allowed-tools``,
``metadata``), so it is read with PyYAML's ``safe_load``, from the optional ``skills`` extra, imported
here on first use: ``import mcp_client`` never loads it, and a client that only lists skills never
needs it. A hand-written parser would disagree with the server's YAML on quoting, folding or types,
and a disagreement is exactly what this check exists to catch.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from typing import Any

from mcp_client._errors import SkillVerificationError

EXTRA_HINT = "pip install 'mcp-elicit-client[skills]'"

_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
# The frontmatter block: '---' on the first line (after an optional BOM), up to the next '---' line.
_FRONTMATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL)


def content_bytes(skill_uri: str, uri: str, result: Mapping[str, Any]) -> bytes:
    """The raw bytes of ``uri`` in a ``resources/read`` result: UTF-8 of ``text``, or decoded ``blob``."""
    contents: object = result.get("contents")
    items: list[Any] = contents if isinstance(contents, list) else []  # pyright: ignore[reportUnknownVariableType]
    chosen = next((c for c in items if isinstance(c, dict) and c.get("uri") == uri), None)  # pyright: ignore[reportUnknownMemberType]
    if chosen is None and len(items) == 1 and isinstance(items[0], dict):
        chosen = items[0]
    if not isinstance(chosen, dict):
        raise SkillVerificationError(skill_uri, uri, "resources/read returned no contents for it")
    text: object = chosen.get("text")  # pyright: ignore[reportUnknownMemberType]
    if isinstance(text, str):
        return text.encode("utf-8")
    blob: object = chosen.get("blob")  # pyright: ignore[reportUnknownMemberType]
    if isinstance(blob, str):
        try:
            return base64.b64decode(blob, validate=True)
        except binascii.Error:
            raise SkillVerificationError(skill_uri, uri, "its blob is not valid base64") from None
    raise SkillVerificationError(skill_uri, uri, "resources/read returned neither text nor blob for it")


def verify_bytes(skill_uri: str, uri: str, data: bytes, digest: str, size: int | None) -> None:
    """Raise unless ``data`` has the ``size`` (when the entry gives one) and the ``digest`` promised.

    The size is checked first: a length that differs is a failure whatever the digest says.
    """
    if size is not None and len(data) != size:
        raise SkillVerificationError(
            skill_uri, uri, f"it is {len(data)} bytes long, the skill entry says {size} bytes"
        )
    if not _DIGEST.fullmatch(digest):
        raise SkillVerificationError(
            skill_uri,
            uri,
            f"the skill entry's digest {digest!r} is not 'sha256:' and 64 lowercase hex digits",
        )
    actual = "sha256:" + hashlib.sha256(data).hexdigest()
    if not hmac.compare_digest(actual, digest):
        raise SkillVerificationError(skill_uri, uri, f"its digest is {actual}, the skill entry says {digest}")


def parse_frontmatter(skill_uri: str, text: str) -> dict[str, Any]:
    """The YAML frontmatter of a SKILL.md as a JSON-like dict (dates as ISO strings)."""
    match = _FRONTMATTER.match(text)
    if match is None:
        raise SkillVerificationError(
            skill_uri, skill_uri, "it does not begin with a '---' delimited YAML frontmatter block"
        )
    try:
        import yaml
    except ImportError:
        raise SkillVerificationError(
            skill_uri,
            skill_uri,
            f"its YAML frontmatter cannot be checked: PyYAML is not installed; run: {EXTRA_HINT}",
        ) from None
    try:
        loaded: object = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        raise SkillVerificationError(
            skill_uri, skill_uri, f"its frontmatter is not valid YAML ({exc})"
        ) from None
    if not isinstance(loaded, dict):
        raise SkillVerificationError(skill_uri, skill_uri, "its frontmatter is not a YAML mapping")
    return {str(key): _jsonable(value) for key, value in loaded.items()}  # pyright: ignore[reportUnknownVariableType]


def compare_frontmatter(skill_uri: str, parsed: Mapping[str, Any], entry: Mapping[str, Any]) -> None:
    """Raise on any field where the file's frontmatter and the entry's differ (absent counts as null)."""
    differences = [
        f"{key}: the file has {json.dumps(parsed.get(key))}, the entry has {json.dumps(entry.get(key))}"
        for key in sorted({*parsed, *entry})
        if not _same(parsed.get(key), entry.get(key))
    ]
    if differences:
        raise SkillVerificationError(
            skill_uri, skill_uri, "its frontmatter differs from the skill entry's: " + "; ".join(differences)
        )


def _same(a: object, b: object) -> bool:
    """JSON equality: ``1 == 1.0`` but ``True != 1``, as two JSON documents compare."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True) or (
        isinstance(a, int | float)
        and isinstance(b, int | float)
        and not isinstance(a, bool)
        and not isinstance(b, bool)
        and a == b
    )


def _jsonable(value: object) -> Any:
    """YAML's extra scalar types as JSON renders them: a date as its ISO string."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, list):
        return [_jsonable(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value
