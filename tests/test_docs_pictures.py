"""scripts/docs_pictures.py still makes the docs' terminal pictures from real runs (into a temporary folder).

The pictures in docs/pictures are committed; this checks that the script that made them still works and
that what it draws is the real screen: the bistro's question, the answers in the review, the link's host.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def _text(svg: Path) -> str:
    """The characters drawn in an SVG made by rich's export, in order, spaces restored."""
    drawn = "".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg.read_text(encoding="utf-8")))
    return html.unescape(drawn).replace("\xa0", " ")


def test_the_terminal_pictures_are_made_from_a_real_run(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "scripts/docs_pictures.py", "--out", str(tmp_path), "terminal-form", "url-consent"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    form = _text(tmp_path / "terminal-form.svg")
    assert "No tables for 2 on 2025-12-25. Would you like another date?" in form
    assert "› 2025-12-27" in form
    review = _text(tmp_path / "terminal-review.svg")
    assert "Send these answers?" in review
    assert "2025-12-27" in review.split("Your answers")[1]
    consent = _text(tmp_path / "url-consent.svg")
    assert "https://pay.example.com/deposit?booking=B-1042" in consent
    assert "Open this link in your browser?" in consent
