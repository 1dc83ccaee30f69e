"""Protocol versions the client speaks, newest first, grouped by era."""

from __future__ import annotations

from typing import Literal

EraName = Literal["legacy", "modern"]
"""The two protocol eras: ``"legacy"`` (the ``initialize`` handshake) and ``"modern"`` (the envelope)."""

LEGACY_VERSIONS: tuple[str, ...] = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
"""Handshake-era versions: ``initialize`` offers the first and accepts any of them back."""

MODERN_VERSIONS: tuple[str, ...] = ("2026-07-28",)
"""Envelope-era versions: every request carries the version; ``server/discover`` is optional."""

LATEST_LEGACY = LEGACY_VERSIONS[0]
LATEST_MODERN = MODERN_VERSIONS[0]

MODE_LEGACY = "legacy"
"""``Client(mode="legacy")``: the ``initialize`` handshake."""
MODE_AUTO = "auto"
"""``Client(mode="auto")``: probe ``server/discover``, fall back to the handshake."""

MODES: tuple[str, ...] = (MODE_LEGACY, MODE_AUTO, *MODERN_VERSIONS)
"""Valid values of ``Client(mode=...)``."""
