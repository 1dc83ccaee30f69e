"""``await client.read_app(tool)``: a tool's view, read and checked, against the npm example servers and
``tests/servers/apps_server.py`` (the official SDK's ``Apps``, both eras, HTTP and stdio).

Each promise at its refusal too: the wrong MIME type, a tool without a view, HTML one byte over
``max_app_bytes`` (and exactly at it), a ``blob`` that is not base64, ``_meta.ui`` of the wrong shapes;
after each refusal the client goes on working.
"""

from __future__ import annotations

import base64
from typing import Any

import anyio
import pytest

from mcp_client import AppResourceError, Client, ClientGroup, MCPClientError
from mcp_client.apps import AppCsp, AppPermissions, AppResource
from tests.apps.conftest import APPS_SERVER, apps_stdio
from tests.core.helpers import text_of
from tests.support import ext_apps
from tests.support.servers import PEER_PYTHON

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 90
CLOCK_HTML = "<!doctype html><title>Horloge</title><p>Il est midi, déjà.</p>"  # as apps_server.py serves it
CLOCK_BYTES = len(CLOCK_HTML.encode("utf-8"))
CLOCK = AppResource(
    uri="ui://lab/clock.html",
    html=CLOCK_HTML,
    csp=AppCsp(
        connect_domains=("https://api.clock.example",),
        resource_domains=("https://cdn.clock.example", "https://*.fonts.example"),
        frame_domains=("https://player.clock.example",),
        base_uri_domains=("https://clock.example",),
    ),
    permissions=AppPermissions(camera=True, clipboard_write=True),
    domain="clock.lab.example",
    prefers_border=True,
)
FIRST_TOOL = {
    "basic-vanillajs": "get-time",
    "system-monitor": "get-system-info",
    "budget-allocator": "get-budget-data",
    "cohort-heatmap": "get-cohort-data",
    "customer-segmentation": "get-customer-data",
    "scenario-modeler": "get-scenario-data",
    "basic-react": "get-time",
}


@pytest.mark.parametrize("name", ext_apps.SERVERS)
async def test_every_npm_example_s_view_is_its_built_html(name: str) -> None:
    built = (ext_apps.entry(name).parent / "mcp-app.html").read_text(encoding="utf-8")
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(ext_apps.stdio_parameters(name), apps=True) as client:
            (tool, *_) = [t for t in (await client.list_tools()).tools if t.name == FIRST_TOOL[name]]
            by_tool = await client.read_app(tool)
            by_name = await client.read_app(FIRST_TOOL[name])
            by_uri = await client.read_app(by_tool.uri)
    assert by_tool.html == built
    assert by_tool.uri.startswith("ui://") and by_tool.uri.endswith("/mcp-app.html")
    assert by_tool == by_name == by_uri
    # nothing declared: the spec's restrictive defaults, and the host decides the border
    assert by_tool.csp == AppCsp() and by_tool.permissions == AppPermissions()
    assert by_tool.permissions.allow == "" and by_tool.domain is None and by_tool.prefers_border is None


async def test_a_view_with_everything_declared(apps_server: Any, era: str) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(apps_server, mode=era, apps=True) as client:
            view = await client.read_app("show_clock")
            by_uri = await client.read_app("ui://lab/clock.html")
            flat = await client.read_app("flat_only")  # the deprecated _meta["ui/resourceUri"]
    assert view == by_uri == flat == CLOCK
    assert view.permissions.allow == "camera; clipboard-write"


async def test_a_view_served_as_a_blob_is_the_same_html(apps_server: Any, era: str) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(apps_server, mode=era) as client:
            view = await client.read_app("show_blob")
    assert view == AppResource(uri="ui://lab/blob.html", html=CLOCK_HTML)


async def test_meta_comes_from_the_content_item_then_the_listing_field_by_field(apps_server: Any) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(apps_server) as client:
            listed_only = await client.read_app("ui://lab/listed-only.html")
            both = await client.read_app("ui://lab/both.html")
    assert listed_only == AppResource(
        uri="ui://lab/listed-only.html",
        html="<p>listed only</p>",
        csp=AppCsp(connect_domains=("https://listed.example",)),
        permissions=AppPermissions(geolocation=True),
        domain="listed.example",
        prefers_border=False,
    )
    # the content item's CSP wins over the listing's; the border only the listing names is kept
    assert both.csp == AppCsp(connect_domains=("https://content.example",))
    assert both.prefers_border is True


async def test_meta_of_the_wrong_shapes_counts_as_not_declared_never_as_looser(apps_server: Any) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(apps_server) as client:
            hostile = await client.read_app("ui://lab/hostile.html")
            domains = await client.read_app("ui://lab/hostile-domains.html")
    # csp a string, permissions a list, domain a number, prefersBorder a string: none of them declared,
    # and the listing's looser CSP is not taken instead (the content item named the field)
    assert hostile == AppResource(uri="ui://lab/hostile.html", html="<p>hostile</p>")
    # a number, an empty string, and entries that would break out of the directive are dropped
    assert domains.csp == AppCsp(connect_domains=("https://ok.example",))
    assert domains.permissions == AppPermissions(camera=True, microphone=True)  # "teleport" is unknown
    assert domains.domain is None


REFUSED_URI = {"show_plain": "ui://lab/plain.html", "uri_https": "https://lab.example/view.html"}


async def _still_works(client: Client) -> None:
    assert text_of(await client.call_tool("supports_apps")) in ("apps: True", "apps: False")
    assert (await client.read_app("show_clock")).html == CLOCK_HTML


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "show_plain",
            "the view ui://lab/plain.html of .* is served as 'text/html', not 'text/html;profile=mcp-app': "
            "it is no MCP Apps view",
        ),
        ("ui://lab/plain.html", "served as 'text/html', not 'text/html;profile=mcp-app'"),
        ("poll", "the tool 'poll' of .* has no view \\(no _meta.ui.resourceUri\\): call it as any tool"),
        ("uri_number", "the tool 'uri_number' of .* has no view"),  # a resourceUri that is no string
        ("supports_apps", "the tool 'supports_apps' of .* has no view"),
        (
            "uri_https",
            "the tool 'uri_https' of .* names its view 'https://lab.example/view.html', which is no ui:// "
            "resource: it is not read",
        ),
        ("no_such_tool", "has no tool named 'no_such_tool': its view cannot be read"),
        ("ui://lab/bad-blob.html", "the view ui://lab/bad-blob.html of .* is a blob that is not base64"),
        ("ui://lab/latin1.html", "the view ui://lab/latin1.html of .* is not UTF-8 HTML"),
    ],
)
async def test_a_refused_view_says_why_and_the_client_goes_on(
    apps_server: Any, era: str, target: str, message: str
) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(apps_server, mode=era, apps=True) as client:
            with pytest.raises(AppResourceError, match=message) as caught:
                await client.read_app(target)
            await _still_works(client)
    assert isinstance(caught.value, MCPClientError)
    assert caught.value.uri == REFUSED_URI.get(target, target if target.startswith("ui://") else None)


@pytest.mark.parametrize("tool", ["show_clock", "show_blob"])
async def test_max_app_bytes_counts_bytes_and_refuses_one_over(apps_server: Any, era: str, tool: str) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(apps_server, mode=era, max_app_bytes=CLOCK_BYTES) as client:
            assert (await client.read_app(tool)).html == CLOCK_HTML  # exactly at the limit
        async with Client(apps_server, mode=era, max_app_bytes=CLOCK_BYTES - 1) as client:
            with pytest.raises(AppResourceError, match=f"is over max_app_bytes \\({CLOCK_BYTES - 1} bytes"):
                await client.read_app(tool)
            assert text_of(await client.call_tool("supports_apps")) == "apps: False"  # still working


async def test_the_default_limit_is_ten_mib_and_a_big_blob_is_not_decoded() -> None:
    from mcp_client.apps._resource import DEFAULT_MAX_APP_BYTES, _html
    from mcp_client.types import BlobResourceContents, TextResourceContents

    assert DEFAULT_MAX_APP_BYTES == 10 * 1024 * 1024
    ten_mib = "x" * DEFAULT_MAX_APP_BYTES
    assert (
        _html(TextResourceContents(uri="ui://a", text=ten_mib), "ui://a", "s", DEFAULT_MAX_APP_BYTES)
        == ten_mib
    )
    with pytest.raises(AppResourceError, match="over max_app_bytes"):
        _html(TextResourceContents(uri="ui://a", text=ten_mib + "x"), "ui://a", "s", DEFAULT_MAX_APP_BYTES)
    blob = base64.b64encode(b"y" * (DEFAULT_MAX_APP_BYTES + 1)).decode()
    with pytest.raises(AppResourceError, match="over max_app_bytes"):
        _html(BlobResourceContents(uri="ui://a", blob=blob), "ui://a", "s", DEFAULT_MAX_APP_BYTES)
    # far too big to be decoded at all: refused on its length, even though it is not base64
    with pytest.raises(AppResourceError, match="over max_app_bytes"):
        _html(BlobResourceContents(uri="ui://a", blob="!" * (DEFAULT_MAX_APP_BYTES * 2)), "ui://a", "s", 10)


async def test_a_group_reads_a_view_by_its_unique_name_or_group_tool() -> None:
    command, args = ext_apps.stdio_command("basic-vanillajs")
    config = {
        "mcpServers": {
            "time": {"command": command, "args": args},
            "lab": {"command": PEER_PYTHON, "args": [str(APPS_SERVER), "stdio"]},
        }
    }
    with anyio.fail_after(TEST_TIMEOUT):
        async with ClientGroup(config, client_options={"apps": True}) as group:
            tools = {tool.name: tool for tool in await group.list_tools()}
            clock = await group.read_app("lab_show_clock")
            time_view = await group.read_app(tools["time_get-time"])
            with pytest.raises(
                AppResourceError, match=r"the tool 'poll' of .*apps_server\.py stdio has no view"
            ):
                await group.read_app("lab_poll")
            with pytest.raises(TypeError, match="a ui:// URI names no server"):
                await group.read_app("ui://lab/clock.html")
            assert text_of(await group.call_tool("lab_supports_apps")) == "apps: True"
    assert clock == CLOCK
    assert time_view.uri == "ui://get-time/mcp-app.html"


async def test_read_app_takes_a_uri_a_tool_or_a_name_and_nothing_else() -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(apps_stdio()) as client:
            with pytest.raises(
                TypeError, match="read_app takes a ui:// URI, a tool or a tool's name, not int"
            ):
                await client.read_app(42)  # type: ignore[arg-type]
