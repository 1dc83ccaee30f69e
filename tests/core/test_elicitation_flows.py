"""The guide's tools through one elicitation callback, in both eras, over HTTP and stdio.

Every test runs against the official ``mcp`` server (tests/servers/guide_server.py) on 127.0.0.1 or as
a subprocess, and asserts what a user sees: the tool's answer and what the callback was asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import pytest

from mcp_client import (
    CapabilityNotDeclaredError,
    Client,
    ClientRequestContext,
    InputRequiredRoundsExceededError,
    InvalidElicitationContentError,
    InvalidElicitationSchemaError,
    MCPError,
    NoBackChannelError,
    ServerError,
    UrlElicitationRequiredError,
)
from mcp_client.schema import FieldKind, FormSchema
from mcp_client.types import (
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
)
from tests.core.helpers import (
    Recorder,
    RecordingTransport,
    accept,
    plan_trip_answer,
    reply,
    server_for,
    text_of,
)

pytestmark = pytest.mark.anyio


@pytest.fixture
def server(transport: str, guide_http_url: str, guide_stdio_command: tuple[str, list[str]]) -> Any:
    return server_for(transport, guide_http_url, guide_stdio_command)


# ------------------------------------------------------------------ legacy ctx.elicit (book_table)


async def test_guide_example_books_the_alternative_date(server: Any) -> None:
    """The elicitation guide's client code, unchanged but for its imports."""

    seen: list[str] = []

    async def handle_elicitation(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        if isinstance(params, ElicitRequestURLParams):
            return ElicitResult(action="accept")
        seen.append(params.message)
        return ElicitResult(action="accept", content={"accept_alternative": True, "date": "2025-12-27"})

    async with Client(server, mode="legacy", elicitation_callback=handle_elicitation) as client:
        result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
    assert text_of(result) == "[SUCCESS] Booked for 2025-12-27"
    assert seen == ["No tables for 2 on 2025-12-25. Would you like another date?"]


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda: accept(accept_alternative=False), "[CANCELLED] No booking made"),
        (lambda: reply("decline"), "[DECLINED] user declined"),
        (lambda: reply("cancel"), "[CANCELLED] user cancelled"),
    ],
    ids=["accept-not-ok", "decline", "cancel"],
)
async def test_book_table_other_answers(server: Any, make: Callable[[], Recorder], expected: str) -> None:
    callback = make()
    async with Client(server, mode="legacy", elicitation_callback=callback) as client:
        result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 4})
    assert text_of(result) == expected
    context, params = callback.questions[0]
    assert isinstance(params, ElicitRequestFormParams)
    assert context.era == "legacy" and context.request_id is not None
    assert context.server_info is not None and context.server_info.name == "elicitation-research"
    assert context.protocol_version == "2025-11-25"


async def test_schema_defaults_are_filled_before_sending(server: Any) -> None:
    """The callback leaves out `date`; the client fills the schema's default (SEP-1034) into the answer
    it sends. (The server would fill it too, so the answer on the wire is what proves it.)"""
    transport = RecordingTransport(server)
    async with Client(
        transport, mode="legacy", elicitation_callback=accept(accept_alternative=True)
    ) as client:
        result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 4})
    assert text_of(result) == "[SUCCESS] Booked for 2025-12-26"
    answers = [m["result"] for m in transport.sent if "result" in m]
    assert answers == [{"action": "accept", "content": {"accept_alternative": True, "date": "2025-12-26"}}]


async def test_the_callback_gets_the_form_already_parsed(server: Any, era: str) -> None:
    """The client parses the schema once and hands the normalized form on: no raw JSON Schema to read."""
    forms: list[FormSchema] = []

    async def callback(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        assert isinstance(params, ElicitRequestFormParams)
        forms.append(params.form)
        return ElicitResult(action="accept", content={f.name: True for f in params.form.fields})

    async with Client(server, mode=era, elicitation_callback=callback) as client:
        result = await client.call_tool("delete_folder", {"path": "/srv/photos"})
    assert text_of(result) == "deleted /srv/photos"
    [form] = forms
    assert [(f.name, f.kind, f.required) for f in form.fields] == [("confirm", FieldKind.BOOLEAN, True)]


async def test_invalid_content_is_never_sent_and_names_the_field(server: Any) -> None:
    callback = accept(date="2025-12-27")  # the required accept_alternative is missing
    async with Client(server, mode="legacy", elicitation_callback=callback) as client:
        with pytest.raises(InvalidElicitationContentError) as caught:
            await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 4})
        assert caught.value.field == "accept_alternative"
        assert caught.value.rule == "required"
        assert "accept_alternative" in str(caught.value)
        # the client keeps working after a refused answer
        assert text_of(await client.call_tool("echo", {"text": "still here"})) == "still here"


async def test_invalid_content_fails_the_call_in_both_eras(server: Any, era: str) -> None:
    callback = accept(confirm="yes please")  # a string where the schema wants a boolean
    async with Client(server, mode=era, elicitation_callback=callback) as client:
        with pytest.raises(InvalidElicitationContentError) as caught:
            await client.call_tool("delete_folder", {"path": "/srv/photos"})
        assert caught.value.field == "confirm"
        assert "confirm" in str(caught.value)
        # nothing was deleted, and the same client goes on working
        assert text_of(await client.call_tool("echo", {"text": "ok"})) == "ok"


async def test_without_a_callback_legacy_push_is_refused(server: Any) -> None:
    """The server is told -32600 "Elicitation not supported"; the call names the callback to pass."""
    async with Client(server, mode="legacy") as client:
        with pytest.raises(CapabilityNotDeclaredError) as caught:
            await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 4})
    assert caught.value.code == -32600
    assert caught.value.kind == "elicitation"
    assert "pass elicitation_callback=..." in caught.value.message
    echo = caught.value.__context__  # what the server answered after hearing the refusal
    assert isinstance(echo, MCPError) and echo.message == "Elicitation not supported"


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [("book_table", {"date": "2025-12-25", "party_size": 2}), ("pay_deposit", {"booking_id": "B42"})],
)
@pytest.mark.parametrize("mode", ["2026-07-28", "auto"])
async def test_ctx_elicit_in_2026_07_28_says_to_connect_in_legacy(
    server: Any, mode: str, tool: str, arguments: dict[str, Any]
) -> None:
    """The server cannot push its question (-32600 "no back-channel"); the error says why and what to do."""
    callback = accept(accept_alternative=True)
    async with Client(server, mode=mode, elicitation_callback=callback) as client:
        with pytest.raises(NoBackChannelError) as caught:
            await client.call_tool(tool, arguments)
        assert client.era == "modern"
        assert text_of(await client.call_tool("echo", {"text": "still here"})) == "still here"
    error = caught.value
    text = str(error)
    if mode == "auto":  # discovery told the client the server's own name
        assert text.startswith(f"the server 'elicitation-research' ({client.server}) tried to"), text
    else:  # adopted with no traffic: the first call is the first word from the server
        assert text.startswith(f"{client.server} tried to"), text
    assert "tried to ask the user a question (elicitation/create) over the legacy back-channel" in text
    assert "the question never reached the user" in text
    assert 'Client(..., mode="legacy")' in text and '"mode": "legacy" for this server' in text
    assert (error.server, error.method) == (client.server, "elicitation/create")
    # still the server's JSON-RPC error, as sent: `except ServerError` / `except MCPError` keep working
    assert isinstance(error, ServerError) and error.code == -32600
    assert error.message.startswith("Cannot send 'elicitation/create'") and "back-channel" in error.message
    assert isinstance(error.__cause__, ServerError) and error.__cause__.message == error.message
    assert callback.questions == []


async def test_ctx_elicit_in_legacy_still_asks(server: Any) -> None:
    """The fix the error names: the same call in the legacy era reaches the callback."""
    callback = accept(accept_alternative=True, date="2025-12-27")
    async with Client(server, mode="legacy", elicitation_callback=callback) as client:
        result = await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
    assert text_of(result) == "[SUCCESS] Booked for 2025-12-27"
    assert len(callback.questions) == 1


async def test_nested_schema_never_reaches_the_callback(server: Any) -> None:
    callback = accept()
    async with Client(server, mode="legacy", elicitation_callback=callback) as client:
        with pytest.raises(InvalidElicitationSchemaError) as caught:
            await client.call_tool("raw_nested_form", {})
    assert callback.questions == []
    assert caught.value.property is not None
    assert caught.value.property in str(caught.value)


async def test_url_mode_and_completion_notification(server: Any) -> None:
    completed: list[str] = []

    async def on_complete(elicitation_id: str) -> None:
        completed.append(elicitation_id)

    callback = Recorder(lambda _p: ElicitResult(action="accept"))
    async with Client(
        server, mode="legacy", elicitation_callback=callback, elicitation_complete_callback=on_complete
    ) as client:
        result = await client.call_tool("pay_deposit", {"booking_id": "B42"})
        assert text_of(result) == "pay_deposit outcome: accept (elicitation_id=pay-B42)"
        _, params = callback.questions[0]
        assert isinstance(params, ElicitRequestURLParams)
        assert params.url == "https://pay.example.com/deposit?booking=B42"
        assert params.elicitation_id == "pay-B42"
        await client.call_tool("confirm_payment_related", {"elicitation_id": "pay-B42"})
        await client.call_tool("confirm_payment_related", {"elicitation_id": "pay-B42"})  # again
        await client.call_tool("confirm_payment_related", {"elicitation_id": "unknown-id"})
    assert completed == ["pay-B42"]  # unknown and already-completed ids are ignored (spec MUST)


async def test_url_elicitation_required_error(server: Any) -> None:
    completed: list[str] = []

    async def on_complete(elicitation_id: str) -> None:
        completed.append(elicitation_id)

    async with Client(
        server, mode="legacy", elicitation_callback=accept(), elicitation_complete_callback=on_complete
    ) as client:
        with pytest.raises(UrlElicitationRequiredError) as caught:
            await client.call_tool("require_url", {"booking_id": "B42"})
        # the ids of a -32042 are awaited too: their completion reaches the callback
        await client.call_tool("confirm_payment_related", {"elicitation_id": "bank-B42"})
    assert completed == ["bank-B42"]
    (elicitation,) = caught.value.elicitations
    assert caught.value.code == -32042
    assert elicitation.url == "https://bank.example.com/connect?booking=B42"
    assert elicitation.elicitation_id == "bank-B42"


# ------------------------------------------------------------------ resolvers (both eras)


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda: accept(confirm=True), "deleted /srv/photos"),
        (lambda: accept(confirm=False), "kept /srv/photos (not confirmed)"),
        (lambda: reply("decline"), "kept /srv/photos (outcome: decline)"),
        (lambda: reply("cancel"), "kept /srv/photos (outcome: cancel)"),
    ],
    ids=["accept", "accept-not-ok", "decline", "cancel"],
)
async def test_delete_folder(server: Any, era: str, make: Callable[[], Recorder], expected: str) -> None:
    callback = make()
    async with Client(server, mode=era, elicitation_callback=callback) as client:
        result = await client.call_tool("delete_folder", {"path": "/srv/photos"})
    assert text_of(result) == expected
    (context, params) = callback.questions[0]
    assert params.message == "Really delete /srv/photos? This cannot be undone."
    if era == "2026-07-28":
        assert context.era == "modern" and context.input_key is not None
        assert context.protocol_version == "2026-07-28"
    else:
        assert context.era == "legacy" and context.request_id is not None


async def test_empty_folder_asks_nothing(server: Any, era: str) -> None:
    callback = accept(confirm=True)
    async with Client(server, mode=era, elicitation_callback=callback) as client:
        result = await client.call_tool("delete_folder", {"path": "/srv/empty"})
    assert text_of(result) == "deleted /srv/empty"
    assert callback.questions == []


async def test_dependent_resolvers_over_several_rounds(server: Any, era: str) -> None:
    callback = Recorder(plan_trip_answer)
    async with Client(server, mode=era, elicitation_callback=callback) as client:
        result = await client.call_tool("plan_trip", {"destination": "Lisbon"})
    assert text_of(result) == "Lisbon: 2026-05-01 x3 nights, <= 2500.0 EUR, luxury=True"
    assert len(callback.questions) == 3
    if era == "2026-07-28":
        first_round = [c for c, _ in callback.questions[:2]]
        assert sorted(c.question_index for c in first_round) == [1, 2]
        assert all(c.question_count == 2 for c in first_round)
        assert callback.questions[2][0].question_count == 1


async def test_survey_rich_schema_with_defaults(server: Any, era: str) -> None:
    def answer(params: Any) -> ElicitResult:
        return ElicitResult(action="accept", content={"email": "ada@example.com", "rating": 4.5})

    async with Client(server, mode=era, elicitation_callback=Recorder(answer)) as client:
        result = await client.call_tool("survey", {})
    text = text_of(result)
    assert text.startswith("survey: ")
    assert '"email":"ada@example.com"' in text and '"age":30' in text and '"subscribe":false' in text


# ------------------------------------------------------------------ modern-only behaviour


async def test_modern_url_mode_has_no_elicitation_id(server: Any) -> None:
    callback = Recorder(lambda _p: ElicitResult(action="accept"))
    async with Client(server, mode="2026-07-28", elicitation_callback=callback) as client:
        result = await client.call_tool("pay_deposit_mrtr", {"booking_id": "B42"})
    _, params = callback.questions[0]
    assert isinstance(params, ElicitRequestURLParams) and params.elicitation_id is None
    assert text_of(result).startswith("deposit answer=accept; echoed requestState=")
    assert '"booking": "B42"' in text_of(result)


async def test_state_only_rounds_are_polled(server: Any) -> None:
    async with Client(server, mode="2026-07-28") as client:
        result = await client.call_tool("poll_only", {})
    assert text_of(result) == "done after 2 state-only rounds"


async def test_round_cap_says_how_many_and_how_to_raise_it(server: Any) -> None:
    callback = accept(confirm=True)
    async with Client(
        server, mode="2026-07-28", elicitation_callback=callback, input_required_max_rounds=3
    ) as client:
        with pytest.raises(InputRequiredRoundsExceededError) as caught:
            await client.call_tool("always_input", {})
    assert caught.value.rounds == 3
    assert "3" in str(caught.value) and "input_required_max_rounds" in str(caught.value)
    assert len(callback.questions) == 3


async def test_modern_without_callback_declares_nothing(server: Any) -> None:
    async with Client(server, mode="2026-07-28") as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool("delete_folder", {"path": "/srv/photos"})
    assert caught.value.code == -32021


async def test_modern_nested_schema_never_reaches_the_callback(server: Any) -> None:
    callback = accept()
    async with Client(server, mode="2026-07-28", elicitation_callback=callback) as client:
        with pytest.raises(InvalidElicitationSchemaError):
            await client.call_tool("raw_nested_mrtr", {})
    assert callback.questions == []


# ------------------------------------------------------------------ prompts and resources


async def test_get_prompt_runs_the_same_loop(server: Any, era: str) -> None:
    async with Client(server, mode=era, elicitation_callback=accept(confirm=True)) as client:
        prompt = await client.get_prompt("trip_prompt", {"destination": "Oslo"})
        plain = await client.get_prompt("greet", {"name": "Ada"})
    assert prompt.messages[0].content.text == "Plan a trip to Oslo with a packing list."  # type: ignore[union-attr]
    assert plain.messages[0].content.text == "Hello, Ada!"  # type: ignore[union-attr]


async def test_lists_and_resources(server: Any, era: str) -> None:
    async with Client(server, mode=era, elicitation_callback=accept()) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        prompts = {prompt.name for prompt in (await client.list_prompts()).prompts}
        resources = {resource.uri for resource in (await client.list_resources()).resources}
        readme = await client.read_resource("guide://readme")
        await client.ping()
    assert {"book_table", "delete_folder", "plan_trip", "echo"} <= tools
    assert {"greet", "trip_prompt"} <= prompts
    assert "guide://readme" in resources
    assert readme.contents[0].text == "Guide server readme: tools for elicitation tests."  # type: ignore[union-attr]


# ------------------------------------------------------------------ time and concurrency


async def test_time_in_the_callback_does_not_count(server: Any, era: str) -> None:
    async def slow_person(_params: Any) -> ElicitResult:
        await anyio.sleep(4.0)
        return ElicitResult(action="accept", content={"confirm": True})

    async with Client(server, mode=era, elicitation_callback=Recorder(slow_person), timeout=2.0) as client:
        result = await client.call_tool("delete_folder", {"path": "/srv/photos"})
    assert text_of(result) == "deleted /srv/photos"


async def test_fifty_concurrent_calls_get_their_own_answers(server: Any, era: str) -> None:
    def answer(params: Any) -> ElicitResult:
        # confirm only the even folders; each call must get the answer to its own question
        number = int(params.message.split("/srv/f")[1].split("?")[0])
        return ElicitResult(action="accept", content={"confirm": number % 2 == 0})

    results: dict[int, str] = {}
    async with Client(server, mode=era, elicitation_callback=Recorder(answer)) as client:

        async def one(n: int) -> None:
            results[n] = text_of(await client.call_tool("delete_folder", {"path": f"/srv/f{n}"}))

        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:
                for n in range(50):
                    tg.start_soon(one, n)
    assert results == {
        n: (f"deleted /srv/f{n}" if n % 2 == 0 else f"kept /srv/f{n} (not confirmed)") for n in range(50)
    }
