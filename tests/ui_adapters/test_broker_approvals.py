"""QuestionBroker as an approval_callback (issue 45 §2): the approval is a pending item beside the server's
questions, answered by the app (any worker, any process) with an ApprovalResult.

The peer is tests/servers/approvals_server.py (its ``ran`` tool says which calls reached it). An
approval answered allow lets the call through; deny (or a timeout) raises ``ToolCallDenied`` and the
server never runs the tool. Across processes: a real second Python process
(``approval_worker_script.py``) makes the call on a SQLite file or on Redis, and this process's broker,
on the same store, lists the approval and answers it. A broker's store as ``approval_store`` keeps
"always" for the next process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

import ui_adapters
from mcp_client import ApprovalResult, Client, ToolCallDenied, ToolPolicy
from mcp_client.types import ElicitResult
from tests.ui_adapters._approval_helpers import ran, text_of
from ui_adapters import MemoryStore, QuestionBroker, QuestionNotPendingError, SqliteStore
from ui_adapters.broker.approval import PendingApproval

pytestmark = pytest.mark.anyio

BOUND = 60
WORKER = Path(__file__).with_name("approval_worker_script.py")
ROOT = Path(__file__).resolve().parents[2]
SRC = Path(ui_adapters.__file__).resolve().parents[1]


async def next_item(broker: QuestionBroker) -> Any:
    async for item in broker:
        return item
    raise AssertionError("the broker was closed")


class Outcome:
    def __init__(self) -> None:
        self.text: str | None = None
        self.denied: ToolCallDenied | None = None


async def run_call(client: Client, tool: str, arguments: dict[str, Any], outcome: Outcome) -> None:
    try:
        outcome.text = text_of(await client.call_tool(tool, arguments))
    except ToolCallDenied as exc:
        outcome.denied = exc


async def test_an_allowed_approval_lets_the_call_reach_the_server(approvals_url: str) -> None:
    broker = QuestionBroker(timeout=600)
    outcome = Outcome()
    with anyio.fail_after(BOUND):
        async with Client(approvals_url, approval_callback=broker, tool_policy=ToolPolicy()) as client:
            async with anyio.create_task_group() as tg:
                tg.start_soon(run_call, client, "write_note", {"text": "hello"}, outcome)
                item = await next_item(broker)
                assert broker.pending() == [item]
                assert item.kind == "approval" and isinstance(item, PendingApproval)
                assert item.request.tool == "write_note"
                assert dict(item.request.arguments) == {"text": "hello"}
                assert item.request.annotations == {"readOnlyHint": False, "destructiveHint": False}
                assert "does not mark it read-only" in item.request.reason
                assert outcome.text is None  # the call waits for the decision
                await broker.answer(item.id, ApprovalResult(decision="allow"))
    assert outcome.text == "ran write_note"
    assert item.status == "allowed" and broker.pending() == []
    with pytest.raises(QuestionNotPendingError):
        await broker.answer(item.id, ApprovalResult(decision="deny"))


async def test_a_denied_approval_never_reaches_the_server_and_the_note_is_told(approvals_url: str) -> None:
    broker = QuestionBroker(timeout=600)
    outcome = Outcome()
    before = await ran(approvals_url)
    with anyio.fail_after(BOUND):
        async with Client(approvals_url, approval_callback=broker, tool_policy=ToolPolicy()) as client:
            async with anyio.create_task_group() as tg:
                tg.start_soon(run_call, client, "drop_notes", {}, outcome)
                item = await next_item(broker)
                await broker.answer(item.id, {"decision": "deny", "note": "not the notes!"})
    assert outcome.denied is not None and outcome.denied.note == "not the notes!"
    assert item.status == "denied"
    assert await ran(approvals_url) == before  # drop_notes never ran


async def test_an_approval_is_not_answered_like_a_question_nor_a_question_like_an_approval(
    approvals_url: str,
) -> None:
    broker = QuestionBroker(timeout=600)
    outcome = Outcome()
    with anyio.fail_after(BOUND):
        async with Client(approvals_url, approval_callback=broker, tool_policy=ToolPolicy()) as client:
            async with anyio.create_task_group() as tg:
                tg.start_soon(run_call, client, "plain", {"text": "x"}, outcome)
                item = await next_item(broker)
                with pytest.raises(TypeError, match="approval: answer it with ApprovalResult"):
                    await broker.answer(item.id, ElicitResult(action="accept", content={}))
                with pytest.raises(ValueError, match="decision is 'allow' or 'deny'"):
                    await broker.answer(item.id, {"decision": "yes"})
                assert item.is_pending  # still waiting for a real decision
                await broker.decline(item.id)  # the page's "no": a denial
    assert outcome.denied is not None and item.status == "denied"


async def test_an_approval_nobody_answers_is_denied_when_the_timeout_ends(approvals_url: str) -> None:
    broker = QuestionBroker(timeout=0.5)
    outcome = Outcome()
    with anyio.fail_after(BOUND):
        async with Client(approvals_url, approval_callback=broker, tool_policy=ToolPolicy()) as client:
            await run_call(client, "plain", {"text": "x"}, outcome)
    assert outcome.denied is not None and outcome.denied.note == "nobody answered within 0.5s"
    # Nobody decided: the refusal does not say the user refused it.
    assert str(outcome.denied).endswith("not sent to the server: nobody decided: nobody answered within 0.5s")
    assert (outcome.denied.by_user, outcome.denied.unanswered) == (False, True)


async def test_the_approval_as_json_beside_a_question_shape() -> None:
    from tests.ui_adapters._approval_helpers import CONTEXT, hostile

    broker = QuestionBroker(timeout=600)
    result: list[ApprovalResult] = []

    async def approve() -> None:
        result.append(await broker(CONTEXT, hostile()))

    with anyio.fail_after(BOUND):
        async with anyio.create_task_group() as tg:
            tg.start_soon(approve)
            item = await next_item(broker)
            shown = json.loads(json.dumps(item.to_json()))
            await broker.answer(item.id, ApprovalResult(decision="deny"))
    assert result == [ApprovalResult(decision="deny")]
    assert set(shown) == {
        "id",
        "kind",
        "status",
        "created_at",
        "expires_at",
        "call_id",
        "server",
        "server_name",
        "approval",
    }
    assert shown["kind"] == "approval" and shown["status"] == "pending" and shown["call_id"] is None
    approval = shown["approval"]
    assert set(approval) == {"server", "tool", "arguments", "annotations", "title", "description", "reason"}
    every_string = json.dumps(shown, ensure_ascii=False)
    for piece in ("\x1b", "\x07", "\u202e"):
        assert piece not in json.loads(every_string)["approval"]["tool"]
        assert piece not in approval["description"] and piece not in approval["title"]
    assert "\n" not in approval["title"]  # the server's title cannot start a line of its own


# --------------------------------------------------------------- across processes and stores


def start_worker(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKER), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": f"{SRC}:{ROOT}"},
    )


def store_specs(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Any]:
    if request.param == "sqlite":
        path = tmp_path / "shared.db"
        return f"sqlite:{path}", lambda: SqliteStore(path)
    from ui_adapters import RedisStore

    url = request.getfixturevalue("redis_url")
    namespace = f"approvals-{tmp_path.name}"
    return f"redis:{url.removeprefix('redis://')}:{namespace}", lambda: RedisStore(url, namespace=namespace)


@pytest.fixture(params=["sqlite", "redis"])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Any]:
    return store_specs(request, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("decision", ["allow", "deny"])
async def test_an_approval_asked_in_one_process_is_answered_in_another(
    shared: tuple[str, Any], approvals_url: str, decision: str
) -> None:
    spec, make_store = shared
    worker = start_worker("broker", spec, approvals_url, "drop_notes")
    try:
        with anyio.fail_after(BOUND):
            async with QuestionBroker(store=make_store(), lease=30) as broker:
                item = await next_item(broker)
                assert item.kind == "approval" and item.request.tool == "drop_notes"
                assert item.request.annotations == {"destructiveHint": True}
                assert (await broker.describe(item.id) or {})["approval"]["tool"] == "drop_notes"
                await broker.answer(item.id, ApprovalResult(decision=decision, note="from the other one"))
                out, err = await anyio.to_thread.run_sync(lambda: worker.communicate(timeout=BOUND))
    finally:
        worker.kill()
        worker.wait()
    assert worker.returncode == 0, err
    if decision == "allow":
        assert "result: ran drop_notes" in out
    else:
        assert "denied:" in out and "the user said: from the other one" in out


@pytest.mark.slow
async def test_always_is_kept_in_the_store_for_the_next_process(
    shared: tuple[str, Any], approvals_url: str
) -> None:
    spec, _ = shared

    def run(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, str(WORKER), *args],
            capture_output=True,
            text=True,
            timeout=BOUND,
            env={**os.environ, "PYTHONPATH": f"{SRC}:{ROOT}"},
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    first = await anyio.to_thread.run_sync(
        lambda: run("always", spec, approvals_url, "write_note", "allow-always")
    )
    assert "result: ran write_note" in first and "asked: 1" in first
    second = await anyio.to_thread.run_sync(lambda: run("always", spec, approvals_url, "write_note", "none"))
    assert "result: ran write_note" in second and "asked: 0" in second  # not asked: the store said allow
    other = await anyio.to_thread.run_sync(lambda: run("always", spec, approvals_url, "plain", "none"))
    assert "denied:" in other and "asked: 1" in other  # another tool is asked (and nothing canned denies)


async def test_an_approval_in_a_memory_store_is_answered_on_another_broker(approvals_url: str) -> None:
    store = MemoryStore()
    outcome = Outcome()
    with anyio.fail_after(BOUND):
        async with QuestionBroker(store=store) as asks, QuestionBroker(store=store) as answers:
            async with Client(approvals_url, approval_callback=asks, tool_policy=ToolPolicy()) as client:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(run_call, client, "plain", {"text": "x"}, outcome)
                    item = await next_item(answers)
                    assert item.kind == "approval" and item is not asks.pending()[0]
                    await answers.answer(item.id, ApprovalResult(decision="allow", remember="session"))
                    stored = await store.get_question(item.id)
    assert outcome.text == "ran plain"
    # The answer as kept in the store (and shown to pages): what a page may post back, no more.
    assert stored is not None
    assert stored["result"] == {"decision": "allow", "remember": "session", "note": None}


async def test_an_approval_that_timed_out_on_another_broker_is_nobody_s_refusal_there_too(
    approvals_url: str,
) -> None:
    """The worker that lists an approval another worker asked sees its timeout as the asking worker
    does: denied with nobody deciding (``asked=False``), not as a person's refusal."""
    store = MemoryStore()
    outcome = Outcome()
    with anyio.fail_after(BOUND):
        async with QuestionBroker(store=store, timeout=0.5) as asks, QuestionBroker(store=store) as shows:
            async with Client(approvals_url, approval_callback=asks, tool_policy=ToolPolicy()) as client:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(run_call, client, "plain", {"text": "x"}, outcome)
                    item = await next_item(shows)
                    await item.wait()
    assert outcome.denied is not None and outcome.denied.unanswered
    assert item.status == "timed-out"
    assert item.result == ApprovalResult("deny", note="nobody answered within 0.5s", asked=False)
