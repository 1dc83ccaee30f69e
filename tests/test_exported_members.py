"""The public names of ``mcp_client`` are the documented ones, and they say they are public.

Like httpx's ``tests/test_exported_members.py``: every name in ``mcp_client.__all__`` is documented
(in ``README.md`` or a page under ``docs/``), every public class and function names ``mcp_client`` as
its module (so reprs, tracebacks and docs show the name a user imports), and the error tree in
``docs/errors.md`` is the one the classes form.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import mcp_client
from mcp_client import MCPClientError

ROOT = Path(__file__).resolve().parents[1]


def _documentation() -> str:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
    return "\n".join(page.read_text(encoding="utf-8") for page in pages if page.exists())


def test_every_exported_name_is_documented() -> None:
    docs = _documentation()
    missing = [
        name
        for name in mcp_client.__all__
        if name != "__version__" and not re.search(rf"\b{re.escape(name)}\b", docs)
    ]
    assert missing == [], f"exported from mcp_client but named in no doc page: {missing}"


def test_every_exported_name_exists_and_says_it_is_public() -> None:
    for name in mcp_client.__all__:
        member = getattr(mcp_client, name)
        if inspect.isclass(member) or inspect.isfunction(member):
            assert member.__module__ == "mcp_client", f"{name}.__module__ is {member.__module__!r}"


def _error_tree() -> list[tuple[int, str]]:
    """(depth, class name) of each class in the tree of docs/errors.md."""
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    found = re.search(r"```[a-z]*\nMCPClientError(.*?)```", text, re.S)
    assert found is not None, "docs/errors.md has no fenced error tree starting at MCPClientError"
    block = "MCPClientError" + found.group(1)
    rows = [(0, "MCPClientError")]
    for line in block.splitlines()[1:]:
        found = re.match(r"^((?:│   |    )*)[├└]── (\w+)", line)
        if found:
            rows.append((len(found.group(1)) // 4 + 1, found.group(2)))
    return rows


def test_the_documented_error_tree_is_the_class_tree() -> None:
    rows = _error_tree()
    parents: list[str] = []
    for depth, name in rows:
        parents = parents[:depth]
        error = getattr(mcp_client, name)
        if parents:
            assert issubclass(error, getattr(mcp_client, parents[-1])), f"{name} is not a {parents[-1]}"
        parents.append(name)
    exported = {
        name
        for name in mcp_client.__all__
        if inspect.isclass(getattr(mcp_client, name))
        and issubclass(getattr(mcp_client, name), MCPClientError)
    }
    assert exported - {name for _, name in rows} == set(), "exported errors missing from docs/errors.md"
    for name in exported:  # each class sits under its direct base (a second base may repeat it)
        error = getattr(mcp_client, name)
        placed = {parent for depth, parent in _parents_of(rows, name)}
        for base in error.__bases__:
            if base is not Exception and issubclass(base, MCPClientError):
                assert base.__name__ in placed, f"{name} should be drawn under {base.__name__}"


def _parents_of(rows: list[tuple[int, str]], name: str) -> list[tuple[int, str]]:
    parents: list[tuple[int, str]] = []
    stack: list[tuple[int, str]] = []
    for depth, row in rows:
        stack = stack[:depth]
        if row == name and stack:
            parents.append(stack[-1])
        stack.append((depth, row))
    return parents
