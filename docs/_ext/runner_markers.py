"""Drop the docs test runner's markers from the code blocks a reader sees (and copies).

``tests/test_docs_examples.py`` reads a Python block whose first line is ``# docs: not run (reason)``
as an example it counts but does not run (``tests/support/docs_examples.py`` parses the marker). The
marker is for that runner, not for the reader: it is removed from the rendered block here, so the
Markdown source keeps it and the page does not show it. The pattern is the runner's own (kept in step
by ``tests/test_docs_reference.py``, which builds the site and looks for any marker left).
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

# The same marker as tests/support/docs_examples.py's _NOT_RUN, on the block's first line.
MARKER = re.compile(r"# docs: not run \((?P<reason>[^)\n]+(?:\([^)\n]*\)[^)\n]*)*)\)\s*$")


def without_marker(code: str) -> str | None:
    """``code`` without its first line when that line is the runner's marker, else ``None``."""
    first, _, rest = code.partition("\n")
    if not MARKER.fullmatch(first):
        return None
    return rest


def strip_markers(app: Sphinx, doctree: nodes.document) -> None:
    for block in doctree.findall(nodes.literal_block):
        code = without_marker(block.astext())
        if code is None:
            continue
        block.children = []
        block += nodes.Text(code)
        block.rawsource = code


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("doctree-read", strip_markers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
