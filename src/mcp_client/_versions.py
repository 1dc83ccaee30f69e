"""Protocol versions the client speaks, newest first, grouped by era."""

from __future__ import annotations

LEGACY_VERSIONS: tuple[str, ...] = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
"""Handshake-era versions: ``initialize`` offers the first and accepts any of them back."""

MODERN_VERSIONS: tuple[str, ...] = ("2026-07-28",)
"""Envelope-era versions: every request carries the version; ``server/discover`` is optional."""

LATEST_LEGACY = LEGACY_VERSIONS[0]
LATEST_MODERN = MODERN_VERSIONS[0]

MODES: tuple[str, ...] = ("legacy", "auto", *MODERN_VERSIONS)
"""Valid values of ``Client(mode=...)``."""
