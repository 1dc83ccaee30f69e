"""``ChatForm`` at its edges, with or without the chat extra: thousands of options, titles and option
labels that clean to nothing, the review's numbers, a saved conversation that does not hold, and the
dates the prompts offer (only what the installed reader reads)."""

from __future__ import annotations

import re
import sys
import tomllib
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from mcp_client.schema import FieldKind, FormField, Option
from mcp_client.types import ElicitRequestFormParams, ElicitRequestURLParams
from ui_adapters._answer_text import MAX_SHOWN, number_text, option_text, value_text
from ui_adapters.chat import ChatForm
from ui_adapters.chat._dates import DateOffer, date_offer
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


@pytest.mark.parametrize(
    ("bounds", "how"),
    [
        ({}, 'Choose any, separated by commas, or "none"'),
        ({"minItems": 1}, "Choose at least 1, separated by commas"),
        ({"maxItems": 2}, "Choose at most 2, separated by commas"),
        ({"minItems": 1, "maxItems": 2}, "Choose 1 to 2, separated by commas"),
        ({"minItems": 2, "maxItems": 2}, "Choose exactly 2"),
    ],
)
def test_a_multi_choice_says_how_many_to_choose(bounds: dict[str, int], how: str) -> None:
    tags = {"type": "array", "items": {"enum": ["a", "b", "c"]}, "title": "Tags", **bounds}
    asked = form_of({"tags": tags}, ["tags"]).next_message().text.splitlines()
    assert f"{how} (name or number): 1. a; 2. b; 3. c" in asked


# ---------------------------------------------------------------- answers as a person reads them


def test_answers_read_as_a_person_reads_them() -> None:
    options = (Option(value="a", label="Apple"), Option(value="b", label="Bread\nand butter"))
    multi = FormField(name="m", kind=FieldKind.MULTI_CHOICE, label="M", options=options)
    single = FormField(name="s", kind=FieldKind.SINGLE_CHOICE, label="S", options=options)
    text = FormField(name="t", kind=FieldKind.TEXT, label="T")
    assert [value_text(text, value) for value in (None, True, False, [], "x\ny")] == [
        "(left empty)",
        "yes",
        "no",
        "(none)",
        "x y",
    ]
    assert value_text(multi, ["a", "b"]) == "Apple, Bread and butter"
    assert value_text(single, "b") == "Bread and butter"
    shown = value_text(text, "z" * 300)
    assert len(shown) == MAX_SHOWN and shown.endswith("z…")


def test_a_long_option_label_or_value_is_cut_to_one_line() -> None:
    long_label = FormField(
        name="c",
        kind=FieldKind.SINGLE_CHOICE,
        label="C",
        options=(Option(value="v", label="L\n" + "l" * 300),),
    )
    label = option_text(long_label, "v")
    assert len(label) == MAX_SHOWN and label.startswith("L lll") and label.endswith("l…")
    blank_label = FormField(
        name="c",
        kind=FieldKind.SINGLE_CHOICE,
        label="C",
        options=(Option(value="V\n" + "v" * 300, label="\x1b"),),
    )
    value = option_text(blank_label, "V\n" + "v" * 300)
    assert len(value) == MAX_SHOWN and value.startswith("V vvv") and value.endswith("v…")


@pytest.mark.parametrize(
    ("bound", "shown"), [(5, "5"), (5.0, "5"), (-3.0, "-3"), (1.5, "1.5"), (1e16, "1e+16"), (-1e16, "-1e+16")]
)
def test_a_bound_is_written_as_people_write_it(bound: float, shown: str) -> None:
    assert number_text(bound) == shown


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


# ------------------------------------------------------------------------ each prompt, word for word

LABELS = tuple(Option(value=f"v{i}", label=f"L{i}") for i in range(26))
LISTED = "; ".join(f"{i + 1}. L{i}" for i in range(25))


@pytest.mark.parametrize(
    ("form_field", "lines", "choices"),
    [
        (
            FormField(name="s", kind=FieldKind.URI, label="Site", required=True),
            ["Site (2 of 3)", "Type a link, like https://example.com."],
            (),
        ),
        (
            FormField(name="m", kind=FieldKind.EMAIL, label="Mail", default="a@b.c"),
            [
                "Mail (optional) (2 of 3)",
                "Type an e-mail address.",
                'Default: a@b.c (reply "default" to keep it).',
                'Reply "skip" to leave it empty.',
            ],
            (("Keep a@b.c", "default"), ("Skip", "skip")),
        ),
        (
            FormField(name="t", kind=FieldKind.TEXT, label="T", required=True, max_length=20),
            ["T (2 of 3)", "Type your answer (at most 20 characters)."],
            (),
        ),
        (
            FormField(name="n", kind=FieldKind.INTEGER, label="N", required=True, minimum=1, maximum=10),
            ["N (2 of 3)", "Type a whole number from 1 to 10."],
            (),
        ),
        (
            FormField(name="x", kind=FieldKind.NUMBER, label="X", required=True, minimum=0.5),
            ["X (2 of 3)", "Type a number, at least 0.5."],
            (),
        ),
        (
            FormField(name="m", kind=FieldKind.INTEGER, label="M", required=True, maximum=5),
            ["M (2 of 3)", "Type a whole number, at most 5."],
            (),
        ),
        (
            FormField(name="ok", kind=FieldKind.BOOLEAN, label="OK", required=True, default=True),
            ["OK (2 of 3)", "Answer yes or no.", 'Default: yes (reply "default" to keep it).'],
            (("Yes (default)", "yes"), ("No", "no")),
        ),
        (
            FormField(name="no", kind=FieldKind.BOOLEAN, label="No?", required=True, default=False),
            ["No? (2 of 3)", "Answer yes or no.", 'Default: no (reply "default" to keep it).'],
            (("Yes", "yes"), ("No (default)", "no")),
        ),
        (
            FormField(name="c", kind=FieldKind.SINGLE_CHOICE, label="C", required=True, options=LABELS),
            ["C (2 of 3)", f"Choose one (name or number): {LISTED}; ... and 1 more"],
            tuple((f"L{i}", f"v{i}") for i in range(26)),
        ),
        (
            FormField(name="c", kind=FieldKind.SINGLE_CHOICE, label="C", required=True, options=LABELS[:25]),
            ["C (2 of 3)", f"Choose one (name or number): {LISTED}"],
            tuple((f"L{i}", f"v{i}") for i in range(25)),
        ),
        (
            FormField(
                name="t", kind=FieldKind.MULTI_CHOICE, label="T", options=(Option(value="a", label="A"),)
            ),
            [
                "T (optional) (2 of 3)",
                'Choose any, separated by commas, or "none" (name or number): 1. A',
                'Reply "skip" to leave it empty.',
            ],
            (("A", "a"), ("None", "none"), ("Skip", "skip")),
        ),
    ],
)
def test_each_kind_of_question_is_asked_word_for_word(
    form_field: FormField, lines: list[str], choices: tuple[tuple[str, str], ...]
) -> None:
    assert field_prompt(form_field, position=2, count=3, editing=False) == (lines, choices)


def test_a_lone_question_has_no_count_and_a_change_says_how_to_keep_the_answer() -> None:
    site = FormField(name="s", kind=FieldKind.URI, label="Site", required=True, help="Your\x1b[2J\nsite")
    assert field_prompt(site, position=1, count=1, editing=True)[0] == [
        "Site",
        "Your\nsite",
        "Type a link, like https://example.com.",
        'Reply "back" to keep the answer you had.',
    ]
    assert field_prompt(site, position=1, count=2, editing=False)[0][0] == "Site (1 of 2)"
    wordy = FormField(name="s", kind=FieldKind.TEXT, label="S", help="h" * 2500)
    shown_help = field_prompt(wordy, position=1, count=1, editing=False)[0][1]
    assert len(shown_help) == 2000 and shown_help.endswith("h…")


def test_a_long_title_or_name_is_shown_on_one_line_of_200_characters() -> None:
    titled = FormField(name="t", kind=FieldKind.TEXT, label="Line\n" + "t" * 300, required=True)
    shown = field_prompt(titled, position=1, count=1, editing=False)[0][0]
    assert len(shown) == 200 and shown.startswith("Line ttt") and shown.endswith("t…")
    named = FormField(name="Name\n" + "n" * 300, kind=FieldKind.TEXT, label="\x1b[2J", required=True)
    shown = field_prompt(named, position=1, count=1, editing=False)[0][0]
    assert len(shown) == 200 and shown.startswith("Name nnn") and shown.endswith("n…")


def test_the_review_is_asked_word_for_word() -> None:
    name = FormField(name="name", kind=FieldKind.TEXT, label="Name", required=True)
    mail = FormField(name="mail", kind=FieldKind.EMAIL, label="Mail")
    assert review_prompt((name, mail), {"name": "Ann"}) == (
        [
            "Send these answers?",
            "1. Name: Ann",
            "2. Mail: (left empty)",
            'Reply "send" to send them, a number to change that answer, "decline" or "cancel".',
        ],
        (("Send", "send"), ("Decline", "decline"), ("Cancel", "cancel")),
    )


# ------------------------------------------------------------------------ yes/no steps, word for word


def test_a_link_question_word_for_word_and_each_quick_reply_does_what_it_says() -> None:
    link = ElicitRequestURLParams(message="Sign in", url="https://example.com/login", elicitation_id="e1")
    asked = ChatForm(link).next_message()
    assert asked.text.splitlines()[-1] == 'Open it? Reply "yes" to go on, "no" to decline, or "cancel".'
    assert asked.choices == (("Open the link", "yes"), ("No", "no"), ("Cancel", "cancel"))
    outcomes = {"yes": "accept", "no": "decline", "cancel": "cancel"}
    for label, value in asked.choices:
        form = ChatForm(link)
        form.reply(value)
        assert form.result().action == outcomes[value], label
    unclear = ChatForm(link).reply("maybe")
    assert unclear.step == "url" and unclear.error == 'reply "yes", "no" or "cancel"'


def test_a_refused_link_word_for_word_offers_only_decline_and_cancel() -> None:
    link = ElicitRequestURLParams(message="Pay", url="javascript:alert(1)", elicitation_id="e2")
    asked = ChatForm(link).next_message()
    assert asked.text.splitlines()[-1] == 'Reply "decline" or "cancel".'
    assert asked.choices == (("Decline", "decline"), ("Cancel", "cancel"))
    assert ChatForm(link).reply("maybe").error == 'reply "decline" or "cancel"'


def test_a_confirm_only_question_word_for_word() -> None:
    confirm = form_of({}, [])
    last_line = confirm.next_message().text.splitlines()[-1]
    assert last_line == 'the server · Reply "yes" to accept, "no" to decline, or "cancel".'
    assert confirm.reply("maybe").error == 'reply "yes", "no" or "cancel"'


def test_the_review_offers_send_decline_and_cancel() -> None:
    review = form_of({"a": {"type": "string"}}, []).reply("one")
    assert review.step == "review"
    assert review.choices == (("Send", "send"), ("Decline", "decline"), ("Cancel", "cancel"))


def test_keep_takes_the_default_and_an_empty_reply_asks_for_an_answer() -> None:
    form = form_of({"n": {"type": "integer", "default": 2}, "s": {"type": "string"}}, ["n", "s"])
    assert form.reply("keep").field == "s"
    assert form.reply("  ").error == "type an answer"
    form.reply("x")
    form.reply("send")
    assert form.result().content == {"n": 2, "s": "x"}


def test_a_refusal_at_sending_is_cut_to_300_characters() -> None:
    name = "n" * 400
    form = form_of({name: {"type": "string"}}, [name])
    saved = form.to_json()
    restored = ChatForm.restore({**saved, "state": {**saved["state"], "step": "review"}})
    error = restored.reply("send").error
    assert error is not None and len(error) == 300 and error.endswith("n…") and "required" in error


def test_a_message_as_json_names_every_part() -> None:
    link = ElicitRequestURLParams(message="Pay", url="javascript:alert(1)", elicitation_id="e2")
    message = ChatForm(link).reply("maybe")
    assert message.to_json() == {
        "text": message.text,
        "server_name": "the server",
        "step": "url",
        "choices": [{"label": "Decline", "value": "decline"}, {"label": "Cancel", "value": "cancel"}],
        "field": None,
        "error": 'reply "decline" or "cancel"',
        "url": "javascript:alert(1)",
        "url_host": None,
        "url_warnings": [],
        "url_refusal": message.url_refusal,
    }
    assert message.url_refusal and message.text.startswith('Sorry: reply "decline" or "cancel".\n')
    field = form_of({"a": {"type": "boolean"}}, []).next_message().to_json()
    assert field["field"] == "a" and field["step"] == "field" and field["error"] is None
    assert field["choices"][:2] == [{"label": "Yes", "value": "yes"}, {"label": "No", "value": "no"}]


def test_the_first_message_introduces_the_question_once() -> None:
    form = form_of({"a": {"type": "string", "title": "A"}}, [])
    first = form.next_message().text.splitlines()
    assert first[:2] == [
        "the server asks: A few questions",
        '(Reply "back" to go to the previous question, "cancel" to stop.)',
    ]
    assert "asks:" not in form.reply("x").text
    confirm = form_of({}, []).next_message().text
    assert "the server asks: A few questions" in confirm and '"back"' not in confirm
    long = ChatForm(ElicitRequestFormParams(message="m" * 5000, requested_schema={"type": "object"}))
    asks = long.next_message().text.splitlines()[0]
    assert asks == "the server asks: " + "m" * 3999 + "…"


def test_steering_words_with_a_slash_or_a_full_stop_and_the_count_of_replies() -> None:
    form = form_of({"a": {"type": "string"}, "b": {"type": "string"}}, [])
    assert form.reply("/send").error == '"send" does not apply here'
    assert form.reply("Skip.").field == "b"  # read as "skip"
    assert "1. a: (left empty)" in form.reply("two").text
    form.reply("2")  # change the second answer...
    assert "2. b: (left empty)" in form.reply("skip").text  # ...to nothing
    assert form.to_json()["state"]["replies"] == 5
    form.reply("no   thanks")  # spaces do not matter
    assert form.result().action == "decline"
    with pytest.raises(RuntimeError, match=r"^the conversation has ended: read result\(\)$"):
        form.reply("send")


def test_a_restored_ended_conversation_is_not_introduced_again() -> None:
    saved = with_state(saved_after("cancel"), replies=0)
    assert ChatForm.restore(saved).next_message().text == "the server · Cancelled."


# -------------------------------------------------------------------------------- a saved conversation

GUESTS = {
    "guests": {"type": "integer", "title": "Guests", "minimum": 1},
    "note": {"type": "string", "title": "Note"},
}


def saved_after(*replies: str) -> dict[str, Any]:
    form = form_of(GUESTS, ["guests"])
    for reply in replies:
        form.reply(reply)
    return form.to_json()


def with_state(saved: dict[str, Any], **state: Any) -> dict[str, Any]:
    return {**saved, "state": {**saved["state"], **state}}


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda saved: with_state(saved, action="bogus"), "unknown action 'bogus'"),
        (lambda saved: with_state(saved, action=5), "unknown action 5"),
        (lambda saved: with_state(saved, step="done", action="bogus"), "unknown action 'bogus'"),
        (lambda saved: with_state(saved, step="done"), "the step 'done' does not go with the action None"),
        (lambda saved: with_state(saved, action="decline"), "'field' does not go with the action 'decline'"),
        (lambda saved: with_state(saved, step="url"), "unknown step 'url' for this question"),
        (lambda saved: with_state(saved, step="confirm"), "unknown step 'confirm' for this question"),
        (lambda saved: with_state(saved, index=True), "index must be a whole number"),
        (lambda saved: with_state(saved, index="1"), "index must be a whole number"),
        (lambda saved: with_state(saved, index=2), "outside the form"),
        (lambda saved: with_state(saved, editing="no"), "editing flag must be true or false"),
        (lambda saved: with_state(saved, replies=-1), "replies must be a whole number"),
        (lambda saved: with_state(saved, error=["x"]), "error must be text or null"),
        (lambda saved: with_state(saved, values=["3"]), "values must be an object"),
        (lambda saved: with_state(saved, values={"guests": 0}), "answer for 'guests' does not fit"),
        (lambda saved: {**saved, "state": "field"}, "state must be an object"),
        (lambda saved: {**saved, "context": "bistro"}, "context must be an object, not str"),
        (lambda saved: {**saved, "context": 5}, "context must be an object, not int"),
        (lambda saved: {**saved, "context": {"server": "x", "tool_name": 5}}, "tool_name must be text"),
        # An accepted answer the form would never have sent: the required field left out.
        (
            lambda saved: with_state(saved, step="done", action="accept", values={"note": "hi"}),
            "leaves out the required field 'guests'",
        ),
    ],
)
def test_a_saved_conversation_that_cannot_be_is_a_value_error(damage: Any, reason: str) -> None:
    with pytest.raises(ValueError, match=re.escape(reason)):
        ChatForm.restore(damage(saved_after("3")))


def test_a_saved_refusal_is_shown_cleaned() -> None:
    saved = with_state(saved_after(), error="type a number\x1b]8;;http://evil\x07, \x1b[2Jnow\u202e")
    message = ChatForm.restore(saved).next_message()
    assert message.error == "type a number, now"
    assert "Sorry: type a number, now." in message.text and "\x1b" not in message.text
    only_controls = ChatForm.restore(with_state(saved_after(), error="\x1b[2J")).next_message()
    assert only_controls.error is None and "Sorry" not in only_controls.text


def test_a_link_that_must_never_be_opened_is_not_restored_as_accepted() -> None:
    params = ElicitRequestURLParams(message="Pay", url="javascript:alert(1)", elicitation_id="e1")
    form = ChatForm(params)
    form.reply("decline")
    declined = form.to_json()
    assert ChatForm.restore(declined).result().action == "decline"
    with pytest.raises(ValueError, match="accepts a link that must never be opened"):
        ChatForm.restore(with_state(declined, action="accept"))


def test_a_restored_review_that_misses_an_answer_says_so_when_sent() -> None:
    form = ChatForm.restore(with_state(saved_after("3"), step="review", values={}))
    refused = form.reply("send")
    assert not form.done and refused.step == "review"
    assert refused.error is not None and "leaves out the required field 'guests'" in refused.error
    form.reply("1")
    form.reply("4")
    form.reply("send")
    assert form.result().content == {"guests": 4}


def test_an_ended_conversation_restores_with_its_answer() -> None:
    saved = saved_after("3", "skip", "send")
    assert saved["state"]["step"] == "done"
    restored = ChatForm.restore(saved)
    assert restored.done and restored.result().content == {"guests": 3}
    assert restored.next_message().text == "the server · Sent."


@pytest.mark.parametrize(
    ("saved", "reason"),
    [
        ({"format": "other/1"}, "not a saved ChatForm conversation (expected format 'ui_adapters.chat/1')"),
        (
            {k: v for k, v in saved_after("3").items() if k != "state"},
            "a saved ChatForm conversation is incomplete: 'state'",
        ),
        (
            with_state(saved_after("3"), step="url"),
            "unknown step 'url' for this question (one of: field, review, done)",
        ),
        (with_state(saved_after("3"), index=2), "the saved position is outside the form"),
        (
            {**saved_after(), "context": {"server": "x", "config_name": 5}},
            "the saved context's config_name must be text or null, not 5",
        ),
    ],
)
def test_a_saved_conversation_that_cannot_be_says_exactly_why(saved: dict[str, Any], reason: str) -> None:
    with pytest.raises(ValueError) as refused:
        ChatForm.restore(saved)
    assert str(refused.value) == reason


@pytest.mark.parametrize(
    "params",
    [
        ElicitRequestURLParams(message="Sign in", url="https://example.com/login", elicitation_id="e1"),
        ElicitRequestFormParams(message="Go on?", requested_schema={"type": "object", "properties": {}}),
    ],
)
def test_a_question_without_fields_is_restored_at_its_only_position(params: Any) -> None:
    saved = ChatForm(params).to_json()
    assert ChatForm.restore(saved).next_message().step in ("url", "confirm")
    with pytest.raises(ValueError, match=r"^the saved position is outside the form$"):
        ChatForm.restore(with_state(saved, index=1))


def test_a_long_saved_refusal_is_cut_to_one_line_of_300_characters() -> None:
    saved = with_state(saved_after(), error="first line\nsecond line " + "x" * 400)
    error = ChatForm.restore(saved).next_message().error
    assert error is not None and len(error) == 300
    assert error.startswith("first line second line xxx") and error.endswith("x…")


def test_a_cancelled_conversation_restores_cancelled() -> None:
    restored = ChatForm.restore(saved_after("3", "cancel"))
    assert restored.done and restored.result().action == "cancel"
    assert restored.next_message().text == "the server · Cancelled."


def test_a_conversation_saved_without_its_reply_count_counts_one_reply() -> None:
    saved = saved_after("3")
    del saved["state"]["replies"]
    restored = ChatForm.restore(saved)
    assert "asks:" not in restored.next_message().text  # the question is not introduced again
    assert restored.to_json()["state"]["replies"] == 1


def test_a_restored_conversation_reads_times_on_the_clock_it_is_given() -> None:
    kathmandu = timezone(timedelta(hours=5, minutes=45))
    at = {"at": {"type": "string", "format": "date-time", "title": "At"}}
    schema = {"type": "object", "properties": at, "required": ["at"]}
    saved = ChatForm(ElicitRequestFormParams(message="When?", requested_schema=schema)).to_json()
    restored = ChatForm.restore(saved, now=lambda: datetime(2026, 12, 5, 10, 0, tzinfo=kathmandu))
    restored.reply("2026-12-24 19:30")  # no zone typed: the clock's
    restored.reply("send")
    assert restored.result().content == {"at": "2026-12-24T19:30:00+05:45"}


def test_a_saved_conversation_holds_the_view_and_the_state_by_name() -> None:
    tags = {"type": "array", "items": {"enum": ["a", "b"]}, "title": "Tags"}
    form = form_of({"tags": tags}, [])
    form.reply("a, b")
    saved = form.to_json()
    view = {k: v for k, v in saved["view"].items() if k != "form"}
    assert view == {
        "server": None,
        "server_name": "the server",
        "mode": "form",
        "message": "A few questions",
        "url": None,
    }
    assert saved["state"] == {
        "step": "review",
        "index": 0,
        "editing": False,
        "values": {"tags": ["a", "b"]},
        "error": None,
        "replies": 1,
        "action": None,
    }
    saved["state"]["values"]["tags"].append("b")  # the saved copy, not the conversation's answer
    form.reply("send")
    assert form.result().content == {"tags": ["a", "b"]}
    link = ElicitRequestURLParams(message="Sign in", url="https://example.com/login", elicitation_id="e1")
    assert ChatForm(link).to_json()["view"]["url"] == "https://example.com/login"


def test_back_from_changing_an_answer_leaves_the_change_for_good() -> None:
    form = form_of({name: {"type": "string", "title": name.title()} for name in ("a", "b")}, [])
    form.reply("one")
    form.reply("two")
    form.reply("1")  # change the first answer...
    assert form.reply("back").step == "review"  # ...or not
    last = form.reply("back")  # back from the review: the last question, not a change
    assert last.field == "b" and "keep the answer you had" not in last.text
    assert ChatForm.restore(form.to_json()).next_message() == last
    form.reply("two")
    form.reply("1")
    form.reply("uno")  # a change made...
    again = form.reply("back")  # ...then back from the review: the last question, not a change
    assert again.field == "b" and "keep the answer you had" not in again.text


# ------------------------------------------------------------------------- the dates offered to people

NOW = datetime(2026, 12, 5, 10, 0, tzinfo=timezone(timedelta(hours=1)))
WHEN = {
    "day": {"type": "string", "format": "date", "title": "Day"},
    "at": {"type": "string", "format": "date-time", "title": "At"},
}


@pytest.fixture
def without_dateparser(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chat extra not installed: ``import dateparser`` fails as it does then."""
    monkeypatch.setitem(sys.modules, "dateparser", None)


def dated_form() -> ChatForm:
    schema = {"type": "object", "properties": WHEN, "required": ["day", "at"]}
    return ChatForm(ElicitRequestFormParams(message="When?", requested_schema=schema), now=lambda: NOW)


@pytest.mark.usefixtures("without_dateparser")
def test_without_the_reader_of_words_the_chat_offers_and_names_the_iso_format() -> None:
    form = dated_form()
    asked = form.next_message().text
    assert "Type a date as YYYY-MM-DD, like 2026-12-24." in asked
    assert "24 Dec" not in asked and "tomorrow" not in asked
    refused = form.reply("24 Dec")
    assert refused.error == "type a date as YYYY-MM-DD, like 2026-12-24"  # no advice to install anything
    asked_time = form.reply("2026-12-24").text
    assert "Type a date and time as YYYY-MM-DD HH:MM, like 2026-12-24 19:30." in asked_time
    assert "tomorrow" not in asked_time
    assert (
        form.reply("tomorrow 7pm").error == "type a date and time as YYYY-MM-DD HH:MM, like 2026-12-24 19:30"
    )
    form.reply("2026-12-24 19:30")
    form.reply("send")
    assert form.result().content == {"day": "2026-12-24", "at": "2026-12-24T19:30:00+01:00"}


def test_with_the_reader_of_words_the_chat_offers_words_and_reads_them() -> None:
    pytest.importorskip("dateparser", reason="the chat extra is not installed: pip install -e '.[chat]'")
    form = dated_form()
    assert "Type a date, like 2026-12-24, 24 Dec or tomorrow." in form.next_message().text
    assert "Type a date and time, like 2026-12-24 19:30 or tomorrow 7pm." in form.reply("24 Dec").text
    form.reply("tomorrow 7pm")
    form.reply("send")
    assert form.result().content == {"day": "2026-12-24", "at": "2026-12-06T19:00:00+01:00"}


@pytest.mark.parametrize("installed", [True, False])
def test_the_textual_form_offers_only_the_dates_it_reads(
    installed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("textual", reason="the textual extra is not installed: pip install -e '.[textual]'")
    if installed:
        pytest.importorskip("dateparser", reason="the chat extra is not installed: pip install -e '.[chat]'")
    else:
        monkeypatch.setitem(sys.modules, "dateparser", None)
    from textual.widgets import Input

    from ui_adapters.textual._fields import FieldInput

    day = FormField(name="day", kind=FieldKind.DATE, label="Day", required=True)
    at = FormField(name="at", kind=FieldKind.DATE_TIME, label="At", required=True)
    day_input = FieldInput.build(day, "day").widget
    at_input = FieldInput.build(at, "at").widget
    assert isinstance(day_input, Input) and isinstance(at_input, Input)
    refusal = day_input.validate("24 Dec")
    assert refusal is not None
    if installed:
        assert day_input.placeholder == "a date: 2026-12-24, 24 Dec, tomorrow"
        assert at_input.placeholder == "a date and time: 2026-12-24 19:30, tomorrow 7pm"
        assert refusal.is_valid
    else:
        assert day_input.placeholder == "a date as YYYY-MM-DD, like 2026-12-24"
        assert at_input.placeholder == "a date and time as YYYY-MM-DD HH:MM, like 2026-12-24 19:30"
        assert refusal.failure_descriptions == ["type a date as YYYY-MM-DD, like 2026-12-24"]
    accepted = day_input.validate("2026-12-24")
    assert accepted is not None and accepted.is_valid


@pytest.mark.usefixtures("without_dateparser")
def test_a_utc_time_typed_with_a_small_z_is_read_as_utc() -> None:
    form = dated_form()
    form.reply("2026-12-24")
    form.reply("2026-12-24T19:30:00z")
    form.reply("send")
    assert form.result().content == {"day": "2026-12-24", "at": "2026-12-24T19:30:00Z"}


@pytest.mark.parametrize("words", ["demain", "24 dic"])
def test_dates_in_words_are_read_in_english_only(words: str) -> None:
    pytest.importorskip("dateparser", reason="the chat extra is not installed: pip install -e '.[chat]'")
    refused = dated_form().reply(words)
    assert refused.field == "day" and refused.error == "type a date, like 2026-12-24, 24 Dec or tomorrow"


@pytest.mark.usefixtures("without_dateparser")
def test_without_the_reader_of_words_the_offer_holds_only_iso_examples() -> None:
    assert date_offer(with_time=True) == DateOffer(
        "a date and time", "YYYY-MM-DD HH:MM", ("2026-12-24 19:30",), in_words=False
    )
    assert date_offer(with_time=False) == DateOffer("a date", "YYYY-MM-DD", ("2026-12-24",), in_words=False)


def test_the_examples_extra_brings_the_reader_the_examples_offer() -> None:
    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text("utf-8"))
    extras = project["project"]["optional-dependencies"]
    assert set(extras["chat"]) <= set(extras["examples"])
