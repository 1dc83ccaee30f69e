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


# ------------------------------------------------- every promise of a field's introduction is kept

_A_B = {"type": "string", "enum": ["a", "b"]}
TRUTH_CASES: list[tuple[str, dict[str, object], bool]] = [
    ("text, optional, default", {"type": "string", "default": "x"}, False),
    ("text, required, default", {"type": "string", "default": "x"}, True),
    ("integer, optional, default", {"type": "integer", "default": 3}, False),
    ("yes/no, optional, default", {"type": "boolean", "default": True}, False),
    ("yes/no, required, default", {"type": "boolean", "default": False}, True),
    ("choice, optional, default", {**_A_B, "default": "b"}, False),
    ("choice, required, default", {**_A_B, "default": "b"}, True),
    (
        "multi, optional, default, minItems",
        {"type": "array", "items": _A_B, "default": ["a"], "minItems": 1},
        False,
    ),
    ("multi, required, default", {"type": "array", "items": _A_B, "default": ["a"]}, True),
    ("multi, required", {"type": "array", "items": _A_B}, True),
    ("multi, required, minItems", {"type": "array", "items": _A_B, "minItems": 1}, True),
    ("multi, optional", {"type": "array", "items": _A_B}, False),
]


def _one_field(schema: dict[str, object], required: bool) -> ElicitRequestFormParams:
    return ElicitRequestFormParams(
        message="One field",
        requested_schema={
            "type": "object",
            "properties": {"f": {"title": "F", **schema}},
            "required": ["f"] if required else [],
        },
    )


@pytest.mark.parametrize(("case", "schema", "required"), TRUTH_CASES, ids=[c[0] for c in TRUTH_CASES])
async def test_what_a_field_introduction_promises_is_what_happens(
    case: str, schema: dict[str, object], required: bool
) -> None:
    from ui_adapters.terminal._screen import field_intro

    params = _one_field(schema, required)
    intro = field_intro(params.form.fields[0], 1, 1).plain
    default = schema.get("default")
    ctrl_u, space, ctrl_c = "\x15", " ", "\x03"
    checked = 0
    if "sent if left empty" in intro:  # emptied (every box unticked, the text erased), the default goes
        assert schema["type"] != "boolean" and "enum" not in schema, f"{case}: cannot be left empty"
        empty = space if schema["type"] == "array" else ctrl_u
        with terminal() as term:
            result = await converse(term, params, [(empty + ENTER, "Send these answers"), (ENTER, None)])
        assert result == ElicitResult(action="accept", content={"f": default}), case
        checked += 1
    if "Enter keeps it" in intro:  # a choice: Enter at once keeps the default
        with terminal() as term:
            result = await converse(term, params, [(ENTER, "Send these answers"), (ENTER, None)])
        assert result == ElicitResult(action="accept", content={"f": default}), case
        checked += 1
    if "choose at least 1" in intro:  # nothing ticked is refused
        untick = space if default else ""
        with terminal() as term:
            result = await converse(term, params, [(untick + ENTER, "at least 1"), (ctrl_c, None)])
        assert result.action == "cancel", case
        assert "Send these answers" not in term.console_text
        checked += 1
    if "choosing none is an answer too" in intro:
        with terminal() as term:
            result = await converse(term, params, [(ENTER, "Send these answers"), (ENTER, None)])
        assert result == ElicitResult(action="accept", content={"f": []}), case
        checked += 1
    if "(optional)" in intro and default is None:  # left as it starts, nothing is sent
        with terminal() as term:
            result = await converse(term, params, [(ENTER, "Send these answers"), (ENTER, None)])
        assert result == ElicitResult(action="accept", content={}), case
        checked += 1
    assert checked, f"{case}: the introduction promises nothing checkable: {intro!r}"
