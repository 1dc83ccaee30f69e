"""Whatever a server sends, what reaches the caller is an ``MCPClientError`` (the README's promise).

Each case used to escape as a library's own exception: ``httpx.DecodingError`` from a body that
claims gzip and is not (a JSON reply, an SSE reply, the acknowledgement of
``notifications/initialized``, which broke connecting), ``httpx.TooManyRedirects`` (see
test_redirects.py), ``UnicodeEncodeError`` from a session id or an SSE event id that is not ASCII
(sent back in a header), ``pydantic_core.ValidationError`` from a malformed capability.
"""

from __future__ import annotations

import anyio
import pytest

from mcp_client import Client
from mcp_client._errors import MCPConnectionError, ProtocolError
from tests.hostile._leaks import no_leaks
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 15


def _text(result: object) -> str:
    return result.content[0].text  # type: ignore[attr-defined]


@pytest.mark.parametrize("sse", [False, True], ids=["json", "sse"])
async def test_a_body_that_claims_gzip_and_is_not_fails_its_call(
    hostile: HostileServer, tag: str, era: str, sse: bool
) -> None:
    async with no_leaks(), Client(hostile.url(tag), mode=era, timeout=5) as client:
        with anyio.fail_after(BOUND), pytest.raises(ProtocolError, match="not gzip data"):
            await client.call_tool("bad_gzip", {"sse": sse})
        assert _text(await client.call_tool("echo", {"text": "after"})) == "after"


async def test_a_bad_gzip_acknowledgement_does_not_break_connecting(hostile: HostileServer, tag: str) -> None:
    async with no_leaks():
        with anyio.fail_after(BOUND):
            async with Client(hostile.url(tag) + "&bad_gzip_ack=1", mode="legacy", timeout=5) as client:
                assert _text(await client.call_tool("echo", {"text": "connected"})) == "connected"


async def test_a_session_id_that_is_not_ascii_fails_connecting_and_says_why(
    hostile: HostileServer, tag: str
) -> None:
    async with no_leaks():
        with anyio.fail_after(BOUND), pytest.raises(MCPConnectionError, match="Mcp-Session-Id"):
            async with Client(hostile.url(tag) + "&unicode_session=1", mode="legacy", timeout=5):
                pass
    assert not [e for e in hostile.entries(tag) if e["method"] == "DELETE"]  # no session to end


async def test_an_event_id_that_is_not_ascii_is_never_sent_back(hostile: HostileServer, tag: str) -> None:
    """A legacy stream drops after a priming event whose id cannot go in a Last-Event-ID header: it is
    no cursor, so the call fails as a stream without one does."""
    async with no_leaks(), Client(hostile.url(tag), mode="legacy", timeout=5) as client:
        with anyio.fail_after(BOUND), pytest.raises(MCPConnectionError, match="no event id to resume from"):
            await client.call_tool("unicode_event_id", {})
        assert _text(await client.call_tool("echo", {"text": "after"})) == "after"
    assert not [e for e in hostile.entries(tag) if "last-event-id" in e.get("headers", {})]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_malformed_capabilities_are_left_out_not_raised(
    hostile: HostileServer, tag: str, mode: str
) -> None:
    """``{"tools": true, "prompts": {...}, "logging": "yes"}`` in initialize (legacy) or server/discover
    (auto): the well-formed entry is kept, the malformed ones are dropped, the client works."""
    async with no_leaks():
        with anyio.fail_after(BOUND):
            async with Client(hostile.url(tag) + "&bad_capabilities=1", mode=mode, timeout=5) as client:
                assert client.server_capabilities.prompts == {"listChanged": True}
                assert client.server_capabilities.tools is None
                assert client.server_capabilities.logging is None
                assert _text(await client.call_tool("echo", {"text": "works"})) == "works"
