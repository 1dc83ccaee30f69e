"""A stdio server cannot make the client hold tasks or file descriptors without bound.

* A server that pushes thousands of questions and then stops reading its stdin: every answer (or
  refusal) the client owes it blocks on a full pipe. The client must not start a task per question:
  the number of live tasks stays near the bound on server requests however many come.
* A server whose own child inherits its pipes and outlives it (``npx``, a shell wrapper): when the
  client closes, its ends of the pipes are closed too, though the grandchild still holds the others.
"""

from __future__ import annotations

import asyncio
import os
import signal

import anyio
import pytest

from mcp_client import Client, ClientRequestContext
from mcp_client._errors import MCPClientError
from mcp_client.types import ElicitRequestParams, ElicitResult
from tests.hostile._leaks import no_leaks, wait_until
from tests.hostile.conftest import hostile_stdio, stdio_backend

pytestmark = pytest.mark.anyio

BOUND = 20
TASK_BOUND = 100
"""The client's bound on server requests handled at once (64), and room for its own few tasks."""


@pytest.fixture
def anyio_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """asyncio (its task count is what the flood test watches) unless a test asks for another."""
    return stdio_backend(getattr(request, "param", "asyncio"), monkeypatch)


async def _never_answers(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    await anyio.sleep_forever()
    raise AssertionError("unreachable")


@pytest.mark.parametrize("anyio_backend", ["asyncio", "asyncio-transport-stdout"], indirect=True)
async def test_a_flood_of_questions_from_a_server_that_stops_reading_holds_bounded_tasks() -> None:
    """3,000 questions, then the server reads nothing for a second and exits. 32 questions reach the
    callback (which never answers); the client owes the rest a refusal it cannot deliver."""
    most_tasks = 0
    async with no_leaks():
        before = len(asyncio.all_tasks())
        client = Client(hostile_stdio(), mode="legacy", elicitation_callback=_never_answers, timeout=5)
        async with client:

            async def watch() -> None:
                nonlocal most_tasks
                while True:
                    most_tasks = max(most_tasks, len(asyncio.all_tasks()) - before)
                    await anyio.sleep(0.01)

            with anyio.fail_after(BOUND):
                async with anyio.create_task_group() as group:
                    group.start_soon(watch)
                    with pytest.raises(MCPClientError):
                        await client.call_tool("flood_questions", {"n": 3000, "hold": 1})
                    group.cancel_scope.cancel()
    assert most_tasks <= TASK_BOUND, most_tasks


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio", "asyncio-transport-stdout"], indirect=True)
async def test_pipes_held_by_a_grandchild_are_closed_with_the_client(era: str) -> None:
    grandchild = 0
    try:
        async with no_leaks():
            with anyio.fail_after(BOUND):
                async with Client(hostile_stdio(), mode=era, timeout=5) as client:
                    result = await client.call_tool("spawn_grandchild", {})
                    grandchild = int(result.content[0].text)  # type: ignore[union-attr]
            assert _alive(grandchild)  # it still holds the other ends of the pipes
    finally:
        if grandchild:
            os.kill(grandchild, signal.SIGKILL)
            await wait_until(lambda: not _alive(grandchild), 5)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[-1][:1] not in ("Z", "X")
    except FileNotFoundError:
        return False
