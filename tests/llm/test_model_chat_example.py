"""``examples/clients/model_chat.py`` as a user runs it offline: the scripted model books the full
date, the bistro's question is answered in the terminal form (line mode, from stdin), and the model
reports the booking the user chose."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "clients" / "model_chat.py"


@pytest.mark.slow
def test_the_chat_books_through_the_terminal_form() -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    done = subprocess.run(
        [sys.executable, str(EXAMPLE)],
        input="hello\na table for 2 on 2025-12-25\ny\n2025-12-27\n\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Chatting with a scripted model" in done.stdout
    assert '(calling book_table {"date": "2025-12-25", "party_size": 2})' in done.stdout
    assert "model: The bistro says: " in done.stdout and "[SUCCESS] Booked for 2025-12-27" in done.stdout
    assert "No tables for 2 on 2025-12-25. Would you like another date?" in done.stderr
