"""A question on screen stops only the clock of the call it belongs to, and ends when that call ends.

Issue 15, item 1. Call A's question is open (its callback waits for a person) while call B goes to a
server that never answers: B must still time out after ``timeout``. In the 2026-07-28 era the
question is asked between two requests of A, so no clock is paused at all. And when a legacy call is
cancelled while its pushed question is open, and the server never sends ``notifications/cancelled``,
the callback is cancelled with it, and no clock stays paused.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from mcp_client import Client, ClientRequestContext, MCPTimeoutError, StdioServerParameters
from mcp_client.types import ElicitRequestParams, ElicitResult
from tests.core.helpers import server_for
from tests.hostile.conftest import HostileServer, hostile_stdio

pytestmark = pytest.mark.anyio

BOUND = 20  # seconds: far above the 1.5 s timeouts below; reaching it means a clock stayed stopped
TIMEOUT = 1.5  # the calls meant to time out (read_timeout_seconds=TIMEOUT)
PATIENT = 30.0  # the client's own timeout: connecting and the other calls on a loaded machine


class Person:
    """An elicitation callback that waits until ``release`` is set, and says whether it was cancelled."""

    def __init__(self) -> None:
        self.asked = anyio.Event()
        self.release = anyio.Event()
        self.ended = anyio.Event()
        self.cancelled = False

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.asked.set()
        try:
            await self.release.wait()
        except anyio.get_cancelled_exc_class():
            self.cancelled = True
            raise
        finally:
            self.ended.set()
        return ElicitResult(action="decline")


async def _b_times_out_while_a_is_asked(
    server: Any, mode: str, a_tool: str, a_args: dict[str, Any], b_first: bool
) -> None:
    person = Person()
    b_outcome: list[BaseException] = []
    b_done = anyio.Event()

    async def call_b(client: Client) -> None:
        try:
            await client.call_tool("slow", {"seconds": 60}, read_timeout_seconds=TIMEOUT)
        except MCPTimeoutError as exc:
            b_outcome.append(exc)
        finally:
            b_done.set()

    async with Client(server, mode=mode, elicitation_callback=person, timeout=PATIENT) as client:
        with anyio.fail_after(BOUND):
            async with anyio.create_task_group() as group:
                if b_first:
                    group.start_soon(call_b, client)
                    await anyio.sleep(0.2)  # B is in flight before A's question opens
                group.start_soon(client.call_tool, a_tool, a_args)
                await person.asked.wait()
                if b_first:
                    await b_done.wait()  # bounded by fail_after above
                else:
                    await call_b(client)
                assert b_outcome and not person.ended.is_set()  # B timed out while A's question was open
                person.release.set()
    assert not person.cancelled


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
@pytest.mark.parametrize("b_first", [True, False], ids=["b-already-waiting", "b-started-later"])
async def test_legacy_http_question_pauses_only_its_own_call(guide_http_url: str, b_first: bool) -> None:
    await _b_times_out_while_a_is_asked(
        guide_http_url, "legacy", "book_table", {"date": "2025-12-25", "party_size": 2}, b_first
    )


async def test_modern_question_pauses_no_clock(guide_http_url: str) -> None:
    await _b_times_out_while_a_is_asked(
        guide_http_url, "2026-07-28", "delete_folder", {"path": "/srv/a"}, True
    )


async def test_legacy_stdio_question_does_not_pause_a_later_call(
    guide_stdio_command: tuple[str, list[str]],
) -> None:
    server = server_for("stdio", "", guide_stdio_command)
    await _b_times_out_while_a_is_asked(
        server, "legacy", "book_table", {"date": "2025-12-25", "party_size": 2}, False
    )


async def _cancel_a_while_asked(client: Client, person: Person, a_tool: str, a_args: dict[str, Any]) -> None:
    with anyio.fail_after(BOUND):
        async with anyio.create_task_group() as group:
            group.start_soon(client.call_tool, a_tool, a_args)
            await person.asked.wait()
            group.cancel_scope.cancel()  # the user gives up on call A; the server says nothing
        await person.ended.wait()  # the question's callback ended with its call
    assert person.cancelled
    with anyio.fail_after(BOUND), pytest.raises(MCPTimeoutError):
        await client.call_tool("silent", {}, read_timeout_seconds=TIMEOUT)  # and no clock stayed paused


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_cancelled_legacy_http_call_ends_its_question(hostile: HostileServer, tag: str) -> None:
    person = Person()
    async with Client(
        hostile.url(tag), mode="legacy", elicitation_callback=person, timeout=PATIENT
    ) as client:
        await _cancel_a_while_asked(client, person, "url_elicit", {"url": "https://pay.example.com/x"})


async def test_cancelled_legacy_stdio_call_ends_its_question() -> None:
    person = Person()
    server: StdioServerParameters = hostile_stdio()
    async with Client(server, mode="legacy", elicitation_callback=person, timeout=PATIENT) as client:
        await _cancel_a_while_asked(client, person, "ask_forever", {})
