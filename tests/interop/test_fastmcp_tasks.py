"""Tasks (SEP-2663) against fastmcp-tasks 4.1.4, the one third-party server that runs tools as tasks.

The peer (``fastmcp_tasks_server.py``) has a required-task tool, an optional one, a task that asks a
form question, one that fails with a JSON-RPC error and a slow one to cancel. Each test runs on both
transports the peer serves (streamable HTTP and stdio) and asserts what the app sees: the tool's
answer, the question its callback got, the error raised.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest

from mcp_client import (
    Client,
    ClientRequestContext,
    MCPError,
    ServerError,
    StdioServerParameters,
    TaskCancelledError,
    TaskLostError,
    ToolTask,
)
from mcp_client.types import ElicitRequestParams, ElicitResult, Task, TextContent
from ui_adapters import QuestionBroker

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 60.0

ClientFactory = Callable[..., Client]


@pytest.fixture(params=["http", "stdio"])
def connect(
    request: pytest.FixtureRequest, fastmcp_tasks_stdio_command: tuple[str, list[str]]
) -> ClientFactory:
    """Builds a ``Client`` for the peer on one transport: ``connect(**client_kwargs)``."""
    if request.param == "http":
        url: str = request.getfixturevalue("fastmcp_tasks_url")
        return lambda **kwargs: Client(url, **kwargs)
    command, args = fastmcp_tasks_stdio_command
    return lambda **kwargs: Client(StdioServerParameters(command=command, args=args), **kwargs)


def text_of(result: Any) -> str:
    assert not result.is_error, result
    block = result.content[0]
    assert isinstance(block, TextContent), result
    return block.text


class Namer:
    """An elicitation callback that answers "What is your name?" and remembers who asked."""

    def __init__(self, name: str = "Ada") -> None:
        self.name = name
        self.contexts: list[ClientRequestContext] = []

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.contexts.append(context)
        return ElicitResult(action="accept", content={"name": self.name})


@asynccontextmanager
async def bounded() -> AsyncIterator[None]:
    with anyio.fail_after(TEST_TIMEOUT):
        yield


async def test_a_required_task_tool_completes_through_plain_call_tool(connect: ClientFactory) -> None:
    async with bounded(), connect(tasks=True) as client:
        assert client.server_capabilities.extensions is not None
        assert "io.modelcontextprotocol/tasks" in client.server_capabilities.extensions
        result = await client.call_tool("must_task", {"n": 7})
    assert text_of(result) == "required job 7 done"


async def test_without_tasks_true_a_required_task_tool_says_what_to_do(connect: ClientFactory) -> None:
    async with bounded(), connect() as client:
        with pytest.raises(ServerError) as caught:
            await client.call_tool("must_task")
    assert caught.value.code == -32021
    assert "tasks=True" in str(caught.value)


async def test_an_optional_task_tool_becomes_a_task_only_for_a_client_that_declares_tasks(
    connect: ClientFactory,
) -> None:
    async with bounded(), connect() as client:
        plain = await client.call_tool("maybe_task", {"n": 2})
    async with bounded(), connect(tasks=True) as client:
        task = await client.call_tool("maybe_task", {"n": 3}, as_task=True)
        assert task.id is not None  # the server made a task of it
        result = await task.result()
    assert text_of(plain) == "optional job 2 done"
    assert text_of(result) == "optional job 3 done"


async def test_a_task_question_reaches_the_elicitation_callback_with_the_task_id(
    connect: ClientFactory,
) -> None:
    namer = Namer("Ada")
    async with bounded(), connect(tasks=True, elicitation_callback=namer) as client:
        task = await client.call_tool("ask_name", {"greeting": "Hi"}, as_task=True)
        result = await task.result()
    assert text_of(result) == "Hi, Ada!"
    assert len(namer.contexts) == 1  # asked once, though the server repeats it until it has the answer
    assert namer.contexts[0].task_id == task.id
    assert namer.contexts[0].input_key is not None


async def test_a_failed_task_raises_its_json_rpc_error(connect: ClientFactory) -> None:
    async with bounded(), connect(tasks=True) as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool("fail_task")
    assert caught.value.code == -32603
    assert "the backend is down" in caught.value.message


async def test_a_cancelled_task_raises_a_clear_error(connect: ClientFactory) -> None:
    async with bounded(), connect(tasks=True) as client:
        task = await client.call_tool("slow_task", {"seconds": 60}, as_task=True)
        assert task.status == "working"
        await task.cancel()
        assert task.status == "cancelled"
        with pytest.raises(TaskCancelledError) as caught:
            await task.result()
    assert caught.value.task_id == task.id
    assert "cancelled" in str(caught.value)


async def test_watching_a_task_yields_its_states_to_the_end(connect: ClientFactory) -> None:
    states: list[Task] = []
    async with bounded(), connect(tasks=True) as client:
        task = await client.call_tool("must_task", {"n": 4}, as_task=True)
        async for state in task:
            states.append(state)
        result = await task.result()
    assert states[0].status == "working"
    assert states[-1].status == "completed"
    assert text_of(result) == "required job 4 done"


async def test_a_task_is_picked_up_from_its_json_after_the_client_closed(fastmcp_tasks_url: str) -> None:
    async with bounded(), Client(fastmcp_tasks_url, tasks=True) as first:
        started = await first.call_tool("ask_name", {"greeting": "Welcome back"}, as_task=True)
        saved = json.dumps(started.to_json())  # as an app would store it
    namer = Namer("Grace")
    async with bounded(), Client(fastmcp_tasks_url, tasks=True, elicitation_callback=namer) as second:
        resumed = await second.task(saved)
        assert isinstance(resumed, ToolTask)
        assert resumed.id == started.id
        result = await resumed.result()
    assert text_of(result) == "Welcome back, Grace!"
    assert namer.contexts[0].task_id == started.id


async def test_a_task_whose_server_is_gone_says_so_when_picked_up(
    fastmcp_tasks_stdio_command: tuple[str, list[str]],
) -> None:
    """Over stdio the server (and its in-memory tasks) dies with the client: the task is lost."""
    command, args = fastmcp_tasks_stdio_command
    server = StdioServerParameters(command=command, args=args)
    async with bounded(), Client(server, tasks=True) as first:
        saved = (await first.call_tool("slow_task", {"seconds": 60}, as_task=True)).to_json()
    async with bounded(), Client(server, tasks=True) as second:
        with pytest.raises(TaskLostError) as caught:
            await second.task(saved)
    assert caught.value.task_id == saved["taskId"]
    assert "no longer knows this task" in str(caught.value)


async def test_the_broker_lists_a_task_question_and_the_app_answers_it(connect: ClientFactory) -> None:
    broker = QuestionBroker(timeout=TEST_TIMEOUT)
    outcome: list[Any] = []
    async with bounded(), connect(tasks=True, elicitation_callback=broker) as client:
        task = await client.call_tool("ask_name", as_task=True)

        async def wait_for_result() -> None:
            outcome.append(await task.result())

        async with anyio.create_task_group() as tg:
            tg.start_soon(wait_for_result)
            question = await anext(aiter(broker))  # the first question published
            assert [q.id for q in broker.pending()] == [question.id]
            assert question.context.task_id == task.id
            assert question.to_json()["task_id"] == task.id  # what a web page gets
            await broker.answer(question.id, {"name": "Lin"})
    assert text_of(outcome[0]) == "Hello, Lin!"


async def test_the_official_client_cannot_complete_a_required_task_tool(fastmcp_tasks_url: str) -> None:
    """The difference this feature makes: mcp 2.3.0's Client fails where ``tasks=True`` completes."""
    import mcp

    with anyio.fail_after(TEST_TIMEOUT), pytest.raises(BaseException) as caught:
        async with mcp.Client(fastmcp_tasks_url) as official:  # pyright: ignore[reportUnknownMemberType]
            await official.call_tool("must_task", {})
    messages = [str(error) for error in leaves(caught.value)]
    assert any("requires the tasks extension" in message for message in messages), messages
    async with bounded(), Client(fastmcp_tasks_url, tasks=True) as ours:
        assert text_of(await ours.call_tool("must_task", {})) == "required job 1 done"


def leaves(error: BaseException) -> list[BaseException]:
    """The exceptions inside ``error``, an ``ExceptionGroup`` flattened (the official client wraps one)."""
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in leaves(inner)]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType, reportUnknownMemberType]
    return [error]
