"""The changelog and ``mcp_client.__version__`` name the same release.

Between releases the changelog's top section is ``## Unreleased`` and ``__version__`` is the release
it will become: newer than every versioned heading below it. Cutting a release renames that section to
``## X.Y.Z (YYYY-MM-DD)`` with X.Y.Z = ``__version__``; the next change opens a new ``## Unreleased``
above it and bumps ``__version__``. A release built with a version the changelog does not describe (or
describes as already out) fails here, without building anything.
"""

from __future__ import annotations

import re
from pathlib import Path

from packaging.version import Version

from mcp_client._version import __version__

CHANGELOG = Path(__file__).resolve().parents[1] / "docs" / "changelog.md"
HEADING = re.compile(r"^## (.+?)\s*$", re.MULTILINE)
RELEASE = re.compile(r"\[?v?(\d+\.\d+\.\d+(?:[.-]?(?:a|b|rc|post|dev)\d+)?)\]?(?:\s+[-(].*)?")


def sections(text: str) -> list[str | Version]:
    """Each ``## `` heading, top down: ``"Unreleased"`` or the version it releases."""
    found: list[str | Version] = []
    for title in HEADING.findall(text):
        if title.lower() == "unreleased":
            found.append("Unreleased")
        elif match := RELEASE.fullmatch(title):
            found.append(Version(match.group(1)))
        else:
            raise AssertionError(f"changelog heading {title!r} is neither 'Unreleased' nor 'X.Y.Z (date)'")
    return found


def problems(headings: list[str | Version], version: str) -> list[str]:
    """What is wrong between these headings and ``version`` (empty when they agree)."""
    current = Version(version)
    released = [h for h in headings if isinstance(h, Version)]
    wrong: list[str] = []
    if not headings:
        return ["the changelog has no '## ' section"]
    if headings.count("Unreleased") > 1 or "Unreleased" in headings[1:]:
        wrong.append("'## Unreleased' must be the top section, and the only one")
    if released != sorted(released, reverse=True) or len(set(released)) != len(released):
        wrong.append(f"the versioned headings are not newest first, each once: {[str(v) for v in released]}")
    if headings[0] == "Unreleased":
        if released and not current > released[0]:
            wrong.append(
                f"__version__ is {current} but the changelog already released {released[0]}: "
                "bump _version.py to the release the Unreleased section will become"
            )
    elif headings[0] != current:
        wrong.append(f"the top changelog heading is {headings[0]} but __version__ is {current}")
    return wrong


def test_the_changelog_and_the_version_agree() -> None:
    assert problems(sections(CHANGELOG.read_text(encoding="utf-8")), __version__) == []


def test_each_way_they_disagree_is_told() -> None:
    v = Version
    assert problems(["Unreleased"], "0.1.0") == []
    assert problems(["Unreleased", v("0.1.0")], "0.2.0") == []
    assert problems([v("0.2.0"), v("0.1.0")], "0.2.0") == []
    assert problems(["Unreleased", v("0.1.0")], "0.1.0") == [
        "__version__ is 0.1.0 but the changelog already released 0.1.0: "
        "bump _version.py to the release the Unreleased section will become"
    ]
    assert problems([v("0.2.0")], "0.3.0") == ["the top changelog heading is 0.2.0 but __version__ is 0.3.0"]
    assert problems([v("0.2.0"), "Unreleased"], "0.2.0") == [
        "'## Unreleased' must be the top section, and the only one"
    ]
    assert problems([v("0.1.0"), v("0.2.0")], "0.1.0") == [
        "the versioned headings are not newest first, each once: ['0.1.0', '0.2.0']"
    ]


def test_headings_are_read_in_the_usual_spellings() -> None:
    text = "# Changelog\n\n## Unreleased\n\n## 0.2.0 (2027-01-05)\n\n## [0.1.0] - 2026-12-10\n\n## v0.0.9\n"
    assert sections(text) == ["Unreleased", Version("0.2.0"), Version("0.1.0"), Version("0.0.9")]
