"""Routing server notifications (no I/O): progress to its call, logs, change notices, subscriptions."""

from __future__ import annotations

import logging
import math
from typing import Any

import anyio
import pytest

from mcp_client import SubscriptionLostError
from mcp_client._session.notifications import SUBSCRIPTION_ID_META, Notifications, Subscription
from mcp_client._session.timeouts import RequestDeadlines
from mcp_client.types import (
    LoggingMessageNotificationParams,
    ResourceUpdatedNotification,
    ServerNotification,
    SubscriptionFilter,
    ToolListChangedNotification,
    UnknownNotification,
)

pytestmark = pytest.mark.anyio


def progress(
    token: object, value: float, total: float | None = None, message: str | None = None
) -> dict[str, Any]:
    params: dict[str, Any] = {"progressToken": token, "progress": value}
    if total is not None:
        params["total"] = total
    if message is not None:
        params["message"] = message
    return params


# ---------------------------------------------------------------------------------------------- progress


async def test_progress_reaches_its_own_call_in_order() -> None:
    notifications = Notifications()
    first: list[tuple[float, float | None, str | None]] = []
    second: list[float] = []

    async def on_second(value: float, total: float | None, message: str | None) -> None:
        second.append(value)

    with (
        notifications.progress.open(lambda p, t, m: first.append((p, t, m))) as a,
        notifications.progress.open(on_second) as b,
    ):
        assert a.token != b.token
        for step in (1, 2, 3):
            await notifications.dispatch("notifications/progress", progress(a.token, step, 3, f"step {step}"))
        await notifications.dispatch("notifications/progress", progress(b.token, 0.5))
    assert first == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]
    assert second == [0.5]


async def test_progress_for_an_unknown_or_finished_call_is_dropped() -> None:
    notifications = Notifications()
    seen: list[float] = []
    with notifications.progress.open(lambda p, t, m: seen.append(p)) as route:
        token = route.token
    await notifications.dispatch("notifications/progress", progress(token, 1))
    await notifications.dispatch("notifications/progress", progress("nobody", 1))
    await notifications.dispatch("notifications/progress", {"progressToken": token})
    assert seen == []


async def test_a_failing_progress_callback_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    notifications = Notifications()

    def boom(value: float, total: float | None, message: str | None) -> None:
        raise RuntimeError("callback bug")

    with notifications.progress.open(boom) as route:
        await notifications.dispatch("notifications/progress", progress(route.token, 1))
    assert "progress_callback raised" in caplog.text


async def test_progress_restarts_the_deadline_of_the_request_in_flight() -> None:
    deadlines = RequestDeadlines(10)
    notifications = Notifications()
    clock = deadlines.clock(1)
    with notifications.progress.open(lambda p, t, m: None) as route, clock as scope:
        route.clock = clock
        scope.deadline = anyio.current_time() + 0.5  # as if 9.5 s had passed
        await notifications.dispatch("notifications/progress", progress(route.token, 1))
        assert scope.deadline > anyio.current_time() + 9


async def test_progress_keeps_a_paused_clock_paused() -> None:
    deadlines = RequestDeadlines(10)
    notifications = Notifications()
    clock = deadlines.clock(1)
    with notifications.progress.open(lambda p, t, m: None) as route, clock as scope:
        route.clock = clock
        with deadlines.paused():
            await notifications.dispatch("notifications/progress", progress(route.token, 1))
            assert scope.deadline == math.inf
        assert scope.deadline != math.inf


async def test_each_request_keeps_its_own_timeout_after_a_pause() -> None:
    deadlines = RequestDeadlines(100)
    with deadlines.clock(1, timeout=2) as short, deadlines.clock(2) as default:
        with deadlines.paused():
            pass
        now = anyio.current_time()
        assert short.deadline < now + 3
        assert default.deadline > now + 99


# ------------------------------------------------------------------------------------------------- logs


async def test_log_messages_reach_the_logging_callback_typed() -> None:
    seen: list[LoggingMessageNotificationParams] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        seen.append(params)

    notifications = Notifications(logging_callback=on_log)
    await notifications.dispatch(
        "notifications/message", {"level": "warning", "logger": "db", "data": "slow"}
    )
    await notifications.dispatch("notifications/message", {"level": "shouting", "data": "bad level"})
    assert [(m.level, m.logger, m.data) for m in seen] == [("warning", "db", "slow")]


async def test_without_a_callback_logs_go_to_the_python_logger(caplog: pytest.LogCaptureFixture) -> None:
    notifications = Notifications()
    with caplog.at_level(logging.DEBUG, logger="mcp_client.server"):
        await notifications.dispatch("notifications/message", {"level": "error", "logger": "db", "data": "x"})
    record = caplog.records[-1]
    assert (record.name, record.levelno, record.getMessage()) == ("mcp_client.server", logging.ERROR, "db: x")
    assert record.server_logger == "db"


async def test_server_logger_names_do_not_create_python_loggers(caplog: pytest.LogCaptureFixture) -> None:
    """Python keeps every logger for ever: one per name a server makes up would grow without bound."""
    notifications = Notifications()
    loggers_before = len(logging.Logger.manager.loggerDict)
    with caplog.at_level(logging.DEBUG, logger="mcp_client.server"):
        for index in range(2000):
            params = {"level": "info", "logger": f"made-up-{index}-" + "n" * 100, "data": index}
            await notifications.dispatch("notifications/message", params)
    assert len(logging.Logger.manager.loggerDict) == loggers_before
    assert [r.server_logger for r in caplog.records[-2:]] == [
        "made-up-1998-" + "n" * 100,
        "made-up-1999-" + "n" * 100,
    ]
    assert {r.name for r in caplog.records} == {"mcp_client.server"}


# ---------------------------------------------------------------------------------------- change notices


async def test_change_notices_and_unknown_ones_reach_the_message_handler_typed() -> None:
    seen: list[ServerNotification] = []
    changed: list[bool] = []
    notifications = Notifications(message_handler=seen.append, on_tools_changed=lambda: changed.append(True))
    await notifications.dispatch("notifications/tools/list_changed", {})
    await notifications.dispatch("notifications/resources/updated", {"uri": "notes://a"})
    await notifications.dispatch("notifications/custom/thing", {"x": 1})
    assert isinstance(seen[0], ToolListChangedNotification)
    assert isinstance(seen[1], ResourceUpdatedNotification) and seen[1].params.uri == "notes://a"
    assert isinstance(seen[2], UnknownNotification) and seen[2].method == "notifications/custom/thing"
    assert changed == [True]


async def test_a_legacy_subscription_gets_what_it_asked_for_once_per_unread_change() -> None:
    notifications = Notifications()
    wanted = SubscriptionFilter(tools_list_changed=True, resource_subscriptions=["notes://a"])
    with notifications.subscribed(Subscription(wanted, None)) as subscription:
        subscription.acknowledge(wanted)
        await notifications.dispatch("notifications/tools/list_changed", {})
        await notifications.dispatch("notifications/tools/list_changed", {})  # same change, still unread
        await notifications.dispatch("notifications/prompts/list_changed", {})  # not asked for
        await notifications.dispatch("notifications/resources/updated", {"uri": "notes://a"})
        got = [await subscription.__anext__(), await subscription.__anext__()]
    assert [type(n) for n in got] == [ToolListChangedNotification, ResourceUpdatedNotification]
    with pytest.raises(StopAsyncIteration):
        await subscription.__anext__()


async def test_a_stamped_frame_goes_only_to_its_subscription() -> None:
    notifications = Notifications()
    wanted = SubscriptionFilter(tools_list_changed=True)
    with (
        notifications.subscribed(Subscription(wanted, "listen-1")) as one,
        notifications.subscribed(Subscription(wanted, "listen-2")) as two,
    ):
        for sub in (one, two):
            await notifications.dispatch(
                "notifications/subscriptions/acknowledged",
                {
                    "notifications": {"toolsListChanged": True},
                    "_meta": {SUBSCRIPTION_ID_META: sub.subscription_id},
                },
            )
            assert sub.acknowledged.is_set() and sub.honored == wanted
        await notifications.dispatch(
            "notifications/tools/list_changed", {"_meta": {SUBSCRIPTION_ID_META: "listen-2"}}
        )
        notice = await two.__anext__()
        assert isinstance(notice, ToolListChangedNotification)
        one.end("graceful")
        with pytest.raises(StopAsyncIteration):
            await one.__anext__()


async def test_a_dropped_stream_raises_subscription_lost_after_the_unread_notices() -> None:
    subscription = Subscription(SubscriptionFilter(tools_list_changed=True), 7)
    subscription.acknowledge(SubscriptionFilter(tools_list_changed=True))
    subscription.offer(ToolListChangedNotification())
    subscription.end("lost", "the connection dropped")
    assert isinstance(await subscription.__anext__(), ToolListChangedNotification)
    with pytest.raises(SubscriptionLostError, match="listen\\(\\) again"):
        await subscription.__anext__()


async def test_a_reader_waits_for_the_next_notice() -> None:
    notifications = Notifications()
    wanted = SubscriptionFilter(prompts_list_changed=True)
    got: list[ServerNotification] = []
    with notifications.subscribed(Subscription(wanted, None)) as subscription:
        subscription.acknowledge(wanted)
        with anyio.fail_after(5):
            async with anyio.create_task_group() as tg:

                async def read() -> None:
                    async for notice in subscription:
                        got.append(notice)
                        return

                tg.start_soon(read)
                await anyio.wait_all_tasks_blocked()
                await notifications.dispatch("notifications/prompts/list_changed", {})
    assert len(got) == 1
