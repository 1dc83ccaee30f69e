"""Shared set-up for the Textual form tests: a host app for one question, a context, the keyboard, and
the screen read back as text (from Textual's own SVG screenshot) for snapshots and assertions."""

from __future__ import annotations

import difflib
import html
import os
import re
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from mcp_client import ClientRequestContext
from mcp_client.types import ElicitResult, Implementation
from ui_adapters.textual import ElicitationScreen

SNAPSHOTS = Path(__file__).resolve().parents[1] / "fixtures" / "textual"


def context(name: str = "bistro", tool: str | None = None) -> ClientRequestContext:
    return ClientRequestContext(
        server="http://127.0.0.1:8000/mcp",
        server_info=Implementation(name=name, version="1"),
        protocol_version="2025-11-25",
        era="legacy",
        tool_name=tool,
    )


class Host(App[None]):
    """An app that shows one question and keeps what the screen dismissed with."""

    def __init__(self, screen: ElicitationScreen) -> None:
        super().__init__()
        self.question = screen
        self.results: list[ElicitResult | None] = []

    def compose(self) -> ComposeResult:
        yield Static("the app")

    def on_mount(self) -> None:
        self.push_screen(self.question, callback=self.results.append)


async def type_text(pilot: Any, text: str) -> None:
    await pilot.press(*[{" ": "space"}.get(ch, ch) for ch in text])


def screen_lines(app: App[Any], keep: Path | None = None) -> list[str]:
    """The screen's rows as text, from Textual's own SVG screenshot (also written to ``keep``).

    Each drawn run of characters is a ``<text>`` on its row's clip path, at ``x`` pixels; blank cells
    are not drawn, so the columns come from ``x`` divided by a cell's width.
    """
    svg = app.export_screenshot()
    if keep is not None:
        keep.write_text(svg, encoding="utf-8")
    width, height = app.size
    rows = [[" "] * width for _ in range(height)]
    for x, length, row, drawn in re.findall(
        r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" textLength="([\d.]+)" '
        r'clip-path="url\(#[\w-]+-line-(\d+)\)">([^<]*)</text>',
        svg,
    ):
        text = html.unescape(drawn).replace("\xa0", " ")
        column = round(float(x) / (float(length) / len(text)))
        rows[int(row)][column : column + len(text)] = text
    return ["".join(row).rstrip() for row in rows]


def assert_snapshot(shown: list[str], stored: Path) -> None:
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        stored.parent.mkdir(parents=True, exist_ok=True)
        stored.write_text("\n".join(shown) + "\n", encoding="utf-8")
    expected = stored.read_text(encoding="utf-8").splitlines()
    if shown != expected:
        diff = "\n".join(difflib.unified_diff(expected, shown, str(stored), "the screen now", lineterm=""))
        pytest.fail(f"the screen differs from {stored.name} (UPDATE_SNAPSHOTS=1 rewrites it):\n{diff}")


# A form with one field of every kind the Textual form shows.
EVERY_KIND = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 2},
        "email": {"type": "string", "format": "email", "title": "E-mail"},
        "guests": {"type": "integer", "title": "Guests", "minimum": 1, "maximum": 12},
        "budget": {"type": "number", "title": "Budget"},
        "day": {"type": "string", "format": "date", "title": "Day"},
        "agree": {"type": "boolean", "title": "Agree to the terms"},
        "newsletter": {"type": "boolean", "title": "Newsletter", "default": True},
        "seating": {"type": "string", "title": "Seating", "enum": ["inside", "terrace"]},
        "extras": {
            "type": "array",
            "title": "Extras",
            "items": {"type": "string", "enum": ["bread", "wine", "cake"]},
        },
        "note": {"type": "string", "title": "Note"},
        "website": {"type": "string", "format": "uri", "title": "Website"},
        "arrival": {"type": "string", "format": "date-time", "title": "Arrival"},
    },
    "required": ["name", "email", "guests", "day", "agree", "seating"],
}
