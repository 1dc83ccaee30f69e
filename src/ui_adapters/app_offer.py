"""Offer a tool's view (MCP Apps) at the terminal: show its text, then ask before opening the browser.

A terminal cannot draw a server's HTML view, but the person may want it: the offer prints the tool's
text ``content`` (what the model reads too), gets the view ready through ``open_view`` (e.g.
``BrowserAppHost(client, open_browser=False).present``, which serves it on loopback and returns the
view or its URL), then shows the link with its real host and asks, exactly as the link consent of URL
questions does (``ui_adapters.url``: same look, same keys, default No). The browser is opened only after
a yes; a no closes the view again when ``open_view`` returned one that can be closed.

``TerminalAppOffer`` is an ``on_app`` for ``ToolBridge``::

    async with BrowserAppHost(client, open_browser=False) as host:
        bridge = ToolBridge(client, on_app=TerminalAppOffer(host.present))
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Final

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from rich.console import Console
from rich.text import Text

from mcp_client.types import CallToolResult, ImageContent, TextContent
from ui_adapters._url_safety import inspect_url
from ui_adapters.text import sanitize
from ui_adapters.url import UrlAdapter, print_link

__all__ = ["OpenView", "TerminalAppOffer", "close_view", "result_text", "view_url"]

_MAX_NAME: Final = 200
_MAX_TEXT: Final = 20_000
_QUESTION: Final = "Open its view in your browser? [y/N] "
_YOURSELF: Final = "Will you open its view yourself? [y/N] "

OpenView = Callable[[str, dict[str, Any], CallToolResult], Awaitable[object] | object]
"""Gets a view ready and returns it (an object with ``.url``, such as an ``AppView``) or its URL;
called with the tool's name, its arguments and its result (``BrowserAppHost.present`` fits)."""


def result_text(result: CallToolResult) -> str:
    """The result's ``content`` as a person reads it: each text block, notes for the others."""
    lines: list[str] = []
    for block in result.content:
        if isinstance(block, TextContent):
            lines.append(block.text)
        elif isinstance(block, ImageContent):
            lines.append(f"[image ({block.mime_type}) in the view]")
        else:
            lines.append(f"[{block.type} in the view]")
    return "\n".join(lines)


async def view_url(
    open_view: OpenView, name: str, arguments: dict[str, Any], result: CallToolResult
) -> tuple[object, str]:
    """``(view, url)``: what ``open_view`` returned and the URL it names (``TypeError`` if none)."""
    view = open_view(name, arguments, result)
    if inspect.isawaitable(view):
        view = await view
    url = view if isinstance(view, str) else getattr(view, "url", None)
    if not isinstance(url, str):
        raise TypeError(f"open_view returned {type(view).__name__}, neither a URL nor a view with .url")
    return view, url


async def close_view(view: object) -> None:
    """Close what ``open_view`` returned, when it can be closed (an ``AppView``); a URL is left as it is."""
    close = getattr(view, "close", None)
    if callable(close):
        closed = close()
        if inspect.isawaitable(closed):
            await closed


class TerminalAppOffer:
    """``on_app(name, arguments, result)`` for the terminal: the text, the link, consent, the browser.

    Returns True when the person agreed to open the view (it was opened, or its link printed when no
    browser could be), False otherwise (they said no, backed out, the link was refused, or the view
    could not be made ready: that is said, never raised). ``console``, ``input``, ``output``,
    ``open_browser`` and ``print_only`` are ``UrlAdapter``'s; offers are made one at a time, sharing
    the terminal with a ``UrlAdapter`` given as ``links`` (so a link question and an offer never mix).
    """

    def __init__(
        self,
        open_view: OpenView,
        *,
        console: Console | None = None,
        input: Input | None = None,
        output: Output | None = None,
        open_browser: Callable[[str], bool] | None = None,
        print_only: bool = False,
        links: UrlAdapter | None = None,
    ) -> None:
        self._open_view = open_view
        self._links = links or UrlAdapter(
            console=console, input=input, output=output, open_browser=open_browser, print_only=print_only
        )

    async def __call__(self, name: str, arguments: dict[str, Any], result: CallToolResult) -> bool:
        links = self._links
        async with links._terminal():
            return await self._offer(links, name, arguments, result)

    async def _offer(
        self, links: UrlAdapter, name: str, arguments: dict[str, Any], result: CallToolResult
    ) -> bool:
        console = links._console
        shown = sanitize(name, max_length=_MAX_NAME, single_line=True) or "(unnamed tool)"
        console.rule(Text(f"{shown} has a view of its result"), align="left", style="cyan")
        text = sanitize(result_text(result), max_length=_MAX_TEXT)
        console.print(Text(text or "(no text)", style="red" if result.is_error else ""))
        console.print()
        try:
            view, url = await view_url(self._open_view, name, arguments, result)
        except Exception as exc:  # the text above is still the result: say why there is no view
            reason = sanitize(str(exc), max_length=_MAX_TEXT, single_line=True) or type(exc).__name__
            console.print(Text.assemble(("✗ The view could not be made ready: ", "bold red"), reason))
            return False
        inspection = inspect_url(url, max_length=links._max_url_length)
        print_link(console, url, inspection)
        if inspection.refusal is not None:
            console.print(Text.assemble(("✗ Not opened: ", "bold red"), inspection.refusal))
            await close_view(view)
            return False
        try:
            consented = await links._consent(_YOURSELF if links._print_only else _QUESTION)
        except (KeyboardInterrupt, EOFError):
            console.print(Text("Cancelled.", style="yellow"))
            await close_view(view)
            return False
        if not consented:
            console.print(Text("Not opened.", style="dim"))
            await close_view(view)
            return False
        await links._open(url)
        return True
