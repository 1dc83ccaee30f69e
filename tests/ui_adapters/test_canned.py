"""CannedAnswers: answers by field, by message, by script, or by schema defaults; loud on a surprise."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from mcp_client import ClientRequestContext
from mcp_client.types import (
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
)
from ui_adapters import CannedAnswers, UnansweredQuestionError, pytest_plugin
from ui_adapters.pytest_plugin import CannedAnswersFactory

# Projects enable the fixture with `pytest_plugins = ["ui_adapters.pytest_plugin"]` in their root conftest;
# this module takes it directly so it does not depend on that line.
canned_answers = pytest_plugin.canned_answers

CONTEXT = ClientRequestContext(
    server="http://127.0.0.1:8000/mcp", server_info=None, protocol_version="2025-11-25", era="legacy"
)
# The guide server's questions, as captured in tests/fixtures/traces (L01, M02, L07).
BOOK_TABLE = ElicitRequestFormParams(
    message="No tables for 4 on 2025-12-25. Would you like another date?",
    requested_schema={
        "type": "object",
        "title": "AlternativeDate",
        "properties": {
            "accept_alternative": {"type": "boolean", "title": "Accept Alternative"},
            "date": {"type": "string", "title": "Date", "default": "2025-12-26"},
        },
        "required": ["accept_alternative"],
    },
)
DELETE_FOLDER = ElicitRequestFormParams(
    message="Really delete /srv/photos? This cannot be undone.",
    requested_schema={
        "type": "object",
        "properties": {"confirm": {"type": "boolean", "title": "Confirm"}},
        "required": ["confirm"],
    },
)
PAY_DEPOSIT = ElicitRequestURLParams(
    message="Pay the 20 EUR deposit for booking B42 on our payment page.",
    url="https://pay.example.com/deposit?booking=B42",
    elicitation_id="pay-B42",
)


def accept(**content: Any) -> ElicitResult:
    return ElicitResult(action="accept", content=content)


# ------------------------------------------------------------------------------------------------ fields


@pytest.mark.anyio
async def test_fields_answer_the_form_that_has_them() -> None:
    answers = CannedAnswers(fields={"date": "2025-12-27", "accept_alternative": True})
    assert await answers(CONTEXT, BOOK_TABLE) == accept(accept_alternative=True, date="2025-12-27")


@pytest.mark.anyio
async def test_fields_are_completed_with_schema_defaults() -> None:
    answers = CannedAnswers(fields={"accept_alternative": True, "confirm": True})
    assert await answers(CONTEXT, BOOK_TABLE) == accept(accept_alternative=True, date="2025-12-26")
    assert await answers(CONTEXT, DELETE_FOLDER) == accept(confirm=True)


@pytest.mark.anyio
async def test_fields_that_miss_a_required_field_fail_loudly() -> None:
    answers = CannedAnswers(fields={"date": "2025-12-27"})
    with pytest.raises(UnansweredQuestionError) as failure:
        await answers(CONTEXT, BOOK_TABLE)
    text = str(failure.value)
    assert "No tables for 4 on 2025-12-25. Would you like another date?" in text
    assert "accept_alternative (boolean, required), date (text)" in text
    assert "required field(s) accept_alternative have neither a canned value nor a default" in text


@pytest.mark.anyio
async def test_fields_do_not_answer_url_questions() -> None:
    answers = CannedAnswers(fields={"confirm": True})
    with pytest.raises(UnansweredQuestionError, match=r"URL question: 'https://pay\.example\.com/deposit"):
        await answers(CONTEXT, PAY_DEPOSIT)


# ------------------------------------------------------------------------------------------- by message


@pytest.mark.anyio
async def test_by_message_regex() -> None:
    answers = CannedAnswers(
        by_message={
            r"(?i)really delete": ElicitResult(action="accept", content={"confirm": True}),
            r"Pay the \d+ EUR": "accept",
            r"another date": {"accept_alternative": False},
        }
    )
    assert await answers(CONTEXT, DELETE_FOLDER) == accept(confirm=True)
    assert await answers(CONTEXT, PAY_DEPOSIT) == ElicitResult(action="accept")
    # A mapping is an accept whose missing fields get the schema's defaults.
    assert await answers(CONTEXT, BOOK_TABLE) == accept(accept_alternative=False, date="2025-12-26")


@pytest.mark.anyio
async def test_by_message_wins_over_fields() -> None:
    answers = CannedAnswers(fields={"confirm": True}, by_message={"delete": "decline"})
    assert await answers(CONTEXT, DELETE_FOLDER) == ElicitResult(action="decline")


@pytest.mark.anyio
async def test_callable_answers_sync_and_async() -> None:
    def by_hand(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        return accept(confirm=context.era == "legacy")

    async def later(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        return ElicitResult(action="cancel")

    answers = CannedAnswers(by_message={"delete": by_hand, "Pay": later})
    assert await answers(CONTEXT, DELETE_FOLDER) == accept(confirm=True)
    assert await answers(CONTEXT, PAY_DEPOSIT) == ElicitResult(action="cancel")


@pytest.mark.anyio
async def test_field_values_for_a_url_question_are_a_mistake() -> None:
    answers = CannedAnswers(by_message={"Pay": {"confirm": True}})
    with pytest.raises(TypeError, match="field values were canned for a URL question"):
        await answers(CONTEXT, PAY_DEPOSIT)


# ----------------------------------------------------------------------------------------------- script


@pytest.mark.anyio
async def test_script_answers_in_order_then_fails_loudly() -> None:
    answers = CannedAnswers(script=[accept(confirm=True), "decline", ElicitResult(action="accept")])
    assert answers.script_remaining == 3
    assert await answers(CONTEXT, DELETE_FOLDER) == accept(confirm=True)
    assert await answers(CONTEXT, DELETE_FOLDER) == ElicitResult(action="decline")
    assert await answers(CONTEXT, PAY_DEPOSIT) == ElicitResult(action="accept")
    assert answers.script_remaining == 0
    with pytest.raises(UnansweredQuestionError, match=r"the script is used up \(all 3 answers given\)"):
        await answers(CONTEXT, DELETE_FOLDER)


def test_bad_answers_are_refused_when_canned() -> None:
    with pytest.raises(ValueError, match="must be one of accept, decline, cancel; got 'yes'"):
        CannedAnswers(script=["yes"])
    with pytest.raises(TypeError, match="got int"):
        CannedAnswers(by_message={"x": 3})  # type: ignore[dict-item]


# --------------------------------------------------------------------------------------------- defaults


@pytest.mark.anyio
async def test_accept_defaults() -> None:
    answers = CannedAnswers.accept_defaults()
    survey = ElicitRequestFormParams(
        message="Survey",
        requested_schema={
            "type": "object",
            "properties": {
                "age": {"type": "integer", "default": 30},
                "colour": {"type": "string", "enum": ["red", "green"], "default": "red"},
                "nickname": {"type": "string"},
            },
        },
    )
    assert await answers(CONTEXT, survey) == accept(age=30, colour="red")
    assert await answers(CONTEXT, PAY_DEPOSIT) == ElicitResult(action="accept")
    confirm_only = ElicitRequestFormParams(
        message="Go?", requested_schema={"type": "object", "properties": {}}
    )
    assert await answers(CONTEXT, confirm_only) == accept()


@pytest.mark.anyio
async def test_accept_defaults_fails_loudly_on_a_required_field_without_default() -> None:
    answers = CannedAnswers.accept_defaults()
    with pytest.raises(
        UnansweredQuestionError, match=r"required field\(s\) accept_alternative have no default"
    ):
        await answers(CONTEXT, BOOK_TABLE)


@pytest.mark.anyio
async def test_accept_defaults_lets_other_answers_go_first() -> None:
    answers = CannedAnswers.accept_defaults(fields={"accept_alternative": True})
    assert await answers(CONTEXT, BOOK_TABLE) == accept(accept_alternative=True, date="2025-12-26")


# ---------------------------------------------------------------------------------- recording and modes


@pytest.mark.anyio
async def test_every_question_is_recorded_with_its_answer() -> None:
    answers = CannedAnswers(fields={"confirm": True}, by_message={"Pay": "decline"})
    await answers(CONTEXT, DELETE_FOLDER)
    await answers(CONTEXT, PAY_DEPOSIT)
    with pytest.raises(UnansweredQuestionError):
        await answers(CONTEXT, BOOK_TABLE)

    assert answers.messages == [DELETE_FOLDER.message, PAY_DEPOSIT.message, BOOK_TABLE.message]
    first, second, third = answers.questions
    assert first.context is CONTEXT and first.params is DELETE_FOLDER
    assert first.mode == "form" and first.field_names == ("confirm",)
    assert first.answer == accept(confirm=True)
    assert (
        second.mode == "url" and second.field_names == () and second.answer == ElicitResult(action="decline")
    )
    assert third.answer is None
    assert answers.unanswered == [third]
    with pytest.raises(UnansweredQuestionError, match=r"1 question\(s\) had no canned answer"):
        answers.assert_all_answered()


@pytest.mark.anyio
async def test_the_failure_names_everything_that_was_tried() -> None:
    answers = CannedAnswers(fields={"name": "Ada"}, by_message={"delete": "accept"}, script=[])
    with pytest.raises(UnansweredQuestionError) as failure:
        await answers(CONTEXT, BOOK_TABLE)
    text = str(failure.value)
    assert text.startswith("CannedAnswers has no answer for this question from http://127.0.0.1:8000/mcp:")
    assert "no by_message pattern matches (patterns: 'delete')" in text
    assert "none of the canned fields (name) is in this form" in text
    assert failure.value.question.params is BOOK_TABLE
    with pytest.raises(UnansweredQuestionError, match="no answers were given at all"):
        await CannedAnswers()(CONTEXT, DELETE_FOLDER)


@pytest.mark.anyio
async def test_modes_and_completions() -> None:
    assert CannedAnswers().elicitation_modes == {"form", "url"}
    answers = CannedAnswers(modes=["form"])
    assert answers.elicitation_modes == {"form"}
    await answers.elicitation_complete_callback("pay-B42")
    assert answers.completed_ids == ["pay-B42"]


# -------------------------------------------------------------------------------------------- the fixture


@pytest.mark.anyio
async def test_fixture_makes_watched_answers(canned_answers: CannedAnswersFactory) -> None:
    answers = canned_answers(fields={"confirm": True})
    assert await answers(CONTEXT, DELETE_FOLDER) == accept(confirm=True)
    defaults = canned_answers.accept_defaults()
    assert await defaults(CONTEXT, PAY_DEPOSIT) == ElicitResult(action="accept")
    assert canned_answers.made == [answers, defaults]
    assert canned_answers.unanswered_report() is None


def test_fixture_fails_a_test_whose_question_went_unanswered(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["ui_adapters.pytest_plugin"]\n')
    (tmp_path / "test_swallowed.py").write_text(
        textwrap.dedent(
            """
            import asyncio
            from mcp_client import ClientRequestContext
            from mcp_client.types import ElicitRequestFormParams

            def test_client_swallowed_the_error(canned_answers):
                answers = canned_answers(fields={"confirm": True})
                params = ElicitRequestFormParams(
                    message="Pick a colour", requested_schema={"type": "object", "properties": {}}
                )
                context = ClientRequestContext(
                    server="s", server_info=None, protocol_version="2025-11-25", era="legacy"
                )
                try:
                    asyncio.run(answers(context, params))
                except AssertionError:
                    pass  # as a client would: turned into an error reply the test never looks at
            """
        )
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 elicitation question(s) had no canned answer" in done.stdout
    assert "'Pick a colour'" in done.stdout
