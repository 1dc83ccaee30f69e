"""``mcp-client login``, ``logout``, and the login that ``tools``/``call`` start by themselves on a 401.

In a real terminal (pexpect), against the official SDK's authorization server in front of a real MCP
server (``tests/servers/oauth_server.py``). Each test has its own data folder (``XDG_DATA_HOME``).
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pexpect
import pytest

from tests.auth.conftest import start_oauth_server
from tests.cli._cli import terminal_cli_env
from tests.cli.test_demo import ENTER
from tests.support.screen import spawn_cli

pytestmark = pytest.mark.slow

FAKE_BROWSER = Path(__file__).with_name("fake_browser.py")


@pytest.fixture
def server() -> Iterator[str]:
    yield from start_oauth_server()


@contextmanager
def spawn(data: Path, *args: str, browser: bool = False) -> Iterator[pexpect.spawn[str]]:
    """The CLI on a wide pty with ``data`` as its data folder; ``browser``: a fake browser to open."""
    env = terminal_cli_env(XDG_DATA_HOME=str(data))
    if browser:
        env["BROWSER"] = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_BROWSER))} %s"
    with spawn_cli(args, dimensions=(40, 400), env=env) as child:
        yield child


def _finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus is not None
    return child.exitstatus


def _link(screen: str) -> str:
    """The login link as printed after "Link:", with the terminal's colour codes taken out."""
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)
    match = re.search(r"Link: (\S+)", plain)
    assert match, plain
    return match.group(1)


def _token_file(data: Path) -> dict[str, dict[str, object]]:
    path = data / "mcp-client" / "tokens.json"
    return json.loads(path.read_text())["servers"] if path.exists() else {}


def test_headless_login_by_pasting_the_address_then_tokens_are_reused(server: str, tmp_path: Path) -> None:
    with spawn(tmp_path, "tools", server) as child:
        child.expect("Log in to")
        child.expect("Site:")
        link = _link(child.before)
        child.expect(r"127\.0\.0\.1")
        child.expect("No browser can be opened on this machine")
        child.expect("Paste the address here")
        # The person opens the link on another device; the browser ends on the (unreachable) redirect.
        location = httpx.get(link, follow_redirects=False, timeout=10).headers["location"]
        child.send("not an address" + ENTER)
        child.expect("has no code")
        child.send(location + ENTER)
        child.expect("The browser came back")
        child.expect("whoami")
        assert _finish(child) == 0
    assert list(_token_file(tmp_path)) == [server]

    with spawn(tmp_path, "call", server, "whoami") as child:  # a new process: no login this time
        index = child.expect(["Log in to", r"scopes=mcp:tools token=1"])
        assert index == 1
        assert _finish(child) == 0

    with spawn(tmp_path, "logout", server) as child:
        child.expect("Logged out of")
        assert _finish(child) == 0
    assert _token_file(tmp_path) == {}
    with spawn(tmp_path, "logout", server) as child:
        child.expect("Not logged in to")
        assert _finish(child) == 0


def test_login_with_a_browser_after_consent(server: str, tmp_path: Path) -> None:
    with spawn(tmp_path, "login", server, browser=True) as child:
        child.expect("Site:")
        assert _link(child.before).startswith(server.rsplit("/", 1)[0] + "/authorize?")
        child.expect(re.escape("Open the login page in your browser? [y/N]"))
        child.send("y" + ENTER)
        child.expect("Opened in your browser")
        child.expect("Logged in to")
        child.expect("scopes: mcp:tools")
        child.expect("renewed automatically")
        assert _finish(child) == 0
    with spawn(tmp_path, "call", server, "whoami", browser=True) as child:
        child.expect(r"scopes=mcp:tools token=1")
        assert _finish(child) == 0


def test_declining_and_cancelling_ends_the_login(server: str, tmp_path: Path) -> None:
    with spawn(tmp_path, "call", server, "whoami", browser=True) as child:
        child.expect(re.escape("Open the login page in your browser? [y/N]"))
        child.send(ENTER)  # the default is No: nothing is opened
        child.expect("Not opened")
        child.expect("Paste the address here")
        child.sendcontrol("c")
        child.expect("Login cancelled")
        child.expect("the login was cancelled")
        assert _finish(child) == 3
    stored = _token_file(tmp_path)
    assert [entry.get("tokens") for entry in stored.values()] == [None]  # registered, but no tokens


def test_login_needs_a_url() -> None:
    with spawn(Path("/nonexistent-data-home"), "login", "python server.py") as child:
        child.expect("login needs the server's http")
        assert _finish(child) == 2
