"""``ChatForm`` and ``chat_callback``: a question as a conversation, scripted the way a person types.

Every form in the captured traces is answered to the end and the content sent is the one the form model
validates; the steering words (back, skip, default, decline, cancel, a number at the review) each do
what the docs say; a conversation survives a JSON round trip between two messages; and over a real
server (the bistro example over stdio, both eras) a tool's question is answered in chat messages.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_client import Client, ClientRequestContext, InvalidElicitationSchemaError, StdioServerParameters
from mcp_client.schema import AnswerValue, FieldKind, FormField, parse_form_schema
from mcp_client.types import (
    ElicitRequestFormParams,
    ElicitRequestURLParams,
    Implementation,
    TextContent,
)
from tests.support.traces import TRACES
from tests.ui_adapters._terminal_helpers import trace_questions
from ui_adapters.chat import ChatForm, ChatMessage, chat_callback

# Dates typed in words need the chat extra (dateparser); the floor venv runs without it.
pytest.importorskip("dateparser", reason="the chat extra is not installed: pip install -e '.[chat]'")

ZONE = timezone(timedelta(hours=1))
NOW = datetime(2026, 12, 5, 10, 0, tzinfo=ZONE)
BISTRO = Path(__file__).resolve().parents[2] / "examples" / "servers" / "bistro.py"
TIMEOUT = 60.0

pytestmark = pytest.mark.anyio


def context(
    name: str = "bistro", server: str = "http://kim:s3cret@127.0.0.1:8000/mcp"
) -> ClientRequestContext:
    return ClientRequestContext(
        server=server,
        server_info=Implementation(name=name, version="1.0"),
        protocol_version="2025-11-25",
        era="legacy",
    )


def form_of(properties: dict[str, Any], required: list[str], message: str = "A few questions") -> ChatForm:
    schema = {"type": "object", "properties": properties, "required": required}
    return ChatForm(
        ElicitRequestFormParams(message=message, requested_schema=schema), context(), now=lambda: NOW
    )


BOOKING = {
    "guests": {"type": "integer", "title": "Guests", "minimum": 1, "maximum": 12},
    "day": {"type": "string", "format": "date", "title": "Day"},
    "seating": {"type": "string", "title": "Seating", "enum": ["inside", "terrace"], "default": "inside"},
    "note": {"type": "string", "title": "Note", "maxLength": 40},
}


def booking() -> ChatForm:
    return form_of(BOOKING, ["guests", "day"], message="Book a table?")


# ------------------------------------------------------------------------------- every traced form


def typed_answer(form_field: FormField) -> str:
    """What a person would type to give ``form_field`` a valid value."""
    if form_field.default is not None:
        return "default"
    kind = form_field.kind
    if kind is FieldKind.BOOLEAN:
        return "yes"
    if kind is FieldKind.SINGLE_CHOICE:
        return form_field.options[0].label
    if kind is FieldKind.MULTI_CHOICE:
        count = max(form_field.min_items or 0, 1)
        return ", ".join(str(number) for number in range(1, count + 1))
    if kind in (FieldKind.INTEGER, FieldKind.NUMBER):
        low = form_field.minimum if form_field.minimum is not None else 3
        return f"{int(low):,}" if float(low).is_integer() else str(low)
    if kind is FieldKind.DATE:
        return "24 Dec"
    if kind is FieldKind.DATE_TIME:
        return "tomorrow 7pm"
    if kind is FieldKind.EMAIL:
        return "ada@example.com"
    if kind is FieldKind.URI:
        return "https://example.com/ada"
    length = max(form_field.min_length or 0, 5)
    if form_field.max_length is not None:
        length = min(length, form_field.max_length)
    return "w" * length


def _valid(schema: dict[str, Any]) -> bool:
    """The client refuses a schema outside the spec before any callback sees it (a hostile trace's)."""
    try:
        parse_form_schema(schema)
    except InvalidElicitationSchemaError:
        return False
    return True


TRACE_FORMS = [
    pytest.param(message, schema, id=f"{path.stem}-{index}")
    for path in sorted(TRACES.glob("*.json"))
    for index, (message, schema) in enumerate(trace_questions(path.stem))
    if _valid(schema)
]


@pytest.mark.parametrize(("message", "schema"), TRACE_FORMS)
def test_every_traced_form_answered_in_chat(message: str, schema: dict[str, Any]) -> None:
    params = ElicitRequestFormParams(message=message, requested_schema=schema)
    form = ChatForm(params, context("guide-server"), now=lambda: NOW)
    messages: list[ChatMessage] = [form.next_message()]
    for form_field in params.form.fields:
        assert messages[-1].step == "field" and messages[-1].field == form_field.name
        messages.append(form.reply(typed_answer(form_field)))
        assert messages[-1].error is None, messages[-1].text
    last = messages[-1]
    if params.form.is_confirmation:
        assert last.step == "confirm"
        messages.append(form.reply("yes"))
    else:
        assert last.step == "review"
        messages.append(form.reply("send"))
    assert all(m.text.count("guide-server") >= 1 for m in messages)
    assert form.done and messages[-1].step == "done"
    result = form.result()
    assert result.action == "accept"
    content: dict[str, AnswerValue] = dict(result.content or {})  # type: ignore[arg-type]
    assert params.form.validate_content(content) == content
    assert set(content) >= {f.name for f in params.form.fields if f.required}


def test_the_traces_hold_forms() -> None:
    assert len(TRACE_FORMS) >= 5


# ------------------------------------------------------------------------------- scripted conversations


def test_first_message_names_the_server_and_the_question() -> None:
    message = booking().next_message()
    assert message.text.splitlines()[0] == "bistro asks: Book a table?"
    assert "bistro · Guests (1 of 4)" in message.text
    assert "from 1 to 12" in message.text
    assert message.step == "field" and message.field == "guests" and message.choices == ()


def test_invalid_then_valid_keeps_the_field_and_says_why() -> None:
    form = booking()
    refused = form.reply("40")
    assert refused.step == "field" and refused.field == "guests"
    assert refused.error == "must be at most 12"
    assert refused.text.startswith("Sorry: must be at most 12.")
    assert "bistro" in refused.text
    assert form.next_message() == refused  # asking again gives the same message
    assert form.reply("4 people").field == "day"


def test_back_goes_to_the_previous_field_with_the_answer_kept_until_changed() -> None:
    form = booking()
    form.reply("4")
    assert form.reply("back").field == "guests"
    form.reply("6")
    form.reply("24 Dec")
    form.reply("default")
    review = form.reply("skip")
    assert review.step == "review"
    assert "1. Guests: 6" in review.text and "2. Day: 2026-12-24" in review.text
    assert "3. Seating: inside" in review.text and "4. Note: (left empty)" in review.text
    form.reply("send")
    assert form.result().content == {"guests": 6, "day": "2026-12-24", "seating": "inside"}


def test_back_on_the_first_field_is_refused() -> None:
    message = booking().reply("back")
    assert message.field == "guests" and message.error == "this is the first question"


def test_a_required_field_cannot_be_skipped_and_an_optional_one_can() -> None:
    form = booking()
    assert form.reply("skip").error == "this question is required: it cannot be skipped"
    form.reply("2")
    form.reply("tomorrow")
    seating = form.next_message()
    assert ("Skip", "skip") in seating.choices and "(optional)" in seating.text
    assert form.reply("skip").field == "note"
    form.reply("by the window")
    form.reply("send")
    # a skipped field with a default is sent with its default (what the review showed)
    assert form.result().content == {
        "guests": 2,
        "day": "2026-12-06",
        "seating": "inside",
        "note": "by the window",
    }


def test_defaults_are_offered_never_chosen_for_the_user() -> None:
    form = booking()
    form.reply("2")
    form.reply("24 Dec")
    seating = form.next_message()
    assert seating.choices[:2] == (("inside (default)", "inside"), ("terrace", "terrace"))
    assert 'Default: inside (reply "default" to keep it).' in seating.text
    assert form.reply("default").field == "note"


def test_yes_no_without_a_default_has_no_preferred_reply() -> None:
    form = form_of({"delete": {"type": "boolean", "title": "Delete everything?"}}, ["delete"])
    message = form.next_message()
    assert message.choices == (("Yes", "yes"), ("No", "no"))
    assert form.reply("default").error == "this question has no default"


def test_nothing_is_sent_before_the_review_is_confirmed() -> None:
    form = form_of({"delete": {"type": "boolean", "title": "Delete everything?"}}, ["delete"])
    review = form.reply("yes")
    assert review.step == "review" and not form.done
    with pytest.raises(RuntimeError, match="has not ended"):
        form.result()
    assert form.reply("maybe").error is not None and not form.done
    form.reply("send")
    assert form.result().content == {"delete": True}


def test_a_number_at_the_review_changes_that_answer_and_comes_back() -> None:
    form = booking()
    for reply in ("2", "24 Dec", "terrace", "window"):
        form.reply(reply)
    editing = form.reply("2")
    assert editing.field == "day" and "keep the answer you had" in editing.text
    review = form.reply("25 Dec")
    assert review.step == "review" and "2. Day: 2026-12-25" in review.text
    form.reply("1")
    assert form.reply("back").step == "review"  # back while editing keeps the answer
    form.reply("send")
    assert form.result().content == {"guests": 2, "day": "2026-12-25", "seating": "terrace", "note": "window"}


@pytest.mark.parametrize(
    ("word", "action"), [("cancel", "cancel"), ("/cancel", "cancel"), ("decline", "decline")]
)
def test_cancel_and_decline_end_the_question_as_the_user_says(word: str, action: str) -> None:
    form = booking()
    form.reply("2")
    closing = form.reply(word)
    assert form.done and closing.step == "done"
    assert form.result().action == action and form.result().content is None
    assert closing.text.startswith("bistro · ")
    with pytest.raises(RuntimeError, match="has ended"):
        form.reply("2")


def test_an_option_named_like_a_command_is_the_option_unless_slashed() -> None:
    form = form_of({"next": {"type": "string", "enum": ["back", "skip", "forward"], "title": "Next"}}, [])
    assert form.reply("back").step == "review"
    form.reply("send")
    assert form.result().content == {"next": "back"}
    slashed = form_of({"next": {"type": "string", "enum": ["back", "skip"], "title": "Next"}}, [])
    assert slashed.reply("/skip").step == "review"
    slashed.reply("send")
    assert slashed.result().content == {}


def test_a_confirm_only_question_takes_yes_no_or_cancel() -> None:
    for reply, action in (("yes", "accept"), ("no", "decline"), ("cancel", "cancel")):
        form = form_of({}, [], message="Proceed with the refund?")
        message = form.next_message()
        assert message.step == "confirm"
        assert message.choices == (("Accept", "yes"), ("Decline", "no"), ("Cancel", "cancel"))
        form.reply(reply)
        assert form.result().action == action


def test_server_text_is_cleaned_of_controls() -> None:
    schema = {"type": "object", "properties": {"x": {"type": "string", "title": "Na\x1b[31mme\u202e"}}}
    params = ElicitRequestFormParams(message="Hi\x1b]8;;http://evil\x07there\u200b", requested_schema=schema)
    text = ChatForm(params, context("evil\x1b[2J")).next_message().text
    assert "\x1b" not in text and "\u202e" not in text and "\u200b" not in text
    assert "evil asks: Hithere" in text and "Name" in text


def test_an_option_whose_label_cleans_to_nothing_shows_its_value() -> None:
    colour = {
        "type": "string",
        "title": "Colour",
        "oneOf": [{"const": "red", "title": "\x1b[31m\u202e"}, {"const": "blue", "title": "Blue"}],
    }
    form = form_of({"colour": colour}, ["colour"])
    assert form.next_message().choices[:2] == (("red", "red"), ("Blue", "blue"))
    review = form.reply("red")
    assert "1. Colour: red" in review.text and "\x1b" not in review.text


# --------------------------------------------------------------------------------------------- links


def test_a_link_question_shows_the_real_host_and_waits_for_consent() -> None:
    params = ElicitRequestURLParams(
        message="Sign in", url="https://accounts.example.com/login", elicitation_id="e1"
    )
    form = ChatForm(params, context())
    message = form.next_message()
    assert message.step == "url" and message.url == params.url
    assert message.url_host == "accounts.example.com" and "It opens accounts.example.com." in message.text
    assert message.choices[0] == ("Open the link", "yes")
    closing = form.reply("yes")
    assert form.result().action == "accept" and form.result().content is None
    assert closing.url == params.url and "Open this link to continue" in closing.text


def test_a_refused_link_cannot_be_accepted() -> None:
    params = ElicitRequestURLParams(message="Pay", url="javascript:alert(1)", elicitation_id="e2")
    form = ChatForm(params, context())
    message = form.next_message()
    assert message.url_refusal and "must not be opened" in message.text
    assert [value for _, value in message.choices] == ["decline", "cancel"]
    assert form.reply("yes").error == "this link must not be opened" and not form.done
    form.reply("decline")
    assert form.result().action == "decline"


def test_a_look_alike_link_carries_its_warning() -> None:
    params = ElicitRequestURLParams(
        message="Pay", url="https://user@paypal.com@evil.example/", elicitation_id="e3"
    )
    message = ChatForm(params, context()).next_message()
    assert message.url_warnings and all(f"Warning: {w}" in message.text for w in message.url_warnings)


# --------------------------------------------------------------------------------------- saved state


def test_a_conversation_survives_a_json_round_trip_between_messages() -> None:
    form = booking()
    form.reply("3")
    form.reply("nonsense")  # the refusal is kept too
    saved = json.loads(json.dumps(form.to_json()))
    assert "s3cret" not in json.dumps(saved) and saved["view"]["server"] == "http://127.0.0.1:8000/mcp"
    assert saved["view"]["form"]["fields"][0]["name"] == "guests"
    restored = ChatForm.restore(saved, now=lambda: NOW)
    assert restored.next_message() == form.next_message()
    for reply in ("24 Dec", "terrace", "skip", "send"):
        restored.reply(reply)
    assert restored.result().content == {"guests": 3, "day": "2026-12-24", "seating": "terrace"}


@pytest.mark.parametrize(
    "damage",
    [
        lambda saved: {},
        lambda saved: {**saved, "format": "other/1"},
        lambda saved: {**saved, "state": {**saved["state"], "values": {"guests": 99}}},
        lambda saved: {**saved, "state": {**saved["state"], "step": "flying"}},
        lambda saved: {k: v for k, v in saved.items() if k != "request"},
    ],
)
def test_a_damaged_saved_conversation_is_a_value_error(damage: Any) -> None:
    form = booking()
    form.reply("3")
    with pytest.raises(ValueError):
        ChatForm.restore(damage(form.to_json()))


# ------------------------------------------------------------------------------------ a real server


class ChatUser:
    """A person in a chat: reads each message and types the next scripted reply."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.seen: list[ChatMessage] = []

    async def send(self, message: ChatMessage) -> None:
        self.seen.append(message)

    async def receive(self) -> str:
        return self.replies.pop(0)


def bistro() -> StdioServerParameters:
    return StdioServerParameters(sys.executable, [str(BISTRO)])


async def test_the_bistro_question_answered_in_chat() -> None:
    user = ChatUser(["sure", "27 Dec", "send"])
    callback = chat_callback(user.send, user.receive, now=lambda: datetime(2025, 12, 20, 12, tzinfo=ZONE))
    with anyio.fail_after(TIMEOUT):
        async with Client(bistro(), mode="legacy", elicitation_callback=callback) as client:
            result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
    assert texts_of(result) == ["[SUCCESS] Booked for 2025-12-27"]
    assert user.seen[0].text.startswith("bistro asks: No tables for 2 on 2025-12-25.")
    assert [m.step for m in user.seen] == ["field", "field", "review", "done"]
    assert user.seen[-1].text == "bistro · Sent." and not user.replies


async def test_the_chat_names_the_tool_whose_call_asks(guide_http_url: str) -> None:
    user = ChatUser(["yes", "send"])
    callback = chat_callback(user.send, user.receive)
    with anyio.fail_after(TIMEOUT):
        async with Client(guide_http_url, mode="2026-07-28", elicitation_callback=callback) as client:
            result = await client.call_tool("delete_folder", {"path": "/srv/photos"})
    assert texts_of(result) == ["deleted /srv/photos"]
    first = user.seen[0].text.splitlines()[0]
    assert first == (
        "elicitation-research · delete_folder asks: Really delete /srv/photos? This cannot be undone."
    )


class FieldTypist:
    """A person who answers whichever field is asked from a table (questions of one round may come in
    any order), and sends at the review."""

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers
        self.seen: list[ChatMessage] = []

    async def send(self, message: ChatMessage) -> None:
        self.seen.append(message)

    async def receive(self) -> str:
        last = self.seen[-1]
        assert last.error is None, last.text
        if last.step == "review":
            return "send"
        assert last.field is not None, last.text
        return self.answers[last.field]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_every_kind_and_several_questions_answered_in_chat(
    mode: str, guide_stdio_command: tuple[str, list[str]]
) -> None:
    typist = FieldTypist(
        {
            "start": "24 Dec",
            "nights": "3 nights",
            "max_eur": "1,500",
            "confirm": "yep",
            "email": "ada@example.com",
            "age": "default",
            "rating": "4,5",
            "subscribe": "no thanks",
            "colour": "gr",
            "toppings": "cheese and olives",
            "nickname": "skip",
        }
    )
    callback = chat_callback(typist.send, typist.receive, now=lambda: NOW)
    server = StdioServerParameters(*guide_stdio_command)
    with anyio.fail_after(TIMEOUT):
        async with Client(server, mode=mode, elicitation_callback=callback) as client:
            trip = await client.call_tool("plan_trip", {"destination": "Lisbon"})
            survey = await client.call_tool("survey", {})
    assert texts_of(trip) == ["Lisbon: 2026-12-24 x3 nights, <= 1500.0 EUR, luxury=True"]
    answers = json.loads(texts_of(survey)[0].removeprefix("survey: "))
    assert answers == {
        "email": "ada@example.com",
        "age": 30,
        "rating": 4.5,
        "subscribe": False,
        "colour": "green",
        "toppings": ["cheese", "olives"],
        "nickname": None,
    }
    assert sum(m.step == "done" for m in typist.seen) == 4  # dates, budget, luxury, survey: one closing each


def texts_of(result: Any) -> list[str]:
    return [block.text for block in result.content if isinstance(block, TextContent)]


async def test_a_question_whose_call_ends_is_withdrawn_in_the_chat() -> None:
    user = ChatUser([])
    asked = anyio.Event()

    async def receive() -> str:
        asked.set()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    callback = chat_callback(user.send, receive)
    with anyio.fail_after(TIMEOUT):
        async with Client(bistro(), mode="legacy", elicitation_callback=callback) as client:
            async with anyio.create_task_group() as group:
                group.start_soon(client.call_tool, "book_table", {"date": "2025-12-25", "party_size": 2})
                await asked.wait()
                group.cancel_scope.cancel()
    assert user.seen[-1].step == "done"
    assert user.seen[-1].text == "bistro · This question was withdrawn: the call that asked it has ended."
