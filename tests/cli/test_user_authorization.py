"""``mcp-client --header "authorization: ..."``: the user's own credentials, in any letter case.

HTTP header names are case-insensitive, so a header the user spells ``authorization`` or
``AUTHORIZATION`` is the same header as ``Authorization``: the CLI must send it as given and start no
OAuth login of its own. The peer is the official SDK's authorization server in front of a protected
server (tests/servers/oauth_server.py): ``whoami`` says which token the server received, and
``auth_stats`` counts the registrations and authorizations a login would have made.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import anyio
import pytest

from mcp_client import Client
from mcp_client.auth import FileTokenStorage, OAuth
from tests.auth.conftest import Browser, start_oauth_server
from tests.cli._cli import run_cli

pytestmark = pytest.mark.slow

SPELLINGS = ["authorization", "AUTHORIZATION", "aUtHoRiZaTiOn"]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from start_oauth_server()


@pytest.fixture(scope="module")
def token(server: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """An access token the user got elsewhere: here, one OAuth login by the library itself."""
    storage = FileTokenStorage(tmp_path_factory.mktemp("tokens"))

    async def login() -> str:
        async with Client(server, auth=OAuth("user", authorize=Browser(), storage=storage)) as client:
            await client.call_tool("whoami", {})
        tokens = await storage.get_tokens(server)
        assert tokens is not None
        return tokens.access_token

    return anyio.run(login)


def _stats(server: str, header: str) -> dict[str, int]:
    done = run_cli("call", server, "auth_stats", "--header", header)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("name", SPELLINGS)
def test_the_users_token_is_sent_as_given_and_no_login_starts(server: str, token: str, name: str) -> None:
    header = f"{name}: Bearer {token}"
    done = run_cli("call", server, "whoami", "--header", header)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("scopes=mcp:tools token=1")  # the server got the user's token
    assert "Log in" not in done.stderr
    stats = _stats(server, header)
    assert (stats["registrations"], stats["authorizations"]) == (1, 1)  # the library's login only


@pytest.mark.parametrize("name", SPELLINGS)
def test_a_refused_token_is_reported_not_replaced_by_a_login(server: str, token: str, name: str) -> None:
    done = run_cli("call", server, "whoami", "--header", f"{name}: Bearer not-a-token")
    assert done.returncode != 0
    assert "HTTP 401 Unauthorized" in done.stderr, done.stderr  # the server's refusal, as it was
    assert "Log in" not in done.stderr
    stats = _stats(server, f"Authorization: Bearer {token}")
    assert (stats["registrations"], stats["authorizations"]) == (1, 1)  # nothing registered, no login
