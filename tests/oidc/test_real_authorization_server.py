"""OAuth against a real authorization server (oidc-provider 9) guarding an official-SDK MCP server.

The person is Chromium going through the provider's login and consent pages. Each test is a failure a
review found (issue 26, "OAuth against a real authorization server"), and each checks that no token or
secret appears in the log.
"""

from __future__ import annotations

import io
import logging
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import anyio
import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from mcp_client import Client, OAuthError
from mcp_client.auth import FileTokenStorage, OAuth
from tests.oidc._helpers import BrowserStep, TokenFile, no_login, tool_text
from tests.support.browser import Browser
from tests.support.oidc_provider import OidcStack, complete_login_pages, load
from ui_adapters.login import BrowserLogin

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

ONE_CALL = Path(__file__).with_name("_one_call.py")
PROCESSES = 4
BOUND = 120.0  # seconds for one whole scenario: a bound, never reached when things work


@pytest.fixture(autouse=True)
def _debug_log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)


def _query(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


async def test_login_where_mcp_scopes_are_resource_scopes_then_step_up(
    oidc_stack: OidcStack, browser: Browser, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Item 1: the AS refuses a registration naming resource scopes; the client registers without them."""
    tokens = TokenFile(tmp_path / "tokens.json")
    step = BrowserStep(browser)
    auth = OAuth("mcp-client", authorize=step, storage=FileTokenStorage(tokens.path))
    with anyio.fail_after(BOUND):
        async with Client(oidc_stack.url, auth=auth) as client:
            assert (await tool_text(client, "whoami")).endswith("scopes=mcp:tools")
            assert (await tool_text(client, "admin_report")).startswith("admin report for ")
    provider = oidc_stack.provider
    assert [r.split(":")[0] for r in provider.seen("registration_refused")] == ["invalid_client_metadata"]
    assert len(provider.seen("registration")) == 1
    assert [r.kind if r else None for r in step.reasons] == ["first", "step_up"]
    assert step.reasons[1] is not None and step.reasons[1].scope == "mcp:admin"
    assert _query(step.urls[1])["scope"] == ["mcp:tools offline_access mcp:admin"]
    assert tokens.tokens(oidc_stack.url)["refresh_token"]
    tokens.assert_not_in([caplog.text])


async def test_step_up_where_the_registration_holds_the_client_to_its_scopes(
    oidc_stack_factory: Callable[..., OidcStack], browser: Browser, caplog: pytest.LogCaptureFixture
) -> None:
    """Item 1: an AS that accepted the registration's scope refuses more (invalid_scope): register again."""
    stack = oidc_stack_factory(scope_mode="client")
    step = BrowserStep(browser)
    auth = OAuth("mcp-client", authorize=step)
    with anyio.fail_after(BOUND):
        async with Client(stack.url, auth=auth) as client:
            await tool_text(client, "whoami")
            report = await tool_text(client, "admin_report")
    registered = stack.provider.seen("registration")
    assert len(registered) == 2
    assert report == f"admin report for {registered[1]}"
    # (Chromium may reload its error page for the unreachable redirect: the same refusal, again.)
    assert {r.split(":")[0] for r in stack.provider.seen("authorization_refused")} == {"invalid_scope"}
    assert [r.kind if r else None for r in step.reasons] == ["first", "step_up", "register_again"]
    saved = await auth.get_tokens(stack.url)
    assert saved is not None and saved.refresh_token and saved.client_id == registered[1]
    assert saved.access_token not in caplog.text and saved.refresh_token not in caplog.text


async def test_four_processes_after_expiry_share_one_refresh(
    oidc_stack: OidcStack, browser: Browser, tmp_path: Path
) -> None:
    """Item 2: four processes whose saved tokens expired together: one refresh, no reuse, no revoked login."""
    tokens = TokenFile(tmp_path / "tokens.json")
    auth = OAuth("mcp-client", authorize=BrowserStep(browser), storage=FileTokenStorage(tokens.path))
    with anyio.fail_after(BOUND):
        await auth.login(oidc_stack.url)
    tokens.expire(oidc_stack.url)
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(  # noqa: ASYNC220 (started together, on purpose; waits below are bounded)
            [sys.executable, str(ONE_CALL), oidc_stack.url, str(tokens.path), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(PROCESSES)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "READY"
        go.touch()
        outputs = [proc.communicate(timeout=BOUND) for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
        assert "ANSWER client=" in out and "scopes=mcp:tools" in out
    provider = oidc_stack.provider
    assert provider.seen("grant").count("refresh_token") == 1
    assert provider.seen("grant_refused") == [] and provider.seen("grant_revoked") == []
    assert tokens.tokens(oidc_stack.url)["expires_at"] > time.time()
    tokens.assert_not_in(text for pair in outputs for text in pair)


async def test_a_registration_the_server_forgot_is_made_again(
    oidc_stack: OidcStack, browser: Browser, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Item 3: after an AS restart the refresh gets invalid_client: register again, log in, carry on."""
    tokens = TokenFile(tmp_path / "tokens.json")
    storage = FileTokenStorage(tokens.path)
    with anyio.fail_after(BOUND):
        await OAuth("mcp-client", authorize=BrowserStep(browser), storage=storage).login(oidc_stack.url)
    first_client = tokens.tokens(oidc_stack.url)["client_id"]
    oidc_stack.provider.restart()  # forgets every client and grant; same port, same signing key
    tokens.change_tokens(oidc_stack.url, access_token="no-longer-accepted")  # the MCP server answers 401
    step = BrowserStep(browser)
    with anyio.fail_after(BOUND):
        async with Client(
            oidc_stack.url, auth=OAuth("mcp-client", authorize=step, storage=storage)
        ) as client:
            who = await tool_text(client, "whoami")
    assert [(r.kind, r.error) if r else None for r in step.reasons] == [("refused", "invalid_client")]
    assert _query(step.urls[0])["client_id"] != [first_client]
    assert who.startswith(f"client={tokens.tokens(oidc_stack.url)['client_id']} ")
    assert (
        oidc_stack.provider.seen("grant_refused")[-1]
        == "refresh_token invalid_client: client authentication failed"
    )
    tokens.assert_not_in([caplog.text])


async def test_a_step_up_in_a_later_process_keeps_offline_access(
    oidc_stack: OidcStack, browser: Browser, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Item 4: a later process rebuilds the scope from the granted one; the step-up keeps a refresh token."""
    tokens = TokenFile(tmp_path / "tokens.json")
    storage = FileTokenStorage(tokens.path)
    with anyio.fail_after(BOUND):
        await OAuth("mcp-client", authorize=BrowserStep(browser), storage=storage).login(oidc_stack.url)
    step = BrowserStep(browser)
    with anyio.fail_after(BOUND):
        async with Client(
            oidc_stack.url, auth=OAuth("mcp-client", authorize=step, storage=storage)
        ) as client:
            assert (await tool_text(client, "admin_report")).startswith("admin report")
    query = _query(step.urls[0])
    assert "offline_access" in query["scope"][0].split() and query["prompt"] == ["consent"]
    assert tokens.tokens(oidc_stack.url)["refresh_token"]
    # And it is renewed by the next process without a login.
    tokens.change_tokens(oidc_stack.url, access_token="no-longer-accepted")
    with anyio.fail_after(BOUND):
        async with Client(
            oidc_stack.url, auth=OAuth("mcp-client", authorize=no_login, storage=storage)
        ) as client:
            assert (await tool_text(client, "admin_report")).startswith("admin report")
    tokens.assert_not_in([caplog.text])


async def test_configured_scopes_still_ask_for_a_refresh_token(
    oidc_stack: OidcStack, browser: Browser, caplog: pytest.LogCaptureFixture
) -> None:
    """Item 5: OAuth(scopes=[...]) adds offline_access where the AS lists it, as the docs say."""
    step = BrowserStep(browser)
    auth = OAuth("mcp-client", scopes=["mcp:tools", "mcp:admin"], authorize=step)
    with anyio.fail_after(BOUND):
        saved = await auth.login(oidc_stack.url)
    assert _query(step.urls[0])["scope"] == ["mcp:tools mcp:admin offline_access"]
    assert saved.refresh_token
    assert saved.scope is not None and {"mcp:tools", "mcp:admin"} <= set(saved.scope.split())
    assert saved.access_token not in caplog.text and saved.refresh_token not in caplog.text


async def test_the_login_panel_says_why(
    oidc_stack: OidcStack, browser: Browser, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Item 7: a refused saved login and a step-up are not "This server needs you to log in."."""
    tokens = TokenFile(tmp_path / "tokens.json")
    storage = FileTokenStorage(tokens.path)
    screen = io.StringIO()

    def open_in_chromium(url: str) -> bool:  # runs in a worker thread, as BrowserLogin calls it
        load(browser.driver, url)
        complete_login_pages(browser.driver, provider=url)
        return True

    with create_pipe_input() as keys:
        login = BrowserLogin(
            server="Guarded",
            console=Console(file=screen, width=300, color_system=None),
            input=keys,
            output=DummyOutput(),
            open_browser=open_in_chromium,
        )

        async def run(tool: str) -> str:
            keys.send_text("y\n")  # "Open the login page in your browser?"
            async with Client(
                oidc_stack.url, auth=OAuth("mcp-client", authorize=login, storage=storage)
            ) as c:
                return await tool_text(c, tool)

        with anyio.fail_after(BOUND):
            await run("whoami")
            assert "This server needs you to log in. The login page is:" in screen.getvalue()
            screen.truncate(0)
            await run("admin_report")
            assert (
                "The server asks for more permission (mcp:admin). Log in again to grant it."
                in screen.getvalue()
            )
            screen.truncate(0)
            revocation = await OAuth("mcp-client", storage=storage).revoke(oidc_stack.url)
            assert revocation.revoked == ("refresh token",)  # the grant is gone at the AS
            tokens.change_tokens(oidc_stack.url, access_token="no-longer-accepted")
            await run("whoami")
    shown = screen.getvalue()
    assert "Your saved login was refused by the authorization server (invalid_grant)" in shown
    assert "This server needs you to log in" not in shown
    tokens.assert_not_in([caplog.text, shown])


async def test_revocation_reports_what_the_server_refused(oidc_stack: OidcStack, browser: Browser) -> None:
    """Item 8 (library side): JWT access tokens cannot be revoked here; an AS that forgot us refuses both."""
    auth = OAuth("mcp-client", authorize=BrowserStep(browser))
    with anyio.fail_after(BOUND):
        await auth.login(oidc_stack.url)
        revocation = await auth.revoke(oidc_stack.url)
    assert revocation.revoked == ("refresh token",)
    assert revocation.refused == (("access token", "unsupported_token_type"),)
    assert not revocation.complete
    oidc_stack.provider.restart()
    with anyio.fail_after(BOUND):
        again = await auth.revoke(oidc_stack.url)
    assert again.revoked == ()
    assert again.refused == (("refresh token", "invalid_client"), ("access token", "invalid_client"))


async def test_a_configured_client_the_server_does_not_know_is_named(
    oidc_stack: OidcStack, browser: Browser, tmp_path: Path
) -> None:
    """Item 3 for a configured client_id: no re-registration; the error says which client to check."""
    storage = FileTokenStorage(tmp_path)
    with anyio.fail_after(BOUND):
        saved = await OAuth("mcp-client", authorize=BrowserStep(browser), storage=storage).login(
            oidc_stack.url
        )
    assert saved.client_id is not None
    oidc_stack.provider.restart()
    await storage.set_tokens(oidc_stack.url, saved.with_changes(access_token="no-longer-accepted"))
    auth = OAuth(client_id=saved.client_id, authorize=no_login, storage=storage)
    with anyio.fail_after(BOUND), pytest.raises(OAuthError, match="does not accept the client") as caught:
        async with Client(oidc_stack.url, auth=auth) as client:
            await tool_text(client, "whoami")
    assert caught.value.error == "invalid_client"
