"""Mutation testing of the modules a change touched: mutmut on those modules alone, with their tests.

A test suite can run a line without checking what it does. mutmut changes the code one small mutation
at a time (``<`` to ``<=``, a string to another, a call dropped) and runs the tests that cover the
mutated function: a mutant no test fails on (a *survivor*) is a behaviour nothing asserts. Before an
issue is called resolved, run this on the code it added and write the test each survivor asks for (or
say why the mutant means the same thing).

Which modules: the paths given, else every ``src/**/*.py`` that differs from where this branch left
``--base`` (``main`` by default; uncommitted changes count). Which tests: the ones after ``--``, else
for each module the tests ``tests/README.md`` lists for it ("Which tests cover which module") and the
test files that import it by name. mutmut first runs those tests once to learn which test reaches
which function, then runs only those for each mutant.

mutmut's settings are in ``pyproject.toml`` (``[tool.mutmut]``); this script narrows each run to the
chosen modules (``only_mutate``) and tests (``pytest_add_cli_args_test_selection``) and starts from a
fresh ``mutants/`` (mutmut's copy of the tree, gitignored) unless ``--keep``. Tests that run our code
in a subprocess see the mutants too (``PYTHONPATH`` points at ``mutants/src``), but only the tests
that call it in-process count as covering it.

Usage: bash scripts/mutants [FILE ...] [--base REF] [--list] [--keep] [--max-children N] [-- PYTEST ARGS]
    bash scripts/mutants src/mcp_client/_protocol/headers.py -- tests/core/test_wire.py -k header
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import fnmatch
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
TESTS = ROOT / "tests"
MUTANTS = ROOT / "mutants"


# ------------------------------------------------------------------------------------------ which modules


def changed_modules(base: str) -> list[Path]:
    """The ``src`` Python files that differ from the merge base of ``base`` and HEAD (working tree)."""
    try:
        fork = _git("merge-base", base, "HEAD")
    except subprocess.CalledProcessError as exc:
        raise SystemExit(
            f"mutants: no merge base with {base!r} ({exc.stderr.strip()}); pass --base REF"
        ) from exc
    names = _git("diff", "--name-only", fork, "--", "src").splitlines()
    untracked = _git("ls-files", "--others", "--exclude-standard", "--", "src").splitlines()
    return sorted(
        {ROOT / name for name in [*names, *untracked] if name.endswith(".py") and (ROOT / name).is_file()}
    )


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    ).stdout.strip()


# ------------------------------------------------------------------------------------------ which tests


def tests_for(module: Path) -> list[str]:
    """The test files (paths from the repository root) that cover ``module``, per tests/README.md and
    per the test files that import it."""
    found = set(_readme_tests(module)) | set(_importing_tests(module))
    return sorted(str(path.relative_to(ROOT)) for path in found)


def _readme_tests(module: Path) -> list[Path]:
    """The tests of each row of tests/README.md's "Which tests cover which module" naming ``module``.

    A cell lists backticked paths; a bare name is in the folder of the path before it (``auth/_flow.py``,
    ``_runner.py`` is ``auth/_runner.py``), a folder (``terminal/``) covers everything in it, and
    ``*`` patterns match as globs.
    """
    package, _, inside = module.relative_to(SRC).as_posix().partition("/")
    text = (TESTS / "README.md").read_text(encoding="utf-8")
    section = re.search(rf"^### `src/{re.escape(package)}`\n(.*?)(?=^#|\Z)", text, re.MULTILINE | re.DOTALL)
    if section is None:
        return []
    found: list[Path] = []
    for line in section.group(1).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0].startswith("`"):
            continue
        if any(_covers(pattern, inside) for pattern in _paths(cells[0])):
            found += [
                TESTS / path
                for path in _paths(cells[1])
                if any((TESTS / path).rglob("test_*.py"))
                or (path.rsplit("/", 1)[-1].startswith("test_") and (TESTS / path).is_file())
            ]
    return found


def _paths(cell: str) -> list[str]:
    """The backticked paths of a README cell, bare names joined to the folder of the path before."""
    paths: list[str] = []
    folder = ""
    for token in re.findall(r"`([^`\s]+)`", cell):
        if not (token.endswith(".py") or token.endswith("/")):
            continue  # a name in parentheses (`_adapter`, `QuestionBroker`), not a path
        if "/" in token.rstrip("/"):
            folder = token.rsplit("/", 1)[0] + "/" if not token.endswith("/") else token
        elif token.endswith("/"):
            folder = token
        elif folder:
            token = folder + token
        paths.append(token)
    return paths


def _covers(pattern: str, inside: str) -> bool:
    if pattern.endswith("/"):
        return inside.startswith(pattern)
    return fnmatch.fnmatchcase(inside, pattern)


def _importing_tests(module: Path) -> list[Path]:
    """Test files with an import of the module by its dotted name
    (``from mcp_client._protocol import headers`` or ``from mcp_client._protocol.headers import x``)."""
    parts = module.relative_to(SRC).with_suffix("").parts
    dotted = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    found: list[Path] = []
    for path in TESTS.rglob("*.py"):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
            elif isinstance(node, ast.Import):
                names = {alias.name for alias in node.names}
            else:
                continue
            if dotted in names:
                found.append(path)
                break
    return [path for path in found if path.name.startswith("test_") or path.parent == TESTS]


# ------------------------------------------------------------------------------------------ the run


def run(modules: list[Path], selection: list[str], max_children: int) -> list[str]:
    """mutmut on ``modules`` with the tests of ``selection``; the survivors' names."""
    os.chdir(ROOT)  # mutmut reads pyproject.toml and writes mutants/ in the current folder
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(MUTANTS / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    from mutmut.__main__ import cli
    from mutmut.configuration import config

    settings = config()
    settings.only_mutate = [str(module.relative_to(ROOT)) for module in modules]
    settings.pytest_add_cli_args_test_selection = selection
    try:
        cli.main(["run", "--max-children", str(max_children)], prog_name="mutmut", standalone_mode=False)
    except SystemExit as exc:  # mutmut exits when the clean run of the tests fails
        if exc.code:
            raise
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        cli.main(["results", "--all", "true"], prog_name="mutmut", standalone_mode=False)
    statuses = dict(line.strip().rsplit(": ", 1) for line in shown.getvalue().splitlines() if ": " in line)
    counts: dict[str, int] = {}
    for status in statuses.values():
        counts[status] = counts.get(status, 0) + 1
    survivors = sorted(name for name, status in statuses.items() if status == "survived")
    for name in survivors:
        print()
        cli.main(["show", name], prog_name="mutmut", standalone_mode=False)
    summary = ", ".join(f"{count} {status}" for status, count in sorted(counts.items()))
    print(f"\nmutants: {len(statuses)} mutants: {summary or 'none'}")
    others = sorted(name for name, status in statuses.items() if status not in ("killed", "survived"))
    if others:
        print("not killed for another reason (no test reaches them, timeout...): " + ", ".join(others))
    return survivors


def main() -> int:
    argv = sys.argv[1:]
    pytest_args: list[str] | None = None
    if "--" in argv:
        at = argv.index("--")
        argv, pytest_args = argv[:at], argv[at + 1 :]
    parser = argparse.ArgumentParser(
        prog="scripts/mutants",
        description=__doc__.split("\n\n", 1)[0],
        epilog="-- PYTEST ARGS: the tests to run",
    )
    parser.add_argument(
        "files", nargs="*", metavar="FILE", help="src modules (default: those changed vs --base)"
    )
    parser.add_argument("--base", default="main", help="the branch this one started from (default: main)")
    parser.add_argument("--list", action="store_true", help="print the modules and their tests, run nothing")
    parser.add_argument("--keep", action="store_true", help="reuse mutants/ from the last run")
    parser.add_argument("--max-children", type=int, default=2, help="mutants tested at once (default: 2)")
    args = parser.parse_args(argv)

    modules = [Path(name).resolve() for name in args.files] if args.files else changed_modules(args.base)
    wrong = [str(m) for m in modules if not (m.suffix == ".py" and m.is_file() and m.is_relative_to(SRC))]
    if wrong:
        parser.error(f"not Python files under src/: {', '.join(wrong)}")
    if not modules:
        print(f"mutants: no file under src/ differs from {args.base}: nothing to mutate")
        return 0
    tests = {module: tests_for(module) for module in modules}
    for module, found in tests.items():
        shown = ", ".join(found) or "none found"
        print(f"{module.relative_to(ROOT)}: {'(the tests after --)' if pytest_args is not None else shown}")
    if pytest_args is None:
        untested = [str(m.relative_to(ROOT)) for m, found in tests.items() if not found]
        if untested:
            parser.error(
                f"no tests found for {', '.join(untested)}: list them in tests/README.md's "
                "'Which tests cover which module', or pass them after --"
            )
        pytest_args = sorted({path for found in tests.values() for path in found})
    if args.list:
        return 0
    if not args.keep:
        shutil.rmtree(MUTANTS, ignore_errors=True)
    survivors = run(modules, pytest_args, args.max_children)
    if survivors:
        print(f"{len(survivors)} survivor(s): each is a change no test noticed; write the test it asks for")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
