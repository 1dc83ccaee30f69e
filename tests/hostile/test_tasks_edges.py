"""Tasks against a scripted server (``tasks_stdio_server.py``): what fastmcp-tasks never does.

Poll intervals of 0, 300 ms and a day (our floor and cap), a question repeated across polls (asked
once), a key reused for another question (refused), ``notifications/tasks`` instead of polling, a
task that vanishes, a call cancelled by its cancel scope (``tasks/cancel`` sent), a task on a method
the extension does not cover, and a task handed to a client that never declared the extension.
Assertions read the server's journal: what the client sent, and when (only lower bounds on gaps,
which a busy machine can only lengthen).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_client import (
    Client,
    ClientRequestContext,
    ClientStateError,
    MCPError,
    ProtocolError,
    ServerError,
    StdioServerParameters,
    TaskLostError,
)
from mcp_client.types import ElicitRequestParams, ElicitResult, TaskStatusNotification, TextContent

pytestmark = pytest.mark.anyio

SERVER = Path(__file__).with_name("tasks_stdio_server.py")
TEST_TIMEOUT = 60.0


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    return tmp_path / "journal.jsonl"


def server(journal: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(SERVER), "--journal", str(journal)])


def received(journal: Path, method: str) -> list[tuple[float, dict[str, Any]]]:
    """(time, params) of each ``method`` message the server received."""
    rows = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    messages = [(row["t"], row["message"]) for row in rows]
    return [(t, message.get("params") or {}) for t, message in messages if message.get("method") == method]


def text_of(result: Any) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


async def test_poll_intervals_are_honoured_between_our_floor_and_cap(journal: Path) -> None:
    """0 ms, 300 ms and a day asked: 0.1 s, 300 ms and 10 s waited; status messages reach progress."""
    messages: list[str | None] = []
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server(journal), tasks=True) as client:
            result = await client.call_tool(
                "intervals",
                read_timeout_seconds=2.0,  # counts silence: the task takes over 10 s, every poll answered
                progress_callback=lambda progress, total, message: messages.append(message),
            )
    assert text_of(result) == "intervals done"
    assert messages == ["no wait at all", "a little slower", "see you tomorrow"]
    gets = [t for t, _ in received(journal, "tasks/get")]
    assert len(gets) == 4  # no tight loop on pollIntervalMs 0, no day-long wait on 86400000
    assert gets[1] - gets[0] >= 0.09  # 0 ms asked: our floor (0.1 s)
    assert gets[2] - gets[1] >= 0.29  # 300 ms asked: honoured
    assert gets[3] - gets[2] >= 9.9  # a day asked: our cap (10 s); the call outlived its 2 s timeout


async def test_a_question_repeated_across_polls_is_asked_once(journal: Path) -> None:
    asked: list[ClientRequestContext] = []

    async def answer(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        asked.append(context)
        return ElicitResult(action="accept", content={"name": "Ada"})

    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server(journal), tasks=True, elicitation_callback=answer) as client:
            result = await client.call_tool("repeat_question")
    assert text_of(result) == 'answers: {"q1": {"action": "accept", "content": {"name": "Ada"}}}'
    assert len(asked) == 1
    assert asked[0].task_id == "task-1-repeat_question" and asked[0].input_key == "q1"
    assert len(received(journal, "tasks/update")) == 1


async def test_a_key_reused_for_another_question_is_refused_and_the_task_cancelled(journal: Path) -> None:
    async def answer(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        return ElicitResult(action="accept", content={"name": "Ada"})

    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server(journal), tasks=True, elicitation_callback=answer) as client:
            with pytest.raises(ProtocolError, match="reused input request key 'q1'"):
                await client.call_tool("reuse_key")
    assert [params["taskId"] for _, params in received(journal, "tasks/cancel")] == ["task-1-reuse_key"]


async def test_a_task_notification_replaces_the_poll(journal: Path) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server(journal), tasks=True) as client:
            result = await client.call_tool("notify")
    assert text_of(result) == "notified done"
    assert received(journal, "tasks/get") == []  # the day-long (capped) wait was cut short by the push


async def test_a_listen_stream_for_a_task_brings_its_end(journal: Path) -> None:
    """``listen(task_ids=[...])``: the task's pushed state ends ``result()`` and reaches the subscriber."""
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server(journal), tasks=True) as client:
            task = await client.call_tool("quiet", as_task=True)
            assert task.id is not None
            async with client.listen(task_ids=[task.id]) as subscription:
                result = await task.result()
                notice = await anext(aiter(subscription))
    assert text_of(result) == "pushed on the listen stream"
    assert isinstance(notice, TaskStatusNotification)
    assert notice.params.task_id == task.id and notice.params.status == "completed"
    ((_, params),) = received(journal, "subscriptions/listen")
    assert params["notifications"] == {"taskIds": [task.id]}
    assert received(journal, "tasks/get") == []


async def test_a_vanished_task_raises_task_lost(journal: Path) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server(journal), tasks=True) as client:
            with pytest.raises(TaskLostError) as caught:
                await client.call_tool("vanish")
    assert caught.value.task_id == "task-1-vanish"
    assert "no longer knows this task" in str(caught.value) and "Task not found" in str(caught.value)


async def test_a_poll_the_server_fails_is_its_error_not_a_lost_task(journal: Path) -> None:
    """Only -32602 (the task is unknown) means lost; -32603 on ``tasks/get`` is the server's failure."""
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server(journal), tasks=True) as client:
            with pytest.raises(ServerError) as caught:
                await client.call_tool("failing_poll")
    assert not isinstance(caught.value, TaskLostError)
    assert caught.value.code == -32603 and "the database is down" in str(caught.value)


async def test_cancelling_the_call_cancels_the_task(journal: Path) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server(journal), tasks=True) as client:
            # Cancelled once the client polls the task (it knows the task's id), not after a fixed
            # second: on a busy machine the task may not exist yet by then.
            with anyio.CancelScope() as scope:
                async with anyio.create_task_group() as tg:

                    async def cancel_once_polled() -> None:
                        while not received(journal, "tasks/get"):  # noqa: ASYNC110 - a file the server writes
                            await anyio.sleep(0.05)
                        scope.cancel()

                    tg.start_soon(cancel_once_polled)
                    await client.call_tool("endless")
            assert scope.cancelled_caught
    assert [params["taskId"] for _, params in received(journal, "tasks/cancel")] == ["task-1-endless"]


async def test_a_task_for_a_request_the_extension_does_not_cover_is_an_invalid_response(
    journal: Path,
) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server(journal), tasks=True) as client:
            with pytest.raises(ProtocolError, match="only for tools/call: an invalid response"):
                await client.get_prompt("intervals")
    assert received(journal, "tasks/get") == []


async def test_a_task_for_a_client_that_did_not_declare_tasks_is_refused(journal: Path) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server(journal)) as client:
            with pytest.raises(ProtocolError, match="did not declare"):
                await client.call_tool("intervals")
    (_, params), *_ = received(journal, "tools/call")
    capabilities = params["_meta"]["io.modelcontextprotocol/clientCapabilities"]
    assert "extensions" not in capabilities
    assert received(journal, "tasks/get") == []


async def test_the_extension_is_declared_in_every_request(journal: Path) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server(journal), tasks=True) as client:
            await client.call_tool("intervals")
    for method in ("tools/call", "tasks/get"):
        for _, params in received(journal, method):
            capabilities = params["_meta"]["io.modelcontextprotocol/clientCapabilities"]
            assert capabilities["extensions"] == {"io.modelcontextprotocol/tasks": {}}


async def test_a_legacy_server_with_only_experimental_tasks_says_so_plainly(journal: Path) -> None:
    legacy = StdioServerParameters(
        command=sys.executable, args=[str(SERVER), "--journal", str(journal), "--legacy"]
    )
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(legacy, tasks=True) as client:
            assert client.era == "legacy"
            with pytest.raises(MCPError) as caught:
                await client.call_tool("must_task")
    assert caught.value.code == -32601
    said = str(caught.value)
    assert "experimental tasks of 2025-11-25, SEP-1686, which mcp-client does not support" in said


async def test_picking_up_a_task_without_tasks_true_says_what_to_do(journal: Path) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server(journal)) as client:
            with pytest.raises(ClientStateError, match="pass tasks=True"):
                await client.task("task-1-intervals")
    assert received(journal, "tasks/get") == []
