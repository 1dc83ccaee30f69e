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


def _imports(package: str, *, typing_only: bool = True) -> Iterator[tuple[str, str]]:
    """(file, imported module) for every import statement under ``src/PACKAGE``.

    ``typing_only=False`` leaves out the imports under ``if TYPE_CHECKING:`` (never run).
    """
    for path in sorted((SRC / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skipped: set[ast.AST] = set()
        if not typing_only:
            for node in ast.walk(tree):
                if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
                    skipped.update(n for child in node.body for n in ast.walk(child))
        for node in ast.walk(tree):
            if node in skipped:
                continue
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


def _module_defining(class_name: str) -> str:
    for path in sorted((SRC / "mcp_client").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(node, ast.ClassDef) and node.name == class_name for node in tree.body):
            return path.relative_to(SRC).with_suffix("").as_posix().replace("/", ".")
    raise AssertionError(f"no module defines {class_name}")


def test_the_form_model_does_not_import_its_parser() -> None:
    """Parsing depends on the model, never the other way round (no import cycle, even a deferred one)."""
    graph: dict[str, set[str]] = {}
    for where, name in _imports("mcp_client", typing_only=False):
        module = where.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        graph.setdefault(module, set()).add(name)

    def reached_from(start: str) -> set[str]:
        seen, todo = set[str](), [start]
        while todo:
            for name in graph.get(todo.pop(), ()):
                targets = [m for m in graph if name == m or name.startswith(m + ".")]
                target = max(targets, key=len, default=None)
                if target is not None and target not in seen:
                    seen.add(target)
                    todo.append(target)
        return seen

    assert "mcp_client._schema.parse" not in reached_from(_module_defining("FormField"))


def test_adapters_read_the_parsed_form_never_raw_json_schema() -> None:
    raw_readers = [
        path.relative_to(SRC).as_posix()
        for path in sorted((SRC / "ui_adapters").rglob("*.py"))
        if any(word in path.read_text(encoding="utf-8") for word in ("requested_schema", "parse_form_schema"))
    ]
    assert raw_readers == []


def test_typing_text_is_the_terminals_business_not_the_form_models() -> None:
    from mcp_client.schema import FormField

    assert not hasattr(FormField, "parse_text")
