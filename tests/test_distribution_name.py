"""The distribution is ``mcp-elicit-client``: no file tells anyone to install ``mcp-client``.

``mcp-client`` on the public index is somebody else's package, so a hint such as
``pip install "mcp-elicit-client[redis]"`` in an error message or a page would install unrelated code. The
import names (``mcp_client``, ``ui_adapters``) and the command (``mcp-client``) keep their names; only
what pip is asked for changed. Every tracked file is read, the changelog's released sections aside
(history says what was true then).
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = "mcp-elicit-client"
OLD = "mcp-" + "client"  # spelled in two parts so this file does not match its own patterns

# What would make pip fetch the other package: an extra of it, a pip install of it (options allowed
# before the name), an importlib.metadata look-up of it.
WRONG = re.compile(
    rf"""{OLD}\[
    | \bpip3?\s+install(?:\s+-{{1,2}}[\w-]+)*\s+["']?{OLD}(?![\w-])
    | \b(?:version|distribution|metadata|requires|files)\(\s*["']{OLD}["']\s*\)""",
    re.VERBOSE,
)
RELEASED = re.compile(r"^## \[?v?\d+\.\d+", re.MULTILINE)  # a versioned changelog heading


def _tracked_files() -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an unpacked sdist)
        skip = {".git", "build", "dist", "mutants", "node_modules"}
        return [
            p
            for p in ROOT.rglob("*")
            if p.is_file()
            and not any(part in skip or part.startswith(".") for part in p.parts[len(ROOT.parts) :])
        ]
    return [ROOT / name for name in listed.split("\0") if name]


def _checked_text(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
        return None
    if path == ROOT / "docs" / "changelog.md" and (released := RELEASED.search(text)):
        return text[: released.start()]  # the unreleased part only
    return text


def test_the_project_is_named_mcp_elicit_client() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == NAME
    assert project["scripts"] == {OLD: "ui_adapters.cli:main"}  # the command keeps its name


def test_no_file_asks_pip_for_the_other_package() -> None:
    found = []
    for path in _tracked_files():
        if path == Path(__file__).resolve() or (text := _checked_text(path)) is None:
            continue
        for match in WRONG.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)!r}")
    assert not found, f"these name the distribution {OLD!r}, which is not ours; say {NAME!r}:\n" + "\n".join(
        found
    )


def test_the_pattern_catches_each_way_of_asking() -> None:
    wrong = [
        f"pip install '{OLD}[redis]'",
        f'pip install "{OLD}[openai]"',
        f"install {OLD}[chat] to type dates in words",
        f"pip install {OLD}",
        f"pip install -U {OLD}",
        f"pip3 install --upgrade '{OLD}'",
        f'importlib.metadata.version("{OLD}")',
        f"distribution('{OLD}')",
    ]
    right = [
        f"pip install '{NAME}[redis]'",
        f"pip install {NAME}",
        f"{OLD} demo",
        f'pip install -e ".[examples]" into .venv, then: {OLD} demo',
        f"pip install {OLD}-conformance-tools",
        f'OAuth("{OLD}")',
    ]
    assert [text for text in wrong if not WRONG.search(text)] == []
    assert [text for text in right if WRONG.search(text)] == []
