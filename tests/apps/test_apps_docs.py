"""The host examples of docs/apps.md run as written against ``server-basic-vanillajs``: the installed copy
instead of ``npx`` (no network), and they print what the page says they print."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ext_apps

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
NPX = '"npx", ["-y", "@modelcontextprotocol/server-basic-vanillajs", "--stdio"]'


def _example(section: str) -> str:
    """The first Python block under the ``## {section}`` heading of docs/apps.md."""
    page = (ROOT / "docs" / "apps.md").read_text(encoding="utf-8")
    part = page.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```python\n(.*?)```", part, re.S)
    assert found is not None, f"docs/apps.md: no example under ## {section}"
    return found.group(1)


def _run(code: str, tmp_path: Path, stdin: str = "") -> str:
    assert NPX in code
    command, args = ext_apps.stdio_command("basic-vanillajs")
    script = tmp_path / "example.py"
    script.write_text(code.replace(NPX, f"{command!r}, {args!r}"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "120"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_browser_host_example(tmp_path: Path) -> None:
    printed = _run(_example("In your browser: `BrowserAppHost`"), tmp_path)
    assert printed.splitlines() == ["True", "200 text/html; charset=utf-8", "True"]


def test_the_model_call_example(tmp_path: Path) -> None:
    printed = _run(_example("A model's calls: `ToolBridge(client, on_app=...)`"), tmp_path)
    assert printed.splitlines() == ["tool 20", "['get-time']"]


def test_the_terminal_offer_example_answered_no(tmp_path: Path) -> None:
    printed = _run(_example("At the terminal and in Textual: an offer"), tmp_path, stdin="n\n")
    lines = printed.splitlines()
    assert lines[0].startswith("get-time has a view of its result")
    assert re.match(r"20\d\d-\d\d-\d\dT", lines[1])
    assert any(re.fullmatch(r"Link: http://127\.0\.0\.1:\d+/\S+", line) for line in lines), lines
    assert "Site:  127.0.0.1 " in lines  # the host on its highlight, a space either side
    assert "Open its view in your browser? [y/N] " in printed
    assert lines[-2:] == ["Not opened.", "open views: 0"]
