"""``mcp-client login`` / ``call`` / ``logout`` against oidc-provider, as a person (pexpect) and as a script.

Chromium logs in on the provider's pages: once as a browser on another device (it cannot reach this
machine's redirect listener, so the address is pasted back), once as the browser on this machine
(the listener catches the redirect). Each test checks that no saved token appears in the output.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import anyio
import pytest

from mcp_client.auth import FileTokenStorage, OAuth
from tests.cli._cli import ROOT, TIMEOUT, cli_env
from tests.cli.test_demo import ENTER
from tests.cli.test_login import _finish, _link, spawn  # pyright: ignore[reportPrivateUsage]
from tests.oidc._helpers import BrowserStep, TokenFile
from tests.support.browser import Browser
from tests.support.oidc_provider import (
    OidcStack,
    block_loopback_port,
    complete_login_pages,
    load,
    unblock_urls,
)
from tests.support.screen import approved

pytestmark = pytest.mark.slow

BOUND = 120.0


def _tokens(data: Path) -> TokenFile:
    return TokenFile(data / "mcp-client" / "tokens.json")


def _cli(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI as a script runs it: stdin not a terminal (and empty), output captured."""
    return subprocess.run(
        [sys.executable, "-m", "ui_adapters.cli", *approved(args)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=ROOT,
        env=cli_env(XDG_DATA_HOME=str(data)),
    )


def _log_in_as_another_device(browser: Browser, link: str) -> str:
    """The person opens the link on a device that cannot reach this machine: where the browser ends."""
    port = urlsplit(parse_qs(urlsplit(link).query)["redirect_uri"][0]).port
    assert port is not None
    driver = browser.driver
    block_loopback_port(driver, port)
    try:
        load(driver, link)
        return complete_login_pages(driver, provider=link)
    finally:
        unblock_urls(driver)


def _log_in_here(browser: Browser, link: str) -> None:
    load(browser.driver, link)
    complete_login_pages(browser.driver, provider=link)


async def _saved_login(stack: OidcStack, browser: Browser, data: Path) -> TokenFile:
    """A login saved where the CLI looks for it, made in this process."""
    tokens = _tokens(data)
    storage = FileTokenStorage(tokens.path)
    with anyio.fail_after(BOUND):
        await OAuth("mcp-client", authorize=BrowserStep(browser), storage=storage).login(stack.url)
    tokens.read()
    return tokens


def test_login_with_scopes_by_pasting_then_in_the_browser(
    oidc_stack: OidcStack, browser: Browser, tmp_path: Path
) -> None:
    """Paste-back and the listener both work; ``--scope`` keeps offline_access (item 5): renewable."""
    url = oidc_stack.url
    screens: list[str] = []
    with spawn(tmp_path, "login", url, "--scope", "mcp:tools", "--scope", "mcp:admin") as child:
        child.expect("This server needs you to log in. The login page is:")
        child.expect("Site:")
        link = _link(child.before)
        assert parse_qs(urlsplit(link).query)["scope"] == ["mcp:tools mcp:admin offline_access"]
        child.expect("Paste the address here")
        child.send(_log_in_as_another_device(browser, link) + ENTER)
        child.expect("Logged in to")
        child.expect("renewed automatically")
        screens.append(child.before + child.after)
        assert _finish(child) == 0
        screens.append(child.before)
    tokens = _tokens(tmp_path)
    assert tokens.tokens(url)["refresh_token"]

    tokens.path.unlink()  # again, with the browser on this machine coming back by itself
    with spawn(tmp_path, "call", url, "whoami") as child:
        child.expect("This server needs you to log in.")
        child.expect("Site:")
        link = _link(child.before)
        child.expect("Paste the address here")  # the redirect listener is up
        _log_in_here(browser, link)
        child.expect("The browser came back")
        child.expect("scopes=mcp:tools")
        screens.append(child.before)
        assert _finish(child) == 0
    with spawn(tmp_path, "call", url, "admin_report") as child:  # a step-up, and the panel says so
        child.expect(r"The server asks for more permission \(mcp:admin\)")
        child.expect("Site:")
        _log_in_here(browser, _link(child.before))  # at once: the listener is up before the link shows
        child.expect("admin report for ")
        screens.append(child.before)
        assert _finish(child) == 0
    with spawn(tmp_path, "call", url, "whoami") as child:  # a new process: the saved login is used
        index = child.expect(["Log in to", "scopes=mcp:admin mcp:tools"])
        assert index == 1
        assert _finish(child) == 0
    tokens.assert_not_in(screens)


@pytest.mark.anyio
async def test_a_script_whose_saved_login_was_refused_gets_one_line(
    oidc_stack: OidcStack, browser: Browser, tmp_path: Path
) -> None:
    """Item 6: stdin not a terminal: no login panel, no prompt_toolkit warning; one line says what to run."""
    tokens = await _saved_login(oidc_stack, browser, tmp_path)
    revocation = await OAuth("mcp-client", storage=FileTokenStorage(tokens.path)).revoke(oidc_stack.url)
    assert revocation.revoked == ("refresh token",)  # the AS revoked the grant: the refresh will be refused
    tokens.change_tokens(oidc_stack.url, access_token="no-longer-accepted")
    done = await anyio.to_thread.run_sync(lambda: _cli(tmp_path, "call", oidc_stack.url, "whoami"))
    assert done.returncode == 3
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "saved login" in lines[0] and "refused by the authorization server (invalid_grant)" in lines[0]
    assert f"mcp-client login {oidc_stack.url}" in lines[0]
    for noise in ("Log in to", "not a terminal", "cancelled", "Paste"):
        assert noise not in done.stderr + done.stdout
    tokens.assert_not_in([done.stdout, done.stderr])


@pytest.mark.anyio
async def test_logout_says_what_the_server_revoked_and_refused(
    oidc_stack: OidcStack, browser: Browser, tmp_path: Path
) -> None:
    """Item 8: not "tokens revoked" when the AS refused: what it revoked, what it refused, and why."""
    tokens = await _saved_login(oidc_stack, browser, tmp_path)
    done = await anyio.to_thread.run_sync(lambda: _cli(tmp_path, "logout", oidc_stack.url))
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "refresh token revoked" in said
    assert "refused to revoke the access token (unsupported_token_type)" in said
    assert "stays valid until it expires" in said and "removed from" in said
    tokens.assert_not_in([done.stdout, done.stderr])

    data = tmp_path / "again"
    tokens = await _saved_login(oidc_stack, browser, data)
    oidc_stack.provider.restart()  # the AS no longer knows the client: it refuses both revocations
    done = await anyio.to_thread.run_sync(lambda: _cli(data, "logout", oidc_stack.url))
    said = " ".join(done.stdout.split())
    assert "revoked" not in said.replace("refused to revoke", "")
    assert "refresh token (invalid_client), access token (invalid_client)" in said
    assert tokens.read() == {}
    tokens.assert_not_in([done.stdout, done.stderr])


def test_logout_of_a_server_never_logged_in_creates_no_file(oidc_stack: OidcStack, tmp_path: Path) -> None:
    """Forms/CLI item 10: no tokens.json and no .lock file appear."""
    data = tmp_path / "data"
    data.mkdir()
    done = _cli(data, "logout", oidc_stack.url)
    assert done.returncode == 0, done.stderr
    assert "Not logged in to" in done.stdout
    assert list(data.rglob("*")) == []
