"""What a server tells us without being asked: progress, log messages and change notices.

``Notifications.dispatch(method, params)`` takes every server notification the elicitation machinery
does not handle itself and sends it to exactly one kind of consumer:

* ``notifications/progress`` -> the call that sent that ``progressToken`` (``ProgressRoutes``): its
  ``progress_callback`` runs and its timeout starts again. Unknown tokens are dropped.
* ``notifications/message`` -> ``logging_callback(params)``, or the ``mcp_client.server`` Python logger
  when the app gave none (the server's logger name as the record's ``server_logger`` attribute).
* ``notifications/subscriptions/acknowledged`` -> the ``listen()`` subscription it acknowledges.
* change notices (tools / prompts / resources ``list_changed``, ``resources/updated``) -> every open
  ``listen()`` subscription that asked for them (a 2026-07-28 frame only to the subscription whose id it
  carries), and to ``message_handler``; a tools notice also marks the known output schemas stale.
* anything else -> ``message_handler`` as an ``UnknownNotification``.

Callbacks may be sync or async; while one runs, ``current_server()`` names the server that sent the
notice (``_session.context``). A callback that raises is logged, never allowed to break the connection
it was called from. Nothing here does I/O or knows the era: the session registers calls and
subscriptions, the transports feed ``dispatch``.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Generator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Final, Literal

import anyio
from pydantic import ValidationError

from mcp_client._errors import SubscriptionLostError
from mcp_client._session.context import notices_from
from mcp_client._session.timeouts import RequestClock
from mcp_client.types import (
    LoggingMessageNotificationParams,
    ProgressNotificationParams,
    PromptListChangedNotification,
    ResourceListChangedNotification,
    ResourceUpdatedNotification,
    ServerNotification,
    SubscriptionFilter,
    Task,
    TaskStatusNotification,
    ToolListChangedNotification,
    UnknownNotification,
)

__all__ = [
    "LoggingCallback",
    "MessageHandler",
    "Notifications",
    "ProgressCallback",
    "ProgressRoute",
    "ProgressRoutes",
    "Subscription",
]

logger = logging.getLogger("mcp_client.server")

ProgressCallback = Callable[[float, float | None, str | None], Awaitable[None] | None]
"""``progress_callback(progress, total, message)``, sync or async."""

LoggingCallback = Callable[[LoggingMessageNotificationParams], Awaitable[None] | None]
"""``logging_callback(params)``, sync or async: one server log message."""

MessageHandler = Callable[[ServerNotification], Awaitable[None] | None]
"""``message_handler(notification)``, sync or async: every notification the client does not consume."""

SUBSCRIPTION_ID_META: Final = "io.modelcontextprotocol/subscriptionId"
"""The ``_meta`` key stamping every frame of a 2026-07-28 ``subscriptions/listen`` stream."""

MAX_PENDING_NOTICES: Final = 1024
"""Distinct unread notices one subscription holds; past that it is ended as lost (listen again)."""

_PYTHON_LEVELS: Final = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
    "alert": logging.CRITICAL,
    "emergency": logging.CRITICAL,
}

_CHANGE_NOTICES: Final[dict[str, type[ServerNotification]]] = {
    "notifications/tools/list_changed": ToolListChangedNotification,
    "notifications/prompts/list_changed": PromptListChangedNotification,
    "notifications/resources/list_changed": ResourceListChangedNotification,
    "notifications/resources/updated": ResourceUpdatedNotification,
}


Source = Callable[[], str]
"""The name of the server notices come from, asked when one is delivered (it may learn its name late)."""


def _naming(source: Source | None) -> AbstractContextManager[None]:
    """A block in which ``current_server()`` names the server of ``source`` (nothing without one)."""
    return notices_from(source()) if source is not None else nullcontext()


async def _call(
    callback: Callable[..., Awaitable[None] | None], *args: Any, what: str, source: Source | None
) -> None:
    try:
        with _naming(source):
            result = callback(*args)
            if inspect.isawaitable(result):
                await result
    except Exception:
        logger.exception("the %s raised; the notification is dropped", what)


# ---------------------------------------------------------------------------------------------- progress


class ProgressRoute:
    """One call's progress token: where its notifications go and which deadline they restart.

    The session points ``clock`` at the clock of the request now in flight (a call that pauses for
    input sends several requests under the same token).
    """

    __slots__ = ("callback", "clock", "token")

    def __init__(self, token: int, callback: ProgressCallback) -> None:
        self.token: int = token
        self.callback: ProgressCallback = callback
        self.clock: RequestClock | None = None


class ProgressRoutes:
    """Progress tokens of the calls in flight. A call without a ``progress_callback`` never gets one."""

    def __init__(self, source: Source | None = None) -> None:
        self._routes: dict[str | int, ProgressRoute] = {}
        self._next = 0
        self._source = source

    @contextmanager
    def open(self, callback: ProgressCallback) -> Generator[ProgressRoute]:
        """A fresh token for one call, routed to ``callback`` until the block ends."""
        self._next += 1
        route = ProgressRoute(self._next, callback)
        self._routes[route.token] = route
        try:
            yield route
        finally:
            del self._routes[route.token]

    def naming(self) -> AbstractContextManager[None]:
        """A block in which ``current_server()`` names this connection's server (a task's status
        messages reach the progress callback outside ``deliver``)."""
        return _naming(self._source)

    async def deliver(self, params: dict[str, Any]) -> None:
        token = params.get("progressToken")
        route = self._routes.get(token) if isinstance(token, str | int) else None
        if route is None:
            logger.debug("dropping progress for unknown token %r", token)
            return
        try:
            update = ProgressNotificationParams.model_validate(params)
        except ValidationError:
            logger.debug("dropping a malformed progress notification: %r", params)
            return
        if route.clock is not None:
            route.clock.restart()  # the server is alive and working: a fresh timeout
        await _call(
            route.callback,
            update.progress,
            update.total,
            update.message,
            what="progress_callback",
            source=self._source,
        )


# ------------------------------------------------------------------------------------------ subscriptions

_End = Literal["graceful", "lost", "local"]


class Subscription:
    """One ``listen()`` subscription: ``async for notice in subscription`` yields change notices.

    Notices are level triggers ("this changed, fetch it again if you care"): an identical notice that
    is still unread is not queued twice. The loop ends when the server closes the stream (2026-07-28)
    or the ``async with`` block ends; a stream that drops raises ``SubscriptionLostError``.

    ``honored`` is what the server agreed to send (in the legacy era: what was asked for);
    ``subscription_id`` is the 2026-07-28 ``subscriptions/listen`` request id (``None`` in legacy).
    """

    def __init__(self, requested: SubscriptionFilter, subscription_id: str | int | None) -> None:
        self.requested = requested
        self.subscription_id = subscription_id
        self.honored: SubscriptionFilter | None = None
        self._uris: frozenset[str] = frozenset()
        self._pending: dict[str, ServerNotification] = {}
        self._end: _End | None = None
        self._reason = ""
        self._wake = anyio.Event()
        self.acknowledged: anyio.Event = anyio.Event()

    # -- fed by the client

    def acknowledge(self, honored: SubscriptionFilter) -> None:
        """The server said what it will send (the first acknowledgement wins)."""
        if self.honored is None:
            self.honored = honored
            self._uris = frozenset(honored.resource_subscriptions or ())
        self.acknowledged.set()

    def wants(self, notice: ServerNotification) -> bool:
        honored = self.honored
        if honored is None or self._end is not None:
            return False
        if isinstance(notice, ToolListChangedNotification):
            return honored.tools_list_changed is True
        if isinstance(notice, PromptListChangedNotification):
            return honored.prompts_list_changed is True
        if isinstance(notice, ResourceListChangedNotification):
            return honored.resources_list_changed is True
        if isinstance(notice, ResourceUpdatedNotification):
            # The spec lets the server name a sub-resource of a subscribed URI.
            return bool(self._uris)
        if isinstance(notice, TaskStatusNotification):
            return notice.params.task_id in (honored.task_ids or ())
        return False

    def offer(self, notice: ServerNotification) -> None:
        if not self.wants(notice):
            return
        key = notice.model_dump_json(exclude={"params": {"meta"}})
        if key in self._pending:
            return
        if len(self._pending) >= MAX_PENDING_NOTICES:
            self.end("lost", f"more than {MAX_PENDING_NOTICES} notices were left unread")
            return
        self._pending[key] = notice
        self._wake.set()

    def end(self, how: _End, reason: str = "") -> None:
        """Record how the stream ended (the first reason wins) and wake the reader."""
        if self._end is None:
            self._end = how
            self._reason = reason
        self.acknowledged.set()
        self._wake.set()

    @property
    def ended(self) -> bool:
        return self._end is not None

    # -- read by the app

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> ServerNotification:
        while True:
            wake = self._wake
            if self._end == "local":
                raise StopAsyncIteration
            if self._pending:
                key = next(iter(self._pending))
                return self._pending.pop(key)
            if self._end == "lost":
                raise SubscriptionLostError(
                    "the change-notice stream ended without the server closing it "
                    f"({self._reason or 'dropped'}); call listen() again and fetch what you depend on"
                )
            if self._end is not None:
                raise StopAsyncIteration
            await wake.wait()
            if wake is self._wake:
                self._wake = anyio.Event()


# ------------------------------------------------------------------------------------------- dispatcher


class Notifications:
    """Routes server notifications to the app's callbacks, the calls in flight and the subscriptions."""

    def __init__(
        self,
        *,
        logging_callback: LoggingCallback | None = None,
        message_handler: MessageHandler | None = None,
        on_tools_changed: Callable[[], None] | None = None,
        on_list_changed: Callable[[str], object] | None = None,
        source: Source | None = None,
    ) -> None:
        self.progress: ProgressRoutes = ProgressRoutes(source)
        self._source = source
        self._logging_callback = logging_callback
        self._message_handler = message_handler
        self._on_tools_changed = on_tools_changed
        self._on_list_changed = on_list_changed
        self._subscriptions: list[Subscription] = []
        self.task_waiters: dict[str, list[Any]] = {}
        """Calls following a task, by id (``_tasks.TaskWaiter``): a ``notifications/tasks`` wakes them."""

    @contextmanager
    def subscribed(self, subscription: Subscription) -> Generator[Subscription]:
        """Feed ``subscription`` until the block ends; then it reads as ended."""
        self._subscriptions.append(subscription)
        try:
            yield subscription
        finally:
            self._subscriptions.remove(subscription)
            subscription.end("local")

    async def dispatch(self, method: str, params: dict[str, Any]) -> None:
        if method == "notifications/progress":
            await self.progress.deliver(params)
        elif method == "notifications/message":
            await self._log(params)
        elif method in _CHANGE_NOTICES:
            await self._change(method, params)
        elif method == "notifications/subscriptions/acknowledged":
            self._acknowledged(params)
        elif method == "notifications/tasks" and self._task_state(params):
            pass  # taken by the calls following the task and the subscriptions asking for it
        elif self._message_handler is not None:
            notice = UnknownNotification(method=method, params=params or None)
            await _call(self._message_handler, notice, what="message_handler", source=self._source)
        else:
            logger.debug("ignoring a %s notification", method)

    def _task_state(self, params: dict[str, Any]) -> bool:
        """A task's pushed state to the calls following it and the subscriptions asking for it.

        ``False`` when nobody here wants it (then ``message_handler`` gets it, as any other notice).
        """
        try:
            task = Task.model_validate(params)
        except ValidationError:
            logger.warning("ignoring a malformed notifications/tasks: %.200r", params)
            return True
        waiters = list(self.task_waiters.get(task.task_id, ()))
        for waiter in waiters:
            waiter.push(task)
        notice = TaskStatusNotification(params=task)
        wanted = [subscription for subscription in self._subscriptions if subscription.wants(notice)]
        for subscription in wanted:
            subscription.offer(notice)
        return bool(waiters or wanted)

    async def _log(self, params: dict[str, Any]) -> None:
        try:
            message = LoggingMessageNotificationParams.model_validate(params)
        except ValidationError:
            logger.debug("dropping a malformed log notification: %r", params)
            return
        if self._logging_callback is not None:
            await _call(self._logging_callback, message, what="logging_callback", source=self._source)
            return
        # One fixed logger: Python keeps every logger it ever made, so a logger per server-chosen name
        # would let a server grow our memory without bound. Its logger name travels as record data.
        level = _PYTHON_LEVELS.get(message.level, logging.INFO)
        if message.logger:
            extra = {"server_logger": message.logger}
            logger.log(level, "%s: %s", message.logger, message.data, extra=extra)
        else:
            logger.log(level, "%s", message.data, extra={"server_logger": None})

    async def _change(self, method: str, params: dict[str, Any]) -> None:
        try:
            notice = _CHANGE_NOTICES[method].model_validate({"method": method, "params": params or None})
        except ValidationError:
            logger.debug("dropping a malformed %s notification: %r", method, params)
            return
        if method == "notifications/tools/list_changed" and self._on_tools_changed is not None:
            self._on_tools_changed()
        if self._on_list_changed is not None and method.endswith("/list_changed"):
            self._on_list_changed(method)
        stamp = _subscription_id(params)
        for subscription in self._subscriptions:
            if stamp is None or stamp == subscription.subscription_id:
                subscription.offer(notice)
        if self._message_handler is not None:
            await _call(self._message_handler, notice, what="message_handler", source=self._source)

    def _acknowledged(self, params: dict[str, Any]) -> None:
        stamp = _subscription_id(params)
        subscription = next((s for s in self._subscriptions if s.subscription_id == stamp), None)
        if subscription is None or stamp is None:
            logger.debug("ignoring an acknowledgement for unknown subscription %r", stamp)
            return
        try:
            honored = SubscriptionFilter.model_validate(params.get("notifications") or {})
        except ValidationError:
            honored = SubscriptionFilter()
        subscription.acknowledge(honored)


def _subscription_id(params: dict[str, Any]) -> str | int | None:
    meta = params.get("_meta")
    value = meta.get(SUBSCRIPTION_ID_META) if isinstance(meta, dict) else None
    return value if isinstance(value, str | int) and not isinstance(value, bool) else None
