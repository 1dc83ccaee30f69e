"""``examples/clients/chat_bot.py`` as a user runs it, in a real terminal (a pty): the scripted assistant
books the full date on the bistro, whose question arrives as chat messages with quick replies, answered
by typing words and a quick reply's label; the booking the user chose comes back in the chat."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.screen import screen

pytestmark = pytest.mark.slow

CHAT_BOT = Path(__file__).resolve().parents[2] / "examples" / "clients" / "chat_bot.py"


def test_the_question_is_held_in_the_chat_with_quick_replies() -> None:
    with screen([str(CHAT_BOT)], rows=40, columns=120) as term:
        term.wait_for(r"its tools: book_table")
        term.wait_for(r"^you:$")  # the prompt (the screen's rows are trimmed)
        term.send("a table for 2 on 2025-12-25\r")
        term.wait_for(r"│ bistro asks: No tables for 2 on 2025-12-25\. Would you like another date\?")
        term.wait_for(r"│ \[Yes\]   \[No\]")
        term.send("yes please\r")
        term.wait_for(r"│ \[Keep 2025-12-26 → default\]   \[Skip\]")
        term.send("keep 2025-12-26\r")  # the quick reply's label, typed
        term.wait_for(r"│ 2\. Date: 2025-12-26")
        term.wait_for(r"│ \[Send\]   \[Decline\]   \[Cancel\]")
        term.send("send\r")
        term.wait_for(r"│ bistro · Sent\.")
        term.wait_for(r"assistant: The bistro says: \[SUCCESS\] Booked for 2025-12-26")
        term.send("bye\r")
        assert term.wait_exit() == 0
        assert "assistant: Bye!" in term.output


@pytest.mark.parametrize("where", ["chat", "question"])
def test_ctrl_c_leaves_at_once_with_a_short_word(where: str) -> None:
    with screen([str(CHAT_BOT)], rows=40, columns=120) as term:
        term.wait_for(r"^you:$")
        if where == "question":
            term.send("a table for 2 on 2025-12-25\r")
            term.wait_for(r"│ \[Yes\]   \[No\]")
        term.send("\x03")
        assert term.wait_exit(seconds=30) == 130  # before: a traceback, then no exit until Enter
        term.wait_for(r"^assistant: Interrupted\. Bye!$")
        assert "Traceback" not in term.output and "KeyboardInterrupt" not in term.output
        if where == "question":
            term.wait_for(r"^  │ bistro · This question was withdrawn: the call that asked it has ended\.$")
