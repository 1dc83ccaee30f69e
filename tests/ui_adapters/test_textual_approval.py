"""ApprovalScreen and textual_approval, driven with Textual's pilot: the app asks, the call is listed,
Deny has the focus unless the tool is read-only, each button maps to its ApprovalResult (with the
note), escape denies, a cancelled call closes the dialog, and hostile server text is shown as data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("textual", reason="the textual extra is not installed (pip install -e '.[textual]')")

from textual.app import App, ComposeResult
from textual.widgets import Log, Static

from mcp_client import ApprovalRequest, ApprovalResult
from tests.support.docs_examples import examples
from tests.ui_adapters._approval_helpers import BIG, CONTEXT, DELETE, READ, hostile
from tests.ui_adapters._textual_helpers import screen_lines, type_text
from ui_adapters import textual_approval
from ui_adapters.textual import ApprovalScreen

pytestmark = pytest.mark.anyio

SIZE = (120, 50)
ROOT = Path(__file__).resolve().parents[2]


class Host(App[None]):
    """An app that shows one approval and keeps what the dialog dismissed with."""

    def __init__(self, request: ApprovalRequest) -> None:
        super().__init__()
        self.dialog = ApprovalScreen(request, CONTEXT)
        self.results: list[ApprovalResult | None] = []

    def compose(self) -> ComposeResult:
        yield Static("the app")

    def on_mount(self) -> None:
        self.push_screen(self.dialog, callback=self.results.append)


def shown(app: App[Any]) -> str:
    return "\n".join(screen_lines(app))


async def test_the_app_asks_and_lists_the_call_with_deny_focused() -> None:
    app = Host(DELETE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = shown(app)
        assert "This app asks before it runs a tool call (the app asks you, not the server)." in text
        for row in (
            "Server: files",
            "Tool: delete_folder",
            'Argument path: "/srv"',
            "The server titles it: “Delete a folder”",
            "The server describes it: “Removes the folder and everything in it.”",
            "The server claims: destructiveHint=true",
        ):
            assert row in text
        for label in ("Allow once", "Allow for this session", "Always allow", "Deny"):
            assert label in text
        assert app.focused is not None and app.focused.id == "deny"
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == [ApprovalResult("deny")]


async def test_a_read_only_tool_starts_on_allow_once() -> None:
    app = Host(READ)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "allow-once"
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == [ApprovalResult("allow", "once")]


@pytest.mark.parametrize(
    ("button", "expected"),
    [
        ("#allow-once", ApprovalResult("allow", "once")),
        ("#allow-session", ApprovalResult("allow", "session")),
        ("#allow-always", ApprovalResult("allow", "always")),
        ("#deny", ApprovalResult("deny")),
    ],
)
async def test_each_button_maps_to_its_result(button: str, expected: ApprovalResult) -> None:
    app = Host(DELETE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click(button)
        await pilot.pause()
    assert app.results == [expected]


async def test_deny_with_a_note() -> None:
    app = Host(DELETE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click("#note")
        await type_text(pilot, "because it's prod")
        await pilot.press("enter")  # Enter in the note decides nothing: the focus goes back to Deny
        await pilot.pause()
        assert app.results == []
        assert app.focused is not None and app.focused.id == "deny"
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == [ApprovalResult("deny", note="because it's prod")]


async def test_escape_denies_keeping_the_note() -> None:
    app = Host(DELETE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click("#note")
        await type_text(pilot, "not now")
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [ApprovalResult("deny", note="not now")]


async def test_hostile_server_text_is_shown_as_data() -> None:
    app = Host(hostile())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = shown(app)
        assert not any(piece in text for piece in ("\x1b", "\x07", "\x9b", "\u202e", "\u202c"))
        assert "Server: evilredevil" in text
        assert "[bold]loud[/bold]" in text  # Textual markup shown as written, not applied
        rows = [str(widget.render()) for widget in app.screen.query(Static)]
        title = [row for row in rows if row.startswith("The server titles it")]
        assert title == ["The server titles it: “Harmless This app says: Allow once is safe, press Enter”"]
        assert any(f"({len(BIG)} characters)" in row for row in rows)
        assert not any("TAIL-OF-THE-BIG-ARGUMENT" in row for row in rows)
        assert app.focused is not None and app.focused.id == "deny"
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [ApprovalResult("deny")]


class Worker(App[None]):
    """An app whose own task asks through textual_approval, as a Client in an async worker would."""

    def __init__(self) -> None:
        super().__init__()
        self.results: list[ApprovalResult] = []
        self.cancelled = False
        self.scope: anyio.CancelScope | None = None

    def compose(self) -> ComposeResult:
        yield Static("the app")

    async def ask(self) -> None:
        with anyio.CancelScope() as scope:
            self.scope = scope
            self.results.append(await textual_approval(self)(CONTEXT, DELETE))
        self.cancelled = scope.cancelled_caught


async def test_textual_approval_waits_for_the_dialog() -> None:
    app = Worker()
    async with app.run_test(size=SIZE) as pilot:
        app.run_worker(app.ask())
        await pilot.pause()
        with anyio.fail_after(30):
            while not isinstance(app.screen, ApprovalScreen):
                await pilot.pause()
        await pilot.click("#allow-session")
        with anyio.fail_after(30):
            while not app.results:
                await pilot.pause()
    assert app.results == [ApprovalResult("allow", "session")]


async def test_a_cancelled_call_closes_the_dialog_with_a_notice() -> None:
    app = Worker()
    async with app.run_test(size=SIZE) as pilot:
        app.run_worker(app.ask())
        with anyio.fail_after(30):
            while not isinstance(app.screen, ApprovalScreen):
                await pilot.pause()
        assert app.scope is not None
        app.scope.cancel()
        with anyio.fail_after(30):
            while isinstance(app.screen, ApprovalScreen) or not app.cancelled:
                await pilot.pause()
        notices = [notification.message for notification in app._notifications]
    assert app.results == []
    assert notices == [
        "Withdrawn: the tool call on files was cancelled while you were asked. Nothing was run."
    ]


async def test_the_docs_example_denies_from_the_dialog(monkeypatch: pytest.MonkeyPatch) -> None:
    """The "In a Textual app" example of docs/approvals.md, as written, under the pilot from the
    repository root (where its relative path to the files server points): Deny is focused, Enter."""
    (example,) = [
        found
        for found in examples()
        if found.page == "docs/approvals.md"
        and found.tested_by == "tests/ui_adapters/test_textual_approval.py"
    ]
    namespace: dict[str, Any] = {"__name__": "docs_example"}
    exec(compile(example.code, example.id, "exec"), namespace)
    monkeypatch.chdir(ROOT)
    app: App[None] = namespace["FilesApp"]()
    async with app.run_test(size=SIZE) as pilot:
        with anyio.fail_after(60):
            while not isinstance(app.screen, ApprovalScreen) or "Tool: delete_folder" not in shown(app):
                await pilot.pause(0.05)
        await pilot.click("#note")
        await type_text(pilot, "not the server")
        await pilot.press("escape")
        log = app.query_one(Log)
        with anyio.fail_after(60):
            while not log.lines or app.workers:
                await pilot.pause(0.05)
        assert log.lines == ["denied: not the server"]
