"""TerminalFormAdapter driven through a pipe of keys, as a person at a terminal would drive it.

Keys go in through prompt_toolkit's ``create_pipe_input()``; what is drawn is captured (rich console in a
StringIO, prompt_toolkit screen in a StringIO or ``DummyOutput``). The questions are the ones real
servers asked in the captured traces.
"""

from __future__ import annotations

import io
import re

import anyio
import anyio.lowlevel
import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from mcp_client.types import ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult
from tests.support.traces import SURVEY_ANSWER
from tests.ui_adapters._terminal_helpers import (
    CTRL_C,
    CTRL_D,
    CTRL_N,
    DOWN,
    END,
    ENTER,
    ESC,
    SPACE,
    converse,
    make_context,
    terminal,
    trace_params,
)
from ui_adapters.terminal import TerminalFormAdapter

pytestmark = pytest.mark.anyio

BACKSPACE = "\x7f"
WAIT = 20  # seconds; a bound, never expected to be reached


async def ask(adapter: TerminalFormAdapter, params: ElicitRequestFormParams) -> ElicitResult:
    with anyio.fail_after(WAIT):
        return await adapter(make_context(), params)


# ------------------------------------------------------------------------------------------ answering


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_survey_typed_answers_every_kind(anyio_backend: str) -> None:
    survey = trace_params("L10_legacy_survey_rich_schema")
    with terminal() as term:
        term.send("ada@example.com" + ENTER)  # email
        term.send(BACKSPACE * 2 + "36" + ENTER)  # age: default 30 replaced
        term.send("4.5" + ENTER)  # rating
        term.send("y" + ENTER)  # subscribe: yes/no list, y moves to Yes, Enter confirms
        term.send(DOWN + ENTER)  # colour: red -> green
        term.send(SPACE + DOWN + DOWN + SPACE + ENTER)  # toppings: cheese + olives
        term.send(ENTER)  # nickname: optional, left empty
        term.send(ENTER)  # review: Send
        result = await ask(term.adapter, survey)

    assert result.action == "accept"
    assert result.content == SURVEY_ANSWER
    shown = term.console_text
    assert "Please fill in the survey" in shown
    assert "guide-server" in shown
    assert "E-mail *" in shown and "Nickname (optional)" in shown
    assert "Your answers" in shown and "Answer sent." in shown


async def test_enter_keeps_every_default_and_optional_fields_stay_out() -> None:
    survey = trace_params("L10_legacy_survey_rich_schema")
    with create_pipe_input() as keys:
        console_file = io.StringIO()
        adapter = TerminalFormAdapter(
            console=Console(file=console_file, width=100), input=keys, output=DummyOutput()
        )
        keys.send_text("ada@example.com" + ENTER + ENTER + "3" + ENTER + ENTER * 5)
        result = await ask(adapter, survey)

    assert result.action == "accept"
    assert result.content == {
        "email": "ada@example.com",
        "age": 30,
        "rating": 3,
        "subscribe": False,
        "colour": "red",
    }
    assert "default: 30" in console_file.getvalue()


async def test_book_table_default_date_is_prefilled() -> None:
    book = trace_params("L01_legacy_book_table_accept")  # accept_alternative (required bool), date
    with terminal() as term:
        term.send("y" + ENTER + ENTER + ENTER)
        result = await ask(term.adapter, book)
    assert result == ElicitResult(action="accept", content={"accept_alternative": True, "date": "2025-12-26"})
    assert "No tables for 4 on 2025-12-25" in term.console_text


async def test_invalid_answer_shows_why_and_is_never_sent() -> None:
    survey = trace_params("L10_legacy_survey_rich_schema")
    with terminal() as term:
        result = await converse(
            term,
            survey,
            [
                ("ad" + ENTER, "must be at least 3 characters"),  # Enter is refused, the reason shown
                ("a" + ENTER, "must be an e-mail address"),
                ("@example.org" + ENTER, "[2/7] Age"),  # the buffer now reads "ada@example.org"
                (BACKSPACE * 2 + "150" + ENTER, "must be at most 120"),
                (BACKSPACE * 3 + "40" + ENTER, "[3/7] Rating"),
                ("five" + ENTER, "must be a number"),
                (BACKSPACE * 4 + "5" + ENTER + ENTER * 4, "Your answers"),
                (ENTER, None),
            ],
        )

    assert result.action == "accept"
    assert result.content is not None
    assert result.content["email"] == "ada@example.org"
    assert result.content["age"] == 40
    assert result.content["rating"] == 5


async def test_multi_choice_enforces_max_items_and_min_items() -> None:
    params = ElicitRequestFormParams(
        message="Pick toppings",
        requested_schema={
            "type": "object",
            "properties": {
                "toppings": {
                    "type": "array",
                    "title": "Toppings",
                    "items": {
                        "anyOf": [
                            {"const": "c", "title": "Cheese"},
                            {"const": "h", "title": "Ham"},
                            {"const": "o", "title": "Olives"},
                        ]
                    },
                    "minItems": 1,
                    "maxItems": 2,
                }
            },
            "required": ["toppings"],
        },
    )
    with terminal() as term:
        result = await converse(
            term,
            params,
            [
                (ENTER, "at least 1"),  # nothing ticked: refused
                (SPACE + DOWN + SPACE + DOWN + SPACE, "at most 2 may be chosen"),  # a third tick is refused
                (ENTER, "Your answers"),
                (ENTER, None),
            ],
        )

    assert result == ElicitResult(action="accept", content={"toppings": ["c", "h"]})
    assert "→ Cheese, Ham" in term.console_text


async def test_boolean_answered_with_n_key() -> None:
    confirm = trace_params("L05_legacy_delete_folder_resolver")
    with terminal() as term:
        term.send("n" + ENTER + ENTER)
        result = await ask(term.adapter, confirm)
    assert result.action == "accept"
    assert result.content is not None
    assert list(result.content.values()) == [False]


async def test_optional_fields_without_default_can_be_left_empty() -> None:
    params = ElicitRequestFormParams(
        message="Anything to add?",
        requested_schema={
            "type": "object",
            "properties": {
                "flag": {"type": "boolean", "title": "Flag"},
                "size": {"type": "string", "enum": ["s", "m", "l"], "title": "Size"},
                "note": {"type": "string", "title": "Note"},
            },
        },
    )
    with terminal() as term:
        term.send(ENTER * 4)  # each prompt starts on "(leave empty)" / an empty line; then Send
        result = await ask(term.adapter, params)
    assert result == ElicitResult(action="accept", content={})
    assert term.console_text.count("(left empty)") >= 3


async def test_single_choice_titled_options_show_labels_and_send_values() -> None:
    params = ElicitRequestFormParams(
        message="Which colour?",
        requested_schema={
            "type": "object",
            "properties": {
                "colour": {
                    "type": "string",
                    "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}],
                }
            },
            "required": ["colour"],
        },
    )
    with terminal() as term:
        term.send(DOWN + DOWN + ENTER + ENTER)  # nothing is chosen at first: Down lands on Red, then Green
        result = await ask(term.adapter, params)
    assert result == ElicitResult(action="accept", content={"colour": "g"})
    assert "→ Green" in term.console_text


async def test_review_then_change_an_answer() -> None:
    survey = trace_params("L10_legacy_survey_rich_schema")
    with terminal() as term:
        steps = [
            ("ada@example.com" + ENTER + ENTER + "2" + ENTER + ENTER * 4, "Send these answers?"),
            (DOWN * 3, "❯ Change 3. Rating"),
            (ENTER, "[3/7] Rating"),
            (BACKSPACE + "4.5" + ENTER, "Send these answers?"),
            (ENTER, None),
        ]
        result = await converse(term, survey, steps)

    assert result.action == "accept"
    assert result.content is not None
    assert result.content["rating"] == 4.5
    assert term.console_text.count("Your answers") == 2
    assert re.search(r"│ 3 │ Rating \* +│ 2 +│", term.console_text)  # the first table
    assert re.search(r"│ 3 │ Rating \* +│ 4\.5 +│", term.console_text)  # the second


async def test_question_without_fields_is_a_confirmation() -> None:
    params = ElicitRequestFormParams(
        message="Proceed?", requested_schema={"type": "object", "properties": {}}
    )
    with terminal() as term:
        term.send(ENTER)
        result = await ask(term.adapter, params)
    assert result.action == "accept"


# ----------------------------------------------------------------------------------- decline, cancel


async def test_decline_key_at_a_prompt() -> None:
    with terminal() as term:
        term.send("ada" + CTRL_N)
        result = await ask(term.adapter, trace_params("L10_legacy_survey_rich_schema"))
    assert result == ElicitResult(action="decline")
    assert "Declined." in term.console_text


async def test_decline_from_the_review() -> None:
    with terminal() as term:
        term.send("y" + ENTER + ENTER + END + "\x1b[A" + ENTER)  # review: End -> Cancel, Up -> Decline
        result = await ask(term.adapter, trace_params("L01_legacy_book_table_accept"))
    assert result == ElicitResult(action="decline")


@pytest.mark.parametrize("key", [CTRL_C, ESC], ids=["ctrl-c", "esc"])
async def test_cancel_keys(key: str) -> None:
    with terminal() as term:
        term.send("ada@example.com" + ENTER + key)
        result = await ask(term.adapter, trace_params("L10_legacy_survey_rich_schema"))
    assert result == ElicitResult(action="cancel")
    assert "Cancelled." in term.console_text


async def test_cancel_key_in_a_pick_list() -> None:
    with terminal() as term:
        term.send(ESC)
        result = await ask(term.adapter, trace_params("L05_legacy_delete_folder_resolver"))
    assert result == ElicitResult(action="cancel")


async def test_ctrl_d_at_the_first_prompt_cancels() -> None:
    with terminal() as term:
        term.send(CTRL_D)
        result = await ask(term.adapter, trace_params("L10_legacy_survey_rich_schema"))
    assert result == ElicitResult(action="cancel")


async def test_closed_input_cancels() -> None:
    with terminal() as term:
        term.keys.close()
        result = await ask(term.adapter, trace_params("L10_legacy_survey_rich_schema"))
    assert result == ElicitResult(action="cancel")


async def test_cancelled_call_under_an_open_prompt_leaves_the_adapter_usable() -> None:
    params = trace_params("L01_legacy_book_table_accept")
    with terminal() as term:
        with anyio.fail_after(WAIT):
            async with anyio.create_task_group() as group:
                group.start_soon(term.adapter, make_context(), params)
                await term.wait_for("  No")  # the pick list is on screen
                group.cancel_scope.cancel()
        # Nothing of the first question is left running: the next one gets the keys.
        term.send("n" + ENTER + ENTER + ENTER)
        result = await ask(term.adapter, params)
    assert result == ElicitResult(
        action="accept", content={"accept_alternative": False, "date": "2025-12-26"}
    )


# ------------------------------------------------------------------------------ several questions


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_concurrent_questions_are_asked_one_after_another(anyio_backend: str) -> None:
    when = trace_params("M06_modern_plan_trip_two_rounds", 0)  # start (date), nights
    budget = trace_params("M06_modern_plan_trip_two_rounds", 1)  # max_eur
    results: dict[int, ElicitResult] = {}
    with terminal() as term:

        async def one(index: int, params: ElicitRequestFormParams) -> None:
            results[index] = await term.adapter(make_context(index, 2), params)

        with anyio.fail_after(WAIT):
            async with anyio.create_task_group() as group:
                group.start_soon(one, 1, when)
                await anyio.lowlevel.checkpoint()
                group.start_soon(one, 2, budget)
                await term.wait_for("Question 1 of 2")
                term.send("2026-05-01" + ENTER + "3" + ENTER + ENTER)
                term.send("900" + ENTER + ENTER)

    assert results[1].action == "accept" and results[1].content == {"start": "2026-05-01", "nights": 3}
    assert results[2].action == "accept" and results[2].content == {"max_eur": 900}
    shown = term.console_text
    first, second = shown.index("Question 1 of 2"), shown.index("Question 2 of 2")
    assert first < second
    assert shown.index("When do you want to go to Lisbon?") < second < shown.index("What is your budget")
    assert shown.count("Answer sent.", 0, second) == 1  # question 1 was finished before 2 was shown


# --------------------------------------------------------------------------------- refusals, limits


async def test_url_question_is_declined() -> None:
    with terminal() as term:
        params = ElicitRequestURLParams(message="Pay", url="https://pay.example/x", elicitation_id="e1")
        with anyio.fail_after(WAIT):
            result = await term.adapter(make_context(), params)
    assert result == ElicitResult(action="decline")
    assert "only fills in forms" in term.console_text


def test_form_mode_only() -> None:
    assert TerminalFormAdapter.elicitation_modes == frozenset({"form"})


async def test_tens_of_thousands_of_fields_are_declined_with_a_message() -> None:
    properties = {f"f{i}": {"type": "string"} for i in range(20_000)}
    params = ElicitRequestFormParams(
        message="Big", requested_schema={"type": "object", "properties": properties}
    )
    with terminal() as term:
        result = await ask(term.adapter, params)
    assert result == ElicitResult(action="decline")
    assert "20000 fields" in term.console_text


async def test_tens_of_thousands_of_options_are_declined_and_thousands_are_paged() -> None:
    def choice(count: int) -> ElicitRequestFormParams:
        options = [f"option-{i}" for i in range(count)]
        schema = {
            "type": "object",
            "properties": {"pick": {"type": "string", "enum": options}},
            "required": ["pick"],
        }
        return ElicitRequestFormParams(message="Pick one", requested_schema=schema)

    with terminal() as term:
        assert await ask(term.adapter, choice(30_000)) == ElicitResult(action="decline")
        assert "30000 choices" in term.console_text
        steps = [(END, "4991-5000 of 5000"), (ENTER, "Your answers"), (ENTER, None)]
        result = await converse(term, choice(5_000), steps)
    assert result == ElicitResult(action="accept", content={"pick": "option-4999"})


def test_bad_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="non_interactive"):
        TerminalFormAdapter(non_interactive="ask")  # type: ignore[arg-type]


_NAME_COUNT = ElicitRequestFormParams(
    message="Two fields",
    requested_schema={
        "type": "object",
        "properties": {"name": {"type": "string", "title": "Name"}, "count": {"type": "integer"}},
        "required": ["name", "count"],
    },
)


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_shift_tab_goes_back_a_field_and_esc_from_a_change_goes_back_to_the_review(
    anyio_backend: str,
) -> None:
    shift_tab, ctrl_u = "\x1b[Z", "\x15"
    with terminal() as term:
        steps = [
            ("Ada" + ENTER, "[2/2] count"),
            (shift_tab, "back to the previous field"),
            (ctrl_u + "Bob" + ENTER, "[2/2] count"),
            ("3" + ENTER, "Send these answers"),
            (DOWN + ENTER, "Esc back to the review"),  # Change 1. Name
            ("xyz", "Bobxyz"),
            (ESC, "back to the review, unchanged"),
            (ENTER, None),
        ]
        result = await converse(term, _NAME_COUNT, steps)
    assert result == ElicitResult(action="accept", content={"name": "Bob", "count": 3})
    assert term.console_text.count("Your answers") == 2
