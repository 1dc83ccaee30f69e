"""The CLI's status line and server log lines, rendered to a string (no terminal, no server)."""

from __future__ import annotations

import io

from rich.console import Console

from mcp_client.types import LoggingMessageNotificationParams
from ui_adapters.cli._status import ServerLogPrinter, StatusLine


def console(terminal: bool = False) -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, force_terminal=terminal, width=100, color_system=None), buffer


def rendered(status: StatusLine) -> str:
    out, buffer = console()
    out.print(status._render())
    return buffer.getvalue()


def test_progress_with_a_total_is_a_bar_with_a_percentage_and_the_message() -> None:
    status = StatusLine(console()[0])
    status.update("Calling count…")
    status.progress(3, 6, "step 3 of 6")
    text = rendered(status)
    assert "Calling count…" in text and "50%" in text and "step 3 of 6" in text


def test_progress_without_a_total_is_a_count() -> None:
    status = StatusLine(console()[0])
    status.update("Calling scan…")
    status.progress(42, None, None)
    assert "Calling scan… 42" in rendered(status)


def test_a_server_message_cannot_reach_the_terminal_raw() -> None:
    status = StatusLine(console()[0])
    status.update("Calling x…")
    status.progress(1, 2, "evil \x1b]0;pwned\x07 \x1b[2J text")
    text = rendered(status)
    assert "\x1b" not in text and "pwned" not in text and "text" in text


def test_log_lines_wait_while_a_question_is_on_screen() -> None:
    err, buffer = console()
    status = StatusLine(err)
    printer = ServerLogPrinter(status)
    status.pause()
    printer(LoggingMessageNotificationParams(level="warning", logger="db", data="slow query"))
    assert buffer.getvalue() == ""
    status.resume()
    assert buffer.getvalue() == "server warning db: slow query\n"


def test_structured_log_data_is_printed_as_json_and_sanitized() -> None:
    err, buffer = console()
    ServerLogPrinter(StatusLine(err))(
        LoggingMessageNotificationParams(level="error", data={"msg": "boom\x1b[31m", "n": 1})
    )
    assert buffer.getvalue() == 'server error: {"msg":"boom\\u001b[31m","n":1}\n'
