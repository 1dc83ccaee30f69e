"""The Python examples of the README and the docs pages, as ``tests/test_docs_examples.py`` runs them.

Each ```` ```python ```` block is an example. One whose first line is ``# docs: not run (reason)`` is
counted, not run. Any other is run as a program from the repository root, and may be preceded by an
HTML comment (invisible on the rendered page) saying how::

    <!-- docs-example: server=bistro stdin="y\\n" expect="[SUCCESS] Booked for 2025-12-27" -->

``server=NAME`` starts ``examples/servers/NAME.py`` over HTTP (``oauth``: the test OAuth server) and
puts its URL where the block says ``http://127.0.0.1:8000/mcp``; ``model='TOOL {"json": "arguments"}'``
points the provider SDKs (OpenAI, Anthropic, Gemini, and the frameworks' OpenAI models) at a scripted
model on 127.0.0.1 that calls TOOL with those arguments, then says what the tool answered
(``tests/support/scripted_model.py``; ``model=text``: it calls no tool, only answers); ``stdin``
(with ``\\n`` escapes) is fed to the program; every ``expect`` must appear in what it prints;
``runner=pytest`` runs the block as a test module; ``tested-by=tests/x.py`` says another test runs the
block as written, with a server or files this one cannot give it (it is counted apart, and that test
must name the page).
"""

from __future__ import annotations

import codecs
import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER_URL = "http://127.0.0.1:8000/mcp"

_BLOCK = re.compile(
    r"^(?:<!-- docs-example: (?P<options>[^\n]*?) -->\n)?```python\n(?P<code>.*?)^```[ \t]*$", re.M | re.S
)
_NOT_RUN = re.compile(r"# docs: not run \((?P<reason>[^)\n]+(?:\([^)\n]*\)[^)\n]*)*)\)\s*$")
_OPTIONS = frozenset({"server", "model", "stdin", "expect", "runner", "tested-by"})


@dataclass(frozen=True)
class Example:
    page: str  # path relative to the repository root
    line: int
    code: str
    not_run: str | None = None  # the reason, for a marked block
    server: str | None = None
    model: tuple[str, dict[str, Any]] | None = None  # the scripted model's tool call: (tool, arguments)
    stdin: str = ""
    expect: tuple[str, ...] = field(default=())
    runner: str = "python"
    tested_by: str | None = None  # another test runs it (a path relative to the repository root)

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def examples() -> list[Example]:
    found: list[Example] = []
    for path in pages():
        text = path.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            code = match["code"]
            page = str(path.relative_to(ROOT))
            line = text.count("\n", 0, match.start("code"))  # 1-based line of the ```python fence
            first = code.split("\n", 1)[0]
            marked = _NOT_RUN.fullmatch(first)
            if first.startswith("# docs:") and not marked:
                raise ValueError(
                    f"{page}:{line}: write the marker as '# docs: not run (reason)', not {first!r}"
                )
            if marked:
                found.append(Example(page, line, code, not_run=marked["reason"]))
                continue
            found.append(Example(page, line, code, **_options(match["options"] or "", f"{page}:{line}")))
    return found


def _options(text: str, where: str) -> dict[str, object]:
    options: dict[str, object] = {}
    expect: list[str] = []
    for word in shlex.split(text):
        key, sep, value = word.partition("=")
        if not sep or key not in _OPTIONS:
            raise ValueError(f"{where}: unknown docs-example option {word!r} (known: {sorted(_OPTIONS)})")
        if key == "expect":
            expect.append(value)
        elif key == "tested-by":
            options["tested_by"] = value
        elif key == "stdin":
            options["stdin"] = codecs.decode(value, "unicode_escape")
        elif key == "model":
            tool, _, arguments = value.partition(" ")
            options["model"] = ("", {}) if value == "text" else (tool, json.loads(arguments or "{}"))
        else:
            options[key] = value
    options["expect"] = tuple(expect)
    return options
