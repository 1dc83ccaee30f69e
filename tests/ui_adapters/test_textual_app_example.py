"""``examples/clients/textual_app.py`` driven by Textual's own pilot, keyboard only, against the real demo
server over stdio: the tools are listed, calling one that asks opens the modal, the answer given there
is what the server acts on, and quitting closes the connection before the app ends, withdrawing a
question still open."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("textual", reason="the textual extra is not installed (pip install -e '.[textual]')")

from textual.widgets import OptionList, RichLog

from tests.ui_adapters._textual_helpers import screen_lines
from ui_adapters.textual import ElicitationScreen

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "clients" / "textual_app.py"
TIMEOUT = 60.0


def load_example() -> Any:
    spec = importlib.util.spec_from_file_location("textual_app_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def log_lines(app: Any) -> list[str]:
    return [line.text.rstrip() for line in app.query_one("#log", RichLog).lines]


async def wait_until(pilot: Any, condition: Any) -> None:
    with anyio.fail_after(TIMEOUT):
        while not condition():
            await pilot.pause(0.05)


async def test_the_tools_are_listed_and_a_question_opens_the_modal() -> None:
    app = load_example().ToolsApp()
    async with app.run_test(size=(100, 40)) as pilot:
        options = app.query_one("#tools", OptionList)
        await wait_until(pilot, lambda: options.option_count == 2)
        assert [str(options.get_option_at_index(i).prompt).split(":")[0] for i in range(2)] == [
            "book_table",
            "delete_folder",
        ]
        assert "Connected to demo-bistro: 2 tools." in log_lines(app)

        await pilot.press("enter")  # book_table, its example arguments: the full date
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        texts = [str(widget.render()) for widget in app.screen.query("Static")]
        assert "demo-bistro asks:" in texts
        assert "No tables for 2 on 2025-12-25. Would you like another date?" in texts
        await wait_until(pilot, lambda: app.focused is not None and app.focused.id == "field-0")
        await pilot.press("enter")  # the yes/no list opens, its options on screen
        await pilot.pause()
        shown = screen_lines(app)
        assert any(re.search(r"▊ +Yes +▎", line) for line in shown)
        assert any(re.search(r"▊ +No +▎", line) for line in shown)
        await pilot.press("down", "enter", "tab")  # Yes; then the date, its default selected
        await pilot.press(*"2025-12-27", "ctrl+s")
        await wait_until(pilot, lambda: "← book_table: [SUCCESS] Booked for 2025-12-27" in log_lines(app))
        assert not isinstance(app.screen, ElicitationScreen)

        await pilot.press("down", "enter")  # delete_folder asks for a confirmation: declined
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        await pilot.press("ctrl+n")
        await wait_until(
            pilot, lambda: "← delete_folder: kept /tmp/old-drafts (outcome: decline)" in log_lines(app)
        )

        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: not app.is_running)
    assert app.client is None  # the Client closed (and its server stopped) before the app ended


async def test_quitting_with_a_question_open_withdraws_it_and_closes_the_connection() -> None:
    app = load_example().ToolsApp()
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        options = app.query_one("#tools", OptionList)
        await wait_until(pilot, lambda: options.option_count == 2)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.focused is not None and app.focused.id == "field-0")
        await pilot.press("ctrl+q")  # a priority key: it works over the modal
        await wait_until(pilot, lambda: not app.is_running)
        notices = [notification.message for notification in app._notifications]  # pyright: ignore[reportPrivateUsage]
    assert notices == [
        "Withdrawn: demo-bistro no longer needs this answer (the call that asked is over: the server went "
        "away or the call was cancelled). Nothing was sent."
    ]
    assert app.client is None


MARKUP_SERVER = r"""
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    if message["method"] == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "[@click=app.quit]srv[/] \x1b[2J", "version": "1"}}
    elif message["method"] == "tools/list":
        result = {"tools": [{"name": "x", "description": "[/x] B [@click=app.quit]Quit[/]",
                             "inputSchema": {"type": "object"}}]}
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "no"}}),
              flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
"""


async def test_a_servers_markup_is_shown_as_written(tmp_path: Path) -> None:
    """Tool descriptions and the server's name with markup (and an escape sequence) in the example."""
    script = tmp_path / "markup_server.py"
    script.write_text(MARKUP_SERVER, encoding="utf-8")
    module = load_example()
    app = module.ToolsApp(module.StdioServerParameters(sys.executable, [str(script)]))
    async with app.run_test(size=(100, 40)) as pilot:
        options = app.query_one("#tools", OptionList)
        await wait_until(pilot, lambda: options.option_count == 1)
        await pilot.pause()
        shown = "\n".join(screen_lines(app))
        assert "x: [/x] B [@click=app.quit]Quit[/]" in shown
        assert "Connected to [@click=app.quit]srv[/]: 1 tools." in log_lines(app)
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: not app.is_running)
