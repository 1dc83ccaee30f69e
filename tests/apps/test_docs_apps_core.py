"""The example of docs/apps.md's "The core: `mcp_client.apps`" section, run as written, against the
installed server-system-monitor: only its ``npx`` command is replaced by ``node`` and the local entry
(``tests/support/ext_apps.py``), so nothing is downloaded."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.support import ext_apps

DOC = Path(__file__).resolve().parents[2] / "docs" / "apps.md"
SECTION = DOC.read_text(encoding="utf-8").split("## The core: `mcp_client.apps`", 1)[1].split("\n## ", 1)[0]
(BLOCK,) = re.findall(r"```python\n(.*?)```", SECTION, flags=re.DOTALL)
(PRINTED,) = re.findall(r"It prints:\n\n```text\n(.*?)```", SECTION, flags=re.DOTALL)
NPX = '"npx", ["-y", "@modelcontextprotocol/server-system-monitor@2.0.3", "--stdio"]'


def test_the_core_example_prints_what_the_page_says(tmp_path: Path) -> None:
    command, args = ext_apps.stdio_command("system-monitor")
    assert NPX in BLOCK
    code = BLOCK.replace(NPX, f"{command!r}, {args!r}")
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=90
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == PRINTED
