"""``BrowserAppHost``: MCP Apps views in the person's own browser, served by us on loopback.

Each view gets a host page of ours on one loopback origin, which frames the sandbox proxy on another
(the spec's two origins: two ports of 127.0.0.1), which loads the server's HTML under a
Content-Security-Policy built from what the resource declared. Everything but the sockets and opening
the browser is ``AppHost``'s.
"""

from __future__ import annotations

import inspect
import socket
import sys
import webbrowser
from collections.abc import Callable
from typing import Literal

import anyio
import anyio.abc

from mcp_client import Client, ClientGroup
from ui_adapters.apps._host import AppHost, Callback, LogCallback
from ui_adapters.apps._server import listen_loopback, serve_forever
from ui_adapters.apps._site import AppSite
from ui_adapters.apps._view import AppView

__all__ = ["BrowserAppHost"]


class BrowserAppHost(AppHost):
    """Shows MCP Apps views in the browser; an async context manager around a ``Client`` or ``ClientGroup``.

    ``view = await host.show(name, arguments)`` calls the tool and serves its view; ``present`` shows a
    result already obtained. Leaving the host closes every view (the pages say so).

    * ``open_browser``: True opens each view's page in the system browser (``webbrowser``; the link is
      printed on stderr when none starts); False leaves it to you (``view.url``); or a callable taking
      the URL (sync or async: a notebook's IFrame, a test's browser).
    * ``theme``: ``"light"`` or ``"dark"``, for the page and the view's host context.
    * ``on_message``, ``on_open_link``, ``on_model_context``: called with the view's request ``params``
      (sync or async) and return True to accept; without one the view's request is refused.
      ``on_open_link`` opens the link itself (the host never does). ``on_log`` hears the view's logs.

    The pages are served on 127.0.0.1, the host page and the view's sandbox on two ports (two origins).
    """

    def __init__(
        self,
        client: Client | ClientGroup,
        *,
        open_browser: bool | Callable[[str], object] = True,
        theme: Literal["light", "dark"] = "light",
        on_message: Callback | None = None,
        on_open_link: Callback | None = None,
        on_model_context: Callback | None = None,
        on_log: LogCallback | None = None,
    ) -> None:
        super().__init__(
            client,
            theme=theme,
            on_message=on_message,
            on_open_link=on_open_link,
            on_model_context=on_model_context,
            on_log=on_log,
        )
        self.open_browser = open_browser
        self._listeners: list[socket.socket] = []

    async def _open_site(self, tg: anyio.abc.TaskGroup) -> AppSite:
        host_listener = listen_loopback()
        self._listeners.append(host_listener)
        sandbox_listener = listen_loopback()
        self._listeners.append(sandbox_listener)
        site = AppSite(
            host_authority=f"127.0.0.1:{host_listener.getsockname()[1]}",
            sandbox_authority=f"127.0.0.1:{sandbox_listener.getsockname()[1]}",
        )
        tg.start_soon(serve_forever, site, host_listener, tg)
        tg.start_soon(serve_forever, site, sandbox_listener, tg)
        return site

    async def _close_site(self) -> None:
        for listener in self._listeners:
            listener.close()
        self._listeners = []

    async def _opened(self, view: AppView) -> None:
        opener = self.open_browser
        if opener is False:
            return
        if opener is True:
            opened = await anyio.to_thread.run_sync(webbrowser.open, view.url, abandon_on_cancel=True)
            if not opened:
                print(
                    f"Open this page to see {view.name} from {view.server}: {view.url}",
                    file=sys.stderr,
                    flush=True,
                )
            return
        outcome = opener(view.url)
        if inspect.isawaitable(outcome):
            await outcome
