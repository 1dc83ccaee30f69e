"""A test that needs a library of another extra than ``test`` skips, naming the extra to install.

``pip install -e ".[test]"`` alone must collect and run the suite (``scripts/extras_smoke.py`` checks it
in a fresh venv), so a test that needs, say, Sphinx (the ``docs`` extra) imports it through ``need``
inside the test, never at the top of its module: a module-level import of a missing library stops the
whole collection.
"""

from __future__ import annotations

from types import ModuleType

import pytest


def need(module: str, *, extra: str) -> ModuleType:
    """``module`` imported, or the test skipped with ``needs the EXTRA extra: pip install ...``."""
    return pytest.importorskip(module, reason=f"needs the {extra} extra: pip install -e '.[{extra}]'")
