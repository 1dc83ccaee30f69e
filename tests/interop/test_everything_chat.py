"""server-everything's elicitation tool (every field kind it has) answered as a chat conversation.

The reference TypeScript server asks one form with text, yes/no, e-mail, URI, date, integer, number and
every flavour of choice; a person answers in free text through ``ui_adapters.chat.chat_callback``, and
the server's echo of what it received is the check.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import anyio
import pytest

from mcp_client import Client
from mcp_client.types import TextContent
from ui_adapters.chat import ChatMessage, chat_callback

# Dates typed in words need the chat extra (dateparser); the floor venv runs without it.
pytest.importorskip("dateparser", reason="the chat extra is not installed: pip install -e '.[chat]'")

pytestmark = pytest.mark.anyio

TIMEOUT = 60.0
FORM_TOOL = "trigger-elicitation-request"


class Typist:
    """Answers each field the conversation asks with its next reply from a table (else the first
    option), sends at the review, and keeps every refusal it was shown."""

    def __init__(self, answers: dict[str, list[str]]) -> None:
        self.answers = answers
        self.seen: list[ChatMessage] = []

    async def send(self, message: ChatMessage) -> None:
        self.seen.append(message)

    async def receive(self) -> str:
        last = self.seen[-1]
        if last.step == "review":
            return "send"
        assert last.field is not None, last.text
        replies = self.answers.get(last.field)
        return replies.pop(0) if replies else "1"


async def test_every_field_kind_of_server_everything_answered_in_chat(everything_url: str) -> None:
    typist = Typist(
        {
            "name": ["Ada Lovelace"],
            "check": ["yes please"],
            "firstLine": ["12 Analytical Lane"],
            "email": ["ada at example", "ada@example.com"],
            "homepage": ["https://example.com/ada"],
            "birthdate": ["10 December 1815"],
            "integer": ["3.5", "50 points"],
            "number": ["500,25"],
        }
    )
    callback = chat_callback(typist.send, typist.receive, now=lambda: datetime(2026, 12, 5, tzinfo=UTC))
    with anyio.fail_after(TIMEOUT):
        async with Client(everything_url, mode="auto", elicitation_callback=callback) as client:
            result = await client.call_tool(FORM_TOOL)
    lines = [block.text for block in result.content if isinstance(block, TextContent)]
    assert lines[0] == "✅ User provided the requested information!"
    for expected in (
        "- Name: Ada Lovelace",
        "- Agreed to terms: true",
        "- Email: ada@example.com",
        "- Homepage: https://example.com/ada",
        "- Birthdate: 1815-12-10",
        "- Favorite Integer: 50",
        "- Favorite Number: 500.25",
    ):
        assert expected in lines[1]
    sent = json.loads(lines[-1].split("Raw result:", 1)[1])
    assert sent["action"] == "accept" and len(sent["content"]) == 13
    refusals = [(m.field, m.error) for m in typist.seen if m.error is not None]
    assert [field for field, _ in refusals] == ["email", "integer"]
    asked = {m.field for m in typist.seen if m.step == "field"}
    assert len(asked) == 13
    assert all("Everything Reference Server" in m.text for m in typist.seen)
