"""``AppBridge`` against the official view side: the ``App`` class of ``@modelcontextprotocol/ext-apps``
2.0.4 (in Node.js, tests/apps/node_view.mjs), which checks every host answer against the spec's schemas.
The servers are the official ``mcp`` server's apps peer and the npm example servers
``server-basic-vanillajs`` and ``server-system-monitor`` over stdio."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcp_client import Client
from mcp_client.apps import AppBridge, style_variables
from tests.apps.node_view import NodeView
from tests.core.helpers import accept, text_of
from tests.support import ext_apps

pytestmark = pytest.mark.anyio


async def test_the_official_app_connects_and_gets_input_then_result(apps_bridge_http_url: str) -> None:
    async with Client(apps_bridge_http_url) as client, NodeView.started() as view:
        result = await client.call_tool("show_time", {"zone": "Asia/Tokyo"})
        bridge = AppBridge(client, "show_time", send=view.send, host_context={"theme": "dark"})
        await bridge.tool_input({"zone": "Asia/Tokyo"})
        await bridge.tool_result(result)
        async with view.serving(bridge):
            connected = await view.event("connected")
            assert connected["hostInfo"]["name"] == "mcp-client"
            context = connected["hostContext"]
            assert context["theme"] == "dark"
            assert context["styles"]["variables"] == style_variables("dark")
            assert context["toolInfo"]["tool"]["name"] == "show_time"
            await view.event("tool-result")
            kinds = [event["event"] for event in view.events]
            assert kinds == ["connected", "tool-input", "tool-result"]
            assert view.events[1]["params"] == {"arguments": {"zone": "Asia/Tokyo"}}
            assert view.events[2]["params"]["content"] == [{"type": "text", "text": "12:00 in Asia/Tokyo"}]
            # The App sent initialize, then initialized: nothing reached it before.
            assert [message.get("method") for message in view.from_view[:2]] == [
                "ui/initialize",
                "ui/notifications/initialized",
            ]
            await bridge.set_host_context({"theme": "light"})
            changed = await view.event("host-context-changed")
            assert changed["params"]["theme"] == "light"
            await bridge.tool_cancelled("timeout")
            assert (await view.event("tool-cancelled"))["params"] == {"reason": "timeout"}
            assert await bridge.teardown("closed") is True
            await view.event("teardown")


async def test_the_official_app_calls_tools_reads_and_is_refused(apps_bridge_http_url: str) -> None:
    links: list[dict[str, Any]] = []
    asked = accept(confirm=True)
    async with (
        Client(apps_bridge_http_url, elicitation_callback=asked) as client,
        NodeView.started() as view,
    ):
        bridge = AppBridge(
            client, "show_time", send=view.send, on_open_link=lambda p: links.append(p) or True
        )
        async with view.serving(bridge):
            await view.event("connected")
            called = await view.run("callServerTool", {"name": "refresh_time", "arguments": {}})
            assert called["result"]["content"] == [{"type": "text", "text": "refreshed 12:01"}]
            alarm = await view.run("callServerTool", {"name": "set_alarm", "arguments": {"at": "06:30"}})
            assert alarm["result"]["content"] == [{"type": "text", "text": "alarm set at 06:30"}]
            assert [params.message for _, params in asked.questions] == ["Set an alarm at 06:30?"]
            refused = await view.run("callServerTool", {"name": "delete_everything", "arguments": {}})
            assert refused["event"] == "error"
            assert "not callable from a view" in refused["message"]
            read = await view.run("readServerResource", {"uri": "ui://clock/view.html"})
            assert read["result"]["contents"][0]["mimeType"] == "text/html;profile=mcp-app"
            opened = await view.run("openLink", {"url": "https://example.com/"})
            assert opened["event"] == "answer"
            assert links == [{"url": "https://example.com/"}]
            message = await view.run(
                "sendMessage", {"role": "user", "content": [{"type": "text", "text": "hi"}]}
            )
            assert (
                message["event"] == "error" and "this host takes no messages from views" in message["message"]
            )
            mode = await view.run("requestDisplayMode", {"mode": "fullscreen"})
            assert mode["result"] == {"mode": "inline"}
        assert "delete_everything" not in json.loads(text_of(await client.call_tool("calls")))


async def test_basic_vanillajs_through_the_bridge() -> None:
    logs: list[dict[str, Any]] = []
    messages: list[dict[str, Any]] = []
    async with Client(ext_apps.stdio_parameters("basic-vanillajs")) as client, NodeView.started() as view:
        tools = (await client.list_tools()).tools
        (tool,) = [tool for tool in tools if (tool.meta or {}).get("ui")]
        result = await client.call_tool(tool.name, {})
        bridge = AppBridge(
            client, tool, send=view.send, on_log=logs.append, on_message=lambda p: messages.append(p) or True
        )
        await bridge.tool_input({})
        await bridge.tool_result(result)
        async with view.serving(bridge):
            connected = await view.event("connected")
            assert connected["hostContext"]["toolInfo"]["tool"]["name"] == tool.name
            sent = await view.event("tool-result")
            assert sent["params"]["content"] == result.model_dump_wire()["content"]
            called = await view.run("callServerTool", {"name": tool.name, "arguments": {}})
            assert called["event"] == "answer" and called["result"]["content"]
            await view.run("sendLog", {"level": "info", "data": "from the view"})
            said = await view.run("sendMessage", {"role": "user", "content": [{"type": "text", "text": "x"}]})
            assert said["event"] == "answer"
        assert messages == [{"role": "user", "content": [{"type": "text", "text": "x"}]}]
        assert {"level": "info", "data": "from the view"} in logs


async def test_system_monitor_polls_its_app_only_tool_through_the_bridge() -> None:
    async with Client(ext_apps.stdio_parameters("system-monitor")) as client, NodeView.started() as view:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert tools["poll-system-stats"].meta["ui"]["visibility"] == ["app"]  # type: ignore[index]
        (shown,) = [
            tool
            for tool in tools.values()
            if (tool.meta or {}).get("ui", {}).get("resourceUri") and tool.name != "poll-system-stats"
        ]
        bridge = AppBridge(client, shown, send=view.send)
        async with view.serving(bridge):
            await view.event("connected")
            polled = await view.run("callServerTool", {"name": "poll-system-stats", "arguments": {}})
            assert polled["event"] == "answer"
            assert polled["result"]["structuredContent"] or polled["result"]["content"]
            listed = await view.run("listServerResources")
            assert listed["event"] == "error"  # resources/list is no method a view has here


async def test_the_official_app_refuses_a_context_with_a_non_standard_variable_which_the_bridge_prevents(
    apps_bridge_http_url: str,
) -> None:
    """Why ``AppBridge`` checks ``host_context``: the view drops the whole host for one unknown variable."""
    async with Client(apps_bridge_http_url) as client, NodeView.started() as view:
        bridge = AppBridge(client, "show_time", send=view.send)
        bridge._context["styles"] = {"variables": {"--brand": "red"}}  # what the check keeps out
        async with view.serving(bridge):
            with pytest.raises(AssertionError, match=r"Unrecognized key.*--brand"):
                await view.event("connected")
        with pytest.raises(ValueError, match="'--brand' is no standard style variable"):
            AppBridge(
                client,
                "show_time",
                send=view.send,
                host_context={"styles": {"variables": {"--brand": "red"}}},
            )
