"""Data flows one way: ``ui_adapters`` and its CLI build on ``mcp_client``'s public names, never the reverse.

Checked on the source's import statements, so an import hidden inside a function counts too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import mcp_client

SRC = Path(__file__).resolve().parents[1] / "src"


def _imports(package: str) -> Iterator[tuple[str, str]]:
    """(file, imported module) for every import statement under ``src/PACKAGE``."""
    for path in sorted((SRC / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield path.relative_to(SRC).as_posix(), alias.name
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [f"{node.module}.{alias.name}" for alias in node.names]
                for name in names:
                    yield path.relative_to(SRC).as_posix(), name


def test_mcp_client_never_imports_ui_adapters() -> None:
    found = [(where, name) for where, name in _imports("mcp_client") if name.split(".")[0] == "ui_adapters"]
    assert found == []


def test_ui_adapters_use_only_public_mcp_client_names() -> None:
    private = [
        (where, name)
        for where, name in _imports("ui_adapters")
        if name.split(".")[0] == "mcp_client"
        and any(part.startswith("_") for part in name.split(".")[1:])
        and name != "mcp_client.__version__"
    ]
    assert private == []


def test_the_cli_uses_only_public_ui_adapters_names() -> None:
    private = [
        (where, name)
        for where, name in _imports("ui_adapters/cli")
        if name.startswith("ui_adapters.")
        and not name.startswith("ui_adapters.cli.")
        and any(part.startswith("_") for part in name.split(".")[1:])
    ]
    assert private == []


def test_the_cli_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ui_adapters.cli", "--version"], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (0, f"mcp-client {mcp_client.__version__}\n")


def test_the_tests_read_only_files_inside_the_repository() -> None:
    from tests.support.traces import TRACES

    root = SRC.parent
    assert TRACES.resolve().is_relative_to(root)
    assert (TRACES / "schema_probe.json").is_file()
    outside = '"shared" / "protocol"'
    for path in (root / "tests").rglob("*.py"):
        if path != Path(__file__).resolve():
            assert outside not in path.read_text(encoding="utf-8"), f"{path} reads outside the repository"
