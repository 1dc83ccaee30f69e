"""QuestionBroker against the official server (tests/servers/guide_server.py), in both protocol eras.

The app side is played by the test: it reads questions the way an app would (``async for question in
broker`` or ``broker.pending()``) and answers them from another task while the tool call waits.
``delete_folder`` asks in both eras (a ``Resolve`` resolver: pushed in legacy, returned in
2026-07-28); ``book_table`` and ``pay_deposit`` ask through the legacy back-channel; ``plan_trip``
asks two questions at once in one 2026-07-28 round.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest

from mcp_client import Client, InvalidElicitationContentError
from mcp_client.types import ElicitResult
from ui_adapters import MemoryStore, PendingQuestion, QuestionBroker, QuestionNotPendingError
from ui_adapters.broker._question_record import question_from_entry, question_record

pytestmark = pytest.mark.anyio

BOUND = 30  # seconds for a whole conversation with the server


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


class Call:
    """A tool call run in the background, as a web app runs it while the question waits for a person."""

    def __init__(self, client: Client, name: str, arguments: dict[str, Any]) -> None:
        self.client, self.name, self.arguments = client, name, arguments
        self.text: str | None = None

    async def run(self) -> None:
        self.text = text_of(await self.client.call_tool(self.name, self.arguments))


async def next_question(broker: QuestionBroker) -> PendingQuestion:
    async for question in broker:
        return question
    raise AssertionError("the broker was closed")


@asynccontextmanager
async def asking(
    broker: QuestionBroker, client: Client, name: str, arguments: dict[str, Any]
) -> AsyncIterator[tuple[Call, PendingQuestion]]:
    """The tool call running in a task group of its own, and its first question: the block answers it,
    and leaving the block waits for the call to end."""
    call = Call(client, name, arguments)
    async with anyio.create_task_group() as tg:
        tg.start_soon(call.run)
        yield call, await next_question(broker)


@pytest.mark.parametrize(
    ("act", "expected"),
    [
        ("accept", "deleted /srv/photos"),
        ("accept-false", "kept /srv/photos (not confirmed)"),
        ("decline", "kept /srv/photos (outcome: decline)"),
        ("cancel", "kept /srv/photos (outcome: cancel)"),
    ],
)
async def test_answer_decline_cancel_reach_the_tool(
    guide_http_url: str, era: str, act: str, expected: str
) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=era, elicitation_callback=broker) as client:
            async with asking(broker, client, "delete_folder", {"path": "/srv/photos"}) as (call, question):
                assert broker.pending() == [question]
                if act == "accept":
                    await broker.answer(question.id, {"confirm": True})
                elif act == "accept-false":
                    await broker.answer(
                        question.id, ElicitResult(action="accept", content={"confirm": False})
                    )
                elif act == "decline":
                    await broker.decline(question.id)
                else:
                    await broker.cancel(question.id)
    assert call.text == expected
    assert broker.pending() == []
    assert (
        question.status
        == {
            "accept": "answered",
            "accept-false": "answered",
            "decline": "declined",
            "cancel": "cancelled",
        }[act]
    )


async def test_the_question_describes_itself(guide_http_url: str, era: str) -> None:
    broker = QuestionBroker(timeout=600)
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=era, elicitation_callback=broker) as client:
            async with asking(broker, client, "delete_folder", {"path": "/srv/photos"}) as (call, question):
                description = json.loads(json.dumps(question.to_json()))  # plain JSON, as a browser gets it
                await broker.answer(question.id, {"confirm": True})
    assert len(question.id) >= 16
    assert question.id.replace("-", "").replace("_", "").isalnum()
    assert question.server == guide_http_url == client.server
    assert question.server_name == "elicitation-research"
    assert question.message == "Really delete /srv/photos? This cannot be undone."
    assert question.mode == "form" and question.url is None
    assert question.form is not None and [f.name for f in question.form.fields] == ["confirm"]
    assert question.context.era == ("legacy" if era == "legacy" else "modern")
    assert question.expires_at is not None and question.expires_at > question.created_at
    assert description == {
        "id": question.id,
        "kind": "question",
        "server": guide_http_url,
        "server_name": "elicitation-research",
        "mode": "form",
        "message": "Really delete /srv/photos? This cannot be undone.",
        "status": "pending",
        "created_at": description["created_at"],
        "expires_at": description["expires_at"],
        "question_index": 1,
        "question_count": 1,
        "call_id": None,
        "task_id": None,
        "tool_name": "delete_folder",
        "url": None,
        "form": {
            "confirmation": False,
            "fields": [
                {
                    "name": "confirm",
                    "kind": "boolean",
                    "label": "Confirm",
                    "help": "Tick to confirm deletion",
                    "required": True,
                    "default": None,
                    "min_length": None,
                    "max_length": None,
                    "minimum": None,
                    "maximum": None,
                    "min_items": None,
                    "max_items": None,
                    "options": [],
                }
            ],
        },
    }
    assert description["created_at"].endswith("Z") and description["expires_at"].endswith("Z")
    assert call.text == "deleted /srv/photos"


async def test_a_stored_question_keeps_the_call_that_asks_and_older_records_still_load(
    guide_http_url: str,
) -> None:
    broker = QuestionBroker(timeout=600)
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode="2026-07-28", elicitation_callback=broker) as client:
            async with asking(broker, client, "delete_folder", {"path": "/srv/photos"}) as (_call, question):
                record = json.loads(json.dumps(question_record(question, 600)))  # as a store keeps it
                await broker.answer(question.id, {"confirm": True})
    loaded = question_from_entry({"record": record, "status": "pending"})
    assert loaded.context.tool_name == "delete_folder" and loaded.to_json()["tool_name"] == "delete_folder"
    for key in ("tool_name", "config_name"):  # a record written before these keys were kept
        del record["context"][key]
    older = question_from_entry({"record": record, "status": "pending"})
    assert older.context.tool_name is None and older.to_json()["tool_name"] is None
    assert older.server_name == "elicitation-research"


async def test_a_question_nobody_answers_is_cancelled_after_the_timeout(
    guide_http_url: str, era: str
) -> None:
    broker = QuestionBroker(timeout=2)  # long enough for the watcher to see it on a loaded machine
    seen: list[PendingQuestion] = []

    async def watch() -> None:
        async for question in broker:
            seen.append(question)

    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=era, elicitation_callback=broker) as client:
            async with anyio.create_task_group() as tg:
                tg.start_soon(watch)
                result = await client.call_tool("delete_folder", {"path": "/srv/photos"})
                tg.cancel_scope.cancel()
    assert text_of(result) == "kept /srv/photos (outcome: cancel)"
    (question,) = seen
    assert question.status == "timed-out"
    assert question.result == ElicitResult(action="cancel")
    assert broker.pending() == []
    with pytest.raises(QuestionNotPendingError, match="no pending question"):
        await broker.answer(question.id, {"confirm": True})


async def test_an_invalid_answer_is_refused_and_the_question_stays_open(
    guide_http_url: str, era: str
) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=era, elicitation_callback=broker) as client:
            async with asking(broker, client, "delete_folder", {"path": "/srv/photos"}) as (call, question):
                with pytest.raises(InvalidElicitationContentError, match="'confirm'") as wrong_type:
                    await broker.answer(question.id, {"confirm": "yes please"})
                assert wrong_type.value.rule == "type"
                with pytest.raises(InvalidElicitationContentError, match="required field 'confirm'"):
                    await broker.answer(question.id, {})
                with pytest.raises(InvalidElicitationContentError, match="'shred'") as unknown:
                    await broker.answer(question.id, {"confirm": True, "shred": True})
                assert unknown.value.rule == "additionalProperties"
                assert question.is_pending and broker.pending() == [question]
                assert call.text is None  # nothing was sent: the call still waits
                await broker.answer(question.id, {"confirm": True})
                with pytest.raises(QuestionNotPendingError):
                    await broker.decline(question.id)  # answered once is answered
    assert call.text == "deleted /srv/photos"


async def test_defaults_are_filled_in_before_the_answer_is_sent(guide_http_url: str) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode="legacy", elicitation_callback=broker) as client:
            async with asking(broker, client, "book_table", {"date": "2025-12-25", "party_size": 2}) as (
                call,
                question,
            ):
                assert question.form is not None
                assert question.form.field("date").default == "2025-12-26"
                await broker.answer(question.id, {"accept_alternative": True})
    assert question.result == ElicitResult(
        action="accept", content={"accept_alternative": True, "date": "2025-12-26"}
    )
    assert call.text == "[SUCCESS] Booked for 2025-12-26"


async def test_many_concurrent_questions_reach_the_calls_that_asked(guide_http_url: str, era: str) -> None:
    """Twelve calls wait at once; each answer must go back into the call whose question it answers."""
    broker = QuestionBroker()
    paths = [f"/srv/folder-{n}" for n in range(12)]
    answered: list[str] = []

    async def answer_each() -> None:
        async for question in broker:
            path = question.message.removeprefix("Really delete ").split("?")[0]
            number = int(path.rsplit("-", 1)[1])
            if number % 3 == 0:
                await broker.answer(question.id, {"confirm": True})
            elif number % 3 == 1:
                await broker.decline(question.id)
            else:
                await broker.cancel(question.id)
            answered.append(path)

    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=era, elicitation_callback=broker) as client:
            calls = [Call(client, "delete_folder", {"path": path}) for path in paths]
            async with anyio.create_task_group() as app:
                app.start_soon(answer_each)
                async with anyio.create_task_group() as tg:
                    for call in calls:
                        tg.start_soon(call.run)
                app.cancel_scope.cancel()
    expected = [
        f"deleted {p}" if n % 3 == 0 else f"kept {p} (outcome: {'decline' if n % 3 == 1 else 'cancel'})"
        for n, p in enumerate(paths)
    ]
    assert [call.text for call in calls] == expected
    assert sorted(answered) == sorted(paths)


async def test_two_questions_of_one_round_are_pending_together(guide_http_url: str) -> None:
    """A 2026-07-28 round with two questions (plan_trip's dates and budget): both wait side by side."""
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode="2026-07-28", elicitation_callback=broker) as client:
            call = Call(client, "plan_trip", {"destination": "Lisbon"})
            async with anyio.create_task_group() as tg:
                tg.start_soon(call.run)
                arrived: list[PendingQuestion] = []
                async for question in broker:
                    arrived.append(question)
                    if len(arrived) == 2:
                        break
                assert sorted(broker.pending(), key=id) == sorted(arrived, key=id)
                questions = {q.message: q for q in arrived}
                assert sorted(q.context.question_count for q in questions.values()) == [2, 2]
                await broker.answer(questions["What is your budget for Lisbon?"].id, {"max_eur": 500})
                await broker.answer(
                    questions["When do you want to go to Lisbon?"].id, {"start": "2026-03-01", "nights": 3}
                )
    assert call.text == "Lisbon: 2026-03-01 x3 nights, <= 500.0 EUR, luxury=False"


async def test_a_url_question_in_the_legacy_era(guide_http_url: str) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode="legacy", elicitation_callback=broker) as client:
            async with asking(broker, client, "pay_deposit", {"booking_id": "b42"}) as (call, question):
                description = question.to_json()
                with pytest.raises(InvalidElicitationContentError, match="URL question"):
                    await broker.answer(question.id, {"paid": True})
                await broker.answer(question.id, ElicitResult(action="accept"))
    assert question.mode == "url" and question.form is None
    assert question.url == "https://pay.example.com/deposit?booking=b42"
    assert question.elicitation_id == "pay-b42"
    assert description["url"] == question.url
    assert description["url_host"] == "pay.example.com"
    assert description["url_warnings"] == [] and description["url_refusal"] is None
    assert description["form"] is None
    assert call.text == "pay_deposit outcome: accept (elicitation_id=pay-b42)"


async def test_a_cancelled_call_withdraws_its_question(guide_http_url: str) -> None:
    """2026-07-28: the question lives inside the call, so cancelling the call takes it away.

    (In the legacy era the server holds the question, and only its own ``notifications/cancelled`` or
    closing the client withdraws it: see the next test.)
    """
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode="2026-07-28", elicitation_callback=broker) as client:
            async with anyio.create_task_group() as tg:
                tg.start_soon(Call(client, "delete_folder", {"path": "/srv/photos"}).run)
                question = await next_question(broker)
                tg.cancel_scope.cancel()
            assert question.status == "withdrawn"
            assert broker.pending() == []
            with pytest.raises(QuestionNotPendingError):
                await broker.answer(question.id, {"confirm": True})
            # the client and the broker both carry on
            call = Call(client, "delete_folder", {"path": "/srv/other"})
            async with anyio.create_task_group() as tg:
                tg.start_soon(call.run)
                await broker.answer((await next_question(broker)).id, {"confirm": True})
    assert call.text == "deleted /srv/other"


async def test_closing_the_client_withdraws_its_questions(guide_http_url: str, era: str) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with anyio.create_task_group() as tg:
            async with Client(guide_http_url, mode=era, elicitation_callback=broker) as client:
                tg.start_soon(Call(client, "delete_folder", {"path": "/srv/photos"}).run)
                question = await next_question(broker)
                tg.cancel_scope.cancel()
    assert question.status == "withdrawn"
    assert question.result is None
    assert broker.pending() == []
    with pytest.raises(QuestionNotPendingError):
        await broker.answer(question.id, {"confirm": True})


async def test_every_loop_sees_questions_already_waiting(guide_http_url: str) -> None:
    broker = QuestionBroker()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode="2026-07-28", elicitation_callback=broker) as client:
            call = Call(client, "delete_folder", {"path": "/srv/photos"})
            async with anyio.create_task_group() as tg:
                tg.start_soon(call.run)
                first = await next_question(broker)
                second = await next_question(broker)  # a loop started later sees the same question
                assert first is second
                await broker.decline(first.id)
    assert call.text == "kept /srv/photos (outcome: decline)"


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_close_cancels_waiting_questions_and_ends_the_loops(guide_http_url: str) -> None:
    broker = QuestionBroker()
    loop_ended = anyio.Event()

    async def watch() -> None:
        async for _question in broker:
            pass
        loop_ended.set()

    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode="legacy", elicitation_callback=broker) as client:
            call = Call(client, "delete_folder", {"path": "/srv/photos"})
            async with anyio.create_task_group() as tg:
                tg.start_soon(watch)
                tg.start_soon(call.run)
                await next_question(broker)
                broker.close()
                await loop_ended.wait()
            later = await client.call_tool("delete_folder", {"path": "/srv/later"})
    assert call.text == "kept /srv/photos (outcome: cancel)"
    assert text_of(later) == "kept /srv/later (outcome: cancel)"


async def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="timeout"):
        QuestionBroker(timeout=0)
    broker = QuestionBroker()
    with pytest.raises(QuestionNotPendingError, match="'nope'"):
        await broker.answer("nope", {})
    with pytest.raises(QuestionNotPendingError):
        await broker.cancel("nope")


@pytest.mark.parametrize("lease", [0, 0.0, -1.0, float("nan"), float("inf"), True, "10", None])
def test_a_lease_that_is_not_a_positive_number_of_seconds_is_refused(lease: object) -> None:
    """Issue 42: ``lease=0`` or ``nan`` would end this worker's lease at once (its questions withdrawn
    as a dead worker's); refused with a ValueError naming the value."""
    with pytest.raises(ValueError, match=rf"^lease must be a positive number of seconds; got {lease!r} "):
        QuestionBroker(store=MemoryStore(), lease=lease)  # type: ignore[arg-type]


@pytest.mark.parametrize("timeout", [0, -5, float("nan"), float("inf"), False, "30"])
def test_a_timeout_that_is_not_a_positive_number_of_seconds_is_refused(timeout: object) -> None:
    with pytest.raises(ValueError, match=r"^timeout must be a positive number of seconds or None; got "):
        QuestionBroker(timeout=timeout)  # type: ignore[arg-type]


def test_a_short_lease_and_timeout_are_taken() -> None:
    broker = QuestionBroker(timeout=0.5, store=MemoryStore(), lease=0.001)
    assert (broker.timeout, broker.lease) == (0.5, 0.001)
