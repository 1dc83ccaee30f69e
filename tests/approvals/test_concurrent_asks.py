"""Two calls of one tool at once, neither remembered yet: the person is asked once. The second call waits
for the first question and follows its answer when it was remembered ("session", "always"); answered
"once", failed or cancelled, the second asks its own. Calls of other tools never wait."""

from __future__ import annotations

from typing import Any, Literal

import anyio
import pytest

from mcp_client import (
    ApprovalRequest,
    ApprovalResult,
    Client,
    ClientRequestContext,
    MemoryApprovalStore,
    StdioServerParameters,
    ToolCallDenied,
)
from tests.approvals.conftest import BOUND, ran, text

pytestmark = pytest.mark.anyio


class LookupStore(MemoryApprovalStore):
    """A memory store that counts its lookups: a call has looked when it is past its own memory and
    about to ask (or to wait for the question already asked)."""

    def __init__(self) -> None:
        super().__init__()
        self.lookups = 0
        self._looked = anyio.Event()

    async def get_approval(self, key: str) -> Literal["allow", "deny"] | None:
        self.lookups += 1
        self._looked.set()
        self._looked = anyio.Event()
        return await super().get_approval(key)

    async def looked(self, times: int) -> None:
        """Return once the store has been looked in ``times`` times."""
        while self.lookups < times:
            await self._looked.wait()


async def both(client: Client, *calls: tuple[str, dict[str, Any]]) -> list[str]:
    """Make ``calls`` at once in one task group: each one's text, or ``"denied"``."""
    outcomes = [""] * len(calls)

    async def one(index: int, tool: str, arguments: dict[str, Any]) -> None:
        try:
            outcomes[index] = text(await client.call_tool(tool, arguments))
        except ToolCallDenied:
            outcomes[index] = "denied"

    async with anyio.create_task_group() as group:
        for index, (tool, arguments) in enumerate(calls):
            group.start_soon(one, index, tool, arguments)
    return outcomes


@pytest.mark.parametrize(
    ("answer", "outcome", "runs"),
    [
        (ApprovalResult("allow", remember="session"), "ran plain", ["plain", "plain"]),
        (ApprovalResult("allow", remember="always"), "ran plain", ["plain", "plain"]),
        (ApprovalResult("deny", remember="session"), "denied", []),
        (ApprovalResult("deny", remember="always"), "denied", []),
    ],
)
async def test_a_remembered_answer_is_the_waiting_calls_answer(
    server: StdioServerParameters, answer: ApprovalResult, outcome: str, runs: list[str]
) -> None:
    store = LookupStore()
    asked: list[ApprovalRequest] = []

    async def approve(context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        asked.append(request)
        await store.looked(2)  # the other call is past its own memory: it would ask now, or waits
        return answer

    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=approve, approval_store=store) as client:
            outcomes = await both(client, ("plain", {"text": "a"}), ("plain", {"text": "b"}))
            assert await ran(client) == runs
    assert outcomes == [outcome, outcome]
    assert len(asked) == 1


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_answered_once_the_waiting_call_asks_its_own_after(server: StdioServerParameters) -> None:
    store = LookupStore()
    said: list[str] = []

    async def approve(context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        said.append(f"asked {request.arguments['text']}")
        await store.looked(2)
        said.append(f"answered {request.arguments['text']}")
        return ApprovalResult("allow", remember="once")

    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=approve, approval_store=store) as client:
            outcomes = await both(client, ("plain", {"text": "a"}), ("plain", {"text": "b"}))
    assert outcomes == ["ran plain", "ran plain"]
    first, second = said[0][-1], said[2][-1]
    assert said == [f"asked {first}", f"answered {first}", f"asked {second}", f"answered {second}"]
    assert {first, second} == {"a", "b"}


async def test_calls_of_other_tools_do_not_wait(server: StdioServerParameters) -> None:
    """The question about ``plain`` is answered only once ``write_note`` has been asked: a gate that made
    every call wait for it would hang here (and fail at the bound)."""
    other_asked = anyio.Event()
    asked: list[str] = []

    async def approve(context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        asked.append(request.tool)
        if request.tool == "plain":
            await other_asked.wait()
        else:
            other_asked.set()
        return ApprovalResult("allow", remember="session")

    with anyio.fail_after(BOUND):
        async with Client(
            server, mode="legacy", approval_callback=approve, approval_store=MemoryApprovalStore()
        ) as client:
            outcomes = await both(client, ("plain", {"text": "a"}), ("write_note", {"text": "b"}))
    assert outcomes == ["ran plain", "ran write_note"]
    assert sorted(asked) == ["plain", "write_note"]


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_the_first_question_cancelled_the_waiting_call_asks_its_own(
    server: StdioServerParameters,
) -> None:
    store = LookupStore()
    asked: list[str] = []

    async def approve(context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        asked.append(request.arguments["text"])
        if request.arguments["text"] == "first":
            await anyio.sleep_forever()
        return ApprovalResult("allow", remember="session")

    outcomes: list[str] = []
    scope = anyio.CancelScope()

    async def first() -> None:
        with scope:
            await client.call_tool("plain", {"text": "first"})

    async def second() -> None:
        outcomes.append(text(await client.call_tool("plain", {"text": "second"})))

    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=approve, approval_store=store) as client:
            async with anyio.create_task_group() as group:
                group.start_soon(first)
                await store.looked(1)  # the first call asks now
                group.start_soon(second)
                await store.looked(2)  # the second waits for the first question
                scope.cancel()
            assert await ran(client) == ["plain"]
    assert scope.cancelled_caught
    assert outcomes == ["ran plain"]
    assert asked == ["first", "second"]


async def test_the_first_callback_failing_the_waiting_call_asks_its_own(
    server: StdioServerParameters,
) -> None:
    store = LookupStore()
    asked: list[str] = []

    async def approve(context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        asked.append(request.arguments["text"])
        if len(asked) == 1:
            await store.looked(2)
            raise RuntimeError("the approval UI broke")
        return ApprovalResult("allow", remember="session")

    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy", approval_callback=approve, approval_store=store) as client:
            outcomes = await both(client, ("plain", {"text": "a"}), ("plain", {"text": "b"}))
            assert await ran(client) == ["plain"]
    assert sorted(outcomes) == ["denied", "ran plain"]
    assert len(asked) == 2
