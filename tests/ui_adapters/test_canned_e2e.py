"""Canned answers and the URL adapter against the real guide server, in both protocol eras.

The server is the official SDK's MCPServer (tests/servers/guide_server.py) on 127.0.0.1; nothing is
mocked. ``book_table`` and ``pay_deposit`` ask through the legacy back-channel (``ctx.elicit``), so
the modern era uses their 2026 counterparts: the ``delete_folder`` resolver works in both eras and
``pay_deposit_mrtr`` asks for the deposit link in an ``InputRequiredResult``.
"""

from __future__ import annotations

import io
from typing import Any

import anyio
import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from mcp_client import Client, ElicitationCallbackError, StdioServerParameters
from ui_adapters import CannedAnswers, ElicitationRouter, UnansweredQuestionError, UrlAdapter

pytestmark = pytest.mark.anyio

BOUND = 30  # seconds for a whole conversation with the server


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


async def test_book_table_with_canned_fields_legacy(guide_http_url: str) -> None:
    answers = CannedAnswers(fields={"date": "2025-12-27", "accept_alternative": True})
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode="legacy", elicitation_callback=answers) as client:
            result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
    assert text_of(result) == "[SUCCESS] Booked for 2025-12-27"
    (question,) = answers.questions
    assert question.message == "No tables for 2 on 2025-12-25. Would you like another date?"
    assert question.field_names == ("accept_alternative", "date")
    assert question.context.era == "legacy"
    assert question.context.server == guide_http_url


async def test_book_table_with_defaults_filled_in(guide_http_url: str) -> None:
    answers = CannedAnswers(fields={"accept_alternative": True})
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode="legacy", elicitation_callback=answers) as client:
            result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
    assert text_of(result) == "[SUCCESS] Booked for 2025-12-26"


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ({"confirm": True}, "deleted /srv/photos"),
        ({"confirm": False}, "kept /srv/photos (not confirmed)"),
        ("decline", "kept /srv/photos (outcome: decline)"),
        ("cancel", "kept /srv/photos (outcome: cancel)"),
    ],
)
async def test_delete_folder_by_message(guide_http_url: str, era: str, answer: Any, expected: str) -> None:
    answers = CannedAnswers(by_message={r"^Really delete /srv/photos\?": answer})
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=era, elicitation_callback=answers) as client:
            result = await client.call_tool("delete_folder", {"path": "/srv/photos"})
    assert text_of(result) == expected
    assert answers.messages == ["Really delete /srv/photos? This cannot be undone."]
    assert answers.questions[0].context.era == ("legacy" if era == "legacy" else "modern")


async def test_plan_trip_with_a_script(guide_http_url: str, era: str) -> None:
    # Two independent questions (dates, budget), then none: a small budget skips the luxury question.
    # In the modern era the first two arrive in one round and may be answered in any order, so the
    # script is keyed by message instead of by position.
    answers = CannedAnswers(
        by_message={
            "When do you want to go": {"start": "2026-05-01", "nights": 3},
            "What is your budget": {"max_eur": 500},
        }
    )
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=era, elicitation_callback=answers) as client:
            result = await client.call_tool("plan_trip", {"destination": "Lisbon"})
    assert text_of(result) == "Lisbon: 2026-05-01 x3 nights, <= 500.0 EUR, luxury=False"
    assert sorted(answers.messages) == [
        "What is your budget for Lisbon?",
        "When do you want to go to Lisbon?",
    ]


@pytest.mark.parametrize("confirm_tool", ["confirm_payment", "confirm_payment_related"])
@pytest.mark.parametrize("transport", ["http", "stdio"])
async def test_pay_deposit_legacy_accept_and_completion(
    guide_http_url: str, guide_stdio_command: tuple[str, list[str]], transport: str, confirm_tool: str
) -> None:
    server: Any = guide_http_url
    if transport == "stdio":
        server = StdioServerParameters(guide_stdio_command[0], guide_stdio_command[1])
    answers = CannedAnswers(script=["accept"])
    heard = anyio.Event()

    async def on_complete(elicitation_id: str) -> None:
        await answers.on_elicitation_complete(elicitation_id)
        heard.set()

    with anyio.fail_after(BOUND):
        async with Client(
            server, mode="legacy", elicitation_callback=answers, elicitation_complete_callback=on_complete
        ) as client:
            result = await client.call_tool("pay_deposit", {"booking_id": "B42"})
            assert text_of(result) == "pay_deposit outcome: accept (elicitation_id=pay-B42)"
            await client.call_tool(confirm_tool, {"elicitation_id": "pay-B42"})
            await heard.wait()
    assert answers.completed_ids == ["pay-B42"]
    (question,) = answers.questions
    assert question.mode == "url"
    assert question.params.url == "https://pay.example.com/deposit?booking=B42"  # type: ignore[union-attr]


async def test_pay_deposit_modern_url_question(guide_http_url: str) -> None:
    answers = CannedAnswers.accept_defaults()
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode="2026-07-28", elicitation_callback=answers) as client:
            result = await client.call_tool("pay_deposit_mrtr", {"booking_id": "B42"})
    assert text_of(result).startswith("deposit answer=accept; echoed requestState=")
    (question,) = answers.questions
    assert question.mode == "url"
    assert question.params.elicitation_id is None  # type: ignore[union-attr]
    assert question.context.era == "modern"


async def test_an_unexpected_question_fails_loudly(guide_http_url: str, era: str) -> None:
    answers = CannedAnswers(fields={"accept_alternative": True})  # nothing for delete_folder
    with anyio.fail_after(BOUND):
        async with Client(guide_http_url, mode=era, elicitation_callback=answers) as client:
            with pytest.raises(ElicitationCallbackError) as caught:
                await client.call_tool("delete_folder", {"path": "/srv/photos"})
    message = str(caught.value)
    assert "UnansweredQuestionError: CannedAnswers has no answer for this question" in message
    assert "Really delete /srv/photos? This cannot be undone." in message
    assert "confirm (boolean, required)" in message
    (question,) = answers.unanswered
    assert question.field_names == ("confirm",)
    with pytest.raises(UnansweredQuestionError):
        answers.assert_all_answered()


async def test_url_adapter_waits_until_the_legacy_completion_arrives(guide_http_url: str) -> None:
    screen = io.StringIO()
    opened: list[str] = []

    def open_browser(url: str) -> bool:
        opened.append(url)
        return True

    with create_pipe_input() as keys:
        url_adapter = UrlAdapter(
            console=Console(file=screen, width=120, color_system=None),
            input=keys,
            output=DummyOutput(),
            open_browser=open_browser,
        )
        router = ElicitationRouter(form=CannedAnswers(fields={"confirm": True}), url=url_adapter)
        keys.send_text("y\r")
        done: list[bool] = []

        async def wait() -> None:
            done.append(await url_adapter.wait_for_completion("pay-B42"))

        with anyio.fail_after(BOUND):
            async with Client(
                guide_http_url,
                mode="legacy",
                elicitation_callback=router,
                elicitation_complete_callback=router.elicitation_complete_callback,
            ) as client:
                # accept is sent right after consent: the tool returns before any completion.
                result = await client.call_tool("pay_deposit", {"booking_id": "B42"})
                assert text_of(result) == "pay_deposit outcome: accept (elicitation_id=pay-B42)"
                assert opened == ["https://pay.example.com/deposit?booking=B42"]
                assert not url_adapter.is_complete("pay-B42")
                async with anyio.create_task_group() as tg:
                    tg.start_soon(wait)  # shows "waiting…" with a stop key; nobody presses it
                    await client.call_tool("confirm_payment", {"elicitation_id": "pay-B42"})
    assert done == [True]
    text = screen.getvalue()
    assert "Site:  pay.example.com" in text
    assert "Waiting for pay.example.com…" in text
    assert "✓ pay.example.com is done (the server confirmed it)." in text


async def test_url_adapter_decline_reaches_the_server(guide_http_url: str) -> None:
    with create_pipe_input() as keys:
        adapter = UrlAdapter(
            console=Console(file=io.StringIO()),
            input=keys,
            output=DummyOutput(),
            open_browser=lambda url: True,
        )
        keys.send_text("\r")  # Enter: the default, No
        with anyio.fail_after(BOUND):
            async with Client(guide_http_url, mode="legacy", elicitation_callback=adapter) as client:
                result = await client.call_tool("pay_deposit", {"booking_id": "B42"})
    assert text_of(result) == "pay_deposit outcome: decline (elicitation_id=pay-B42)"


async def test_url_adapter_in_the_modern_era(guide_http_url: str) -> None:
    screen = io.StringIO()
    with create_pipe_input() as keys:
        adapter = UrlAdapter(
            console=Console(file=screen, width=120),
            input=keys,
            output=DummyOutput(),
            open_browser=lambda url: True,
        )
        keys.send_text("y\r")
        with anyio.fail_after(BOUND):
            async with Client(guide_http_url, mode="2026-07-28", elicitation_callback=adapter) as client:
                result = await client.call_tool("pay_deposit_mrtr", {"booking_id": "B42"})
    assert text_of(result).startswith("deposit answer=accept")
    assert "will be asked again" in screen.getvalue()
