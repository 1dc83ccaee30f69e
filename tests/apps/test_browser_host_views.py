"""BrowserAppHost's views without a browser: the test is the host page, speaking to the host over its
HTTP (the proxy's handshake, the view's JSON-RPC) as the page's script would, against the probing view
of tests/servers/apps_probe_server.py (official ``mcp`` server) on a ``Client`` and a ``ClientGroup``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx
import pytest

from mcp_client import Client, ClientGroup, StdioServerParameters
from mcp_client.types import CallToolResult, TextContent
from tests.support.servers import SERVERS_DIR, stdio_command
from ui_adapters.apps import AppView, BrowserAppHost

pytestmark = pytest.mark.anyio

BOUND = 60
PROBE = SERVERS_DIR / "apps_probe_server.py"


def probe() -> StdioServerParameters:
    command, args = stdio_command(PROBE)
    return StdioServerParameters(command=command, args=args)


class Page:
    """What the host page's script does, over HTTP: post the view's messages, read the host's."""

    def __init__(self, http: httpx.AsyncClient, view: AppView) -> None:
        self.http = http
        self.view = view
        self.origin = view.url.rsplit("/", 1)[0]
        self.csrf = ""

    async def load(self) -> str:
        page = await self.http.get(self.view.url)
        assert page.status_code == 200
        config = page.text.split('<script type="application/json" id="config">')[1].split("</script>")[0]
        self.csrf = json.loads(config)["csrf"]
        return page.text

    async def post(self, *messages: dict[str, Any]) -> None:
        response = await self.http.post(
            self.view.url + "/messages",
            content=json.dumps({"csrf": self.csrf, "messages": list(messages)}),
            headers={"Content-Type": "application/json", "Origin": self.origin},
        )
        assert response.status_code == 200, response.text

    @asynccontextmanager
    async def events(self) -> AsyncIterator[AsyncIterator[tuple[str, Any]]]:
        async with self.http.stream("GET", self.view.url + "/events") as response:
            assert response.status_code == 200

            async def read() -> AsyncIterator[tuple[str, Any]]:
                name = "message"
                async for line in response.aiter_lines():
                    if line.startswith("event: "):
                        name = line[7:]
                    elif line.startswith("data: "):
                        yield name, (json.loads(line[6:]) if name == "message" else line[6:])
                        name = "message"

            yield read()


async def initialize(page: Page, events: AsyncIterator[tuple[str, Any]]) -> list[Any]:
    """The handshake and ``ui/initialize`` as a view does it; the host's messages up to the result."""
    await page.post({"jsonrpc": "2.0", "method": "ui/notifications/sandbox-proxy-ready", "params": {}})
    name, ready = await anext(events)
    assert ready["method"] == "ui/notifications/sandbox-resource-ready"
    init = {"protocolVersion": "2026-01-26", "appInfo": {"name": "t", "version": "1"}, "appCapabilities": {}}
    await page.post(
        {"jsonrpc": "2.0", "id": 1, "method": "ui/initialize", "params": init},
        {"jsonrpc": "2.0", "method": "ui/notifications/initialized", "params": {}},
    )
    seen = [ready]
    async for name, message in events:
        assert name == "message"
        seen.append(message)
        if message.get("method") == "ui/notifications/tool-result":
            return seen
    raise AssertionError(seen)


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_present_shows_a_result_obtained_elsewhere() -> None:
    opened: list[str] = []
    given = CallToolResult(content=[TextContent(type="text", text="from the model's call")])
    with anyio.fail_after(BOUND):
        async with Client(probe(), apps=True) as client, httpx.AsyncClient(timeout=BOUND) as http:
            async with BrowserAppHost(client, open_browser=opened.append, theme="dark") as host:
                view = await host.present("probe", {"target": "http://127.0.0.1:9/"}, given)
                assert opened == [view.url] and view.result is given
                page = Page(http, view)
                text = await page.load()
                assert "<h1>probe</h1><p>from apps-probe</p>" in text
                async with page.events() as events:
                    ready, answer, tool_input, tool_result = await initialize(page, events)
                assert "<h1>Probe</h1>" in ready["params"]["html"]
                assert "csp" not in ready["params"]  # nothing declared: nothing passed on
                assert answer["id"] == 1 and answer["result"]["hostContext"]["theme"] == "dark"
                # No callbacks given: the view is told this host takes no links, messages or context.
                capabilities = answer["result"]["hostCapabilities"]
                assert not {"openLinks", "message", "updateModelContext"} & set(capabilities)
                assert tool_input["params"] == {"arguments": {"target": "http://127.0.0.1:9/"}}
                assert tool_result["params"]["content"] == [{"type": "text", "text": "from the model's call"}]
            ran = await client.call_tool("ran")
    assert json.loads(ran.content[0].text) == []  # type: ignore[union-attr]  # present called nothing


async def test_a_group_shows_a_members_view_under_its_group_name() -> None:
    command, args = stdio_command(PROBE)
    config = {"mcpServers": {"lab": {"command": command, "args": args}}}
    with anyio.fail_after(BOUND):
        async with ClientGroup(config) as group, httpx.AsyncClient(timeout=BOUND) as http:
            async with BrowserAppHost(group, open_browser=False) as host:
                names = [tool.name for tool in await group.list_tools()]
                group_name = next(name for name in names if name.endswith("probe"))
                view = await host.show(group_name, {"target": "x"})
                assert view.server == "lab"
                assert view.result.content[0].text == "probing x"  # type: ignore[union-attr]
                page = Page(http, view)
                assert "from lab</p>" in await page.load()
                with pytest.raises(ValueError, match=r"the tool '.*ran' of lab has no view"):
                    await host.show(next(name for name in names if name.endswith("ran")), {})


async def test_closing_a_view_nobody_looks_at_is_quick_and_final() -> None:
    with anyio.fail_after(BOUND):
        async with Client(probe(), apps=True) as client, httpx.AsyncClient(timeout=BOUND) as http:
            async with BrowserAppHost(client, open_browser=False) as host:
                view = await host.show("probe", {"target": "x"})
                with anyio.fail_after(2):  # no page: no teardown to wait for
                    await view.close()
                await view.wait_closed()
                page = await http.get(view.url)
                assert page.status_code == 200 and "The view of probe is closed." in page.text
                assert "<iframe" not in page.text
                await view.close()  # twice is fine
            with pytest.raises(RuntimeError, match="views can no longer be shown"):
                await host.show("probe", {"target": "x"})


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_leaving_the_host_tears_down_an_initialized_view() -> None:
    shown: list[AppView] = []
    ready, leave, left = anyio.Event(), anyio.Event(), anyio.Event()
    with anyio.fail_after(BOUND):
        async with Client(probe(), apps=True) as client, httpx.AsyncClient(timeout=BOUND) as http:

            async def run_host() -> None:
                async with BrowserAppHost(client, open_browser=False) as host:
                    shown.append(await host.show("probe", {"target": "x"}))
                    ready.set()
                    await leave.wait()
                left.set()

            async with anyio.create_task_group() as tg:
                tg.start_soon(run_host)
                await ready.wait()
                view = shown[0]
                page = Page(http, view)
                await page.load()
                async with page.events() as events:
                    await initialize(page, events)
                    leave.set()
                    _, teardown = await anext(events)
                    assert teardown["method"] == "ui/resource-teardown"
                    assert not left.is_set()  # the host waits for the view's answer
                    await page.post({"jsonrpc": "2.0", "id": teardown["id"], "result": {}})
                    assert await anext(events) == ("closed", "The view of probe is closed.")
                await left.wait()
    assert view.closed


async def test_an_error_in_the_hosts_block_comes_out_as_it_is() -> None:
    with anyio.fail_after(BOUND):
        async with Client(probe(), apps=True) as client:
            with pytest.raises(LookupError, match="mine"):
                async with BrowserAppHost(client, open_browser=False) as host:
                    await host.show("probe", {"target": "x"})
                    raise LookupError("mine")


async def test_a_closed_tab_is_noticed_and_a_reload_is_not() -> None:
    with anyio.fail_after(BOUND):
        async with Client(probe(), apps=True) as client, httpx.AsyncClient(timeout=BOUND) as http:
            async with BrowserAppHost(client, open_browser=False) as host:
                view = await host.show("probe", {"target": "x"})
                page = Page(http, view)
                await page.load()
                abandoned = anyio.Event()

                async def watch() -> None:
                    await view.wait_abandoned(grace=1.0)
                    abandoned.set()

                async with anyio.create_task_group() as tg:
                    tg.start_soon(watch)
                    assert view.pages == 0
                    async with page.events():
                        with anyio.fail_after(5):
                            while view.pages == 0:  # noqa: ASYNC110 - the host counts the stream
                                await anyio.sleep(0.02)
                    # A reload: the page's stream comes back within the grace.
                    async with page.events():
                        await anyio.sleep(1.5)
                        assert view.pages == 1 and not abandoned.is_set()
                    # The tab closed: noticed after the grace; the view itself stays open.
                    await abandoned.wait()
                    assert view.pages == 0 and not view.closed


async def test_a_declared_policy_and_permissions_reach_the_proxy_and_the_frame() -> None:
    """tests/servers/apps_server.py's clock declares a CSP, camera and clipboard-write: the proxy is
    served under that CSP and both frames get exactly that ``allow``."""
    command, args = stdio_command(SERVERS_DIR / "apps_server.py")
    with anyio.fail_after(BOUND):
        async with Client(StdioServerParameters(command=command, args=args), apps=True) as client:
            async with BrowserAppHost(client, open_browser=False) as host, httpx.AsyncClient() as http:
                view = await host.show("show_clock", {})
                page = await http.get(view.url)
                proxy_url = page.text.split('<iframe id="view" title="show_clock" src="')[1].split('"')[0]
                proxy = await http.get(proxy_url)
    assert 'sandbox="allow-scripts allow-same-origin" allow="camera; clipboard-write"' in page.text
    assert '"allow":"camera; clipboard-write"' in proxy.text
    directives = dict(d.strip().split(" ", 1) for d in proxy.headers["content-security-policy"].split(";"))
    assert directives["connect-src"] == "https://api.clock.example"
    assert (
        directives["script-src"] == "'self' 'unsafe-inline' https://cdn.clock.example https://*.fonts.example"
    )
    assert directives["frame-src"] == "https://player.clock.example"
    assert directives["base-uri"] == "https://clock.example"


async def test_with_no_browser_to_open_the_link_is_printed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    asked: list[str] = []

    def no_browser(url: str) -> bool:
        asked.append(url)
        return False

    monkeypatch.setattr("webbrowser.open", no_browser)
    with anyio.fail_after(BOUND):
        async with Client(probe(), apps=True) as client:
            async with BrowserAppHost(client) as host:
                view = await host.show("probe", {"target": "x"})
    assert asked == [view.url]
    assert capsys.readouterr().err == f"Open this page to see probe from apps-probe: {view.url}\n"


async def test_a_view_that_asks_to_go_is_torn_down() -> None:
    with anyio.fail_after(BOUND):
        async with Client(probe(), apps=True) as client, httpx.AsyncClient(timeout=BOUND) as http:
            async with BrowserAppHost(client, open_browser=False) as host:
                view = await host.show("probe", {"target": "x"})
                page = Page(http, view)
                await page.load()
                async with page.events() as events:
                    await initialize(page, events)
                    await page.post({"jsonrpc": "2.0", "method": "ui/notifications/request-teardown"})
                    _, teardown = await anext(events)
                    assert teardown["method"] == "ui/resource-teardown"
                    await page.post({"jsonrpc": "2.0", "id": teardown["id"], "result": {}})
                    assert await anext(events) == ("closed", "The view of probe is closed.")
                await view.wait_closed()
