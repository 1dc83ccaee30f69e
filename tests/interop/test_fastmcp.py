"""Our client against FastMCP 4.1.6, a third-party server that speaks both protocol eras on one endpoint.

The peer's ``ask_profile`` tool asks a small form (``name`` required, ``age`` integer with default 30,
``subscribe`` boolean with default false). In the handshake era FastMCP pushes ``elicitation/create``; in
the 2026-07-28 era it returns an ``InputRequiredResult`` (key ``"profile"``, a sealed ``requestState``) and
reads the answer on the client's retry. The tool's text is a JSON echo of what it received, so each test
checks that the answer our callback gave is the answer the server saw.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from mcp_client import (
    CapabilityNotDeclaredError,
    Client,
    ClientRequestContext,
    MCPClientError,
    StdioServerParameters,
)
from mcp_client.types import ElicitRequestFormParams, ElicitRequestParams, ElicitResult, TextContent
from tests.interop import _peers

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 60.0
ANSWER: dict[str, Any] = {"name": "Ada Lovelace", "age": 36, "subscribe": True}

# mode -> (era the client should end up in, protocol version both sides should report)
MODES = {
    "legacy": ("legacy", "2025-11-25"),
    "2026-07-28": ("modern", "2026-07-28"),
    "auto": ("modern", "2026-07-28"),  # FastMCP answers server/discover, so auto adopts the modern era
}


class Recorder:
    """An elicitation callback that answers every form with fixed content and remembers what it was asked."""

    def __init__(self, result: ElicitResult) -> None:
        self.result = result
        self.calls: list[tuple[ClientRequestContext, ElicitRequestParams]] = []

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.calls.append((context, params))
        return self.result


def echoed(result: Any) -> dict[str, Any]:
    """The peer's JSON echo from a tool result (its first text block)."""
    assert not result.is_error, result
    block = result.content[0]
    assert isinstance(block, TextContent), result
    return json.loads(block.text)


def check_profile_question(recorder: Recorder, era: str) -> None:
    assert len(recorder.calls) == 1, recorder.calls
    context, params = recorder.calls[0]
    assert isinstance(params, ElicitRequestFormParams)
    assert params.message == "Hi! Please fill in your profile."
    schema = params.requested_schema
    assert set(schema["properties"]) == {"name", "age", "subscribe"}
    assert schema["required"] == ["name"]
    assert schema["properties"]["age"]["default"] == 30
    assert schema["properties"]["age"]["type"] == "integer"
    assert context.era == era
    assert context.server_info is not None and context.server_info.name == "fastmcp-interop-peer"
    if era == "modern":
        assert context.input_key == "profile"
        assert (context.question_index, context.question_count) == (1, 1)
    else:
        assert context.request_id is not None


def test_server_listens_on_loopback_only(fastmcp_server: tuple[int, str]) -> None:
    pid, url = fastmcp_server
    addresses = _peers.listening_addresses(pid)
    assert addresses, f"the FastMCP peer (pid {pid}) holds no listening socket"
    assert {address for address, _port in addresses} == {"127.0.0.1"}, addresses
    assert url.startswith("http://127.0.0.1:")


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
@pytest.mark.parametrize("mode", list(MODES))
async def test_form_answer_reaches_the_tool(fastmcp_url: str, mode: str) -> None:
    era, version = MODES[mode]
    recorder = Recorder(ElicitResult(action="accept", content=ANSWER))
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(fastmcp_url, mode=mode, elicitation_callback=recorder) as client:
            assert client.protocol_version == version
            result = await client.call_tool("ask_profile", {"greeting": "Hi"})
            # mode="2026-07-28" connects with no traffic; the server names itself in each result's _meta.
            assert client.server_info is not None and client.server_info.name == "fastmcp-interop-peer"
    echo = echoed(result)
    assert echo["era"] == era
    assert echo["protocol_version"] == version
    assert echo["action"] == "accept"
    assert echo["content"] == ANSWER
    if era == "modern":
        # The tool put "asked:<greeting>" in requestState (FastMCP seals it); it only comes back if the
        # client echoed the sealed token byte for byte on the retry.
        assert echo["state"] == "asked:Hi"
    check_profile_question(recorder, era)


@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_refusal_reaches_the_tool(fastmcp_url: str, era: str, action: str) -> None:
    recorder = Recorder(ElicitResult(action=action))
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(fastmcp_url, mode=era, elicitation_callback=recorder) as client:
            result = await client.call_tool("ask_profile", {"greeting": "Hi"})
    echo = echoed(result)
    assert (echo["action"], echo["content"]) == (action, None)
    assert len(recorder.calls) == 1


async def test_modern_partial_answer_gets_schema_defaults(fastmcp_url: str) -> None:
    """SEP-1034: fields the user left out are sent with the schema's defaults (the peer echoes them raw)."""
    recorder = Recorder(ElicitResult(action="accept", content={"name": "Ada"}))
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(fastmcp_url, mode="2026-07-28", elicitation_callback=recorder) as client:
            result = await client.call_tool("ask_profile", {"greeting": "Hi"})
    assert echoed(result)["content"] == {"name": "Ada", "age": 30, "subscribe": False}


async def test_plain_tool_in_both_eras(fastmcp_url: str) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        for mode in ("legacy", "auto"):
            async with Client(fastmcp_url, mode=mode) as client:
                tools = await client.list_tools()
                names = {tool.name for tool in tools.tools}
                assert names == {"ask_profile", "echo", "count", "chatty", "forecast"}
                result = await client.call_tool("echo", {"text": "héllo wörld"})
                assert not result.is_error
                assert isinstance(result.content[0], TextContent)
                assert result.content[0].text == "héllo wörld"


async def test_legacy_without_callback_fails_the_tool(fastmcp_url: str) -> None:
    """No callback: the client refuses the pushed question with an error, FastMCP fails the tool, and
    the call raises the error that names the missing callback (the tool's isError result is its context)."""
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(fastmcp_url, mode="legacy") as client:
            with pytest.raises(CapabilityNotDeclaredError) as caught:
                await client.call_tool("ask_profile", {"greeting": "Hi"})
    assert caught.value.kind == "elicitation"
    assert "pass elicitation_callback=..." in str(caught.value)


async def test_modern_without_callback_raises(fastmcp_url: str) -> None:
    """No callback, yet FastMCP asks anyway (it checks no capability): the call fails locally, no hang."""
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(fastmcp_url, mode="2026-07-28") as client:
            with pytest.raises(MCPClientError, match=r"(?i)elicitation"):
                await client.call_tool("ask_profile", {"greeting": "Hi"})


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_form_answer_over_stdio(fastmcp_stdio_command: tuple[str, list[str]], mode: str) -> None:
    command, args = fastmcp_stdio_command
    era, version = MODES[mode]
    recorder = Recorder(ElicitResult(action="accept", content=ANSWER))
    server = StdioServerParameters(command=command, args=args)
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server, mode=mode, elicitation_callback=recorder) as client:
            assert client.protocol_version == version
            result = await client.call_tool("ask_profile", {"greeting": "Hi"})
    echo = echoed(result)
    assert (echo["era"], echo["action"], echo["content"]) == (era, "accept", ANSWER)
    check_profile_question(recorder, era)
