"""A tool's view offered inside a Textual app (``textual_app_offer``, ``AppOfferScreen``), with the pilot.

The app's worker runs a model's call of a tool with a view through ``ToolBridge(on_app=offer)`` against
``app_tools_server.py``; ``open_view`` stands for a host's ``present`` (a view on loopback that records
being closed), ``open_url`` records what the browser would be given.
"""

from __future__ import annotations

from typing import Any

import anyio
import httpx2
import pytest

pytest.importorskip("textual", reason="the textual extra is not installed (pip install -e '.[textual]')")

from textual.app import App, ComposeResult
from textual.widgets import Button, Static

from mcp_client import Client, StdioServerParameters
from mcp_client.llm import ToolBridge
from mcp_client.types import CallToolResult
from tests.support.servers import SERVERS_DIR, stdio_command
from ui_adapters.apps import BrowserAppHost
from ui_adapters.textual import AppOfferScreen, textual_app_offer

pytestmark = pytest.mark.anyio

APPS = StdioServerParameters(*stdio_command(SERVERS_DIR / "app_tools_server.py"))
URL = "http://127.0.0.1:8765/view/Zk3q/"
TIMEOUT = 60  # seconds: a bound, never reached when things work


class View:
    url = URL

    def __init__(self, closed: list[str]) -> None:
        self._closed = closed

    async def close(self) -> None:
        self._closed.append(self.url)


class ChatApp(App[None]):
    """A model's call of ``tool`` in an async worker, its view offered through ``textual_app_offer``."""

    def __init__(
        self, tool: str = "forecast", city: str = "Oslo", *, view_fails: bool = False, real_host: bool = False
    ) -> None:
        super().__init__()
        self.tool, self.city, self.view_fails, self.real_host = tool, city, view_fails, real_host
        self.served: list[int] = []
        self.opened: list[str] = []
        self.closed: list[str] = []
        self.offers: list[tuple[str, dict[str, Any]]] = []
        self.model_reads: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("the chat")

    def on_mount(self) -> None:
        self.run_worker(self.talk())

    async def open_view(self, name: str, arguments: dict[str, Any], result: CallToolResult) -> View:
        if self.view_fails:
            raise RuntimeError("the host is closed")
        self.offers.append((name, arguments))
        return View(self.closed)

    async def talk(self) -> None:
        if self.real_host:
            await self.talk_with_a_host()
            return
        async with Client(APPS) as client:
            offer = textual_app_offer(self, self.open_view, open_url=self.opened.append)
            bridge = ToolBridge(client, on_app=offer)
            await bridge.anthropic_tools()
            use = {"id": "t1", "name": self.tool, "input": {"city": self.city}}
            answer = await bridge.run_anthropic(use)
        self.model_reads.append(answer["content"][0]["text"])

    async def talk_with_a_host(self) -> None:
        """The offer on a real ``BrowserAppHost.present``; the page it gives is fetched while it is open."""
        async with Client(APPS, apps=True) as client, BrowserAppHost(client, open_browser=False) as host:
            offer = textual_app_offer(self, host.present, open_url=self.opened.append)
            bridge = ToolBridge(client, on_app=offer)
            await bridge.anthropic_tools()
            answer = await bridge.run_anthropic({"id": "t1", "name": self.tool, "input": {"city": self.city}})
            async with httpx2.AsyncClient(timeout=TIMEOUT) as http:
                self.served.extend([(await http.get(url)).status_code for url in self.opened])
        self.model_reads.append(answer["content"][0]["text"])


async def _until(pilot: Any, ready: Any) -> None:
    with anyio.fail_after(TIMEOUT):
        while not ready():
            await pilot.pause(0.05)


def _offered(app: App[Any]) -> bool:
    """The offer is on screen, drawn, its first button focused."""
    return isinstance(app.screen, AppOfferScreen) and isinstance(app.focused, Button)


def _texts(app: App[Any]) -> list[str]:
    return [str(widget.render()) for widget in app.screen.query(Static) if not isinstance(widget, Button)]


async def test_the_view_is_offered_with_its_text_and_host_and_opened_on_the_button() -> None:
    app = ChatApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await _until(pilot, lambda: _offered(app))
        assert _texts(app) == [
            "forecast has a view of its result:",
            "Sunny in Oslo, 21 C",
            f"Link: {URL}",
            "Site: 127.0.0.1",
        ]
        assert [str(b.label) for b in app.screen.query(Button)] == ["Open the view", "Not now"]
        assert app.opened == [] and app.model_reads == []  # the call waits for the person
        await pilot.press("enter")  # the focused button: Open the view
        await _until(pilot, lambda: app.model_reads)
    assert app.offers == [("forecast", {"city": "Oslo"})]
    assert app.opened == [URL]
    assert app.closed == []
    assert app.model_reads == ["Sunny in Oslo, 21 C"]


@pytest.mark.parametrize("key", ["escape", "ctrl+n"])
async def test_not_now_never_opens_it_and_closes_the_view(key: str) -> None:
    app = ChatApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await _until(pilot, lambda: _offered(app))
        await pilot.press(key)
        await _until(pilot, lambda: app.model_reads)
    assert app.opened == []
    assert app.closed == [URL]
    assert app.model_reads == ["Sunny in Oslo, 21 C"]


async def test_server_text_is_shown_as_it_is_never_as_markup() -> None:
    """The error text carries the city the model sent: ``[b]`` and ``[link=...]`` stay text."""
    city = "[b]Oslo[/b] [link=https://evil.example]x[/link]\x1b[31m"
    app = ChatApp("storm", city)
    async with app.run_test(size=(100, 30)) as pilot:
        await _until(pilot, lambda: _offered(app))
        assert "No forecast for [b]Oslo[/b] [link=https://evil.example]x[/link]" in _texts(app)  # no escape
        await pilot.press("escape")
        await _until(pilot, lambda: app.model_reads)


async def test_a_view_that_cannot_be_made_ready_is_a_notification() -> None:
    app = ChatApp(view_fails=True)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await _until(pilot, lambda: app.model_reads)
        notices = [n.message for n in app._notifications]  # pyright: ignore[reportPrivateUsage]
    assert notices == ["The view could not be made ready: the host is closed"]
    assert app.model_reads == ["Sunny in Oslo, 21 C"]
    assert app.opened == []


async def test_with_a_real_browser_host_the_served_page_is_opened() -> None:
    app = ChatApp(real_host=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await _until(pilot, lambda: _offered(app))
        assert "Site: 127.0.0.1" in _texts(app)
        assert app.opened == []
        await pilot.press("enter")
        await _until(pilot, lambda: app.model_reads)
    [url] = app.opened
    assert url.startswith("http://127.0.0.1:")
    assert app.served == [200]
