"""Server text is data: no escape sequence, markup, link or bidi trick from a server reaches the terminal."""

from __future__ import annotations

import re

import anyio
import pytest

from mcp_client.types import ElicitRequestFormParams, ElicitResult
from tests.ui_adapters._terminal_helpers import DOWN, ENTER, SPACE, converse, make_context, terminal

pytestmark = pytest.mark.anyio

OSC8_LINK = "\x1b]8;;https://evil.example/\x1b\\click me\x1b]8;;\x1b\\"
TITLE = "\x1b]0;PWNED\x07"
CURSOR = "\x1b[6;66H\x1b[2K"
C1_CSI = "\x9b31m"
BIDI = "\u202eevil\u202c \u2066iso\u2069"
ZERO_WIDTH = "zero\u200bwidth\u200d\ufeff"
MARKUP = "[bold red]loud[/bold red] [link=https://evil.example]link[/link] :skull:"

HOSTILE = f"{OSC8_LINK} {TITLE}{CURSOR}{C1_CSI}{BIDI} {ZERO_WIDTH} {MARKUP}"
PAYLOADS = [
    "\x1b]",
    "\x07",
    "6;66H",
    "\x9b",
    "\u202e",
    "\u202c",
    "\u2066",
    "\u2069",
    "\u200b",
    "\u200d",
    "\ufeff",
]


def hostile_params() -> ElicitRequestFormParams:
    return ElicitRequestFormParams(
        message=f"Hello {HOSTILE} https://evil.example/also-not-a-link",
        requested_schema={
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": f"Name {HOSTILE}", "description": f"Help {HOSTILE}"},
                "pick": {
                    "type": "string",
                    "title": f"Pick {CURSOR}",
                    "oneOf": [{"const": "a", "title": f"A {HOSTILE}"}, {"const": "b", "title": f"B {TITLE}"}],
                },
                "many": {
                    "type": "array",
                    "title": f"Many {OSC8_LINK}",
                    "items": {
                        "anyOf": [{"const": "x", "title": f"X {HOSTILE}"}, {"const": "y", "title": "Y"}]
                    },
                },
            },
            "required": ["name", "pick"],
        },
    )


async def test_hostile_server_text_never_reaches_the_terminal() -> None:
    with terminal(colour=True) as term:
        context = make_context(name=f"srv{TITLE}{BIDI}")
        steps = [
            ("Ada" + ENTER + DOWN, "❯ A click me"),  # the option label is shown, sanitized
            (DOWN + ENTER, "❯ [ ] X click me"),
            (SPACE + ENTER, "Your answers"),
            (ENTER, None),
        ]
        result = await converse(term, hostile_params(), steps, context=context)

    assert result == ElicitResult(action="accept", content={"name": "Ada", "pick": "b", "many": ["x"]})
    console, screen = term.console_text, term.screen_text
    for payload in PAYLOADS:
        assert payload not in console, repr(payload)
        assert payload not in screen, repr(payload)
    # The only escape sequences rich wrote are its own colours (SGR): no hyperlink, no cursor move.
    assert set(re.findall(r"\x1b\[[0-9;]*([A-Za-z])", console)) <= {"m"}
    assert console.count("\x1b") == len(re.findall(r"\x1b\[[0-9;]*m", console))
    # Markup in server text is shown as typed, never interpreted.
    plain = re.sub(r"\x1b\[[0-9;]*m", "", console)
    assert "[bold red]loud[/bold red]" in plain
    assert "[link=https://evil.example]link[/link]" in plain
    assert ":skull:" in plain
    assert "click me" in plain and "PWNED" not in plain
    assert "srv" in plain


async def test_plain_console_output_has_no_escape_at_all() -> None:
    with terminal() as term:
        steps = [("Ada" + ENTER + DOWN + ENTER + ENTER, "Your answers"), (ENTER, None)]
        await converse(term, hostile_params(), steps)
    assert "\x1b" not in term.console_text
    for payload in PAYLOADS:
        assert payload not in term.screen_text


async def test_very_long_text_is_truncated() -> None:
    params = ElicitRequestFormParams(
        message="M" * 200_000,
        requested_schema={"type": "object", "properties": {"v": {"type": "string", "title": "T" * 50_000}}},
    )
    with terminal() as term:
        term.send("\x1b")
        with anyio.fail_after(20):
            result = await term.adapter(make_context(), params)
    assert result.action == "cancel"
    assert term.console_text.count("M") < 5_000
    assert "M…" in term.console_text.replace("\n", "").replace("│", "").replace(" ", "")
    assert term.console_text.count("T") < 1_000


async def test_a_title_that_cleans_to_nothing_shows_the_cleaned_property_name() -> None:
    params = ElicitRequestFormParams(
        message="Who?",
        requested_schema={
            "type": "object",
            "properties": {f"na{CURSOR}me{TITLE}": {"type": "string", "title": f"{CURSOR}{BIDI[0]}"}},
        },
    )
    with terminal() as term:
        steps = [("Ada" + ENTER, "Your answers"), (ENTER, None)]
        result = await converse(term, params, steps)
    assert result.action == "accept"
    assert "name" in term.console_text and "name" in term.screen_text
    for payload in PAYLOADS:
        assert payload not in term.console_text and payload not in term.screen_text, repr(payload)
