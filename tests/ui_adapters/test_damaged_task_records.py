"""Task records in the store that no broker could have written (a damaged SQLite row, a foreign key in a
shared Redis, a hand edit): one is skipped where tasks are listed or taken over, logged once per worker,
and named with what is wrong where a task is asked for by its id; the good tasks beside it go on.

Before, ``stored_tasks()`` raised ``KeyError``/``TypeError`` for every worker, ``task_outcome`` and
``describe_task`` raised from deep inside (``KeyError``, pydantic), and a worker's lease renewal
(``adopt_tasks``) failed on the record each time, so the good tasks listed after it were never taken
over when their worker died; the example web app answered 500 with a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from mcp_client import Client
from tests.ui_adapters.test_stored_tasks import BOUND, finished, text_of, worker
from ui_adapters import QuestionBroker, SqliteStore
from ui_adapters.broker.stores import QuestionStore
from ui_adapters.broker.tasks import DamagedTaskRecordError, StoredTask, TaskOutcome

pytestmark = pytest.mark.anyio

LEASE = 1.5  # seconds: the heir looks for dead workers' tasks every half second
FIX = ". Delete that record from the store, or empty the store with purge()"


def saved(task_id: str) -> dict[str, Any]:
    """A ``ToolTask.to_json()`` as a broker stores it."""
    return {"format": 1, "taskId": task_id, "tool": "ask_name", "status": "working", "askedKeys": {}}


def damaged_tasks(server: str) -> dict[str, dict[str, Any]]:
    """``"task"`` records of a dead worker, for ``server``, each wrong in one field (by the key they are
    stored under; ids that sort before any real task's, so a store lists them first)."""
    good = {"tool": "ask_name", "server": server, "status": "working", "worker": "gone"}
    return {
        "-no-id": {**good, "saved": saved("-no-id")},
        "-bad-saved": {**good, "id": "-bad-saved", "saved": ["-bad-saved"]},
        "-bad-tool": {**good, "id": "-bad-tool", "tool": 7, "saved": saved("-bad-tool")},
    }


DAMAGED_OUTCOMES = {
    "-no-status": {"id": "-no-status", "tool": "ask_name", "result": None, "error": None, "worker": "gone"},
    "-bad-result": {"id": "-bad-result", "tool": "ask_name", "status": "completed", "result": {"content": 1}},
}


def _warnings(caplog: pytest.LogCaptureFixture, about: str) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == "ui_adapters.broker"
        and record.levelname == "WARNING"
        and about in record.getMessage()
    ]


async def test_damaged_task_records_are_skipped_named_and_do_not_stop_a_take_over(
    shared_stores: Callable[[], QuestionStore], fastmcp_tasks_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    planter = shared_stores()
    await planter.open()
    caplog.set_level(logging.WARNING, logger="ui_adapters.broker")
    try:
        with anyio.fail_after(BOUND):
            starter = QuestionBroker(store=shared_stores(), lease=LEASE)
            async with starter, Client(fastmcp_tasks_url, tasks=True, elicitation_callback=starter) as client:
                for key, record in damaged_tasks(client.server).items():  # planted before the good task
                    await planter.put_record("task", key, record)
                for key, record in DAMAGED_OUTCOMES.items():
                    await planter.put_record("task-result", key, record)
                task = await starter.call_tool(client, "ask_name", {"greeting": "Hi"}, as_task=True)
                assert task.id is not None
                for _ in range(2):  # listed twice: logged once
                    assert [listed.id for listed in await starter.stored_tasks()] == [task.id]
                feed = aiter(starter)
                first = await anext(feed)  # the task asks; then its worker stops without an answer
                await feed.aclose()
            assert len(_warnings(caplog, "task record '-bad-saved'")) == 1

            # Another worker takes the stopped worker's task over, past the damaged records beside it.
            heir = QuestionBroker(store=shared_stores(), lease=LEASE)
            async with heir, Client(fastmcp_tasks_url, tasks=True, elicitation_callback=heir) as client:
                heir.adopt_tasks(client)
                feed = aiter(heir)
                with anyio.fail_after(30):  # the old code never got past the damaged records
                    again = await anext(feed)
                    while again.id == first.id:
                        again = await anext(feed)
                await feed.aclose()
                assert again.context.task_id == task.id and again.message == "What is your name?"
                await heir.answer(again.id, {"name": "Lin"})
                outcome = await finished(heir, task.id)  # the heir finishes it, in its own time
                assert (outcome.status, outcome.worker) == ("completed", heir.worker)
                assert text_of(outcome.result) == "Hi, Lin!"
                assert await heir.stored_tasks() == []  # the damaged ones are skipped, not listed

                # Asked for by id: a ValueError naming the task, the field and the fix.
                with pytest.raises(ValueError) as caught:
                    await heir.task_outcome("-bad-result")
                assert str(caught.value) == (
                    "the stored record of task '-bad-result' is damaged: its 'result' is not a "
                    "CallToolResult (content: Input should be a valid list)" + FIX
                )
                with pytest.raises(
                    DamagedTaskRecordError, match=r"^the stored record of task '-no-status' is "
                ):
                    await heir.describe_task("-no-status")
                for task_id, problem in [
                    ("-no-status", "its 'status' is missing"),
                    ("-no-id", "its 'id' is missing"),
                    (
                        "-bad-saved",
                        "its 'saved' is a list (['-bad-saved']), not an object (ToolTask.to_json())",
                    ),
                    ("-bad-tool", "its 'tool' is a number (7), not a string or null"),
                ]:
                    with pytest.raises(ValueError) as caught:
                        await heir.describe_task(task_id)
                    assert (
                        str(caught.value)
                        == f"the stored record of task {task_id!r} is damaged: {problem}{FIX}"
                    )
                with pytest.raises(ValueError, match="'-bad-saved' is damaged: its 'saved' is a list"):
                    await heir.resume_task("-bad-saved", client)
                described = await heir.describe_task(task.id)
                assert described is not None and described["status"] == "completed"
    finally:
        await planter.purge()
        await planter.close()
    # Each damaged task record: logged once by each worker (the starter's listing; the heir's look at
    # every lease renewal and its listing), with what is wrong; the lease renewal never failed.
    logged = (
        f"{starter.store!r}: the task record '-bad-saved' in the store cannot be read (its 'saved' is a list "
        "(['-bad-saved']), not an object (ToolTask.to_json())); it is skipped. Delete that entry, or empty "
        "the store with purge()"
    )
    assert _warnings(caplog, "task record '-bad-saved'") == [logged, logged]  # the starter, the heir
    assert len(_warnings(caplog, "task record '-bad-tool'")) == 2
    assert (
        len(_warnings(caplog, "task record '(no id)' in the store cannot be read (its 'id' is missing)")) == 2
    )
    assert _warnings(caplog, "lease renewal or sweep failed") == []
    assert _warnings(caplog, "taking over task") == []  # no damaged task was claimed or tried


# ------------------------------------------------------------------ from_record, field by field


@pytest.mark.parametrize(
    ("record", "stored_as", "message"),
    [
        ({"saved": saved("t")}, "t", "'t' is damaged: its 'id' is missing"),
        ({"id": "", "saved": saved("t")}, None, "None is damaged: its 'id' is missing"),
        ({"id": 7, "saved": saved("t")}, "t", "'t' is damaged: its 'id' is a number (7), not a task id"),
        ({"id": "u", "saved": saved("u")}, "t", "'t' is damaged: its 'id' is 'u', another task's"),
        ({"id": "t"}, None, "'t' is damaged: its 'saved' (ToolTask.to_json()) is missing"),
        ({"id": "t", "saved": "t"}, None, "its 'saved' is a string ('t'), not an object"),
        ({"id": "t", "saved": {"tool": "x"}}, None, "its 'saved' has no 'taskId'"),
        ({"id": "t", "tool": ["x"], "saved": saved("t")}, None, "its 'tool' is a list (['x']), not a string"),
        ({"id": "t", "server": None, "saved": saved("t")}, None, "its 'server' is null, not a string"),
        ({"id": "t", "status": 1, "saved": saved("t")}, None, "its 'status' is a number (1), not a string"),
        (
            {"id": "t", "worker": {}, "saved": saved("t")},
            None,
            "its 'worker' is an object ({}), not a string",
        ),
        (["t"], None, "None is damaged: it is a JSON list, not an object"),
    ],
)
def test_a_task_record_of_another_shape_is_a_value_error_naming_the_task_and_field(
    record: Any, stored_as: str | None, message: str
) -> None:
    with pytest.raises(ValueError, match=r"^the stored record of task ") as caught:
        StoredTask.from_record(record, stored_as)
    assert message in str(caught.value) and str(caught.value).endswith(FIX)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"status": "completed"}, "its 'id' is missing"),
        ({"id": "t"}, "its 'status' is missing"),
        ({"id": "t", "status": "done"}, "its 'status' is a string ('done'), not one of cancelled, completed"),
        ({"id": "t", "status": "completed", "result": []}, "its 'result' is not a CallToolResult (itself:"),
        ({"id": "t", "status": "failed", "error": 3}, "its 'error' is a number (3), not a string or null"),
        ({"id": "t", "status": "lost", "tool": True}, "its 'tool' is a boolean (True), not a string or null"),
    ],
)
def test_an_outcome_record_of_another_shape_is_a_value_error_naming_the_task_and_field(
    record: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=r"^the stored record of task 't' is damaged: ") as caught:
        TaskOutcome.from_record(record, "t")
    assert message in str(caught.value)


def test_records_a_broker_writes_still_load_and_missing_optional_fields_take_their_defaults() -> None:
    full = {"id": "t", "tool": "ask_name", "server": "http://h/mcp", "status": "input_required"}
    stored = StoredTask.from_record({**full, "worker": "w", "saved": saved("t"), "updated": 1.0}, "t")
    assert stored == StoredTask("t", "ask_name", "http://h/mcp", "input_required", "w", saved("t"))
    assert StoredTask.from_record({"id": "t", "saved": saved("t")}) == StoredTask(
        "t", None, "", "working", "", saved("t")
    )
    result = {"content": [{"type": "text", "text": "Hi"}], "isError": False}
    outcome = TaskOutcome.from_record({"id": "t", "status": "completed", "result": result, "worker": "w"})
    assert (outcome.status, outcome.worker, outcome.error, text_of(outcome.result)) == (
        "completed",
        "w",
        None,
        "Hi",
    )
    back = TaskOutcome.from_record(outcome.to_json(), "t")
    assert back == outcome


# ------------------------------------------------------------------------------ the example web app


@pytest.mark.slow
async def test_the_web_apps_task_page_answers_a_damaged_record_with_its_message(
    tmp_path: Path, fastmcp_tasks_url: str
) -> None:
    pytest.importorskip("uvicorn", reason="the web-app example's server is not installed")
    store = SqliteStore(tmp_path / "tasks.db")
    await store.open()
    try:
        await store.put_record("task-result", "-bad-result", DAMAGED_OUTCOMES["-bad-result"])
        await store.put_record("task", "-bad-saved", damaged_tasks(fastmcp_tasks_url)["-bad-saved"])
    finally:
        await store.close()
    with worker(fastmcp_tasks_url, f"sqlite://{tmp_path / 'tasks.db'}") as url:
        async with httpx.AsyncClient(timeout=BOUND) as http:
            reply = await http.get(f"{url}/api/tasks/-bad-result")
            assert reply.status_code == 500
            assert reply.json() == {
                "error": "the stored record of task '-bad-result' is damaged: its 'result' is not a "
                "CallToolResult (content: Input should be a valid list)" + FIX
            }
            reply = await http.get(f"{url}/api/tasks/-bad-saved")
            assert reply.status_code == 500 and "its 'saved' is a list" in reply.json()["error"]
            listed = await http.get(f"{url}/api/tasks")
            assert (listed.status_code, listed.json()) == (200, [])
