"""The ``AppBridge`` example of docs/apps.md runs as written against ``server-basic-vanillajs``, the
installed copy instead of ``npx`` (no network), and prints what the page says."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.support import ext_apps

ROOT = Path(__file__).resolve().parents[2]
NPX = '"npx", ["-y", "@modelcontextprotocol/server-basic-vanillajs", "--stdio"]'


def _example() -> str:
    page = (ROOT / "docs" / "apps.md").read_text(encoding="utf-8")
    section = page.split("\n## AppBridge\n", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None, "docs/apps.md: no example under ## AppBridge"
    return found.group(1)


def test_the_appbridge_example_of_the_apps_page_runs(tmp_path: Path) -> None:
    code = _example()
    assert NPX in code
    command, args = ext_apps.stdio_command("basic-vanillajs")
    script = tmp_path / "example.py"
    script.write_text(code.replace(NPX, f"{command!r}, {args!r}"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "src")},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "light",
        "['ui/notifications/tool-input', 'ui/notifications/tool-result']",
        "this host opens no links",
    ]
