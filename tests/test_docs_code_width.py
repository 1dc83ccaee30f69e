"""No code line of README.md or docs/*.md is wider than the docs theme's code column.

furo's content column is 46em of the 16px root font (736px); a code block has 0.875rem of padding on
each side (708px left) and sets code at 81.25% (13px) in a monospace font whose advance is 0.6em
(7.8px): 90 characters fit, and a line past that is cut off behind a scrollbar. The limit is 88, which
also fits GitHub's rendering of the README. The doc runner's ``# docs: not run (...)`` line is not
shown on the site (``docs/_ext/runner_markers.py``), so it may be longer.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 88
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_MARKER = re.compile(r"# docs: not run \(.*\)\s*$")


def code_lines(text: str) -> list[tuple[int, str]]:
    """``(line number, line)`` of every line inside a fenced code block, its fence's indent removed.

    MyST directives (```` ```{toctree} ````) are not code; the runner's marker line is skipped.
    """
    found: list[tuple[int, str]] = []
    fence: re.Match[str] | None = None
    first = False
    for number, line in enumerate(text.split("\n"), start=1):
        if fence is None:
            opening = _FENCE.match(line)
            if opening:
                fence, first = opening, True
            continue
        closing = _FENCE.match(line)
        if (
            closing
            and closing["fence"][0] == fence["fence"][0]
            and len(closing["fence"]) >= len(fence["fence"])
            and not closing["info"].strip()
        ):
            fence = None
            continue
        if fence["info"].strip().startswith("{"):
            continue
        shown = line.removeprefix(fence["indent"])
        if not (first and _MARKER.match(shown)):
            found.append((number, shown))
        first = False
    return found


def test_no_code_line_is_wider_than_the_themes_column() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    wide = [
        f"{page.relative_to(ROOT)}:{number} ({len(line)} characters)"
        for page in pages
        for number, line in code_lines(page.read_text(encoding="utf-8"))
        if len(line) > WIDTH
    ]
    assert not wide, f"code lines over {WIDTH} characters (rewrap them): " + ", ".join(wide)


def test_the_fence_reader_sees_what_the_page_shows() -> None:
    text = (
        "intro ```not a fence```\n"
        "- item\n\n  ```python\n  # docs: not run (a reason)\n  x = 1\n  ```\n"
        "````markdown\n```python\ninner\n```\n````\n"
        "```{toctree}\npage\n```\n"
        "~~~\ntilde\n~~~\n"
    )
    assert code_lines(text) == [(6, "x = 1"), (9, "```python"), (10, "inner"), (11, "```"), (17, "tilde")]
