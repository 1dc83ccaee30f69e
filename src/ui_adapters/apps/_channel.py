"""One view's link with the browser: its secrets, the view's messages in, the host's messages out.

The host page posts the view's messages in batches (``accept``); each goes into a bounded inbox, read in
order by ``serve`` and answered by the handler (the view's ``AppBridge``). The host's messages, the
handler's answers among them, wait in a bounded outbox for the page's event stream (``pump``).

A view cannot stall the host or another view: ``accept`` never waits (a full inbox refuses the message and
the view is told with a JSON-RPC error), requests that may take long (a tool call, a question to the
person) run concurrently up to ``MAX_RUNNING`` per view, and everything a view causes stays in its own
queues and tasks.

The sandbox handshake is answered here, not by the bridge: the proxy's
``ui/notifications/sandbox-proxy-ready`` gets ``ui/notifications/sandbox-resource-ready`` with the view's
HTML and declared policy.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

__all__ = ["MAX_PENDING", "MAX_RUNNING", "Handler", "ViewChannel"]

logger = logging.getLogger("ui_adapters.apps")

MAX_PENDING = 64
"""Messages of one view waiting for the host; more are refused until the host catches up."""
MAX_RUNNING = 8
"""Requests of one view the host works on at once (tool calls, reads, callbacks)."""
MAX_OUTBOX = 256
"""Host messages waiting for the page to take them."""

Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any] | None]]
Message = dict[str, Any]

_PROXY_READY = "ui/notifications/sandbox-proxy-ready"
_INLINE = frozenset({"ui/initialize"})
"""Requests answered in order with the notifications around them (the rest run concurrently)."""

TOO_MANY = -32000
"""The JSON-RPC error code of a refused message (a server error, as the spec leaves it to the host)."""


class ViewChannel:
    """The HTTP side of one view; the routes of ``AppSite`` and the host use it."""

    def __init__(
        self,
        *,
        title: str,
        server: str,
        html: str,
        csp: Mapping[str, Any] | None,
        permissions: Mapping[str, Any] | None,
        proxy_csp: str,
        allow: str,
        border: bool,
        theme: str,
        max_pending: int = MAX_PENDING,
        max_running: int = MAX_RUNNING,
    ) -> None:
        self.title = title
        self.server = server
        self.html: str = html
        self.csp = csp
        self.permissions = permissions
        self.proxy_csp = proxy_csp
        """The Content-Security-Policy of the proxy's document, which the view's document inherits."""
        self.allow = allow
        self.border = border
        self.theme = theme
        self.token: str = secrets.token_urlsafe(24)
        """The host page's path: ``/<token>`` on the host origin."""
        self.sandbox_token: str = secrets.token_urlsafe(24)
        """The proxy's path: ``/<sandbox_token>`` on the sandbox origin."""
        self.csrf: str = secrets.token_urlsafe(24)
        self.closed: anyio.Event = anyio.Event()
        self.closed_text: str = "This view is closed."
        self.refused: int = 0
        """Messages refused because the inbox was full (a flooding view)."""
        self.pages: int = 0
        """Event streams open now (a host page being shown)."""
        self.page_seen: anyio.Event = anyio.Event()
        self._no_pages = anyio.Event()
        self._no_pages.set()
        self._pages_changed = anyio.Event()
        self.max_running = max_running
        self._inbox_in: MemoryObjectSendStream[Message]
        self._inbox_out: MemoryObjectReceiveStream[Message]
        self._inbox_in, self._inbox_out = anyio.create_memory_object_stream[Message](max_pending)
        self._outbox_in: MemoryObjectSendStream[Message]
        self._outbox_out: MemoryObjectReceiveStream[Message]
        self._outbox_in, self._outbox_out = anyio.create_memory_object_stream[Message](MAX_OUTBOX)
        self._pump_scope: anyio.CancelScope | None = None

    # ------------------------------------------------------------------ view -> host

    def accept(self, messages: list[object]) -> int:
        """Take a batch the page posted; never waits. Returns how many were queued."""
        queued = 0
        for message in messages:
            if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":  # pyright: ignore[reportUnknownMemberType]
                continue
            message_: Message = message  # pyright: ignore[reportUnknownVariableType]
            if self.closed.is_set():
                self._refuse(message_, "This view is closed.")
                continue
            if message_.get("method") == _PROXY_READY:
                self._post(self._resource_ready())
                continue
            try:
                self._inbox_in.send_nowait(message_)
            except anyio.WouldBlock:
                self.refused += 1
                if self.refused == 1 or self.refused % 100 == 0:
                    logger.warning(
                        "the view %r sends faster than the host answers; refused %d", self.title, self.refused
                    )
                self._refuse(
                    message_,
                    f"Too many messages: {self._inbox_in.statistics().max_buffer_size} are already "
                    "waiting for the host. Wait for answers before sending more.",
                )
            else:
                queued += 1
        return queued

    async def serve(self, handle: Handler) -> None:
        """Answer the view's messages in order until the view is closed (run it in the host's task group)."""
        slots = anyio.Semaphore(self.max_running)
        async with anyio.create_task_group() as running:

            async def answer(message: Message) -> None:
                try:
                    reply = await handle(message)
                except Exception:
                    logger.exception("the host failed to answer the view %r", self.title)
                    reply = _error(message, -32603, "The host failed to answer this request.")
                if reply is not None and "id" in message:
                    await self.send(reply)

            async def answer_in_slot(message: Message) -> None:
                try:
                    await answer(message)
                finally:
                    slots.release()

            with anyio.CancelScope() as scope:

                async def until_closed() -> None:
                    await self.closed.wait()
                    scope.cancel()

                running.start_soon(until_closed)
                async for message in self._inbox_out:
                    method = message.get("method")
                    if "id" in message and isinstance(method, str) and method not in _INLINE:
                        await slots.acquire()  # all slots busy holds the queue: the inbox then refuses
                        running.start_soon(answer_in_slot, message)
                    else:
                        await answer(message)
            running.cancel_scope.cancel()

    # ------------------------------------------------------------------ host -> view

    async def send(self, message: Message) -> None:
        """Queue one message for the view (waits while the page is not taking them; never after close)."""
        if self.closed.is_set():
            return
        await self._outbox_in.send(message)

    def _post(self, message: Message) -> None:
        try:
            self._outbox_in.send_nowait(message)
        except anyio.WouldBlock:
            logger.warning("the page of the view %r is not reading; a host message was dropped", self.title)

    def _refuse(self, message: Message, why: str) -> None:
        if "id" in message and isinstance(message.get("method"), str):
            self._post(_error(message, TOO_MANY, why))

    def _resource_ready(self) -> Message:
        params: Message = {"html": self.html}
        if self.csp is not None:
            params["csp"] = dict(self.csp)
        if self.permissions is not None:
            params["permissions"] = dict(self.permissions)
        return {"jsonrpc": "2.0", "method": "ui/notifications/sandbox-resource-ready", "params": params}

    async def pump(self, write: Callable[[bytes], Awaitable[None]]) -> None:
        """Write the host's messages to one event stream until the view is closed (then a ``closed``
        event) or the stream goes away. A newer stream (the page reloaded) takes over from an older one."""
        if self._pump_scope is not None:
            self._pump_scope.cancel()
        lock = anyio.Lock()
        scope = anyio.CancelScope()
        self._pump_scope = scope
        if self.pages == 0:
            self._no_pages = anyio.Event()
        self.pages += 1
        self.page_seen.set()
        self._signal_pages()
        try:
            with scope:
                async with anyio.create_task_group() as tg:

                    async def forward() -> None:
                        async for message in self._outbox_out:
                            data = _event_data(message)
                            async with lock:
                                await write(b"data: " + data + b"\n\n")

                    async def until_closed() -> None:
                        await self.closed.wait()
                        async with lock:
                            tg.cancel_scope.cancel()
                            text = self.closed_text.replace("\r", " ").replace("\n", " ")
                            with anyio.CancelScope(shield=True), anyio.move_on_after(2):
                                await write(b"event: closed\ndata: " + text.encode() + b"\n\n")

                    tg.start_soon(forward)
                    tg.start_soon(until_closed)
        finally:
            self.pages -= 1
            if self.pages == 0:
                self._no_pages.set()
            self._signal_pages()
            if self._pump_scope is scope:
                self._pump_scope = None

    def _signal_pages(self) -> None:
        self._pages_changed.set()
        self._pages_changed = anyio.Event()

    async def pages_changed(self) -> None:
        """Wait for the next page to open or go away."""
        await self._pages_changed.wait()

    async def wait_no_pages(self) -> None:
        """Wait until no page holds an event stream of this view."""
        await self._no_pages.wait()

    # ------------------------------------------------------------------ closing

    def close(self, text: str | None = None) -> None:
        """Stop taking messages; the page is told (``text``) and shows it instead of the view."""
        if text is not None:
            self.closed_text = text
        self.closed.set()
        self._inbox_in.close()
        self.html = ""  # a closed view's page is a notice; its document is no longer needed


def _error(message: Message, code: int, text: str) -> Message:
    return {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": code, "message": text}}


def _event_data(message: Message) -> bytes:
    # One line: JSON never needs a raw newline, and U+2028/9 are escaped by ensure_ascii.
    return json.dumps(message, separators=(",", ":")).encode("ascii")
