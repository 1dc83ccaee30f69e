"""Test tools that ask questions, with answers written in advance (no person, no terminal).

    pytest examples/clients/test_bistro.py     # pytest itself: pip install pytest (the demo's .venv lacks it)

``canned_answers`` (from ``ui_adapters.pytest_plugin``) makes ``CannedAnswers`` callbacks and fails the
test if a server asked something no answer was prepared for. The servers are the real example
servers, started over stdio (the official MCP SDK must be installed: ``pip install -e ".[examples]"``).
"""

import sys
from pathlib import Path

import pytest

from mcp_client import Client, StdioServerParameters
from mcp_client.types import CallToolResult, TextContent

pytest_plugins = ["ui_adapters.pytest_plugin"]

SERVERS = Path(__file__).resolve().parent.parent / "servers"
BISTRO = StdioServerParameters(sys.executable, [str(SERVERS / "bistro.py")])
FILES = StdioServerParameters(sys.executable, [str(SERVERS / "files.py")])


def text_of(result: CallToolResult) -> str:
    return " ".join(block.text for block in result.content if isinstance(block, TextContent))


@pytest.mark.anyio
async def test_full_date_books_the_alternative(canned_answers) -> None:
    answers = canned_answers(fields={"accept_alternative": True, "date": "2025-12-27"})
    async with Client(BISTRO, mode="legacy", elicitation_callback=answers) as client:
        result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
    assert text_of(result) == "[SUCCESS] Booked for 2025-12-27"
    assert answers.messages == ["No tables for 2 on 2025-12-25. Would you like another date?"]
    assert answers.questions[0].field_names == ("accept_alternative", "date")


@pytest.mark.anyio
async def test_declining_books_nothing(canned_answers) -> None:
    answers = canned_answers(by_message={r"No tables": "decline"})
    async with Client(BISTRO, mode="legacy", elicitation_callback=answers) as client:
        result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 4})
    assert text_of(result) == "[DECLINED] user declined"


@pytest.mark.anyio
async def test_a_free_date_asks_nothing(canned_answers) -> None:
    answers = canned_answers()  # no answers at all: any question would fail the test
    async with Client(BISTRO, mode="legacy", elicitation_callback=answers) as client:
        result = await client.call_tool("book_table", {"date": "2025-12-24", "party_size": 2})
    assert text_of(result) == "[SUCCESS] Booked for 2025-12-24"
    assert answers.questions == []


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_delete_folder_asks_in_both_eras(canned_answers, mode: str) -> None:
    answers = canned_answers(fields={"confirm": True})
    async with Client(FILES, mode=mode, elicitation_callback=answers) as client:
        result = await client.call_tool("delete_folder", {"path": "/tmp/old-drafts"})
    assert text_of(result) == "deleted /tmp/old-drafts"
    assert answers.messages == ["Really delete /tmp/old-drafts? This cannot be undone."]
