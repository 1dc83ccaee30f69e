"""Server log messages and change notices: what reaches logging_callback, message_handler and listen().

Against the official server (tests/servers/features_server.py) in both eras and both transports. In
the legacy era the client asks for a level with ``logging/setLevel`` and notices travel on the session's
stream; in 2026-07-28 the level rides each request's ``_meta`` and notices travel on a
``subscriptions/listen`` stream. The app code is the same in both.
"""

from __future__ import annotations

import anyio
import anyio.lowlevel
import pytest

from mcp_client import Client, UnsupportedInEraError
from mcp_client.types import (
    LoggingMessageNotificationParams,
    PromptListChangedNotification,
    ResourceListChangedNotification,
    ResourceUpdatedNotification,
    ServerNotification,
    ToolListChangedNotification,
)
from tests.core.features import features_server, text_of, wait_for

pytestmark = pytest.mark.anyio


async def test_logs_arrive_at_the_level_asked(
    era: str, transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    logs: list[LoggingMessageNotificationParams] = []
    server = features_server(transport, features_http_url, features_stdio_command)
    async with Client(server, mode=era, logging_callback=logs.append, log_level="warning") as client:
        assert text_of(await client.call_tool("chatty")) == "logged"
        await wait_for(logs, 2)
        assert [(m.level, m.data, m.logger) for m in logs] == [
            ("warning", "a warning message", "features.logs"),
            ("error", "a error message", "features.logs"),
        ]
        logs.clear()
        await client.set_logging_level("debug")
        await client.call_tool("chatty")
        await wait_for(logs, 4)
        assert [m.level for m in logs] == ["debug", "info", "warning", "error"]


async def test_an_async_logging_callback_works_too(
    era: str, transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    levels: list[str] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        await anyio.lowlevel.checkpoint()
        levels.append(params.level)

    server = features_server(transport, features_http_url, features_stdio_command)
    async with Client(server, mode=era, logging_callback=on_log, log_level="error") as client:
        await client.call_tool("chatty")
        await wait_for(levels, 1)
    assert levels == ["error"]


async def test_the_modern_log_level_rides_each_request(features_http_url: str) -> None:
    async with Client(features_http_url, mode="2026-07-28", log_level="notice") as client:
        assert '"io.modelcontextprotocol/logLevel": "notice"' in text_of(await client.call_tool("show_meta"))
        await client.set_logging_level("error")
        assert '"io.modelcontextprotocol/logLevel": "error"' in text_of(await client.call_tool("show_meta"))


async def test_listen_yields_the_same_notices_in_both_eras(
    era: str, transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    server = features_server(transport, features_http_url, features_stdio_command)
    notices: list[ServerNotification] = []
    async with Client(server, mode=era) as client:
        async with client.listen(tools_list_changed=True, resource_subscriptions=["notes://today"]) as sub:
            assert sub.honored is not None and sub.honored.tools_list_changed is True
            await client.call_tool("touch", {"uri": "notes://today"})
            await client.call_tool("add_tool", {"name": f"added_{era[:2]}_{transport}"})
            with anyio.fail_after(10):
                async for notice in sub:
                    notices.append(notice)
                    if len(notices) == 2:
                        break
    kinds = {type(n) for n in notices}
    assert kinds == {ResourceUpdatedNotification, ToolListChangedNotification}
    updated = next(n for n in notices if isinstance(n, ResourceUpdatedNotification))
    assert updated.params.uri == "notes://today"


async def test_listen_yields_only_what_was_asked_for(
    era: str, transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    server = features_server(transport, features_http_url, features_stdio_command)
    notices: list[ServerNotification] = []
    async with Client(server, mode=era) as client:
        async with client.listen(prompts_list_changed=True) as sub:
            await client.call_tool("add_tool", {"name": f"unasked_{era[:2]}_{transport}"})
            await client.call_tool("shuffle")
            with anyio.fail_after(10):
                async for notice in sub:
                    notices.append(notice)
                    break
    assert [type(n) for n in notices] == [PromptListChangedNotification]


@pytest.mark.parametrize("transport", ["http", "stdio"])
async def test_legacy_notices_reach_the_message_handler(
    transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    seen: list[ServerNotification] = []
    server = features_server(transport, features_http_url, features_stdio_command)
    async with Client(server, mode="legacy", message_handler=seen.append) as client:
        await client.subscribe_resource("notes://today")
        await client.call_tool("touch", {"uri": "notes://today"})
        await client.call_tool("shuffle")
        await wait_for(seen, 3)
        await client.unsubscribe_resource("notes://today")
    kinds = {type(n) for n in seen}
    assert kinds == {
        ResourceUpdatedNotification,
        PromptListChangedNotification,
        ResourceListChangedNotification,
    }


async def test_modern_notices_reach_the_message_handler_while_listening(features_http_url: str) -> None:
    seen: list[ServerNotification] = []
    async with Client(features_http_url, mode="2026-07-28", message_handler=seen.append) as client:
        async with client.listen(resources_list_changed=True) as sub:
            await client.call_tool("shuffle")
            with anyio.fail_after(10):
                async for _ in sub:
                    break
    assert ResourceListChangedNotification in {type(n) for n in seen}


async def test_subscribe_resource_in_the_modern_era_says_to_listen(features_http_url: str) -> None:
    async with Client(features_http_url, mode="2026-07-28") as client:
        with pytest.raises(UnsupportedInEraError, match="listen"):
            await client.subscribe_resource("notes://today")
