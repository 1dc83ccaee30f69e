"""The form shows what will be sent: defaults by their labels, no "leave empty" where a default is sent.

The questions are like server-everything's elicitation tool: optional fields that carry defaults.
"""

from __future__ import annotations

import anyio
import pytest

from mcp_client.types import ElicitRequestFormParams, ElicitResult
from tests.ui_adapters._terminal_helpers import ENTER, converse, make_context, terminal
from tests.ui_adapters.test_terminal_lines import console, pipe
from ui_adapters.terminal import TerminalFormAdapter

pytestmark = pytest.mark.anyio

WAIT = 20

PETS = ElicitRequestFormParams(
    message="Tell us about your pet",
    requested_schema={
        "type": "object",
        "properties": {
            "pet": {
                "type": "string",
                "title": "Pet",
                "oneOf": [{"const": "pet-1", "title": "Fluffy the cat"}, {"const": "pet-2", "title": "Rex"}],
                "default": "pet-1",
            },
            "weight": {"type": "number", "title": "Weight", "default": 3.14},
            "indoor": {"type": "boolean", "title": "Indoor", "default": True},
            "food": {
                "type": "array",
                "title": "Food",
                "items": {
                    "anyOf": [{"const": "fish-1", "title": "Fish"}, {"const": "meat-1", "title": "Meat"}]
                },
                "default": ["fish-1"],
            },
        },
    },
)


async def test_fields_with_defaults_offer_no_leave_empty_and_the_review_shows_the_defaults() -> None:
    with terminal() as term:
        result = await converse(
            term,
            PETS,
            [
                ("", "Fluffy the cat"),  # the pick list of the first field is drawn
                (ENTER, "[2/4] Weight"),
                ("\x15" + ENTER, "[3/4] Indoor"),  # the weight emptied: its default is what is sent
                (ENTER, "[4/4] Food"),
                (ENTER, "Send these answers"),
                (ENTER, None),
            ],
        )
    assert "(leave empty)" not in term.screen_text
    review = term.console_text.split("Your answers")[-1]
    assert "(left empty)" not in review
    for shown in ("Fluffy the cat", "3.14", "yes", "Fish"):
        assert shown in review, review
    assert result == ElicitResult(
        action="accept", content={"pet": "pet-1", "weight": 3.14, "indoor": True, "food": ["fish-1"]}
    )


async def test_a_titled_default_is_shown_by_its_label() -> None:
    with terminal() as term:
        await converse(term, PETS, [("", "Fluffy the cat"), ("\x0e", None)])  # look, then decline
    assert "default: Fluffy the cat" in term.console_text
    assert "pet-1" not in term.console_text


async def test_line_mode_shows_the_label_and_refuses_to_empty_a_field_with_a_default() -> None:
    shown, out = console()
    with pipe("-\n\n\n\n\n\n") as reader:
        adapter = TerminalFormAdapter(console=shown, line_input=reader)
        with anyio.fail_after(WAIT):
            result = await adapter(make_context(), PETS)
    text = out.getvalue()
    assert "(Enter keeps Fluffy the cat)" in text
    assert "this field's default (Fluffy the cat) is sent if it is left empty" in text
    assert result.content == {"pet": "pet-1", "weight": 3.14, "indoor": True, "food": ["fish-1"]}
