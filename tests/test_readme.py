"""The README's Python examples must stay true: each block compiles, and the API example runs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_every_python_block_compiles(block: str) -> None:
    # Blocks may use `await` at top level (they are excerpts of async code).
    compile(block, "README.md", "exec", flags=0x2000)  # PyCF_ALLOW_TOP_LEVEL_AWAIT


def test_the_api_example_runs_against_a_real_server(guide_http_url: str) -> None:
    """The guide's example, exactly as the README shows it, pointed at the test server."""
    example = next(b for b in BLOCKS if "handle_elicitation" in b)
    code = example.replace("http://127.0.0.1:8000/mcp", guide_http_url)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "No tables for 2 on 2025-12-25. Would you like another date?" in result.stdout
    assert "[SUCCESS] Booked for 2025-12-27" in result.stdout


def test_the_terminal_callback_example_runs_against_the_bistro() -> None:
    """The ``terminal_callback`` example, exactly as shown, from the checkout; answers piped to stdin."""
    example = next(b for b in BLOCKS if "terminal_callback()" in b)
    result = subprocess.run(
        [sys.executable, "-c", example],
        input="y\n2025-12-27\n\n",  # another date? yes; the date; Enter at the review sends
        capture_output=True,
        text=True,
        timeout=60,
        cwd=README.parent,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("[SUCCESS] Booked for 2025-12-27")
