"""``AppView``: one tool's view as its host shows it: the page's URL, the result it was given, what the
view sent back, and its closing (``ui/resource-teardown``, then the page says it is closed)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import anyio

from mcp_client.apps import AppBridge
from mcp_client.types import CallToolResult
from ui_adapters.apps._channel import ViewChannel
from ui_adapters.text import sanitize

__all__ = ["TEARDOWN_SECONDS", "AppView"]

logger = logging.getLogger("ui_adapters.apps")

TEARDOWN_SECONDS = 3.0
"""How long ``AppView.close`` waits for the view to answer ``ui/resource-teardown``."""


class AppView:
    """One tool's view, shown by ``BrowserAppHost.show`` or ``present``.

    ``url`` is the host page; ``name``, ``server`` and ``arguments`` the call, ``result`` the result the
    view was given. What the view sent, whether the callbacks accepted it or not: ``messages`` (each
    ``ui/message``'s params), ``model_context`` (the last ``ui/update-model-context``'s params) and
    ``logs`` (each ``notifications/message``'s params).
    """

    def __init__(
        self,
        *,
        name: str,
        server: str,
        arguments: Mapping[str, Any],
        result: CallToolResult,
        url: str,
        channel: ViewChannel,
    ) -> None:
        self.name = name
        self.server = server
        self.arguments: dict[str, Any] = dict(arguments)
        self.result = result
        self.url = url
        self.messages: list[dict[str, Any]] = []
        self.model_context: dict[str, Any] | None = None
        self.logs: list[dict[str, Any]] = []
        self._channel = channel
        self._bridge: AppBridge | None = None
        self._closing = False
        self._closed = anyio.Event()

    @property
    def closed(self) -> bool:
        """Whether the view was closed (``close()``, or the host left)."""
        return self._closed.is_set()

    @property
    def pages(self) -> int:
        """How many host pages show the view now (each holds the view's event stream open)."""
        return self._channel.pages

    async def wait_abandoned(self, grace: float = 3.0) -> None:
        """Return once a page has shown the view and none has for ``grace`` seconds: the person closed
        the tab (a reload comes back sooner). The view stays open: close it if that is what it means."""
        channel = self._channel
        await channel.page_seen.wait()
        while True:
            if channel.pages > 0:
                await channel.pages_changed()
                continue
            with anyio.move_on_after(grace):
                while channel.pages == 0:
                    await channel.pages_changed()
            if channel.pages == 0:
                return

    async def close(self) -> None:
        """Tear the view down: send ``ui/resource-teardown``, wait up to ``TEARDOWN_SECONDS`` for its
        answer, then the page says the view is closed. Closing a closed view does nothing."""
        if self._closing:
            await self._closed.wait()
            return
        self._closing = True
        try:
            bridge = self._bridge
            if bridge is not None:
                # With no page open nobody can answer: the bridge is closed without waiting, and the wait
                # ends when the last page goes away.
                wait = TEARDOWN_SECONDS if self._channel.pages > 0 else 0
                with anyio.move_on_after(wait + 1):
                    async with anyio.create_task_group() as tg:

                        async def until_no_page() -> None:
                            await self._channel.wait_no_pages()
                            tg.cancel_scope.cancel()

                        async def teardown() -> None:
                            await bridge.teardown(timeout=wait)
                            tg.cancel_scope.cancel()

                        tg.start_soon(teardown)
                        if wait:
                            tg.start_soon(until_no_page)
        except Exception:
            logger.warning("the view of %r did not take its teardown well", self.name, exc_info=True)
        finally:
            self._channel.close(f"The view of {sanitize(self.name)} is closed.")
            self._closed.set()

    async def wait_closed(self) -> None:
        """Wait until the view is closed (``close()``, or the host left)."""
        await self._closed.wait()

    def __repr__(self) -> str:
        return f"AppView(name={self.name!r}, server={self.server!r}, url={self.url!r}, closed={self.closed})"
