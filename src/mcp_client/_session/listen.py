"""``client.listen(...)``: change notices as an async iterator, the same in both eras.

2026-07-28 (SEP-2575): a ``subscriptions/listen`` request whose response *is* the stream. Its first
frame acknowledges what the server will send; every frame carries the request's id under
``_meta["io.modelcontextprotocol/subscriptionId"]``; a result ends it gracefully. It runs in a task of
its own, with no deadline, until the ``async with`` block ends (which cancels it: closing the HTTP
stream, or ``notifications/cancelled`` over stdio).

Legacy: the notices already travel on the session's stream (the GET stream over HTTP, stdout over
stdio). The subscription reads them from there, and ``resources/subscribe`` is sent for the listed
resources while it is open (``resources/unsubscribe`` when it closes).

The app code does not change with the era: ``async with client.listen(...) as subscription:`` then
``async for notice in subscription:``.
"""

from __future__ import annotations

import itertools
import logging
import math
from collections.abc import Awaitable, Sequence
from contextlib import ExitStack
from types import TracebackType
from typing import Any, Protocol

import anyio
import anyio.abc

from mcp_client._connection.transport import RequestId
from mcp_client._errors import MCPClientError, SubscriptionLostError
from mcp_client._protocol.eras import Era
from mcp_client._session.notifications import Notifications, Subscription
from mcp_client._session.questions import Call
from mcp_client.types import SubscriptionFilter

__all__ = ["Listening", "Requester", "listen_filter"]

logger = logging.getLogger("mcp_client")

_UNSUBSCRIBE_SECONDS = 2.0
_listen_ids = itertools.count(1)


class Requester(Protocol):
    """What listening needs from the session: one request (a ``Call`` may set its timeout)."""

    def request(
        self,
        method: str,
        params: dict[str, Any] | None,
        call: Call | None = None,
        *,
        request_id: RequestId | None = None,
    ) -> Awaitable[dict[str, Any]]: ...


class Listening:
    """The ``async with`` of ``client.listen()``: opens the subscription, closes it on exit."""

    def __init__(
        self,
        session: Requester,
        notifications: Notifications,
        era: Era,
        wanted: SubscriptionFilter,
        ack_timeout: float,
        label: str,
    ) -> None:
        self._session = session
        self._notifications = notifications
        self._era = era
        self._wanted = wanted
        self._ack_timeout = ack_timeout
        self._label = label
        self._stack = ExitStack()
        self._task_group: anyio.abc.TaskGroup | None = None
        self._subscribed: list[str] = []
        self._subscription: Subscription | None = None

    async def __aenter__(self) -> Subscription:
        method = self._era.listen_method
        if method is None:
            return await self._open_on_session_stream()
        return await self._open_listen_request(method)

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            if self._subscription is not None:
                self._subscription.end("local")
            task_group, self._task_group = self._task_group, None
            if task_group is not None:
                task_group.cancel_scope.cancel()
                await task_group.__aexit__(None, None, None)
            await self._unsubscribe()
        finally:
            self._stack.close()

    # ------------------------------------------------- legacy: notices ride the session's stream

    async def _open_on_session_stream(self) -> Subscription:
        subscription = Subscription(self._wanted, None)
        subscription.acknowledge(self._wanted)  # the session's stream carries whatever the server sends
        self._subscription = self._stack.enter_context(self._notifications.subscribed(subscription))
        try:
            for uri in self._wanted.resource_subscriptions or ():
                await self._session.request("resources/subscribe", {"uri": uri})
                self._subscribed.append(uri)
        except BaseException:
            await self.__aexit__(None, None, None)
            raise
        return subscription

    async def _unsubscribe(self) -> None:
        uris, self._subscribed = self._subscribed, []
        if not uris:
            return
        with anyio.CancelScope(shield=True), anyio.move_on_after(_UNSUBSCRIBE_SECONDS):
            for uri in uris:
                try:
                    await self._session.request("resources/unsubscribe", {"uri": uri})
                except MCPClientError as exc:
                    logger.debug("%s: resources/unsubscribe %r failed: %s", self._label, uri, exc)

    # ---------------------------------------- 2026-07-28: a request whose response is the stream

    async def _open_listen_request(self, method: str) -> Subscription:
        request_id = f"listen-{next(_listen_ids)}"
        subscription = Subscription(self._wanted, request_id)
        self._subscription = self._stack.enter_context(self._notifications.subscribed(subscription))
        failure: list[BaseException] = []
        params = {"notifications": self._wanted.model_dump_wire()}

        async def drive() -> None:
            try:
                # No deadline: the answer comes when the stream ends.
                no_deadline = Call(math.inf)
                await self._session.request(method, params, no_deadline, request_id=request_id)
            except MCPClientError as exc:
                failure.append(exc)
                subscription.end("lost", str(exc))
                return
            # A result, whatever it holds, is the server's graceful close (before an ack: closed at once).
            subscription.acknowledge(SubscriptionFilter())
            subscription.end("graceful")

        task_group = anyio.create_task_group()
        await task_group.__aenter__()
        self._task_group = task_group
        try:
            task_group.start_soon(drive)
            with anyio.move_on_after(self._ack_timeout):
                await subscription.acknowledged.wait()
            if subscription.honored is None:
                if failure:
                    raise failure[0]
                raise SubscriptionLostError(
                    f"{self._label} did not acknowledge {method} within {self._ack_timeout:g}s"
                    if not subscription.ended
                    else f"{self._label} ended {method} before acknowledging it"
                )
        except BaseException:
            await self.__aexit__(None, None, None)
            raise
        return subscription


def listen_filter(
    tools_list_changed: bool,
    prompts_list_changed: bool,
    resources_list_changed: bool,
    resource_subscriptions: Sequence[str],
    task_ids: Sequence[str] = (),
) -> SubscriptionFilter:
    """The wire filter for ``listen()``'s keywords (false flags and no URIs are left out)."""
    if isinstance(resource_subscriptions, str):
        raise TypeError("resource_subscriptions takes a list of URIs, not a single string")
    if isinstance(task_ids, str):
        raise TypeError("task_ids takes a list of task ids, not a single string")
    return SubscriptionFilter(
        tools_list_changed=True if tools_list_changed else None,
        prompts_list_changed=True if prompts_list_changed else None,
        resources_list_changed=True if resources_list_changed else None,
        resource_subscriptions=list(resource_subscriptions) or None,
        task_ids=list(task_ids) or None,
    )
