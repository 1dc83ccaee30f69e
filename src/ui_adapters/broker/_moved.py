"""The warning of the old module paths of the broker family (``ui_adapters.store`` ...), kept one release."""

from __future__ import annotations

import warnings

__all__ = ["warn_moved"]


def warn_moved(old: str, new: str) -> None:
    """A ``DeprecationWarning`` for importing ``old``, pointing at the import that replaces it."""
    warnings.warn(
        f"{old} is deprecated and goes in the next release: import from ui_adapters or {new} "
        "(see the changelog)",
        DeprecationWarning,
        stacklevel=3,
    )
