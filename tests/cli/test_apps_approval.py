"""``mcp-client apps`` asks as ``call`` asks: before its first call, and before each call its view makes
of a tool the server does not mark read-only, unless ``--yes``.

Against tests/servers/apps_approval_server.py over HTTP, whose ``ran`` tool lists what reached it, and
whose view (in a headless Chromium) has a button calling a read-only tool and one calling a destructive
tool, each showing the outcome the host gave it. Without a terminal (stdin not a tty) a first call not
marked read-only ends with exit code 4 and the ``--yes`` command line, and the view's such call gets an
error while one line on stderr says what was refused; at a terminal (a pty) the person answers the
approval prompt; ``--yes`` runs everything unasked.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator

import anyio
import pexpect
import pytest

from mcp_client import Client
from mcp_client.types import TextContent
from tests.cli._cli import TIMEOUT, run_cli, terminal_cli_env
from tests.cli.test_apps_command import apps_command
from tests.support.browser import Browser
from tests.support.screen import spawn_cli
from tests.support.servers import SERVERS_DIR, start_http_server

pytestmark = pytest.mark.slow

ENTER = "\r"
SERVER = SERVERS_DIR / "apps_approval_server.py"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with start_http_server(script=SERVER) as served:
        yield served


def ran(url: str) -> list[str]:
    async def read() -> list[str]:
        async with Client(url) as client:
            block = (await client.call_tool("ran", {})).content[0]
            assert isinstance(block, TextContent)
            return json.loads(block.text)

    return anyio.run(read)


def said(text: str) -> str:
    return " ".join(text.split())


def open_view(browser: Browser, url: str) -> None:
    from tests.apps.test_browser_host import element_text_until

    browser.driver.get(url)
    element_text_until(browser.driver, "ready", lambda text: text == "initialized")


def click(browser: Browser, button: str, shows: str) -> str:
    """Click ``#<button>-btn`` in the view and wait until ``#<button>`` starts with ``shows``."""
    from tests.apps.test_browser_host import click_in_view, element_text_until

    click_in_view(browser.driver, f"{button}-btn")
    return element_text_until(browser.driver, button, lambda text: text.startswith(shows))


# ------------------------------------------------------------------------- the first call


def test_without_a_terminal_a_tool_not_marked_read_only_is_refused_and_never_sent(url: str) -> None:
    before = ran(url)
    done = run_cli("apps", url, "edit_notes", "--no-browser", yes=False)
    assert done.returncode == 4, done.stderr
    message = said(done.stderr)
    assert "edit_notes on notes is not marked read-only by the server, so apps asks before it runs" in message
    assert "stdin is not a terminal to ask on. Nothing was sent." in message
    assert f"pass --yes: mcp-client apps --yes {url} edit_notes --no-browser" in message
    assert done.stdout == ""
    assert ran(url) == before  # the server never heard of the call


def test_a_read_only_tool_is_served_unasked_and_yes_serves_any(url: str) -> None:
    with apps_command(url, "show_notes", "--no-browser", yes=False) as running:
        assert running.line_starting("View: ").startswith("View: http://127.0.0.1:")
        assert running.seen[0] == "ran show_notes"
        running.process.send_signal(signal.SIGINT)
        running.finish()
    for yes in ("--yes", "-y"):
        with apps_command(yes, url, "edit_notes", "--no-browser", yes=False) as running:
            assert running.line_starting("View: ").startswith("View: http://127.0.0.1:")
            assert running.seen[0] == "ran edit_notes"
            running.process.send_signal(signal.SIGINT)
            code, stderr = running.finish()
        assert code == 130, stderr


def test_at_a_terminal_the_person_denies_the_first_call_and_nothing_is_sent(url: str) -> None:
    before = ran(url)
    args = ["apps", url, "edit_notes", "--no-browser"]
    with spawn_cli(args, env=terminal_cli_env(), yes=False) as child:
        child.expect("This app asks before it runs a tool call")
        child.expect("edit_notes")
        child.expect("mcp-client apps asks unless the server marks the tool read-only")
        child.expect("o/s/a/d or Up/Down")
        child.send("d")
        child.send(ENTER)
        child.expect(r"Note \(optional\)")
        child.send(ENTER)
        child.expect("you denied the call of edit_notes")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 4
    assert ran(url) == before


@pytest.mark.browser
def test_allowed_for_this_session_the_view_calls_that_tool_unasked(url: str, browser: Browser) -> None:
    """At a terminal, "Allow for this session" on the first call holds for the view's calls of the same
    tool until the command ends; another tool not marked read-only is still asked about."""
    before = ran(url)
    with spawn_cli(["apps", url, "edit_notes", "--no-browser"], env=terminal_cli_env(), yes=False) as child:
        child.expect("This app asks before it runs a tool call")
        child.expect("o/s/a/d or Up/Down")
        child.send("s")
        child.send(ENTER)
        child.expect(r"Note \(optional\)")
        child.send(ENTER)
        child.expect(r"View: (?:\x1b\[[0-9;]*m)*(http://127\.0\.0\.1:\d+/[^\s\x1b]+)")
        view = child.match.group(1)
        open_view(browser, view)
        assert click(browser, "edit", "edit 1:") == "edit 1: ok: ran edit_notes"  # not asked again
        browser.driver.get("about:blank")
        child.expect("The view is closed.")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    assert ran(url) == [*before, "edit_notes", "edit_notes"]


# ------------------------------------------------------------------------- the view's calls


@pytest.mark.browser
def test_without_a_terminal_the_views_call_of_a_tool_not_marked_read_only_is_refused(
    url: str, browser: Browser
) -> None:
    before = ran(url)
    with apps_command(url, "show_notes", "--no-browser", stderr_lines=True, yes=False) as running:
        view = running.line_starting("View: ").removeprefix("View: ")
        open_view(browser, view)
        assert click(browser, "count", "count 1:") == "count 1: ok: ran count_notes"  # read-only: runs
        shown = click(browser, "delete", "delete 1:")
        assert shown.startswith("delete 1: refused: the call of tool 'delete_note' on notes was denied")
        # Nobody decided, and the view is told so, with the way to let its calls run; never that
        # the user refused it (no user saw it).
        assert shown.endswith(
            "not sent to the server: nobody decided: no terminal to ask on; "
            "run mcp-client apps with --yes to allow the view's tool calls"
        )
        assert "user" not in shown
        running.stderr_has("The view called delete_note on notes, which the server does not mark read-only")
        line = next(line for line in running.errors if "The view called delete_note" in line)
        assert "refused, as stdin is not a terminal to ask on" in line
        assert line.endswith(f"pass --yes: mcp-client apps --yes {url} show_notes --no-browser")
        assert [line for line in running.errors if "delete_note" in line and "waiting" not in line] == [line]
        browser.driver.get("about:blank")  # the page goes: the command ends
        assert running.process.wait(timeout=TIMEOUT) == 0
    assert ran(url) == [*before, "show_notes", "count_notes"]  # never delete_note


@pytest.mark.browser
def test_with_yes_the_views_calls_run_unasked(url: str, browser: Browser) -> None:
    before = ran(url)
    with apps_command("--yes", url, "show_notes", "--no-browser", stderr_lines=True, yes=False) as running:
        view = running.line_starting("View: ").removeprefix("View: ")
        open_view(browser, view)
        assert click(browser, "delete", "delete 1:") == "delete 1: ok: ran delete_note n1"
        browser.driver.get("about:blank")
        assert running.process.wait(timeout=TIMEOUT) == 0
    assert not any("The view called" in line for line in running.errors)
    assert ran(url) == [*before, "show_notes", "delete_note n1"]


@pytest.mark.browser
def test_at_a_terminal_the_person_denies_or_allows_the_views_call(url: str, browser: Browser) -> None:
    """On a pty: the view's call waits for the prompt (what the view logs meanwhile waits too). Deny: the
    view gets the error; allow once: it runs; allow for this session: it runs, and the next call of
    that tool is not asked about."""
    before = ran(url)
    args = ["apps", url, "show_notes", "--no-browser"]
    with spawn_cli(args, env=terminal_cli_env(), yes=False) as child:
        child.expect(r"View: (?:\x1b\[[0-9;]*m)*(http://127\.0\.0\.1:\d+/[^\s\x1b]+)")
        view = child.match.group(1)
        child.expect("Serving the view")
        open_view(browser, view)

        def answer(choice: str, note: str = "", *, shown: bool = False) -> None:
            if not shown:
                child.expect("This app asks before it runs a tool call")
                child.expect("delete_note")
                child.expect("o/s/a/d or Up/Down")
            child.send(choice)
            child.send(ENTER)
            child.expect(r"Note \(optional\)")
            child.send(note + ENTER)

        from tests.apps.test_browser_host import click_in_view, element_text_until

        def shows(prefix: str) -> str:
            return element_text_until(browser.driver, "delete", lambda text: text.startswith(prefix))

        click_in_view(browser.driver, "delete-btn")
        child.expect("This app asks before it runs a tool call")
        child.expect("o/s/a/d or Up/Down")
        # The view logs while its call waits; a read-only call runs meanwhile, unasked. Its log line
        # waits too: printed under the answered prompt, never into it.
        assert click(browser, "count", "count 1:") == "count 1: ok: ran count_notes"
        answer("d", "not that one", shown=True)
        child.expect("view \\[info\\] waiting for delete_note 1")
        child.expect("view \\[info\\] waiting for count_notes 1")
        shown = shows("delete 1:")
        assert shown.startswith("delete 1: refused: the call of tool 'delete_note' on notes was denied")
        assert shown.endswith("the user said: not that one")
        click_in_view(browser.driver, "delete-btn")
        answer("o")
        assert shows("delete 2:") == "delete 2: ok: ran delete_note n1"
        click_in_view(browser.driver, "delete-btn")
        answer("s")
        assert shows("delete 3:") == "delete 3: ok: ran delete_note n1"
        click_in_view(browser.driver, "delete-btn")  # for this session: not asked again
        assert shows("delete 4:") == "delete 4: ok: ran delete_note n1"
        browser.driver.get("about:blank")
        child.expect("The view is closed.")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    assert ran(url) == [*before, "show_notes", "count_notes", *["delete_note n1"] * 3]
