"""``ChatForm`` at its edges, with or without the chat extra: thousands of options, titles and option
labels that clean to nothing, the review's numbers, a saved conversation that does not hold, and the
dates the prompts offer (only what the installed reader reads)."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_client.schema import FieldKind, FormField, Option
from mcp_client.types import ElicitRequestFormParams
from ui_adapters._answer_text import option_text
from ui_adapters.chat import ChatForm
from ui_adapters.chat._message import field_prompt, review_prompt


def form_of(properties: dict[str, Any], required: list[str]) -> ChatForm:
    schema = {"type": "object", "properties": properties, "required": required}
    return ChatForm(ElicitRequestFormParams(message="A few questions", requested_schema=schema))


# -------------------------------------------------------------------------------- many options


class CountedValue(str):
    """An option value that counts the comparisons made with it, and stops a quadratic walk early."""

    compared = 0
    budget = 0

    def __eq__(self, other: object) -> bool:
        CountedValue.compared += 1
        if CountedValue.compared > CountedValue.budget:
            raise AssertionError(f"over {CountedValue.budget} option comparisons: a lookup walks the list")
        return str.__eq__(self, other)

    __hash__ = str.__hash__


@pytest.mark.parametrize("kind", [FieldKind.SINGLE_CHOICE, FieldKind.MULTI_CHOICE])
def test_twenty_thousand_options_are_named_in_linear_time(kind: FieldKind) -> None:
    count = 20_000
    options = tuple(Option(CountedValue(f"v{i}"), f"Option {i}") for i in range(count))
    chosen = [options[-1].value] if kind is FieldKind.MULTI_CHOICE else options[-1].value
    form_field = FormField(name="pick", kind=kind, label="Pick", options=options, required=True)
    CountedValue.compared, CountedValue.budget = 0, 4 * count
    # What the chat shows (the question's quick replies, the review) and what the Textual form lists.
    lines, choices = field_prompt(form_field, position=1, count=1, editing=False)
    review, _ = review_prompt((form_field,), {"pick": chosen})
    labels = [option_text(form_field, option.value) for option in options]
    assert choices[-1 if kind is FieldKind.SINGLE_CHOICE else -2] == (f"Option {count - 1}", f"v{count - 1}")
    assert "... and 19975 more" in lines[-1] and f"1. Pick: Option {count - 1}" in review
    assert labels[12345] == "Option 12345" and form_field.check(chosen) is None
    assert CountedValue.compared <= 4 * count


def test_a_choice_among_twenty_thousand_is_read_and_sent() -> None:
    options = [{"const": f"v{i}", "title": f"Option {i}"} for i in range(20_000)]
    form = form_of({"pick": {"type": "string", "title": "Pick", "oneOf": options}}, ["pick"])
    assert len(form.next_message().choices) == 20_000
    assert "1. Pick: Option 19999" in form.reply("20000").text
    form.reply("send")
    assert form.result().content == {"pick": "v19999"}


# ------------------------------------------------------------------------- text that cleans to nothing


def test_a_title_that_cleans_to_nothing_shows_the_cleaned_name() -> None:
    form = form_of({"na\x1b[31mme\x1b]8;;http://evil\x07": {"type": "string", "title": "\x1b[2J\u202e"}}, [])
    asked = form.next_message().text
    assert "\x1b" not in asked and "\x07" not in asked
    assert "the server · name (optional)" in asked
    review = form.reply("Kim").text
    assert "1. name: Kim" in review and "\x1b" not in review


def test_an_option_whose_label_cleans_to_nothing_shows_its_cleaned_value() -> None:
    colour = {
        "type": "string",
        "title": "Colour",
        "oneOf": [{"const": "re\x1b[31md\u202e", "title": "\x1b[2J"}, {"const": "blue", "title": "Blue"}],
    }
    form = form_of({"colour": colour}, ["colour"])
    asked = form.next_message()
    assert asked.choices[0] == ("red", "re\x1b[31md\u202e")  # the label shown cleaned, the value sent as is
    assert "1. red; 2. Blue" in asked.text and "\x1b" not in asked.text
    review = form.reply("1")
    assert "1. Colour: red" in review.text and "\x1b" not in review.text and "\u202e" not in review.text
    form.reply("send")
    assert form.result().content == {"colour": "re\x1b[31md\u202e"}


# ------------------------------------------------------------------------------------ the review


@pytest.mark.parametrize("word", ["0", "00", "4", "-1"])
def test_a_number_outside_the_review_is_refused_and_changes_nothing(word: str) -> None:
    form = form_of({name: {"type": "string", "title": name.title()} for name in ("a", "b", "c")}, [])
    for reply in ("one", "two", "three"):
        form.reply(reply)
    refused = form.reply(word)
    assert refused.step == "review" and refused.field is None
    assert refused.error == 'reply "send", a number from 1 to 3, "decline" or "cancel"'
    assert "1. A: one" in refused.text and "3. C: three" in refused.text
    editing = form.reply("3")  # the last number is a field
    assert editing.step == "field" and editing.field == "c"
