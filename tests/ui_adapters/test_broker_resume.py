"""QuestionBroker releasing 2026-07-28 calls and resuming them later, against the official server.

The guide server's ``delete_folder`` asks through a resolver; its ``requestState`` is sealed with a key
of the server process, so over HTTP any new Client of the same server can resume the call. The tests
close the first Client, store the paused call as JSON, build a new broker from it (an app restart),
answer there, and resume with a second Client.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from mcp_client import Client, InvalidElicitationContentError
from mcp_client.types import CallToolResult, ElicitResult
from ui_adapters import PausedCall, PausedCallNotReadyError, QuestionBroker, QuestionNotPendingError

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"
BOUND = 30


def text_of(result: Any) -> str:
    assert isinstance(result, CallToolResult), result
    return "\n".join(block.text for block in result.content if block.type == "text")


async def test_a_question_answered_after_the_client_closed_is_resumed_by_another(guide_http_url: str) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=MODERN, elicitation_callback=broker) as first:
            paused = await broker.call_tool(first, "delete_folder", {"path": "/srv/old"})
        assert isinstance(paused, PausedCall)
        (question,) = broker.pending()
        assert question.call_id == paused.id and question.to_json()["call_id"] == paused.id
        assert question.message == "Really delete /srv/old? This cannot be undone."
        assert question.server == guide_http_url and question.context.era == "modern"
        assert not paused.ready
        stored = json.dumps(paused.to_json())  # what an app writes to its database

        # The app restarts: a new broker, the paused call restored from storage, the question answered.
        restarted = QuestionBroker()
        call = restarted.restore(json.loads(stored))
        (again,) = restarted.pending()
        assert again.id == question.id and again.call_id == call.id == paused.id
        assert again.form is not None and [f.name for f in again.form.fields] == ["confirm"]
        with pytest.raises(InvalidElicitationContentError):
            await restarted.answer(again.id, {"confirm": "sure"})
        async with Client(guide_http_url, mode=MODERN, elicitation_callback=restarted) as second:
            with pytest.raises(PausedCallNotReadyError, match="Really delete /srv/old"):
                await restarted.resume(call, second)
            await restarted.answer(again.id, {"confirm": True})
            assert call.ready and restarted.pending() == []
            with pytest.raises(QuestionNotPendingError):
                await restarted.decline(again.id)
            result = await restarted.resume(call.id, second)
    assert text_of(result) == "deleted /srv/old"
    assert restarted.paused_calls() == []
    with pytest.raises(QuestionNotPendingError, match="resumed already"):
        await restarted.resume(call.id, second)


async def test_answers_given_before_a_restart_are_kept(guide_http_url: str) -> None:
    """plan_trip asks two questions in one round: one answered, stored, restored, the other answered."""
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=MODERN, elicitation_callback=broker) as client:
            paused = await broker.call_tool(client, "plan_trip", {"destination": "Lisbon"})
            assert isinstance(paused, PausedCall)
            questions = {q.message: q for q in broker.pending()}
            await broker.answer(questions["What is your budget for Lisbon?"].id, {"max_eur": 2000})
            stored = json.dumps(paused.to_json())

            restarted = QuestionBroker()
            call = restarted.restore(json.loads(stored))
            (waiting,) = restarted.pending()
            assert waiting.message == "When do you want to go to Lisbon?"
            await restarted.answer(waiting.id, {"start": "2026-03-01", "nights": 3})
            # A budget of 2000 makes the server ask a second round: the same call, new questions.
            second_round = await restarted.resume(call, client)
            assert isinstance(second_round, PausedCall) and second_round.id == call.id
            (luxury,) = restarted.pending()
            assert luxury.message == "3 nights is long. Confirm you want a 5-star hotel?"
            await restarted.answer(luxury.id, {"confirm": True})
            result = await restarted.resume(second_round, client)
    assert text_of(result) == "Lisbon: 2026-03-01 x3 nights, <= 2000.0 EUR, luxury=True"


async def test_a_declined_paused_question_reaches_the_tool(guide_http_url: str) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=MODERN, elicitation_callback=broker) as client:
            paused = await broker.call_tool(client, "delete_folder", {"path": "/srv/old"})
            assert isinstance(paused, PausedCall)
            await broker.decline(broker.pending()[0].id)
            result = await broker.resume(paused, client)
    assert text_of(result) == "kept /srv/old (outcome: decline)"


async def test_a_call_that_asks_nothing_returns_its_result(guide_http_url: str) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=MODERN, elicitation_callback=broker) as client:
            result = await broker.call_tool(client, "delete_folder", {"path": "/srv/empty"})
    assert text_of(result) == "deleted /srv/empty"
    assert broker.paused_calls() == [] and broker.pending() == []


async def test_in_the_legacy_era_the_call_waits_instead(guide_http_url: str) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode="legacy", elicitation_callback=broker) as client:
            outcome: list[Any] = []

            async def call() -> None:
                outcome.append(await broker.call_tool(client, "delete_folder", {"path": "/srv/old"}))

            async with anyio.create_task_group() as tg:
                tg.start_soon(call)
                async for question in broker:
                    assert question.call_id is None  # pushed: the call waits for it
                    await broker.answer(question.id, {"confirm": True})
                    break
    assert text_of(outcome[0]) == "deleted /srv/old"


async def test_prompts_and_resources_pause_and_resume_too(guide_http_url: str) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=MODERN, elicitation_callback=broker) as client:
            prompt = await broker.get_prompt(client, "trip_prompt", {"destination": "Lisbon"})
            resource = await broker.read_resource(client, "guide://vault/alice")
            assert isinstance(prompt, PausedCall) and isinstance(resource, PausedCall)
            for question in broker.pending():
                await broker.answer(question.id, ElicitResult(action="accept", content={"confirm": True}))
            done_prompt = await broker.resume(prompt, client)
            done_resource = await broker.resume(resource, client)
    assert done_prompt.messages[0].content.text == "Plan a trip to Lisbon with a packing list."  # type: ignore[union-attr]
    assert done_resource.contents[0].text == "secret alice: s3cr3t-alice"  # type: ignore[union-attr]


async def test_close_keeps_paused_questions(guide_http_url: str) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=MODERN, elicitation_callback=broker) as client:
            paused = await broker.call_tool(client, "delete_folder", {"path": "/srv/old"})
    broker.close()
    assert isinstance(paused, PausedCall)
    assert [q.status for q in paused.questions.values()] == ["pending"]
    assert json.loads(json.dumps(paused.to_json()))["questions"][0]["status"] == "pending"


def test_a_description_that_is_not_a_paused_call_is_refused() -> None:
    with pytest.raises(ValueError, match="not a PausedCall"):
        PausedCall.from_json({"format": 1, "method": "tools/call"})
    with pytest.raises(ValueError, match="not a PausedCall"):
        PausedCall.from_json({"method": "sampling/createMessage"})
