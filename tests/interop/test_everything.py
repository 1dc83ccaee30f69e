"""Our client against ``@modelcontextprotocol/server-everything`` 2026.8.31, the TypeScript reference server.

That server only speaks the handshake era: it answers ``server/discover`` with HTTP 400 (``-32000 "Bad
Request: Server not initialized"``; on stdio ``-32601``), so ``mode="auto"`` must fall back to
``initialize``. It registers its elicitation tools only for a client that declared the elicitation
capability (``trigger-url-elicitation`` only if URL mode was declared), and echoes every answer back in
a ``Raw result: {json}`` text block, which is what these tests compare with the callback's answer.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from mcp_client import (
    Client,
    ClientRequestContext,
    StdioServerParameters,
    UrlElicitationRequiredError,
)
from mcp_client.schema import FieldKind, parse_form_schema
from mcp_client.types import (
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
    TextContent,
)
from tests.interop import _peers

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 60.0
LEGACY_VERSION = "2025-11-25"
FORM_TOOL = "trigger-elicitation-request"
URL_TOOL = "trigger-url-elicitation"
PREREQUISITE_URL = "https://modelcontextprotocol.io"  # what the tool's -32042 error path always asks for


# --------------------------------------------------------------------------------------------- helpers


def canned_value(prop: dict[str, Any]) -> Any:
    """A valid, non-default value for one property of a spec-subset form schema, whatever its kind."""
    kind = prop.get("type")
    if kind == "boolean":
        return not prop.get("default", False)
    if kind in ("integer", "number"):
        low, high = prop.get("minimum", 0), prop.get("maximum", 1000)
        middle = (low + high) / 2
        return int(middle) if kind == "integer" else middle + 0.25
    if kind == "array":
        items = prop["items"]
        values = items["enum"] if "enum" in items else [option["const"] for option in items["anyOf"]]
        count = max(prop.get("minItems", 1), min(2, prop.get("maxItems", 2)))
        return list(reversed(values))[:count]
    if "enum" in prop:
        return prop["enum"][-1]
    if "oneOf" in prop:
        return prop["oneOf"][-1]["const"]
    return {
        "email": "ada@example.com",
        "uri": "https://example.com/ada",
        "date": "1815-12-10",
        "date-time": "1815-12-10T09:00:00Z",
    }.get(prop.get("format", ""), "Ada Lovelace")


def canned_answer(schema: dict[str, Any]) -> dict[str, Any]:
    return {name: canned_value(prop) for name, prop in schema["properties"].items()}


class Recorder:
    """Answers forms with ``canned_answer`` (or ``form_result``), URL questions with accept; records all."""

    def __init__(self, form_result: ElicitResult | None = None) -> None:
        self.form_result = form_result
        self.calls: list[tuple[ClientRequestContext, ElicitRequestParams]] = []
        self.sent: list[ElicitResult] = []

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.calls.append((context, params))
        if isinstance(params, ElicitRequestURLParams):
            result = ElicitResult(action="accept")
        elif self.form_result is not None:
            result = self.form_result
        else:
            result = ElicitResult(action="accept", content=canned_answer(params.requested_schema))
        self.sent.append(result)
        return result


def texts(result: Any) -> list[str]:
    assert not result.is_error, result
    blocks = [block.text for block in result.content if isinstance(block, TextContent)]
    assert len(blocks) == len(result.content), result
    return blocks


def raw_result(result: Any) -> dict[str, Any]:
    """The ``ElicitResult`` the server received, from its ``Raw result: {json}`` debug block."""
    raw = texts(result)[-1]
    assert raw.strip().startswith("Raw result:"), raw
    return json.loads(raw.split("Raw result:", 1)[1])


async def tool_names(client: Client) -> set[str]:
    return {tool.name for tool in (await client.list_tools()).tools}


# ------------------------------------------------------------------------------------------ the server


def test_server_listens_on_loopback_only(everything_server: tuple[int, str]) -> None:
    pid, url = everything_server
    addresses = _peers.listening_addresses(pid)
    assert addresses, f"server-everything (pid {pid}) holds no listening socket"
    assert {address for address, _port in addresses} == {"127.0.0.1"}, addresses
    assert url.startswith("http://127.0.0.1:")


# ---------------------------------------------------------------------------------------- negotiation


async def test_auto_falls_back_to_legacy(everything_url: str) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(everything_url, mode="auto") as client:
            assert client.protocol_version == LEGACY_VERSION
            assert client.server_info is not None
            assert client.server_info.name == "mcp-servers/everything"
            assert client.server_info.title == "Everything Reference Server"
            assert client.server_capabilities is not None and client.server_capabilities.tools is not None
            result = await client.call_tool("echo", {"message": "héllo"})
            assert texts(result) == ["Echo: héllo"]
            await client.ping()


async def test_auto_falls_back_to_legacy_over_stdio(everything_stdio_command: tuple[str, list[str]]) -> None:
    command, args = everything_stdio_command
    recorder = Recorder()
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(
            StdioServerParameters(command=command, args=args), mode="auto", elicitation_callback=recorder
        ) as client:
            assert client.protocol_version == LEGACY_VERSION
            result = await client.call_tool(FORM_TOOL)
    assert raw_result(result) == {"action": "accept", "content": recorder.sent[0].content}


# ------------------------------------------------------------------------------ capability-gated tools


async def test_elicitation_tools_only_with_a_callback(everything_url: str) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(everything_url, mode="auto") as client:
            without = await tool_names(client)
        async with Client(everything_url, mode="auto", elicitation_callback=Recorder()) as client:
            with_callback = await tool_names(client)
    assert "echo" in without and "echo" in with_callback
    assert FORM_TOOL not in without and URL_TOOL not in without
    assert {FORM_TOOL, URL_TOOL} <= with_callback


async def test_form_only_callback_hides_the_url_tool(everything_url: str) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(
            everything_url, mode="auto", elicitation_callback=Recorder(), elicitation_modes=["form"]
        ) as client:
            names = await tool_names(client)
    assert FORM_TOOL in names
    assert URL_TOOL not in names


# --------------------------------------------------------------------------------------- form mode


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_rich_form_answered_and_echoed(everything_url: str) -> None:
    recorder = Recorder()
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(everything_url, mode="auto", elicitation_callback=recorder) as client:
            result = await client.call_tool(FORM_TOOL)
    assert len(recorder.calls) == 1
    context, params = recorder.calls[0]
    assert isinstance(params, ElicitRequestFormParams)
    assert context.era == "legacy" and context.protocol_version == LEGACY_VERSION
    assert context.request_id is not None
    assert context.server_name == "Everything Reference Server"

    sent = recorder.sent[0].content
    assert sent is not None and len(sent) == 13
    assert raw_result(result) == {"action": "accept", "content": sent}
    lines = texts(result)
    assert lines[0] == "✅ User provided the requested information!"
    assert "- Name: Ada Lovelace" in lines[1]
    assert "- Agreed to terms: true" in lines[1]
    assert "- Email: ada@example.com" in lines[1]
    assert "- Homepage: https://example.com/ada" in lines[1]
    assert "- Birthdate: 1815-12-10" in lines[1]
    assert "- Favorite Integer: 50" in lines[1]
    assert "- Favorite Number: 500.25" in lines[1]


async def test_rich_form_schema_parses_into_every_kind(everything_url: str) -> None:
    """The server's "every schema kind" form goes through our normalized schema model without loss."""
    recorder = Recorder(ElicitResult(action="decline"))
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(everything_url, mode="auto", elicitation_callback=recorder) as client:
            await client.call_tool(FORM_TOOL)
    params = recorder.calls[0][1]
    assert isinstance(params, ElicitRequestFormParams)
    form = parse_form_schema(params.requested_schema)
    kinds = {field.name: field.kind for field in form.fields}
    assert kinds == {
        "name": FieldKind.TEXT,
        "check": FieldKind.BOOLEAN,
        "firstLine": FieldKind.TEXT,
        "email": FieldKind.EMAIL,
        "homepage": FieldKind.URI,
        "birthdate": FieldKind.DATE,
        "integer": FieldKind.INTEGER,
        "number": FieldKind.NUMBER,
        "untitledSingleSelectEnum": FieldKind.SINGLE_CHOICE,
        "untitledMultipleSelectEnum": FieldKind.MULTI_CHOICE,
        "titledSingleSelectEnum": FieldKind.SINGLE_CHOICE,
        "titledMultipleSelectEnum": FieldKind.MULTI_CHOICE,
        "legacyTitledEnum": FieldKind.SINGLE_CHOICE,
    }
    assert form.field("name").required and not form.field("check").required
    assert [o.label for o in form.field("titledSingleSelectEnum").options] == [
        "Superman",
        "Green Lantern",
        "Wonder Woman",
    ]
    assert [o.label for o in form.field("titledMultipleSelectEnum").options] == ["Tuna", "Salmon", "Trout"]
    assert [o.label for o in form.field("legacyTitledEnum").options][:2] == ["Cats", "Dogs"]
    assert form.field("integer").default == 42 and form.field("integer").maximum == 100
    assert form.field("untitledMultipleSelectEnum").max_items == 3


async def test_partial_answer_gets_schema_defaults(everything_url: str) -> None:
    """SEP-1034: only the required field answered; the client sends the schema's defaults for the rest."""
    recorder = Recorder(ElicitResult(action="accept", content={"name": "Ada"}))
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(everything_url, mode="auto", elicitation_callback=recorder) as client:
            result = await client.call_tool(FORM_TOOL)
    assert raw_result(result)["content"] == {
        "name": "Ada",
        "firstLine": "It was a dark and stormy night.",
        "integer": 42,
        "number": 3.14,
        "untitledSingleSelectEnum": "Monica",
        "untitledMultipleSelectEnum": ["Guitar"],
        "titledSingleSelectEnum": "hero-1",
        "titledMultipleSelectEnum": ["fish-1"],
        "legacyTitledEnum": "pet-1",
    }


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ("decline", "❌ User declined to provide the requested information."),
        ("cancel", "⚠️ User cancelled the elicitation dialog."),
    ],
)
async def test_form_refused(everything_url: str, action: str, text: str) -> None:
    recorder = Recorder(ElicitResult(action=action))  # pyright: ignore[reportArgumentType]
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(everything_url, mode="auto", elicitation_callback=recorder) as client:
            result = await client.call_tool(FORM_TOOL)
    assert texts(result)[0] == text
    assert raw_result(result) == {"action": action}


# ---------------------------------------------------------------------------------------- URL mode


async def test_url_elicitation_as_a_request(everything_url: str) -> None:
    recorder = Recorder()
    arguments = {"url": "https://example.com/connect?x=1", "elicitationId": "interop-eid-1", "message": "Go"}
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(everything_url, mode="auto", elicitation_callback=recorder) as client:
            result = await client.call_tool(URL_TOOL, arguments)
    assert len(recorder.calls) == 1
    context, params = recorder.calls[0]
    assert isinstance(params, ElicitRequestURLParams)
    assert params.url == "https://example.com/connect?x=1"
    assert params.elicitation_id == "interop-eid-1"
    assert params.message == "Go"
    assert context.era == "legacy" and context.request_id is not None
    lines = texts(result)
    assert lines[0] == (
        "✅ User completed the URL elicitation flow.\nElicitation ID: interop-eid-1\n"
        "URL: https://example.com/connect?x=1"
    )
    assert raw_result(result) == {"action": "accept"}


async def test_url_elicitation_required_error_then_retry(everything_url: str) -> None:
    """-32042 reaches the caller as UrlElicitationRequiredError; retrying the same call then succeeds."""
    recorder = Recorder()
    arguments = {"url": "https://example.com/authorize", "errorPath": True}
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(everything_url, mode="auto", elicitation_callback=recorder) as client:
            with pytest.raises(UrlElicitationRequiredError) as caught:
                await client.call_tool(URL_TOOL, arguments)
            assert recorder.calls == []  # the error path asks nothing: the caller decides what to do

            error = caught.value
            assert error.code == -32042
            assert "This request requires browser-based authorization." in error.message
            assert len(error.elicitations) == 1
            prerequisite = error.elicitations[0]
            assert isinstance(prerequisite, ElicitRequestURLParams)
            assert prerequisite.url == PREREQUISITE_URL
            assert prerequisite.elicitation_id
            assert (
                prerequisite.message == "Open this link to satisfy the prerequisite, then retry the request."
            )

            # The server remembers (per session) that it issued the prerequisite; the retry goes on to
            # the request path and asks for the original URL.
            result = await client.call_tool(URL_TOOL, arguments)
    assert len(recorder.calls) == 1
    params = recorder.calls[0][1]
    assert isinstance(params, ElicitRequestURLParams)
    assert params.url == "https://example.com/authorize"
    assert params.elicitation_id and params.elicitation_id != prerequisite.elicitation_id
    assert texts(result)[0].startswith("✅ User completed the URL elicitation flow.")
