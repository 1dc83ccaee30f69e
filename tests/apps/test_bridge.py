"""``AppBridge`` driven with a view's messages (dicts) against the official ``mcp`` server's apps peer
(tests/servers/apps_bridge_server.py), in both eras over HTTP and stdio: the handshake, the order of
what the host sends, which tools a view may call, its reads, its questions."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_client import Client, ClientGroup, StdioServerParameters, ToolPolicy
from mcp_client.apps import STYLE_VARIABLES, AppBridge, style_variables
from mcp_client.types import CallToolResult, ElicitResult, TextContent
from tests.apps.bridge_helpers import INITIALIZE, INITIALIZED, Outbox, call, handshake, request
from tests.apps.conftest import APPS_BRIDGE_SERVER, WIRE_TEE
from tests.core.helpers import Recorder, accept, server_for, text_of
from tests.support.servers import PEER_PYTHON

pytestmark = pytest.mark.anyio

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "apps"
VIEW_HTML = "<!doctype html><html><body><p id='time'>loading</p></body></html>"


@pytest.fixture
def server(
    transport: str, apps_bridge_http_url: str, apps_bridge_stdio_command: tuple[str, list[str]]
) -> Any:
    return server_for(transport, apps_bridge_http_url, apps_bridge_stdio_command)


async def _calls(client: Client) -> list[str]:
    """The tools the server ran so far (its own ``calls`` tool)."""
    return json.loads(text_of(await client.call_tool("calls")))


# ------------------------------------------------------------------ the style variables


def test_the_style_variables_are_every_standard_one_with_a_light_and_a_dark_value() -> None:
    listed = [
        line
        for line in (FIXTURES / "style_variables.txt").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    assert len(listed) == 76
    assert set(STYLE_VARIABLES) == set(listed)
    light, dark = style_variables("light"), style_variables("dark")
    assert set(light) == set(dark) == set(listed)
    assert all(value.strip() for value in [*light.values(), *dark.values()])
    assert light["--color-background-primary"] != dark["--color-background-primary"]
    assert light["--color-text-primary"] != dark["--color-text-primary"]
    with pytest.raises(ValueError, match="'light' or 'dark'"):
        style_variables("blue")  # type: ignore[arg-type]


# ------------------------------------------------------------------ the handshake


async def test_the_handshake_answers_with_the_host_and_its_context(server: Any, era: str) -> None:
    async with Client(server, mode=era) as client:
        bridge = AppBridge(client, "show_time", send=Outbox())
        answer = await bridge.handle(INITIALIZE)
    assert answer is not None
    assert answer["jsonrpc"] == "2.0" and answer["id"] == 1
    result = answer["result"]
    assert result["protocolVersion"] == "2026-01-26"
    assert result["hostInfo"]["name"] == "mcp-client"
    # Only what this host does without a callback: proxy the server's tools and resources, take logs.
    assert result["hostCapabilities"] == {"serverTools": {}, "serverResources": {}, "logging": {}}
    context = result["hostContext"]
    assert context["theme"] == "light"
    assert context["styles"]["variables"] == style_variables("light")
    assert context["displayMode"] == "inline"
    assert context["availableDisplayModes"] == ["inline"]
    assert context["containerDimensions"] == {"maxHeight": 800}
    assert isinstance(context["locale"], str) and context["locale"]
    assert isinstance(context["timeZone"], str) and context["timeZone"]
    assert context["platform"] == "web"
    assert context["toolInfo"]["tool"]["name"] == "show_time"
    assert context["toolInfo"]["tool"]["_meta"]["ui"]["resourceUri"] == "ui://clock/view.html"
    assert bridge.app_info == {"name": "test-view", "version": "1.0.0"}
    assert bridge.app_capabilities == {"availableDisplayModes": ["inline"]}
    assert not bridge.initialized


async def test_a_dark_host_gives_the_dark_variables_and_its_callbacks_capabilities(
    apps_bridge_http_url: str,
) -> None:
    async with Client(apps_bridge_http_url) as client:
        bridge = AppBridge(
            client,
            "show_time",
            send=Outbox(),
            host_context={"theme": "dark", "locale": "fr-FR", "timeZone": "Europe/Paris"},
            host_info={"name": "my-host", "version": "2.0"},
            on_message=lambda params: True,
            on_open_link=lambda params: True,
            on_model_context=lambda params: True,
        )
        result = await handshake(bridge)
    context = result["hostContext"]
    assert context["theme"] == "dark"
    assert context["styles"]["variables"] == style_variables("dark")
    assert (context["locale"], context["timeZone"]) == ("fr-FR", "Europe/Paris")
    assert result["hostInfo"] == {"name": "my-host", "version": "2.0"}
    capabilities = result["hostCapabilities"]
    assert capabilities["openLinks"] == {}
    assert set(capabilities["message"]) == {"text", "image", "audio", "resource", "resourceLink"}
    assert "structuredContent" in capabilities["updateModelContext"]


@pytest.mark.parametrize(
    ("context", "message"),
    [
        ({"theme": "blue"}, "hostContext theme must be one of light, dark, not 'blue'"),
        ({"displayMode": "huge"}, "hostContext displayMode must be one of inline, fullscreen, pip"),
        ({"platform": "tv"}, "hostContext platform must be one of web, desktop, mobile"),
        ({"styles": "dark"}, "hostContext styles is a mapping"),
        ({"styles": {"variables": ["--font-sans"]}}, "hostContext styles.variables maps"),
        ({"styles": {"variables": {"--brand": "red"}}}, "'--brand' is no standard style variable"),
        ({"styles": {"variables": {"--font-sans": 12}}}, "the style variable --font-sans is a CSS value"),
    ],
)
async def test_a_host_context_the_view_would_reject_is_refused(
    apps_bridge_http_url: str, context: dict[str, Any], message: str
) -> None:
    async with Client(apps_bridge_http_url) as client:
        with pytest.raises(ValueError, match=re.escape(message)):
            AppBridge(client, "show_time", send=Outbox(), host_context=context)
        bridge = AppBridge(client, "show_time", send=Outbox())
        with pytest.raises(ValueError, match=re.escape(message)):
            await bridge.set_host_context(context)
        assert bridge.host_context["theme"] == "light"
        # A subset of the standard variables is the host's right.
        fewer = AppBridge(
            client,
            "show_time",
            send=Outbox(),
            host_context={"styles": {"variables": {"--font-sans": "serif"}}},
        )
        assert fewer.host_context["styles"] == {"variables": {"--font-sans": "serif"}}


async def test_a_view_asking_another_protocol_version_gets_the_hosts(apps_bridge_http_url: str) -> None:
    async with Client(apps_bridge_http_url) as client:
        bridge = AppBridge(client, "show_time", send=Outbox())
        other = {**INITIALIZE, "params": {**INITIALIZE["params"], "protocolVersion": "2099-01-01"}}
        answer = await bridge.handle(other)
    assert answer is not None and answer["result"]["protocolVersion"] == "2026-01-26"


# ------------------------------------------------------------------ what the host sends, and when


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_nothing_reaches_the_view_before_initialized_then_input_and_result_in_order(
    apps_bridge_http_url: str,
) -> None:
    outbox = Outbox()
    async with Client(apps_bridge_http_url) as client:
        result = await client.call_tool("show_time", {"zone": "Europe/Paris"})
        bridge = AppBridge(client, "show_time", send=outbox)
        await bridge.tool_input({"zone": "Europe/Paris"})
        await bridge.tool_result(result)
        assert outbox.sent == []
        await bridge.handle(INITIALIZE)
        assert outbox.sent == []  # answering ui/initialize is not enough: the view says initialized
        assert await bridge.handle(INITIALIZED) is None
        assert bridge.initialized
        assert outbox.methods == ["ui/notifications/tool-input", "ui/notifications/tool-result"]
        assert outbox.sent[0] == {
            "jsonrpc": "2.0",
            "method": "ui/notifications/tool-input",
            "params": {"arguments": {"zone": "Europe/Paris"}},
        }
        sent_result = outbox.sent[1]["params"]
        assert sent_result["content"] == [{"type": "text", "text": "12:00 in Europe/Paris"}]
        assert sent_result["structuredContent"] == {"result": "12:00 in Europe/Paris"}
        # Once initialized, what the host sends goes at once; a second initialized changes nothing.
        await bridge.tool_cancelled("user action")
        assert await bridge.handle(INITIALIZED) is None
        assert outbox.methods[2:] == ["ui/notifications/tool-cancelled"]
        assert outbox.sent[2]["params"] == {"reason": "user action"}


async def test_a_result_given_as_a_mapping_and_a_cancellation_without_reason(
    apps_bridge_http_url: str,
) -> None:
    outbox = Outbox()
    async with Client(apps_bridge_http_url) as client:
        bridge = AppBridge(client, "show_time", send=outbox)
        await bridge.tool_input_partial({"zone": "Eur"})
        await bridge.tool_input()
        await bridge.tool_result(CallToolResult(content=[TextContent(type="text", text="x")]))
        await bridge.tool_result({"content": [], "isError": True})
        await bridge.tool_cancelled()
        await handshake(bridge)
    assert outbox.methods == [
        "ui/notifications/tool-input-partial",
        "ui/notifications/tool-input",
        "ui/notifications/tool-result",
        "ui/notifications/tool-result",
        "ui/notifications/tool-cancelled",
    ]
    assert outbox.sent[1]["params"] == {"arguments": {}}
    assert outbox.sent[3]["params"] == {"content": [], "isError": True}
    assert outbox.sent[4]["params"] == {}


async def test_a_context_change_sends_only_what_changed_and_a_theme_brings_its_variables(
    apps_bridge_http_url: str,
) -> None:
    outbox = Outbox()
    async with Client(apps_bridge_http_url) as client:
        bridge = AppBridge(client, "show_time", send=outbox)
        await handshake(bridge)
        await bridge.set_host_context({"theme": "light", "locale": "de-DE"})
        await bridge.set_host_context({"theme": "dark"})
        await bridge.set_host_context({"theme": "dark"})  # no change: nothing sent
    assert outbox.methods == ["ui/notifications/host-context-changed"] * 2
    assert outbox.sent[0]["params"] == {"locale": "de-DE"}
    assert outbox.sent[1]["params"] == {"theme": "dark", "styles": {"variables": style_variables("dark")}}
    assert bridge.host_context["theme"] == "dark"


# ------------------------------------------------------------------ the view's tool calls


async def test_a_view_calls_an_app_only_tool_through_the_client(server: Any, era: str) -> None:
    async with Client(server, mode=era) as client:
        bridge = AppBridge(client, "show_time", send=Outbox())
        await handshake(bridge)
        answer = await bridge.handle(call(2, "refresh_time"))
        assert answer is not None
        assert answer["id"] == 2
        assert answer["result"]["content"] == [{"type": "text", "text": "refreshed 12:01"}]
        assert "refresh_time" in await _calls(client)


async def test_a_model_only_tool_is_refused_to_the_view_and_the_server_is_not_called(
    server: Any, era: str
) -> None:
    async with Client(server, mode=era) as client:
        bridge = AppBridge(client, "show_time", send=Outbox())
        await handshake(bridge)
        answer = await bridge.handle(call(3, "delete_everything"))
        assert answer == {
            "jsonrpc": "2.0",
            "id": 3,
            "error": {
                "code": -32000,
                "message": "tool 'delete_everything' is not callable from a view: its visibility is "
                "['model'], without 'app'",
            },
        }
        assert "delete_everything" not in await _calls(client)


async def test_a_tool_the_server_lacks_is_refused(apps_bridge_http_url: str) -> None:
    async with Client(apps_bridge_http_url) as client:
        bridge = AppBridge(client, "show_time", send=Outbox())
        answer = await bridge.handle(call(4, "no_such_tool"))
    assert answer is not None
    assert answer["error"] == {
        "code": -32602,
        "message": "server 'clock' has no tool 'no_such_tool' a view may call",
    }


async def test_a_question_the_tool_asks_reaches_the_clients_elicitation_callback(
    server: Any, era: str
) -> None:
    asked = accept(confirm=True)
    async with Client(server, mode=era, elicitation_callback=asked) as client:
        bridge = AppBridge(client, "show_time", send=Outbox())
        await handshake(bridge)
        answer = await bridge.handle(call(5, "set_alarm", {"at": "07:00"}))
    assert answer is not None
    assert answer["result"]["content"] == [{"type": "text", "text": "alarm set at 07:00"}]
    assert [params.message for _, params in asked.questions] == ["Set an alarm at 07:00?"]


async def test_tools_list_gives_the_view_only_the_tools_it_may_call(apps_bridge_http_url: str) -> None:
    async with Client(apps_bridge_http_url) as client:
        bridge = AppBridge(client, "show_time", send=Outbox())
        answer = await bridge.handle(request(6, "tools/list"))
    assert answer is not None
    names = sorted(tool["name"] for tool in answer["result"]["tools"])
    assert names == ["calls", "refresh_time", "set_alarm", "show_time"]


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_a_view_that_cancels_its_call_gets_no_answer(apps_bridge_http_url: str) -> None:
    asking = anyio.Event()

    async def never_answers(params: Any) -> ElicitResult:
        asking.set()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    answers: list[dict[str, Any] | None] = []
    async with Client(
        apps_bridge_http_url, mode="legacy", elicitation_callback=Recorder(never_answers)
    ) as client:
        bridge = AppBridge(client, "show_time", send=Outbox())
        await handshake(bridge)

        async def view_call() -> None:
            answers.append(await bridge.handle(call(7, "set_alarm", {"at": "08:00"})))

        with anyio.fail_after(20):
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(view_call)
                await asking.wait()
                cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}
                assert await bridge.handle(cancel) is None
        assert answers == [None]
        # The bridge goes on answering.
        assert await bridge.handle(request(8, "ping")) == {"jsonrpc": "2.0", "id": 8, "result": {}}


# ------------------------------------------------------------------ the view's reads


async def test_a_view_reads_a_resource_of_its_server(server: Any, era: str) -> None:
    async with Client(server, mode=era) as client:
        bridge = AppBridge(client, "show_time", send=Outbox())
        answer = await bridge.handle(request(9, "resources/read", {"uri": "ui://clock/view.html"}))
    assert answer is not None
    (content,) = answer["result"]["contents"]
    assert content["text"] == VIEW_HTML
    assert content["mimeType"] == "text/html;profile=mcp-app"


async def test_a_read_without_a_uri_is_refused(apps_bridge_http_url: str) -> None:
    async with Client(apps_bridge_http_url) as client:
        bridge = AppBridge(client, "show_time", send=Outbox())
        answer = await bridge.handle(request(10, "resources/read", {"uri": 5}))
    assert answer is not None
    assert answer["error"]["code"] == -32602


# ------------------------------------------------------------------ a group: the view's own member only


async def test_in_a_group_the_view_reaches_only_its_own_server(
    apps_bridge_http_url: str, guide_http_url: str
) -> None:
    config = {
        "mcpServers": {
            "clock": {"url": apps_bridge_http_url},
            "guide": {"url": guide_http_url},
        }
    }
    async with ClientGroup(config) as group:
        unique = {tool.original_name: tool.name for tool in await group.list_tools()}
        bridge = AppBridge(group, unique["show_time"], send=Outbox())
        result = await handshake(bridge)
        assert result["hostContext"]["toolInfo"]["tool"]["name"] == "show_time"
        assert bridge.server == "clock"
        called = await bridge.handle(call(11, "refresh_time"))
        assert called is not None and called["result"]["content"][0]["text"] == "refreshed 12:01"
        # The guide's tool and resource exist in the group, not on the view's server.
        echo = await bridge.handle(call(12, "echo", {"text": "hi"}))
        assert (
            echo is not None
            and echo["error"]["message"] == "server 'clock' has no tool 'echo' a view may call"
        )
        read = await bridge.handle(request(13, "resources/read", {"uri": "guide://readme"}))
        assert read is not None and "error" in read
        mine = await bridge.handle(request(14, "resources/read", {"uri": "ui://clock/view.html"}))
        assert mine is not None and mine["result"]["contents"][0]["text"] == VIEW_HTML
        listed = await bridge.handle(request(15, "tools/list"))
        assert listed is not None
        assert "echo" not in {tool["name"] for tool in listed["result"]["tools"]}


async def test_in_a_group_the_view_calls_only_what_its_entry_offers_whatever_other_names_clash(
    apps_bridge_http_url: str, guide_http_url: str
) -> None:
    config = {
        "mcpServers": {
            "clock": {"url": apps_bridge_http_url, "exclude_tools": ["refresh_time"]},
            # Two of the guide's tools under one name: the group cannot list its tools as a whole.
            "guide": {"url": guide_http_url, "rename_tools": {"echo": "twice", "add_numbers": "twice"}},
        }
    }
    async with ClientGroup(config, elicitation_callback=accept(confirm=True)) as group:
        with pytest.raises(ValueError, match="twice"):
            await group.list_tools()
        bridge = AppBridge(group, "clock_show_time", send=Outbox())
        await handshake(bridge)
        excluded = await bridge.handle(call(17, "refresh_time"))
        assert excluded is not None
        assert excluded["error"]["message"] == "server 'clock' has no tool 'refresh_time' a view may call"
        allowed = await bridge.handle(call(18, "set_alarm", {"at": "10:00"}))
        assert allowed is not None  # its question reached the group's elicitation callback
        assert allowed["result"]["content"] == [{"type": "text", "text": "alarm set at 10:00"}]
        listed = await bridge.handle(request(19, "tools/list"))
        assert listed is not None
        assert sorted(tool["name"] for tool in listed["result"]["tools"]) == [
            "calls",
            "set_alarm",
            "show_time",
        ]


async def test_a_tool_given_as_a_tool_object_and_one_nobody_offers(apps_bridge_http_url: str) -> None:
    async with Client(apps_bridge_http_url) as client:
        (tool,) = [tool for tool in (await client.list_tools()).tools if tool.name == "show_time"]
        bridge = AppBridge(client, tool, send=Outbox())
        assert await bridge.tool() is tool
        missing = AppBridge(client, "not_a_tool", send=Outbox())
        with pytest.raises(KeyError, match="no tool named 'not_a_tool' on server 'clock'"):
            await missing.tool()
        # The view still gets its handshake (without toolInfo); its calls say what is wrong.
        result = await handshake(missing)
        assert "toolInfo" not in result["hostContext"]
        answer = await missing.handle(call(16, "refresh_time"))
    assert answer is not None and "no tool named 'not_a_tool'" in answer["error"]["message"]


async def test_a_stdio_server_works_as_well(apps_bridge_stdio_command: tuple[str, list[str]]) -> None:
    command, args = apps_bridge_stdio_command
    async with Client(StdioServerParameters(command, args)) as client:
        bridge = AppBridge(client, "show_time", send=Outbox())
        await handshake(bridge)
        assert bridge.server == "clock"


# ------------------------------------------------------------------ what a view's call costs


async def test_a_views_calls_are_judged_on_one_listing_not_a_listing_per_call(tmp_path: Path) -> None:
    """The visibility check reads the client's last listing: three calls, one ``tools/list`` on the wire;
    a tool the listing lacks is listed for again (once) before it is refused."""
    journal = tmp_path / "wire.jsonl"
    server = StdioServerParameters(
        PEER_PYTHON, [str(WIRE_TEE), str(journal), PEER_PYTHON, str(APPS_BRIDGE_SERVER), "stdio"]
    )

    def lists() -> int:
        sent = [json.loads(line) for line in journal.read_bytes().splitlines() if line.strip()]
        return sum(1 for message in sent if message.get("method") == "tools/list")

    with anyio.fail_after(60):
        async with Client(server, mode="legacy") as client:
            bridge = AppBridge(client, "show_time", send=Outbox())
            await handshake(bridge)
            for number in range(3):
                answer = await bridge.handle(call(10 + number, "refresh_time"))
                assert answer is not None and "result" in answer, answer
            assert lists() == 1
            await client.list_tools()  # the app lists again: the bridge takes that listing
            answer = await bridge.handle(call(20, "refresh_time"))
            assert answer is not None and "result" in answer
            assert lists() == 2
            answer = await bridge.handle(call(21, "no_such_tool"))
            assert answer is not None and "no tool 'no_such_tool'" in answer["error"]["message"]
            assert lists() == 3


async def test_the_apps_tool_policy_refuses_a_views_call_before_the_server_sees_it(
    apps_bridge_http_url: str,
) -> None:
    """A view's ``tools/call`` goes through the client's ``ToolPolicy`` like a model's: denied, the view
    gets a JSON-RPC error naming the refusal, and the server never runs the tool."""
    policy = ToolPolicy(deny=["refresh_time"], ask="never")
    async with Client(apps_bridge_http_url, tool_policy=policy) as client:
        bridge = AppBridge(client, "show_time", send=Outbox())
        await handshake(bridge)
        ran_before = (await _calls(client)).count("refresh_time")  # the server is shared by the session
        answer = await bridge.handle(call(30, "refresh_time"))
        assert answer is not None
        assert answer["error"]["code"] == -32000
        assert "refresh_time" in answer["error"]["message"]
        assert "denied" in answer["error"]["message"]
        assert (await _calls(client)).count("refresh_time") == ran_before
        allowed = await bridge.handle(call(31, "show_time", {"zone": "CET"}))  # the rest still runs
        assert allowed is not None
        assert allowed["result"]["content"] == [{"type": "text", "text": "12:00 in CET"}]
