"""The house rules of ``mcp_client``'s imports, read from the source with ``ast``.

- No import cycle among its modules (imports under ``if TYPE_CHECKING:`` aside: they never run).
- No module imports ``ui_adapters`` (the adapters stand on ``mcp_client``, never the other way).
- ``Client`` has no base class of its own package: one public class, in one file.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import mcp_client

PACKAGE = Path(mcp_client.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _runtime_imports(tree: ast.Module, name: str, is_package: bool) -> set[tuple[str, tuple[str, ...]]]:
    """(module, names) of every import that runs (function-level ones count; TYPE_CHECKING not)."""
    found: set[tuple[str, tuple[str, ...]]] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add((module, tuple(alias.name for alias in node.names)))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges: set[str] = set()
        for module, names in _runtime_imports(tree, name, path.name == "__init__.py"):
            submodules = {f"{module}.{n}" for n in names if f"{module}.{n}" in modules}
            edges |= submodules
            if len(submodules) < len(names) or not names:
                edges.add(module)  # a name from the module itself (`from mcp_client import _x` is not)
        graph[name] = {m for m in edges if m in modules and m != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_mcp_client_has_no_import_cycle() -> None:
    graph = _graph()
    assert len(graph) > 30  # the whole package was read
    assert "mcp_client._session.session" in graph["mcp_client._client"]
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_imports_ui_adapters() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        name = _module_name(path)
        imported = _runtime_imports(
            ast.parse(path.read_text(encoding="utf-8")), name, path.name == "__init__.py"
        )
        if any(m == "ui_adapters" or m.startswith("ui_adapters.") for m, _ in imported):
            offenders.append(name)
    assert offenders == []


def test_client_has_no_base_class_of_its_own_package() -> None:
    bases = [base for base in inspect.getmro(mcp_client.Client)[1:] if base is not object]
    assert bases == []
