"""``ui_adapters.textual``: questions answered in a modal form inside a Textual app, driven with
Textual's own pilot, keyboard only; the bistro example's question through ``textual_callback``; the
screen at 80 and 120 columns."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Literal

import anyio
import pytest

pytest.importorskip("textual", reason="the textual extra is not installed (pip install -e '.[textual]')")

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Log, Static

from mcp_client import Client, MCPClientError, StdioServerParameters
from mcp_client.types import ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult, TextContent
from tests.support.docs_examples import ROOT, examples
from tests.support.servers import stdio_command
from tests.ui_adapters._textual_helpers import (
    EVERY_KIND,
    SNAPSHOTS,
    Host,
    assert_snapshot,
    context,
    screen_lines,
    type_text,
)
from ui_adapters.textual import ElicitationScreen, textual_callback

pytestmark = pytest.mark.anyio

BISTRO = ROOT / "examples" / "servers" / "bistro.py"
RESTART_SERVER = ROOT / "tests" / "servers" / "restart_server.py"
TIMEOUT = 60.0


def every_kind_screen() -> ElicitationScreen:
    params = ElicitRequestFormParams(message="Book a table?", requested_schema=EVERY_KIND)
    return ElicitationScreen(params, context())


async def test_every_field_kind_answered_with_the_keyboard_only() -> None:
    app = Host(every_kind_screen())
    async with app.run_test(size=(100, 60)) as pilot:
        await type_text(pilot, "Ada")  # name
        await pilot.press("tab")
        await type_text(pilot, "ada@example.com")
        await pilot.press("tab")
        await type_text(pilot, "4 people")  # guests: read as 4
        await pilot.press("tab")
        await type_text(pilot, "1,200.50")  # budget
        await pilot.press("tab")
        await type_text(pilot, "2026-12-24")  # day
        await pilot.press("tab", "enter", "down", "enter")  # agree: open the select, Yes
        await pilot.press("tab", "space")  # newsletter: the switch flips from its default (on) to off
        await pilot.press("tab", "enter", "down", "down", "enter")  # seating: terrace
        await pilot.press("tab", "space", "down", "down", "space")  # extras: bread and cake
        await pilot.press("tab")  # note: left empty
        await pilot.press("tab")
        await type_text(pilot, "https://ada.example/menu")
        await pilot.press("tab")
        await type_text(pilot, "2026-12-24 19:30+01:00")  # arrival: a date and time with its zone
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.results == [
        ElicitResult(
            action="accept",
            content={
                "name": "Ada",
                "email": "ada@example.com",
                "guests": 4,
                "budget": 1200.5,
                "day": "2026-12-24",
                "agree": True,
                "newsletter": False,
                "seating": "terrace",
                "extras": ["bread", "cake"],
                "website": "https://ada.example/menu",
                "arrival": "2026-12-24T19:30:00+01:00",
            },
        )
    ]


async def test_a_wrong_value_is_shown_under_its_field_and_nothing_is_sent() -> None:
    app = Host(every_kind_screen())
    async with app.run_test(size=(100, 60)) as pilot:
        await type_text(pilot, "A")  # too short
        await pilot.press("tab")
        await type_text(pilot, "not-an-email")
        await pilot.press("tab", "tab", "tab")
        await type_text(pilot, "2026-13-45")  # day: no such date
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.results == []
        errors = {str(w.id): str(w.render()) for w in app.screen.query(".error")}
        assert errors["error-0"] == "✗ must be at least 2 characters"
        assert errors["error-1"].startswith("✗ must be an e-mail address")
        assert errors["error-4"] == "✗ type a date, like 2026-12-24, 24 Dec or tomorrow"
        assert errors["error-5"] == "✗ this field is required"  # the yes/no nobody chose
        assert app.focused is not None and app.focused.id == "field-0"
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [ElicitResult(action="cancel")]


async def test_decline_with_ctrl_n() -> None:
    app = Host(every_kind_screen())
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.press("ctrl+n")
        await pilot.pause()
    assert app.results == [ElicitResult(action="decline")]


async def test_a_link_is_shown_with_its_host_and_opened_only_on_consent() -> None:
    opened: list[str] = []
    params = ElicitRequestURLParams(
        message="Sign in", url="https://user@paypal.com@evil.example/x", elicitation_id="e"
    )
    app = Host(ElicitationScreen(params, context(), open_url=opened.append))
    async with app.run_test(size=(100, 30)) as pilot:
        texts = [str(w.render()) for w in app.screen.query(Static)]
        assert "bistro asks you to open a web page:" in texts
        assert "Site: evil.example" in texts
        assert any(text.startswith("⚠ ") for text in texts)
        assert opened == []
        await pilot.press("enter")  # the focused button: Open the link
        await pilot.pause()
    assert opened == [params.url]
    assert app.results == [ElicitResult(action="accept")]


async def test_a_refused_link_has_no_open_button() -> None:
    params = ElicitRequestURLParams(message="Pay", url="javascript:alert(1)", elicitation_id="e")
    app = Host(ElicitationScreen(params, context(), open_url=lambda url: None))
    async with app.run_test(size=(100, 30)) as pilot:
        assert [str(b.id) for b in app.screen.query("Button")] == ["decline", "cancel"]
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == [ElicitResult(action="decline")]


@pytest.mark.parametrize("width", [80, 120])
async def test_the_screen_at_80_and_120_columns(width: int, tmp_path: Path) -> None:
    """The screen, line by line, is the one stored in tests/fixtures/textual (the dialog fits the width;
    the header, the first fields, the keys and the buttons are on screen); a field below the fold
    scrolls into view when tab reaches it. ``UPDATE_SNAPSHOTS=1`` rewrites the stored screens after a
    deliberate change: read the diff before committing it."""
    app = Host(every_kind_screen())
    async with app.run_test(size=(width, 40)) as pilot:
        await pilot.pause()
        shown = screen_lines(app, tmp_path / f"textual-form-{width}.svg")
        assert_snapshot(shown, SNAPSHOTS / f"form-{width}x40.txt")
        dialog = app.screen.query_one("#dialog")
        assert dialog.region.right <= width and dialog.region.width >= min(width * 0.9, 100) - 1
        await pilot.press(*["tab"] * 8)
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "field-8"
        scrolled = "\n".join(screen_lines(app, tmp_path / f"textual-form-{width}-scrolled.svg"))
        assert "Extras (optional)" in scrolled


# ----------------------------------------------------------------------------------- a real server


class BistroApp(App[None]):
    """A Textual app that books a table on the bistro example server; the question opens the modal."""

    def __init__(
        self,
        mode: Literal["legacy", "2026-07-28"] = "legacy",
        script: Path = BISTRO,
        tool: str = "book_table",
        arguments: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.mode: Literal["legacy", "2026-07-28"] = mode
        self.script, self.tool = script, tool
        self.arguments = arguments if arguments is not None else {"date": "2025-12-25", "party_size": 2}
        self.answer: list[str] = []
        self.call = anyio.CancelScope()  # the app's way to give up on the call

    def compose(self) -> ComposeResult:
        yield Static("booking…", id="status")

    def on_mount(self) -> None:
        self.run_worker(self.book(), exclusive=True)

    async def book(self) -> None:
        server = StdioServerParameters(sys.executable, [str(self.script)])
        async with Client(server, mode=self.mode, elicitation_callback=textual_callback(self)) as client:
            with self.call:
                result = await client.call_tool(self.tool, self.arguments)
                self.answer = [block.text for block in result.content if isinstance(block, TextContent)]


async def until_the_question_is_shown(app: App[Any], pilot: Any) -> None:
    """Until the question has the focus (its first field, or its first button): the screen is on the
    stack as soon as it is pushed, but composed and mounted only later, and what is read or typed
    before then finds nothing (on a busy machine a test that went on at once failed, and left its
    Client to the app's exit)."""
    with anyio.fail_after(TIMEOUT):
        while not (
            isinstance(app.screen, ElicitationScreen)
            and app.focused is not None
            and app.focused.screen is app.screen
        ):
            await pilot.pause(0.05)


async def test_the_bistro_question_answered_in_the_modal() -> None:
    app = BistroApp()
    async with app.run_test(size=(100, 40)) as pilot:
        await until_the_question_is_shown(app, pilot)
        texts = [str(w.render()) for w in app.screen.query(Static)]
        assert "bistro asks:" in texts  # a legacy server over stdio does not say which call asks
        assert "No tables for 2 on 2025-12-25. Would you like another date?" in texts
        await pilot.press("enter", "down", "enter")  # accept_alternative: Yes
        await pilot.press("tab")  # the date field, its default selected: typing replaces it
        await type_text(pilot, "27 Dec 2025")
        await pilot.press("ctrl+s")
        with anyio.fail_after(TIMEOUT):
            while not app.answer or app.workers:  # the worker also closes its Client before the app ends
                await pilot.pause(0.05)
    assert app.answer == ["[SUCCESS] Booked for 2025-12-27"]


FILES = ROOT / "examples" / "servers" / "files.py"


async def test_the_call_that_asks_is_named_in_the_modal() -> None:
    """A 2026-07-28 question comes back as its call's result, so the modal names the call too."""
    app = BistroApp("2026-07-28", FILES, "delete_folder", {"path": "/tmp/old-drafts"})
    async with app.run_test(size=(100, 40)) as pilot:
        await until_the_question_is_shown(app, pilot)
        texts = [str(w.render()) for w in app.screen.query(Static)]
        assert "files · delete_folder asks:" in texts
        await pilot.press("ctrl+n")  # decline: nothing is deleted
        with anyio.fail_after(TIMEOUT):
            while not app.answer or app.workers:
                await pilot.pause(0.05)
    assert app.answer == ["kept /tmp/old-drafts (outcome: decline)"]


WITHDRAWN = (
    "Withdrawn: bistro no longer needs this answer (the call that asked is over: the server went away "
    "or the call was cancelled). Nothing was sent."
)


@pytest.mark.parametrize("when", ["while it is mounted", "once it is shown"])
async def test_a_question_whose_call_ends_closes_with_a_notice(when: str) -> None:
    """The call is cancelled as soon as the modal is pushed (the callback still awaits its mount), or
    once its first field has the focus (the callback awaits the answer): either way it closes and says
    why, and nothing is sent."""
    app = BistroApp()
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        with anyio.fail_after(TIMEOUT):
            while not isinstance(app.screen, ElicitationScreen):
                await pilot.pause(0.05)
            if when == "once it is shown":
                while app.focused is None or app.focused.id != "field-0":
                    await pilot.pause(0.05)
        app.call.cancel()  # the call that asked goes away
        with anyio.fail_after(TIMEOUT):
            while any(isinstance(s, ElicitationScreen) for s in app.screen_stack) or app.workers:
                await pilot.pause(0.05)
        notices = [notification.message for notification in app._notifications]  # pyright: ignore[reportPrivateUsage]
    assert notices == [WITHDRAWN]
    assert app.answer == []


async def test_a_withdrawn_question_under_another_screen_closes_when_back_on_top() -> None:
    """The app's own screen over the question is left alone; the question closes when it is uncovered."""
    app = Host(every_kind_screen())
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        await pilot.pause()
        cover = Screen[None]()
        await app.push_screen(cover)
        app.question.withdraw()
        await pilot.pause()
        assert app.screen is cover
        notices = [notification.message for notification in app._notifications]  # pyright: ignore[reportPrivateUsage]
        assert notices == [WITHDRAWN]
        app.pop_screen()
        with anyio.fail_after(TIMEOUT):
            while app.question in app.screen_stack:
                await pilot.pause(0.05)
    assert app.results == [None]


async def test_the_docs_example_books_through_the_modal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The "Inside a Textual app" example of docs/ui.md, as written (its app, run under the pilot from
    the repository root, where its relative path to the bistro points)."""
    (example,) = [
        found
        for found in examples()
        if found.page == "docs/ui.md" and found.tested_by == "tests/ui_adapters/test_textual_form.py"
    ]
    namespace: dict[str, Any] = {"__name__": "docs_example"}
    exec(compile(example.code, example.id, "exec"), namespace)
    monkeypatch.chdir(ROOT)
    app: App[None] = namespace["BookingApp"]()
    async with app.run_test(size=(100, 40)) as pilot:
        with anyio.fail_after(TIMEOUT):
            while not isinstance(app.screen, ElicitationScreen):
                await pilot.pause(0.05)
            while app.focused is None or app.focused.id != "field-0":
                await pilot.pause(0.05)
        await pilot.press("enter", "down", "enter", "tab", *"2025-12-27", "ctrl+s")
        log = app.query_one(Log)
        with anyio.fail_after(TIMEOUT):
            while not log.lines or app.workers:
                await pilot.pause(0.05)
        assert log.lines == ["[SUCCESS] Booked for 2025-12-27"]


class DyingServerApp(App[None]):
    """A Textual app whose call's server is killed while its question is open (the connection dies)."""

    def __init__(self) -> None:
        super().__init__()
        self.server_pid: int | None = None
        self.outcome: list[str] = []

    def on_mount(self) -> None:
        self.run_worker(self.ask())

    async def ask(self) -> None:
        server = StdioServerParameters(*stdio_command(RESTART_SERVER))
        async with Client(server, mode="legacy", elicitation_callback=textual_callback(self)) as client:
            self.server_pid = int(texts_of(await client.call_tool("pid", {}))[0])
            try:
                self.outcome = texts_of(await client.call_tool("ask", {}))
            except MCPClientError as error:
                self.outcome = [f"failed: {type(error).__name__}"]


def texts_of(result: Any) -> list[str]:
    return [block.text for block in result.content if isinstance(block, TextContent)]


async def test_a_question_whose_server_dies_closes_with_a_notice() -> None:
    """A real SIGKILL under the open modal: it closes and says why, and the call fails with the exit."""
    app = DyingServerApp()
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        with anyio.fail_after(TIMEOUT):
            while app.focused is None or app.focused.id != "field-0":
                await pilot.pause(0.05)
        assert app.server_pid is not None
        os.kill(app.server_pid, signal.SIGKILL)
        with anyio.fail_after(TIMEOUT):
            while any(isinstance(s, ElicitationScreen) for s in app.screen_stack) or app.workers:
                await pilot.pause(0.05)
        notices = [notification.message for notification in app._notifications]  # pyright: ignore[reportPrivateUsage]
    assert notices == [WITHDRAWN.replace("bistro", "restart-server")]
    assert app.outcome == ["failed: ServerExitedError"]


def test_an_app_that_exits_with_its_question_open_leaves_no_server_behind() -> None:
    """The app ends while its question is open: Textual cancels the Client's worker without waiting
    for it, and the event loop, closing, cancels the Client's shutdown once more, with asyncio's own
    cancellation that no anyio shield stops. The server is killed and its transport closed all the
    same: no process is left, and nothing unclosed is collected ("unclosed transport": pytest's
    unraisable-exception warning, an error in this project). On its own event loop, so that the leak
    shows here and now, not at whichever later test's teardown the collection happens to fall in."""

    async def leave_with_the_question_open() -> int | None:
        app = DyingServerApp()
        async with app.run_test(size=(100, 40)) as pilot:
            await until_the_question_is_shown(app, pilot)
        return app.server_pid

    server_pid = asyncio.run(leave_with_the_question_open())
    assert server_pid is not None
    deadline = time.monotonic() + TIMEOUT
    while _running(server_pid):
        assert time.monotonic() < deadline, f"the server (pid {server_pid}) still runs"
        time.sleep(0.05)
    # asyncio's child watcher (a thread per process, up to Python 3.11) holds the transport until it
    # has reaped the process: once it let go, a transport left unclosed warns, an error at this call.
    for watcher in [t for t in threading.enumerate() if t.name.startswith("waitpid-")]:
        watcher.join(max(deadline - time.monotonic(), 0))
    gc.collect()


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie waiting to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def test_a_client_in_a_thread_worker_gets_an_error_saying_where_to_run_it() -> None:
    """Textual's screens belong to the app's thread: a Client on another loop is told, not obeyed."""
    errors: list[str] = []

    class ThreadedApp(App[None]):
        def on_mount(self) -> None:
            self.run_worker(self.book, thread=True)

        def book(self) -> None:
            async def call() -> None:
                server = StdioServerParameters(sys.executable, [str(BISTRO)])
                async with Client(
                    server, mode="legacy", elicitation_callback=textual_callback(self)
                ) as client:
                    try:
                        await client.call_tool("book_table", {"date": "2025-12-25", "party_size": 2})
                    except MCPClientError as error:
                        errors.append(str(error))

            anyio.run(call)

    app = ThreadedApp()
    async with app.run_test(size=(100, 40)) as pilot:
        with anyio.fail_after(TIMEOUT):
            while not errors or app.workers:
                await pilot.pause(0.05)
        assert not any(isinstance(s, ElicitationScreen) for s in app.screen_stack)
    assert "the Client runs in another thread than the app" in errors[0]
    assert "app.run_worker(coroutine)" in errors[0]
