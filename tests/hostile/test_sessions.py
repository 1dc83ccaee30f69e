"""Lost legacy sessions: a 404 on our session id starts a new session once, never a loop.

tests/core/test_connection.py restarts a real server process; here the hostile server forgets the
session in place (the same process, the same connections), and a "forgetful" server never knows one.
"""

from __future__ import annotations

import anyio
import httpx
import pytest

from mcp_client import Client
from mcp_client._errors import SessionExpiredError
from tests.hostile._leaks import no_leaks
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 20


def _text(result: object) -> str:
    return result.content[0].text  # type: ignore[attr-defined]


async def test_a_forgotten_session_is_replaced_and_the_call_goes_through(
    hostile: HostileServer, tag: str
) -> None:
    async with no_leaks(), Client(hostile.url(tag), mode="legacy", timeout=2) as client:
        assert _text(await client.call_tool("echo", {"text": "one"})) == "one"
        old_session = client.session_id
        async with httpx.AsyncClient() as admin:
            assert (await admin.post(f"{hostile.base}/admin/forget")).status_code == 200
        with anyio.fail_after(BOUND):
            assert _text(await client.call_tool("echo", {"text": "two"})) == "two"
        new_session = client.session_id
        assert new_session is not None and new_session != old_session
    posts = [e for e in hostile.entries(tag) if e["method"] == "POST"]
    after = posts[
        [p["body"].get("params", {}).get("arguments", {}).get("text") for p in posts].index("two") :
    ]
    # The refused call, a fresh initialize (without the dead id), initialized, and the same call again.
    assert [p["body"].get("method") for p in after] == [
        "tools/call",
        "initialize",
        "notifications/initialized",
        "tools/call",
    ]
    assert after[0]["headers"]["mcp-session-id"] == old_session
    assert "mcp-session-id" not in after[1]["headers"]
    assert after[3]["headers"]["mcp-session-id"] == new_session


async def test_a_server_that_never_keeps_a_session_fails_once_not_forever(
    hostile: HostileServer, tag: str
) -> None:
    url = hostile.url(tag) + "&forgetful=1"
    async with no_leaks(), Client(url, mode="legacy", timeout=2) as client:
        with anyio.fail_after(BOUND), pytest.raises(SessionExpiredError, match="no longer knows our session"):
            await client.call_tool("echo", {"text": "one"})
    initializes = [b for b in hostile.requests(tag) if b.get("method") == "initialize"]
    assert len(initializes) == 2  # the first session, and one attempt at a new one
