"""End to end against an authorization server we did not write: the official SDK's (``mcp.server.auth``)
in front of a real ``MCPServer``, over loopback (``tests/servers/oauth_server.py``).

The whole life of a login: first call (discovery, registration, browser, code exchange), a restart
that reuses the stored tokens, a refresh after the server drops the access token (rotation), a
refresh before expiry at the next start, concurrent requests sharing one refresh, and a logout that
revokes. In both protocol eras.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import anyio
import httpx2
import pytest

from mcp_client import Client, OAuthError
from mcp_client.auth import FileTokenStorage, OAuth
from tests.auth.conftest import Browser, no_browser

pytestmark = pytest.mark.anyio


async def _text(client: Client, tool: str) -> str:
    result = await client.call_tool(tool, {})
    assert not result.is_error, result
    return "".join(getattr(block, "text", "") for block in result.content)


async def _stats(client: Client) -> dict[str, int]:
    return json.loads(await _text(client, "auth_stats"))


async def test_login_call_restart_refresh_logout(
    oauth_server: str, browser: Browser, tmp_path: Path, era: str
) -> None:
    storage = FileTokenStorage(tmp_path)

    # 1. First use: the server answers 401, the client logs in through the browser, the call goes through.
    async with Client(
        oauth_server, mode=era, auth=OAuth("e2e", authorize=browser, storage=storage)
    ) as client:
        who = await _text(client, "whoami")
        assert who.endswith("scopes=mcp:tools token=1")
        assert await _stats(client) == {
            "authorizations": 1,
            "code_exchanges": 1,
            "refresh_reuse": 0,
            "refreshes": 0,
            "registrations": 1,
            "revocations": 0,
        }
    assert len(browser.opened) == 1
    first = await storage.get_tokens(oauth_server)
    assert first is not None and first.refresh_token and first.expires_at and first.expires_at > time.time()

    # 2. A restart: a new OAuth object with the same file logs nobody in again.
    async with Client(
        oauth_server, mode=era, auth=OAuth("e2e", authorize=no_browser, storage=storage)
    ) as client:
        assert await _text(client, "whoami") == who

        # 3. The server drops the access token: the next request gets 401, is refreshed and retried.
        assert await _text(client, "expire_my_token") == "expired"
        assert (await _text(client, "whoami")).endswith("token=2")
        stats = await _stats(client)
        assert (stats["refreshes"], stats["authorizations"], stats["registrations"]) == (1, 1, 1)
    second = await storage.get_tokens(oauth_server)
    assert second is not None and second.refresh_token != first.refresh_token  # rotated, and stored

    # 4. Next start with a token past its expiry: refreshed before the first request, no 401 needed.
    await storage.set_tokens(oauth_server, second.with_changes(expires_at=time.time() - 5))
    async with Client(
        oauth_server, mode=era, auth=OAuth("e2e", authorize=no_browser, storage=storage)
    ) as client:
        assert (await _text(client, "whoami")).endswith("token=3")
        stats = await _stats(client)
        assert (stats["refreshes"], stats["refresh_reuse"], stats["authorizations"]) == (2, 0, 1)

    # 5. Logout: tokens revoked at the server and forgotten here.
    old = await storage.get_tokens(oauth_server)
    assert old is not None
    assert await OAuth("e2e", storage=storage).logout(oauth_server) is True
    assert await storage.get_tokens(oauth_server) is None
    async with httpx2.AsyncClient() as raw:
        refused = await raw.post(
            oauth_server,
            headers={
                "authorization": f"Bearer {old.access_token}",
                "accept": "application/json, text/event-stream",
            },
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        )
    assert refused.status_code == 401

    # 6. Logged out and no browser step configured: a clear error says how to log in.
    with pytest.raises(OAuthError, match="authorize="):
        async with Client(oauth_server, mode=era, auth=OAuth("e2e", storage=storage)) as client:
            await client.list_tools()


async def test_time_in_the_browser_does_not_count_against_the_timeout(
    oauth_server: str, browser: Browser
) -> None:
    async def slow_person(url: str) -> str:
        await anyio.sleep(4.0)  # longer than the client's whole timeout
        return await browser(url)

    # 3 s, not less: every other step of the login (discovery, registration, the token request) must
    # fit in it on a loaded machine; only the time in the browser is what must not count.
    async with Client(oauth_server, timeout=3.0, auth=OAuth("e2e", authorize=slow_person)) as client:
        assert (await _text(client, "whoami")).endswith("token=1")


async def test_concurrent_requests_share_one_refresh(oauth_server: str, browser: Browser) -> None:
    oauth = OAuth("e2e", authorize=browser)
    async with Client(oauth_server, mode="2026-07-28", auth=oauth) as client:
        await _text(client, "expire_my_token")
        async with anyio.create_task_group() as tg:
            for _ in range(5):
                tg.start_soon(_text, client, "whoami")
        stats = await _stats(client)
    assert (stats["refreshes"], stats["authorizations"], stats["refresh_reuse"]) == (1, 1, 0)
    assert len(browser.opened) == 1


async def test_insufficient_scope_ends_in_an_error_not_a_loop(oauth_server: str, browser: Browser) -> None:
    """The application asks for a scope the server does not accept; the server's 403 names none."""
    oauth = OAuth("e2e", scopes=["mcp:extra"], authorize=browser)
    with pytest.raises(OAuthError, match="insufficient scope after 2 authorizations"):
        async with Client(oauth_server, auth=oauth) as client:
            await client.list_tools()
    assert len(browser.opened) == 2


async def test_login_before_any_request(oauth_server: str, browser: Browser, tmp_path: Path) -> None:
    """``OAuth.login`` (what ``mcp-client login`` runs) starts from the well-known metadata, no 401 needed."""
    storage = FileTokenStorage(tmp_path / "tokens.json")
    tokens = await OAuth("e2e", authorize=browser, storage=storage).login(oauth_server)
    assert tokens.scope == "mcp:tools"
    async with Client(oauth_server, auth=OAuth("e2e", authorize=no_browser, storage=storage)) as client:
        assert (await _text(client, "whoami")).endswith("token=1")


@pytest.mark.parametrize("anyio_backend", ["trio"])
async def test_the_whole_flow_on_trio(
    oauth_server: str, browser: Browser, tmp_path: Path, anyio_backend: str
) -> None:
    storage = FileTokenStorage(tmp_path)
    async with Client(oauth_server, auth=OAuth("e2e", authorize=browser, storage=storage)) as client:
        await _text(client, "expire_my_token")
        assert (await _text(client, "whoami")).endswith("token=2")  # logged in, then refreshed
    assert await OAuth("e2e", storage=storage).logout(oauth_server)
