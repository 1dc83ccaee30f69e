"""A ready approval UI that gets no answer does not say the user refused the call.

Each ready ``approval_callback`` has paths where no person decides: the browser page's and the
broker's timeout, a broker shutting down, a terminal whose stdin ends, gives three answers that are
none, or is no terminal (``non_interactive="deny"``). They answer ``ApprovalResult(asked=False)``:
the app sees "nobody decided: <why>" (``by_user`` false, ``unanswered`` true), never "the user
refused it; the user said: ...", the audit line says "nobody decided", and the server never hears of
the call. Against tests/servers/approvals_server.py over stdio (its ``ran`` tool lists what reached
it); ``drop_notes`` is marked destructive, so ``ToolPolicy()`` asks about it.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterator

import anyio
import pytest
from rich.console import Console

from mcp_client import ApprovalCallback, Client, ToolCallDenied, ToolPolicy
from tests.approvals.conftest import approvals_server, ran
from ui_adapters import QuestionBroker, browser_approval, terminal_approval

pytestmark = pytest.mark.anyio

BOUND = 60  # seconds: generous, for a busy machine
RULE = 'ask="unless_read_only": the server does not mark it read-only'


@pytest.fixture
def audit(caplog: pytest.LogCaptureFixture) -> Iterator[list[str]]:
    """The audit lines logged on ``mcp_client.approvals``, in order."""
    caplog.set_level(logging.INFO, logger="mcp_client.approvals")
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    handler = Keep(logging.INFO)
    logger = logging.getLogger("mcp_client.approvals")
    logger.addHandler(handler)
    try:
        yield lines
    finally:
        logger.removeHandler(handler)


def quiet() -> Console:
    return Console(file=io.StringIO(), width=120, color_system=None)


def stdin_ended() -> ApprovalCallback:
    return terminal_approval(console=quiet(), line_input=io.StringIO(""))


def three_wrong_answers() -> ApprovalCallback:
    return terminal_approval(console=quiet(), line_input=io.StringIO("x\ny?\nplease\n"))


def no_terminal() -> ApprovalCallback:
    return terminal_approval(console=quiet(), non_interactive="deny")


def page_nobody_opens() -> ApprovalCallback:
    return browser_approval(open_browser=lambda url: None, timeout=0.5)


CASES: dict[str, tuple[Callable[[], ApprovalCallback], str]] = {
    "browser-timeout": (page_nobody_opens, "nobody answered within 0.5s"),
    "broker-timeout": (lambda: QuestionBroker(timeout=0.5), "nobody answered within 0.5s"),
    "stdin-ended": (stdin_ended, "the input ended before an answer"),
    "three-wrong-answers": (three_wrong_answers, "no valid answer after 3 tries"),
    "no-terminal": (no_terminal, "no terminal to ask on (non_interactive='deny')"),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_a_call_nobody_answered_says_nobody_decided(
    case: str, audit: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make, why = CASES[case]
    monkeypatch.setattr("sys.stdin", io.StringIO("o\n"))  # not a terminal: never read as an answer
    with anyio.fail_after(BOUND):
        async with Client(approvals_server(), tool_policy=ToolPolicy(), approval_callback=make()) as client:
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("drop_notes")
            assert await ran(client) == []  # the server never heard of the call
    assert str(denied.value) == (
        f"the call of tool 'drop_notes' on approvals-server was denied ({RULE}) and not sent to the "
        f"server: nobody decided: {why}"
    )
    assert "user" not in str(denied.value)
    assert (denied.value.by_user, denied.value.unanswered, denied.value.note) == (False, True, why)
    assert [line for line in audit if "drop_notes" in line] == [
        f"tool call denied: 'drop_notes' on 'approvals-server' (rule: {RULE}; nobody decided; answer from "
        f"callback; remember=once; note: {why!r}) arguments: {{}}"
    ]


async def test_an_approval_still_waiting_when_the_broker_closes_is_nobody_s_refusal() -> None:
    broker = QuestionBroker(timeout=600)
    denied: list[ToolCallDenied] = []

    async def call(client: Client) -> None:
        try:
            await client.call_tool("drop_notes")
        except ToolCallDenied as exc:
            denied.append(exc)

    with anyio.fail_after(BOUND):
        async with Client(approvals_server(), tool_policy=ToolPolicy(), approval_callback=broker) as client:
            async with anyio.create_task_group() as tg:
                tg.start_soon(call, client)
                async for _ in broker:
                    break
                broker.close()
            assert await ran(client) == []
    (refusal,) = denied
    assert str(refusal).endswith("not sent to the server: nobody decided: the app is shutting down")
    assert (refusal.by_user, refusal.unanswered) == (False, True)
