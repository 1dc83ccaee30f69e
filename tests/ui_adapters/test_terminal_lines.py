"""Without a terminal: plain line mode on a pipe, and the decline/cancel policies. Never a hang."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Generator
from contextlib import contextmanager
from typing import TextIO

import anyio
import pytest
from rich.console import Console

from mcp_client.types import ElicitResult
from tests.support.traces import SURVEY_ANSWER
from tests.ui_adapters._terminal_helpers import make_context, trace_params
from ui_adapters.terminal import TerminalFormAdapter

pytestmark = pytest.mark.anyio

WAIT = 20


@contextmanager
def pipe(text: str, *, close: bool = True) -> Generator[TextIO]:
    """A real OS pipe holding ``text``; its write end is closed (end of input) unless ``close`` is false."""
    read_fd, write_fd = os.pipe()
    os.write(write_fd, text.encode())
    if close:
        os.close(write_fd)
    with os.fdopen(read_fd, "r") as reader:
        try:
            yield reader
        finally:
            if not close:
                os.close(write_fd)


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=100, color_system=None), out


async def ask_lines(answers: str, trace: str = "L10_legacy_survey_rich_schema") -> tuple[ElicitResult, str]:
    shown, out = console()
    with pipe(answers) as reader:
        adapter = TerminalFormAdapter(console=shown, line_input=reader)
        with anyio.fail_after(WAIT):
            result = await adapter(make_context(), trace_params(trace))
    return result, out.getvalue()


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_survey_answered_line_by_line(anyio_backend: str) -> None:
    # email, age (36), rating, subscribe, colour by number, toppings by numbers, nickname empty, send
    result, shown = await ask_lines("ada@example.com\n36\n4.5\ny\n2\n1, 3\n\n\n")
    assert result == ElicitResult(
        action="accept",
        content=SURVEY_ANSWER,
    )
    assert "Please fill in the survey" in shown
    assert "1) cheese" in shown
    assert "Answer sent." in shown


async def test_defaults_kept_with_an_empty_line() -> None:
    result, shown = await ask_lines("ada@example.com\n\n3\n\n\n\n\n\n")
    assert result.content == {
        "email": "ada@example.com",
        "age": 30,
        "rating": 3,
        "subscribe": False,
        "colour": "red",
    }
    assert "(Enter keeps 30)" in shown


async def test_invalid_line_shows_why_and_asks_again() -> None:
    result, shown = await ask_lines("x\nada@example.com\n200\n40\nfive\n5\n\n\n\n\n\n")
    assert result.action == "accept"
    assert result.content is not None and result.content["age"] == 40 and result.content["rating"] == 5
    assert "✗ must be at least 3 characters" in shown
    assert "✗ must be at most 120" in shown
    assert "✗ must be a number" in shown


async def test_review_change_then_send() -> None:
    result, shown = await ask_lines("ada@example.com\n\n3\n\n\n\n\n3\n4.5\ns\n")
    assert result.content is not None and result.content["rating"] == 4.5
    assert shown.count("Your answers") == 2


async def test_decline_and_cancel_at_the_review() -> None:
    declined, _ = await ask_lines("y\n\nd\n", "L01_legacy_book_table_accept")
    cancelled, _ = await ask_lines("y\n\nc\n", "L01_legacy_book_table_accept")
    assert declined == ElicitResult(action="decline")
    assert cancelled == ElicitResult(action="cancel")


async def test_end_of_input_cancels() -> None:
    result, shown = await ask_lines("ada@example.com\n")
    assert result == ElicitResult(action="cancel")
    assert "Cancelled." in shown


async def test_confirmation_question() -> None:
    result, _ = await ask_lines("y\n\n", "L05_legacy_delete_folder_resolver")
    assert result.action == "accept"


@pytest.mark.parametrize("policy", ["decline", "cancel"])
async def test_policy_answers_without_reading(policy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    shown, out = console()
    with pipe("", close=False) as reader:  # stdin is a pipe that never ends: reading it would hang
        monkeypatch.setattr(sys, "stdin", reader)
        adapter = TerminalFormAdapter(console=shown, non_interactive=policy)  # type: ignore[arg-type]
        with anyio.fail_after(WAIT):
            result = await adapter(make_context(), trace_params("L01_legacy_book_table_accept"))
    assert result == ElicitResult(action=policy)  # type: ignore[arg-type]
    assert "no terminal" in out.getvalue()


async def test_stdin_policy_reads_a_piped_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    shown, _ = console()
    with pipe("n\n2025-12-27\ns\n") as reader:
        monkeypatch.setattr(sys, "stdin", reader)
        adapter = TerminalFormAdapter(console=shown)
        with anyio.fail_after(WAIT):
            result = await adapter(make_context(), trace_params("L01_legacy_book_table_accept"))
    assert result == ElicitResult(
        action="accept", content={"accept_alternative": False, "date": "2025-12-27"}
    )


async def test_cancelled_while_waiting_for_a_line_returns_promptly() -> None:
    shown, out = console()
    with pipe("", close=False) as reader:
        adapter = TerminalFormAdapter(console=shown, line_input=reader)
        with anyio.fail_after(WAIT):
            with anyio.move_on_after(0.2):
                await adapter(make_context(), trace_params("L01_legacy_book_table_accept"))
    assert "Accept Alternative" in out.getvalue()
