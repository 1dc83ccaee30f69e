"""``max_message_bytes`` at its boundary: a message of exactly the limit is accepted, one byte more is
refused, for a JSON body, an SSE event (its data: the message itself) and a stdio line (its newline
aside). The limit is an odd number, so neither a doubled limit nor a rounded one passes.
"""

from __future__ import annotations

import anyio
import pytest

from mcp_client import Client
from mcp_client._errors import MCPClientError, ProtocolError
from tests.hostile._leaks import no_leaks
from tests.hostile.conftest import HostileServer, hostile_stdio, stdio_backend

pytestmark = pytest.mark.anyio

LIMIT = 100_003
BOUND = 20


@pytest.fixture
def anyio_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    return stdio_backend(getattr(request, "param", "asyncio"), monkeypatch)


def _text_length(result: object) -> int:
    return len(result.content[0].text)  # type: ignore[attr-defined]


@pytest.mark.parametrize("tool", ["sized_json", "sized_sse"])
async def test_an_http_message_of_exactly_the_limit_is_accepted_and_one_byte_more_refused(
    hostile: HostileServer, tag: str, era: str, tool: str
) -> None:
    async with no_leaks(), Client(hostile.url(tag), mode=era, timeout=5, max_message_bytes=LIMIT) as client:
        with anyio.fail_after(BOUND):
            exact = await client.call_tool(tool, {"size": LIMIT})
            assert _text_length(exact) > LIMIT - 200
            with pytest.raises(ProtocolError, match=f"larger than {LIMIT} bytes"):
                await client.call_tool(tool, {"size": LIMIT + 1})
            assert (await client.call_tool(tool, {"size": LIMIT - 1})).content  # and the client goes on


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio", "asyncio-transport-stdout"], indirect=True)
async def test_a_stdio_line_of_exactly_the_limit_is_accepted_and_one_byte_more_refused(era: str) -> None:
    async with no_leaks(), Client(hostile_stdio(), mode=era, timeout=5, max_message_bytes=LIMIT) as client:
        with anyio.fail_after(BOUND):
            exact = await client.call_tool("sized_line", {"size": LIMIT})
            assert _text_length(exact) > LIMIT - 200
            with pytest.raises(MCPClientError, match=f"longer than {LIMIT} bytes"):
                await client.call_tool("sized_line", {"size": LIMIT + 1})
