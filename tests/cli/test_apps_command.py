"""``mcp-client apps SERVER TOOL``: a tool called and its view served, as a user runs it (a subprocess).

The server is the official example ``@modelcontextprotocol/server-basic-vanillajs`` over stdio (npm,
``tests/support/ext_apps.py``); with ``--no-browser`` the command prints the tool's text and the view's
URL, which is fetched with httpx2 on loopback as a browser would. The command serves the view until its
page is gone or Ctrl-C, then the URL answers no more.
"""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx2
import pytest

from tests.cli._cli import ROOT, TIMEOUT, cli_env, run_cli
from tests.support import ext_apps
from tests.support.browser import Browser
from tests.support.screen import approved
from tests.support.servers import SERVERS_DIR

pytestmark = pytest.mark.slow

APP_TOOLS = SERVERS_DIR / "app_tools_server.py"


def _server() -> str:
    command, args = ext_apps.stdio_command("basic-vanillajs")
    return " ".join([command, *args])


class Running:
    """The command as a subprocess, its stdout read line by line with a bounded wait."""

    def __init__(self, process: subprocess.Popen[str], *, stderr_lines: bool = False) -> None:
        self.process = process
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.errors: list[str] = []  # stderr, line by line, when read as it comes (``stderr_lines``)
        threading.Thread(target=self._read, daemon=True).start()
        if stderr_lines:
            threading.Thread(target=self._read_errors, daemon=True).start()

    def _read_errors(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.errors.append(line.rstrip("\n"))

    def stderr_has(self, text: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not any(text in line for line in self.errors):
            assert time.monotonic() < deadline, f"{text!r} never on stderr: {self.errors}"
            time.sleep(0.05)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def line_starting(self, prefix: str) -> str:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                continue
            if line is None:
                break
            self.seen.append(line)
            if line.startswith(prefix):
                return line
        stderr = self.process.stderr.read() if self.process.poll() is not None and self.process.stderr else ""
        raise AssertionError(f"no line starting {prefix!r}; stdout: {self.seen}; stderr: {stderr}")

    def finish(self) -> tuple[int, str]:
        code = self.process.wait(timeout=TIMEOUT)
        assert self.process.stderr is not None
        return code, self.process.stderr.read()


@contextmanager
def apps_command(*args: str, stderr_lines: bool = False, yes: bool = True) -> Iterator[Running]:
    """``mcp-client apps ARGS``, stdin not a terminal; ``yes``: with ``--yes`` (the example servers mark
    no tool read-only, so without it the call would be refused: tests/cli/test_apps_approval.py)."""
    words = ["apps", *args]
    process = subprocess.Popen(
        [sys.executable, "-m", "ui_adapters.cli", *(approved(words) if yes else words)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=cli_env(),
    )
    try:
        yield Running(process, stderr_lines=stderr_lines)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=TIMEOUT)


def _gone(url: str) -> bool:
    try:
        httpx2.get(url, timeout=5)
    except httpx2.TransportError:
        return True
    return False


def test_the_view_is_served_until_ctrl_c() -> None:
    with apps_command(_server(), "get-time", "--no-browser") as running:
        url = running.line_starting("View: ").removeprefix("View: ")
        assert url.startswith("http://127.0.0.1:")
        page = httpx2.get(url, timeout=TIMEOUT)
        assert page.status_code == 200
        assert page.headers["content-type"] == "text/html; charset=utf-8"
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert "<title>get-time" in page.text
        # the tool's own text came first: the server's time, as get-time returns it
        assert running.seen[0][:4].isdigit() and "T" in running.seen[0], running.seen
        running.process.send_signal(signal.SIGINT)
        code, stderr = running.finish()
    assert code == 130, stderr
    assert "Interrupted." in stderr
    assert _gone(url)


def test_the_command_ends_once_the_views_page_is_closed() -> None:
    with apps_command(_server(), "get-time", "--no-browser") as running:
        url = running.line_starting("View: ").removeprefix("View: ")
        with httpx2.stream("GET", url + "/events", timeout=TIMEOUT) as events:  # the page's event stream
            assert events.status_code == 200
            next(events.iter_bytes())
        code, stderr = running.finish()  # the page has been gone for a few seconds: the view is closed
    assert code == 0, stderr
    assert "The view is closed." in stderr
    assert _gone(url)


def test_json_prints_the_url_and_the_result() -> None:
    with apps_command("--json", _server(), "get-time", "--no-browser") as running:
        first = running.line_starting("{")
        lines = [first]
        while not lines[-1].startswith("}"):
            lines.append(running.line_starting(""))
        printed = json.loads("\n".join(lines))
        assert printed["url"].startswith("http://127.0.0.1:")
        assert printed["result"]["content"][0]["type"] == "text"
        assert httpx2.get(printed["url"], timeout=TIMEOUT).status_code == 200
        running.process.send_signal(signal.SIGINT)
        running.finish()


def test_a_tool_without_a_view_is_refused_before_it_is_called() -> None:
    done = run_cli("apps", f"{sys.executable} {APP_TOOLS} stdio", "echo", "text=hi", "--no-browser")
    assert done.returncode == 2, done.stderr
    assert "the tool 'echo' of" in done.stderr
    assert "has no view (no _meta.ui.resourceUri): run it with `mcp-client call` instead" in done.stderr
    assert done.stdout == ""


def test_an_unknown_tool_names_the_tools() -> None:
    done = run_cli("apps", _server(), "get-tim", "--no-browser")
    assert done.returncode == 2, done.stderr
    assert "has no tool 'get-tim'. Did you mean 'get-time'?" in done.stderr


@pytest.mark.browser
def test_what_the_view_asks_is_shown_and_refused_and_its_logs_printed(browser: Browser) -> None:
    """In Chromium: the view's buttons send a message, a log and a link; the command says each on
    stderr, refuses the message and opens no link (the link shown with its real host)."""
    from tests.apps.test_browser_host import click_in_view, element_text_until

    with apps_command(_server(), "get-time", "--no-browser", stderr_lines=True) as running:
        url = running.line_starting("View: ").removeprefix("View: ")
        browser.driver.get(url)
        element_text_until(browser.driver, "server-time", lambda text: text[:2].isdigit())
        click_in_view(browser.driver, "send-message-btn")
        running.stderr_has("The view sends a message for the chat; refused (no chat here).")
        click_in_view(browser.driver, "send-log-btn")
        running.stderr_has("view [info] This is log text.")
        click_in_view(browser.driver, "open-link-btn")
        running.stderr_has("Site:  modelcontextprotocol.io")
        assert any("The view asks to open a link (not opened" in line for line in running.errors)
        assert "Link: https://modelcontextprotocol.io/" in running.errors
        browser.driver.get("about:blank")  # the page goes: the view is closed, the command ends
        assert running.process.wait(timeout=TIMEOUT) == 0
    assert "The view is closed." in running.errors
