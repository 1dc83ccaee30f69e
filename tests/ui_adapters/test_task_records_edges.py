"""Task records at their edges, in this process and without a server (fast enough for ``bash
scripts/mutants src/ui_adapters/broker/tasks.py src/ui_adapters/broker/_task_keeper.py``): how a damaged
field is shown in the error (its JSON type, the value up to 40 characters), the whole list of outcome
statuses, where a result is wrong, what ``describe_task`` shows, and the log line of a listed record
whose id is not text. ``test_damaged_task_records.py`` has the damaged records beside a live task."""

from __future__ import annotations

import logging
import time
from typing import Any

import anyio
import pytest

from mcp_client import Client, TaskLostError
from ui_adapters import MemoryStore, QuestionBroker, QuestionNotPendingError
from ui_adapters.broker.tasks import DamagedTaskRecordError, StoredTask, TaskOutcome

pytestmark = pytest.mark.anyio

BOUND = 30  # seconds: generous, for a busy machine
FIX = ". Delete that record from the store, or empty the store with purge()"
SAVED = {"format": 1, "taskId": "t", "tool": "ask_name", "status": "working", "askedKeys": {}}


def problem_of(record: Any, stored_as: str | None = None, *, outcome: bool = False) -> str:
    """The ``problem`` a damaged record is refused with; the message checked whole on the way."""
    with pytest.raises(DamagedTaskRecordError) as caught:
        (TaskOutcome if outcome else StoredTask).from_record(record, stored_as)
    error = caught.value
    assert str(error) == f"the stored record of task {error.task_id!r} is damaged: {error.problem}{FIX}"
    return error.problem


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (["a" * 36], "a list (['" + "a" * 36 + "'])"),  # 40 characters: shown
        (["a" * 37], "a list"),  # 41: the type alone
        (1.5, "a number (1.5)"),
        (("a",), "a tuple (('a',))"),  # not JSON (a store of Python objects): named by its type
    ],
)
def test_a_wrong_value_is_shown_by_its_json_type_and_itself_when_short(value: object, shown: str) -> None:
    assert (
        problem_of({"id": "t", "tool": value, "saved": SAVED})
        == f"its 'tool' is {shown}, not a string or null"
    )


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        ({"saved": "t"}, "its 'saved' is a string ('t'), not an object (ToolTask.to_json())"),
        ({"saved": {"tool": "x"}}, "its 'saved' has no 'taskId' (not a ToolTask.to_json())"),
        ({"tool": 1}, "its 'tool' is a number (1), not a string or null"),
        ({"server": None}, "its 'server' is null, not a string"),
        ({"status": None}, "its 'status' is null, not a string"),
        ({"worker": None}, "its 'worker' is null, not a string"),
        ({"worker": {}}, "its 'worker' is an object ({}), not a string"),
    ],
)
@pytest.mark.parametrize("stored_as", ["t", None])
def test_each_refusal_names_the_task_and_says_exactly_what_is_wrong(
    damage: dict[str, Any], problem: str, stored_as: str | None
) -> None:
    with pytest.raises(DamagedTaskRecordError) as caught:
        StoredTask.from_record({"id": "t", "saved": SAVED, **damage}, stored_as)
    assert str(caught.value) == f"the stored record of task 't' is damaged: {problem}{FIX}"
    assert (caught.value.task_id, caught.value.problem) == ("t", problem)


def test_an_empty_status_reads_as_working_and_missing_fields_as_their_defaults() -> None:
    stored = StoredTask.from_record({"id": "t", "status": "", "server": "", "worker": "", "saved": SAVED})
    assert (stored.status, stored.server, stored.worker, stored.tool) == ("working", "", "", None)


def test_the_error_names_the_task_it_was_stored_under_and_the_problem() -> None:
    with pytest.raises(DamagedTaskRecordError) as caught:
        StoredTask.from_record({"id": ("t",), "saved": SAVED}, "t")
    assert (caught.value.task_id, caught.value.problem) == (
        "t",
        "its 'id' is a tuple (('t',)), not a task id (a string)",
    )
    assert isinstance(caught.value, ValueError)
    # Not stored under a known id: the record's own id, or None.
    assert (
        problem_of({"id": "t", "status": 1, "saved": SAVED}) == "its 'status' is a number (1), not a string"
    )
    with pytest.raises(DamagedTaskRecordError) as caught:
        StoredTask.from_record({"saved": SAVED})
    assert caught.value.task_id is None
    with pytest.raises(DamagedTaskRecordError) as caught:
        TaskOutcome.from_record(["t"], "t")  # type: ignore[arg-type]  # JSON from a store
    assert (caught.value.task_id, caught.value.problem) == ("t", "it is a JSON list, not an object")


def test_an_outcome_names_every_status_it_may_have_and_where_its_result_is_wrong() -> None:
    assert problem_of({"id": "t", "status": 5}, "t", outcome=True) == (
        "its 'status' is a number (5), not one of cancelled, completed, failed, lost"
    )
    assert problem_of({"id": "t"}, "t", outcome=True) == "its 'status' is missing"
    with pytest.raises(DamagedTaskRecordError) as caught:
        TaskOutcome.from_record({"id": "t", "status": "lost", "worker": 1})  # not stored under an id
    assert (caught.value.task_id, caught.value.problem) == ("t", "its 'worker' is a number (1), not a string")
    text_without_text = {"content": [{"type": "text"}]}
    assert problem_of({"id": "t", "status": "completed", "result": text_without_text}, "t", outcome=True) == (
        "its 'result' is not a CallToolResult (content.0.text.text: Field required)"
    )
    for status in ("completed", "failed", "cancelled", "lost"):
        outcome = TaskOutcome.from_record({"id": "t", "status": status})
        assert (outcome.status, outcome.tool, outcome.result, outcome.error, outcome.worker) == (
            status, None, None, None, ""
        )  # fmt: skip


def test_what_describe_task_shows_of_a_task_and_of_an_outcome() -> None:
    record = {
        "id": "t",
        "tool": "ask_name",
        "server": "http://h/mcp",
        "status": "input_required",
        "worker": "w",
    }
    stored = StoredTask.from_record({**record, "saved": SAVED, "updated": 1.0}, "t")
    assert stored.to_json() == record  # never the saved ToolTask, nor the time
    assert stored.saved == SAVED
    failed = TaskOutcome.from_record(
        {"id": "t", "tool": "ask_name", "status": "failed", "error": "boom"}, "t"
    )
    assert failed.to_json() == {
        "id": "t",
        "tool": "ask_name",
        "status": "failed",
        "result": None,
        "error": "boom",
        "worker": "",
    }
    result = {"content": [{"type": "text", "text": "Hi"}], "structuredContent": {"a": 1}, "isError": False}
    done = TaskOutcome.from_record({"id": "t", "status": "completed", "result": result}, "t")
    assert done.to_json()["result"] == result  # by alias, nothing added


# ------------------------------------------------------------------------------ through the broker


async def test_a_listed_record_whose_id_is_not_text_is_logged_without_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = MemoryStore()
    broker = QuestionBroker(store=store)
    caplog.set_level(logging.WARNING, logger="ui_adapters.broker")
    with anyio.fail_after(BOUND):
        async with broker:
            await store.put_record("task", "a", {"id": 7, "saved": SAVED})
            await store.put_record("task", "b", {"id": "", "saved": SAVED})
            await store.put_record("task", "c", {"id": "c", "saved": {**SAVED, "taskId": "c"}, "worker": "w"})
            for _ in range(2):
                assert [task.id for task in await broker.stored_tasks()] == ["c"]
            assert await broker.describe_task("c") == {
                "id": "c", "tool": None, "server": "", "status": "working", "worker": "w"
            }  # fmt: skip
            assert await broker.describe_task("nobody") is None  # looked for twice, then None
            await store.put_record("task", "d", {"id": "e", "saved": {**SAVED, "taskId": "e"}})
            await store.put_record("task-result", "d", {"id": "e", "status": "lost"})
            for ask in (broker.describe_task("d"), broker.resume_task("d", None)):  # type: ignore[arg-type]
                with pytest.raises(DamagedTaskRecordError, match="its 'id' is 'e', another task's"):
                    await ask
            await store.take_record("task-result", "d")
            with pytest.raises(
                DamagedTaskRecordError, match=r"^the stored record of task 'd' is damaged: its 'id' is 'e'"
            ):
                await broker.describe_task("d")
            assert await broker.task_outcome("nobody") is None
            with pytest.raises(QuestionNotPendingError) as missing:
                await broker.resume_task("nobody", None)  # type: ignore[arg-type]  # never reached
    logged = [record.getMessage() for record in caplog.records if "task record" in record.getMessage()]
    assert logged == [  # one line for both: neither id is text to name it by
        f"{store!r}: the task record '(no id)' in the store cannot be read (its 'id' is a number (7), not a "
        "task id (a string)); it is skipped. Delete that entry, or empty the store with purge()",
    ]
    assert str(missing.value) == (
        "no task has the id 'nobody' in the store: it ended already (see task_outcome), it expired, or the "
        "id is wrong"
    )


async def test_a_tasks_record_holds_what_another_worker_needs_and_no_credentials(
    fastmcp_tasks_url: str,
) -> None:
    """What ``track_task`` stores (``task_record``): read from the store as another worker reads it."""
    store = MemoryStore()
    broker = QuestionBroker(store=store, lease=5)
    secret_url = fastmcp_tasks_url.replace("http://", "http://user:pa55word@")
    with anyio.fail_after(BOUND * 2):
        async with broker, Client(secret_url, tasks=True, elicitation_callback=broker) as client:
            before = time.time()
            task = await broker.call_tool(client, "ask_name", {"greeting": "Hi"}, as_task=True)
            assert task.id is not None
            record = await store.get_record("task", task.id)
            assert record is not None
            assert before - 1 <= record.pop("updated") <= time.time() + 1
            assert record == {
                "id": task.id,
                "tool": "ask_name",
                "server": fastmcp_tasks_url,  # without user:pa55word@
                "status": task.status,
                "status_message": task.status_message,
                "worker": broker.worker,
                "saved": {**task.to_json(), "server": fastmcp_tasks_url},
            }
            (listed,) = await broker.stored_tasks()
            assert (listed.id, listed.tool, listed.server, listed.worker) == (
                task.id, "ask_name", fastmcp_tasks_url, broker.worker
            )  # fmt: skip
            feed = aiter(broker)
            question = await anext(feed)
            await feed.aclose()
            await broker.answer(question.id, {"name": "Lin"})
            while await broker.task_outcome(task.id) is None:  # noqa: ASYNC110 - the store has no event
                await anyio.sleep(0.05)


async def test_a_stopped_workers_task_keeps_its_question_for_the_worker_that_resumes_it(
    fastmcp_tasks_url: str,
) -> None:
    """A broker that closes while its client stays open leaves the task's question unanswered (not
    cancelled: the server never hears "cancel"), and ``resume_task`` on another broker asks it again."""
    store = MemoryStore()
    first, second = QuestionBroker(store=store, lease=1.5), QuestionBroker(store=store, lease=1.5)
    with anyio.fail_after(BOUND * 2):
        async with Client(fastmcp_tasks_url, tasks=True, elicitation_callback=first) as client:
            async with first:
                task = await first.call_tool(client, "ask_name", {"greeting": "Hi"}, as_task=True)
                assert task.id is not None
                assert await first.resume_task(task.id, client) is task  # followed here already
                feed = aiter(first)
                await anext(feed)  # the task asks; the worker stops without an answer
                await feed.aclose()
        async with second, Client(fastmcp_tasks_url, tasks=True, elicitation_callback=second) as client:
            while True:  # its claim lives until the first worker's lease ends
                try:
                    resumed = await second.resume_task(task.id, client)
                    break
                except QuestionNotPendingError as exc:
                    assert "which is alive" in str(exc)
                    await anyio.sleep(0.2)
            assert resumed.id == task.id
            feed = aiter(second)
            again = await anext(feed)
            await feed.aclose()
            assert again.context.task_id == task.id and again.message == "What is your name?"
            await second.answer(again.id, {"name": "Lin"})
            outcome = await second.task_outcome(task.id)
            while outcome is None:
                await anyio.sleep(0.05)
                outcome = await second.task_outcome(task.id)
    assert (outcome.status, outcome.worker, outcome.error) == ("completed", second.worker, None)
    assert outcome.result is not None and outcome.result.content[0].text == "Hi, Lin!"  # type: ignore[union-attr]


async def test_a_task_the_server_no_longer_knows_is_stored_as_lost_when_taken_over(
    fastmcp_tasks_url: str,
) -> None:
    store = MemoryStore()
    broker = QuestionBroker(store=store, lease=5)
    saved = {**SAVED, "taskId": "gone-1", "server": fastmcp_tasks_url}
    record = {
        "id": "gone-1",
        "tool": "ask_name",
        "server": fastmcp_tasks_url,
        "worker": "dead",
        "saved": saved,
    }
    with anyio.fail_after(BOUND * 2):
        async with broker, Client(fastmcp_tasks_url, tasks=True, elicitation_callback=broker) as client:
            await store.put_record("task", "gone-1", record)
            with pytest.raises(TaskLostError) as lost:
                await broker.resume_task("gone-1", client)
            outcome = await broker.task_outcome("gone-1")
            assert await broker.stored_tasks() == []  # taken off the store, once
    assert outcome is not None
    assert (outcome.id, outcome.tool, outcome.status, outcome.result, outcome.error, outcome.worker) == (
        "gone-1", "ask_name", "lost", None, str(lost.value), broker.worker
    )  # fmt: skip
    assert outcome.error
