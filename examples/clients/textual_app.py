"""A Textual app that lists the demo server's tools and calls them; a tool that asks opens a modal form.

    python examples/clients/textual_app.py

Needs Textual (``pip install 'mcp-elicit-client[textual]'``) and the official MCP SDK for the demo server
(``pip install -e ".[examples]"``), which it starts over stdio: the server of ``mcp-client demo``, with
the bistro's ``book_table`` and the file store's ``delete_folder``. Up and down pick a tool, tab goes
to its arguments (JSON, an example filled in), enter calls it; ctrl+q quits. ``book_table`` on
2025-12-25 (full) asks for another date, ``delete_folder`` asks for a confirmation: each question is an
``ElicitationScreen`` pushed by ``textual_callback(app)``, the one line that connects the two.

The Client runs in a worker of the app, on the app's own event loop, as ``textual_callback`` needs.
Quitting closes it first (and so stops the server) before the app ends. The app's CSS names its own
widgets by id: a global rule such as ``OptionList { height: 1fr; }`` would also reach the widgets of
every screen the app shows (the modal form guards its own, but other screens may not). What the server
says (tool names, descriptions, results, errors) is shown as plain text, cleaned of control characters.
"""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Any, ClassVar

import anyio
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Header, Input, OptionList, RichLog
from textual.widgets.option_list import Option
from textual.worker import WorkerError

from mcp_client import Client, MCPClientError, StdioServerParameters
from mcp_client.types import TextContent, Tool
from ui_adapters.text import sanitize
from ui_adapters.textual import textual_callback

DEMO_SERVER = StdioServerParameters(sys.executable, ["-m", "ui_adapters.cli._demo_server"])
EXAMPLE_ARGUMENTS: dict[str, dict[str, Any]] = {
    "book_table": {"date": "2025-12-25", "party_size": 2},
    "delete_folder": {"path": "/tmp/old-drafts"},
}


class ToolsApp(App[None]):
    """The demo server's tools in a list; enter calls the highlighted one with the arguments below."""

    TITLE = "MCP tools"
    CSS = "#tools { height: 1fr; } #log { height: 2fr; border: round $primary; }"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "leave", "Quit", priority=True)]

    def __init__(self, server: StdioServerParameters = DEMO_SERVER) -> None:
        super().__init__()
        self.server = server
        self.client: Client | None = None
        self.tools: dict[str, Tool] = {}
        self._leaving = anyio.Event()

    def compose(self) -> ComposeResult:
        yield Header()
        yield OptionList(id="tools")
        yield Input(placeholder="arguments (JSON)", id="arguments")
        yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#log", RichLog).write("Starting the demo server…")
        self.run_worker(self.connect(), name="connection")

    async def connect(self) -> None:
        """Hold the connection open until the app quits; the questions come in through the callback."""
        log = self.query_one("#log", RichLog)
        try:
            async with Client(
                self.server, mode="legacy", elicitation_callback=textual_callback(self)
            ) as client:
                self.client = client
                self.tools = {tool.name: tool for tool in (await client.list_tools()).tools}
                options = self.query_one("#tools", OptionList)
                options.add_options(  # a str prompt would be read as markup: ``Text`` is plain
                    Option(Text(shown(f"{tool.name}: {tool.description or ''}")), id=tool.name)
                    for tool in self.tools.values()
                )
                options.highlighted = 0
                options.focus()
                info = client.server_info
                name = shown(info.name if info else client.server)
                log.write(f"Connected to {name}: {len(self.tools)} tools.")
                await self._leaving.wait()
        except MCPClientError as error:
            log.write(f"The server could not be used: {shown(str(error))}")
        finally:
            self.client = None

    @on(OptionList.OptionHighlighted, "#tools")
    def show_example(self, event: OptionList.OptionHighlighted) -> None:
        arguments = EXAMPLE_ARGUMENTS.get(event.option.id or "", {})
        self.query_one("#arguments", Input).value = json.dumps(arguments)

    @on(OptionList.OptionSelected, "#tools")
    @on(Input.Submitted, "#arguments")
    def call_highlighted(self) -> None:
        options = self.query_one("#tools", OptionList)
        if options.highlighted is None or self.client is None:
            return
        name = options.get_option_at_index(options.highlighted).id or ""
        try:
            arguments = json.loads(self.query_one("#arguments", Input).value or "{}")
        except json.JSONDecodeError as error:
            self.query_one("#log", RichLog).write(f"The arguments are not JSON: {error}")
            return
        self.run_worker(self.call(self.client, name, arguments), group="calls")

    async def call(self, client: Client, name: str, arguments: dict[str, Any]) -> None:
        log = self.query_one("#log", RichLog)
        tool = shown(name)
        log.write(f"→ {tool} {json.dumps(arguments)}")
        try:
            result = await client.call_tool(name, arguments)
        except MCPClientError as error:
            log.write(f"✗ {tool} failed: {shown(str(error))}")
            return
        text = " ".join(block.text for block in result.content if isinstance(block, TextContent))
        log.write(f"{'✗' if result.is_error else '←'} {tool}: {shown(text)}")

    async def action_leave(self) -> None:
        """Stop the calls (a question still open is withdrawn), close the connection, then end the app."""
        calls = self.workers.cancel_group(self, "calls")
        self._leaving.set()
        for worker in [*calls, *self.workers]:
            with contextlib.suppress(WorkerError):  # a cancelled call's worker says so: nothing to report
                await worker.wait()
        self.exit()


def shown(text: str) -> str:
    """The server's text on one line, without the control characters that would drive the terminal."""
    return sanitize(text, max_length=500, single_line=True)


if __name__ == "__main__":
    ToolsApp().run()
