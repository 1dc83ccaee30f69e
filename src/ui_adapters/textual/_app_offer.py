"""``AppOfferScreen``: a tool's view (MCP Apps) offered inside a Textual app, opened only on consent.

A Textual app cannot draw a server's HTML view; it shows the tool's text ``content`` and offers the view
in the browser, the way ``ElicitationScreen`` offers a link: the full link, the host a browser would
really contact, the warnings, and an "Open the view" button; nothing is opened until it is pressed.
``textual_app_offer(app, open_view)`` is an ``on_app`` for ``ToolBridge`` that gets the view ready with
``open_view`` (e.g. ``BrowserAppHost(client, open_browser=False).present``), pushes the screen and
waits for it; a view the person does not open is closed again. Server text is plain text, never markup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import anyio
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button

from mcp_client.types import CallToolResult
from ui_adapters._url_safety import inspect_url, visible_url
from ui_adapters.app_offer import OpenView, close_view, result_text, view_url
from ui_adapters.text import sanitize
from ui_adapters.textual._modal import on_app_thread, plain, shown_until_answered

__all__ = ["AppOfferScreen", "textual_app_offer"]

_MAX_TEXT = 20_000


class AppOfferScreen(ModalScreen[bool]):
    """The tool's text and its view's link; dismisses with True once the view was opened, else False."""

    DEFAULT_CSS: ClassVar[str] = """
    AppOfferScreen { align: center middle; }
    AppOfferScreen > #dialog {
        border: thick $primary; background: $surface; padding: 0 1;
        width: 90%; max-width: 100; height: auto; max-height: 90%;
    }
    AppOfferScreen #asker { text-style: bold; color: $accent; dock: top; }
    AppOfferScreen #body { height: auto; max-height: 100%; }
    AppOfferScreen #footer { dock: bottom; height: auto; }
    AppOfferScreen #buttons { height: auto; margin-top: 1; }
    AppOfferScreen #buttons Button { margin-right: 2; }
    AppOfferScreen #host { text-style: bold reverse; }
    AppOfferScreen .warning { color: $warning; }
    AppOfferScreen .refusal, AppOfferScreen .error { color: $error; }
    AppOfferScreen #link, AppOfferScreen #host { margin-top: 1; }
    """

    AUTO_FOCUS: ClassVar[str | None] = "#buttons Button"  # the first button: Open the view when offered

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "not_now", "Not now"),
        Binding("ctrl+n", "not_now", "Not now"),
    ]

    def __init__(
        self, name: str, result: CallToolResult, url: str, *, open_url: Callable[[str], None] | None = None
    ) -> None:
        """``open_url`` opens the view once the person asks (default: the app's ``open_url``)."""
        super().__init__()
        self.tool_name: str = sanitize(name, max_length=80, single_line=True) or "the tool"
        self.result: CallToolResult = result
        self.url = url
        self._open_url = open_url

    def compose(self) -> ComposeResult:
        inspection = inspect_url(self.url)
        with Vertical(id="dialog"):
            yield plain(f"{self.tool_name} has a view of its result:", id="asker")
            with VerticalScroll(id="body"):
                text = sanitize(result_text(self.result), max_length=_MAX_TEXT) or "(no text)"
                yield plain(text, id="text", classes="error" if self.result.is_error else None)
                if inspection.refusal is not None:
                    yield plain(f"Link (hidden characters spelled out): {visible_url(self.url)}")
                    yield plain(f"This view must not be opened: {inspection.refusal}", classes="refusal")
                else:
                    yield plain(f"Link: {self.url}", id="link")
                    yield plain(f"Site: {inspection.host}", id="host")
                for warning in inspection.warnings:
                    yield plain(f"⚠ {warning.message}", classes="warning")
            with Vertical(id="footer"), Horizontal(id="buttons"):
                if inspection.refusal is None:
                    yield Button("Open the view", id="open", variant="primary", compact=True)
                yield Button("Not now", id="not-now", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "open":
            self._open()
        else:
            self.action_not_now()

    def action_not_now(self) -> None:
        self.dismiss(False)

    def _open(self) -> None:
        if inspect_url(self.url).refusal is not None:
            return
        if self._open_url is not None:
            self._open_url(self.url)
        else:
            self.app.open_url(self.url)
        self.dismiss(True)


def textual_app_offer(
    app: App[Any], open_view: OpenView, *, open_url: Callable[[str], None] | None = None
) -> Callable[[str, dict[str, Any], CallToolResult], Any]:
    """An ``on_app`` for ``ToolBridge`` showing each tool's view as an ``AppOfferScreen`` in ``app``.

    Returns True once the person opened the view. The Client must run on the app's event loop (an async
    worker), as for ``textual_callback``. A view that cannot be made ready is said in a notification.
    """
    turn = anyio.Lock()

    async def offer(name: str, arguments: dict[str, Any], result: CallToolResult) -> bool:
        on_app_thread(app, "textual_app_offer")
        async with turn:
            try:
                view, url = await view_url(open_view, name, arguments, result)
            except Exception as exc:
                reason = sanitize(str(exc), max_length=200, single_line=True) or type(exc).__name__
                app.notify(f"The view could not be made ready: {reason}", severity="error", markup=False)
                return False
            screen = AppOfferScreen(name, result, url, open_url=open_url)
            opened = bool(await shown_until_answered(app, screen, False))
            if not opened:
                await close_view(view)
            return opened

    return offer
