"""Temporary files and folders the test suite makes outside pytest's ``tmp_path``: named per run, so
that the session can check it left none of its own behind (however many other runs share the machine).

``mkdtemp(what)`` makes a folder named ``mcp-client-tests-<pid>-<what>-...`` in the system temp folder;
``remove_at_end(path)`` removes one when the session ends; ``leftovers()`` lists what this run made and
did not remove (the root ``conftest.py`` fails the session on any).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

PREFIX = f"mcp-client-tests-{os.getpid()}-"
_at_end: list[Path] = []


def mkdtemp(what: str) -> str:
    return tempfile.mkdtemp(prefix=f"{PREFIX}{what}-")


def remove_at_end(path: str | Path) -> None:
    _at_end.append(Path(path))


def remove_registered() -> None:
    while _at_end:
        shutil.rmtree(_at_end.pop(), ignore_errors=True)


def leftovers() -> list[str]:
    return sorted(name for name in os.listdir(tempfile.gettempdir()) if name.startswith(PREFIX))
