"""BrowserAppHost in a real headless Chromium: the official MCP Apps example servers (npm, built on the
ext-apps ``App`` class) and a probing view of our own, rendered through our client.

The test plays the person: the host's ``open_browser`` hook loads the host page in Chromium, and the test
reads and clicks inside the view, two frames down (host page -> sandbox proxy -> view). What counts is
what the view shows, what reached the host's callbacks and what the servers ran.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
import pytest

from mcp_client import Client, StdioServerParameters
from mcp_client.llm import ToolBridge
from mcp_client.types import CallToolResult
from tests.support import ext_apps
from tests.support.browser import Browser, wait_until
from tests.support.servers import SERVERS_DIR, stdio_command
from ui_adapters.apps import AppView, BrowserAppHost

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

BOUND = 120  # seconds for a whole test: node servers and a browser on a busy 2-core machine
WAIT = 45.0  # seconds for one thing to show in the browser
PROBE = SERVERS_DIR / "apps_probe_server.py"

TOOLS = {
    "basic-vanillajs": "get-time",
    "system-monitor": "get-system-info",
    "budget-allocator": "get-budget-data",
    "cohort-heatmap": "get-cohort-data",
    "customer-segmentation": "get-customer-data",
    "scenario-modeler": "get-scenario-data",
    "basic-react": "get-time",
}


# ------------------------------------------------------------------------------------------ helpers


def example(name: str) -> StdioServerParameters:
    return ext_apps.stdio_parameters(name)


def probe_server(*extra: str) -> StdioServerParameters:
    command, args = stdio_command(PROBE, *extra)
    return StdioServerParameters(command=command, args=args)


class Recorder:
    """A loopback HTTP server that answers 204 to anything and records each request line: did a view's
    fetch reach it?"""

    def __init__(self) -> None:
        self.requests: list[str] = []
        self.origin = ""

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[Recorder]:
        listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
        self.origin = f"http://127.0.0.1:{listener.extra(anyio.abc.SocketAttribute.local_port)}"

        async def answer(stream: anyio.abc.SocketStream) -> None:
            async with stream:
                head = b""
                with anyio.move_on_after(WAIT):
                    while b"\r\n\r\n" not in head:
                        head += await stream.receive()
                self.requests.append(head.split(b"\r\n", 1)[0].decode("latin-1"))
                await stream.send(
                    b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                )

        async with listener, anyio.create_task_group() as tg:
            tg.start_soon(listener.serve, answer)
            yield self
            tg.cancel_scope.cancel()


def enter_view(driver: Any) -> None:
    """Switch into the view's frame (host page -> proxy -> view), waiting for each to be there."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    driver.switch_to.default_content()
    wait_until(driver, ec.frame_to_be_available_and_switch_to_it((By.ID, "view")), WAIT)
    wait_until(driver, ec.frame_to_be_available_and_switch_to_it((By.TAG_NAME, "iframe")), WAIT)


def view_text_until(driver: Any, condition: Callable[[str], bool]) -> str:
    """The view's text once ``condition`` holds for it (a timeout shows the last text seen)."""
    from selenium.common.exceptions import TimeoutException

    seen = [""]

    def text(d: Any) -> str | bool:
        seen[0] = d.find_element("tag name", "body").text
        return seen[0] if condition(seen[0]) else False

    enter_view(driver)
    try:
        return wait_until(driver, text, WAIT)
    except TimeoutException:
        raise AssertionError(f"the view never showed what was expected; it showed: {seen[0]!r}") from None
    finally:
        driver.switch_to.default_content()


def element_text_until(driver: Any, element_id: str, condition: Callable[[str], bool]) -> str:
    from selenium.common.exceptions import TimeoutException

    seen = [""]

    def text(d: Any) -> str | bool:
        seen[0] = d.find_element("id", element_id).text
        return seen[0] if condition(seen[0]) else False

    enter_view(driver)
    try:
        return wait_until(driver, text, WAIT)
    except TimeoutException:
        raise AssertionError(f"#{element_id} never showed what was expected; it showed {seen[0]!r}") from None
    finally:
        driver.switch_to.default_content()


def click_in_view(driver: Any, element_id: str) -> None:
    """Click a button of the view; found again if the view re-rendered it between finding and clicking
    (a stale element: the click never happened, so it is simply tried again)."""

    def click(d: Any) -> bool:
        d.find_element("id", element_id).click()
        return True

    enter_view(driver)
    try:
        wait_until(driver, click, WAIT)
    finally:
        driver.switch_to.default_content()


def page_closed_text(driver: Any) -> str:
    driver.switch_to.default_content()

    def closed(d: Any) -> str | bool:
        found = d.find_elements("id", "closed")
        return found[0].text if found else False

    return wait_until(driver, closed, WAIT)


def screenshot(driver: Any, path: Path) -> None:
    """The whole host page, the view in it."""
    driver.switch_to.default_content()
    driver.execute_script("window.scrollTo(0, 0);")
    size = driver.get_window_size()
    driver.set_window_size(960, 300)  # the page's own height, not the window's, is then measured
    chrome = driver.execute_script("return window.outerHeight - window.innerHeight;")
    height = driver.execute_script("return document.documentElement.scrollHeight;")
    driver.set_window_size(960, min(height, 1400) + chrome)
    try:
        driver.save_screenshot(str(path))
    finally:
        driver.set_window_size(size["width"], size["height"])


@asynccontextmanager
async def hosted(
    params: StdioServerParameters, browser: Browser, **options: Any
) -> AsyncIterator[BrowserAppHost]:
    async with Client(params, apps=True) as client:
        options.setdefault("open_browser", browser.open)
        async with BrowserAppHost(client, **options) as host:
            yield host


async def eventually(condition: Callable[[], bool]) -> None:
    """Wait (bounded) until ``condition()`` holds: what a view sends arrives in its own time."""
    with anyio.fail_after(WAIT):
        while not condition():  # noqa: ASYNC110 - the condition is state the host fills in
            await anyio.sleep(0.05)


def texts(result: CallToolResult) -> str:
    return " ".join(getattr(item, "text", "") for item in result.content)


# ------------------------------------------------------------------------------------------ expectations


def shows_the_result(name: str, result: CallToolResult) -> Callable[[str], bool]:
    """What the view of ``name`` shows once it got ``result`` (values only that result carries)."""
    data: dict[str, Any] = result.structured_content or {}
    if name in ("basic-vanillajs", "basic-react"):
        time = texts(result)
        return lambda text: time in text
    if name == "system-monitor":
        return lambda text: f"Hostname\n{data['hostname']}" in text
    if name == "budget-allocator":
        categories = [c["name"] for c in data["config"]["categories"]]
        return lambda text: all(c in text for c in categories) and "Allocated: $100,000" in text
    if name == "cohort-heatmap":
        labels = [c["cohortLabel"] for c in data["cohorts"]]
        return lambda text: all(label in text for label in labels)
    if name == "customer-segmentation":
        segments = [(s["name"], s["count"]) for s in data["segments"]]
        return lambda text: all(f"{s}\n({n})" in text for s, n in segments)
    if name == "scenario-modeler":
        templates = [t["name"] for t in data["templates"]]
        return lambda text: all(t in text for t in templates)
    raise AssertionError(name)


# ------------------------------------------------------------------------------------------ tests


@pytest.mark.parametrize("name", ext_apps.SERVERS)
async def test_every_example_server_shows_its_result(name: str, browser: Browser) -> None:
    with anyio.fail_after(BOUND):
        async with hosted(example(name), browser) as host:
            view = await host.show(TOOLS[name], {})
            assert await browser.wait_opened() == view.url
            assert view.url.startswith("http://127.0.0.1:")
            await browser.run(view_text_until, browser.driver, shows_the_result(name, view.result))


async def test_basic_vanillajs_buttons_reach_our_client_and_the_callbacks(browser: Browser) -> None:
    links: list[dict[str, Any]] = []
    logs: list[dict[str, Any]] = []
    messages: list[dict[str, Any]] = []

    def open_link(params: dict[str, Any]) -> bool:
        links.append(params)
        return True

    async def message(params: dict[str, Any]) -> bool:
        messages.append(params)
        return True

    with anyio.fail_after(BOUND):
        async with hosted(
            example("basic-vanillajs"),
            browser,
            on_message=message,
            on_open_link=open_link,
            on_log=logs.append,
        ) as host:
            view = await host.show("get-time", {})
            first = texts(view.result)
            driver = browser.driver
            await browser.run(view_text_until, driver, lambda text: first in text)
            await anyio.sleep(0.01)  # a new time differs in milliseconds at least
            await browser.run(click_in_view, driver, "get-time-btn")
            later = await browser.run(
                element_text_until,
                driver,
                "server-time",
                lambda text: re.match(r"\d{4}-", text) and text != first,
            )
            assert later > first  # a later time: the button called get-time through our client

            await browser.run(click_in_view, driver, "send-message-btn")
            await browser.run(click_in_view, driver, "send-log-btn")
            await browser.run(click_in_view, driver, "open-link-btn")
            await eventually(lambda: bool(messages and logs and links))
    assert messages == view.messages
    assert messages[0]["role"] == "user"
    assert messages[0]["content"] == [{"type": "text", "text": "This is message text."}]
    assert any(log.get("data") == "This is log text." for log in logs), logs
    assert links == [{"url": "https://modelcontextprotocol.io/"}]


async def test_without_callbacks_the_views_requests_are_refused(browser: Browser) -> None:
    with anyio.fail_after(BOUND):
        async with hosted(example("basic-vanillajs"), browser) as host:
            view = await host.show("get-time", {})
            driver = browser.driver
            await browser.run(view_text_until, driver, lambda text: texts(view.result) in text)
            await browser.run(click_in_view, driver, "send-message-btn")
            await eventually(lambda: bool(view.messages))
    # What the view sent is known; nobody accepted it (the bridge refused it, without a callback).
    assert view.messages[0]["content"] == [{"type": "text", "text": "This is message text."}]


async def test_an_app_only_tool_is_called_by_its_view_and_never_offered_to_a_model(browser: Browser) -> None:
    with anyio.fail_after(BOUND):
        async with hosted(example("system-monitor"), browser) as host:
            assert "poll-system-stats" in [t.name for t in (await host.client.list_tools()).tools]  # type: ignore[union-attr]
            exported = [t["function"]["name"] for t in await ToolBridge(host.client).openai_tools()]
            assert exported == ["get-system-info"]
            await host.show("get-system-info", {})
            # CPU and memory use come only from poll-system-stats, which the view calls every few seconds.
            shown = await browser.run(
                view_text_until,
                browser.driver,
                lambda text: re.search(r"CPU USAGE\s+MEMORY\s+\d+%", text) is not None,
            )
    # The used memory is in MB on a quiet machine with little in use (seen: "831.8 MB / 23.5 GB").
    assert re.search(r"\d+(\.\d+)? [KMGT]?B / \d+(\.\d+)? [KMGT]?B", shown)


async def test_the_probe_view_is_contained(browser: Browser) -> None:
    """No network without a declared CSP, no model-only tool, an app-only one allowed; its flood is refused
    while another view of the same host goes on."""
    driver = browser.driver
    with anyio.fail_after(BOUND):
        async with Recorder().serving() as server, hosted(probe_server(), browser) as host:
            where = {"target": server.origin + "/secret", "other": server.origin + "/other"}
            first = await host.show("probe", where)
            shown = await browser.run(view_text_until, driver, lambda t: "app_helper: ok" in t)
            assert "fetch: blocked" in shown and "other: blocked" in shown
            assert re.search(r"model_only: refused: .*model_only", shown), shown
            assert "app_helper: ok: helped" in shown

            await browser.run(click_in_view, driver, "flood-btn")
            browser.reset(new_tab=True)
            second = await host.show("probe", where)
            # The other view is served and answered while the first one's flood is being worked off.
            helped = await browser.run(
                element_text_until, driver, "app-helper", lambda t: "not tried" not in t
            )
            assert helped == "app_helper: ok: helped"
            assert not first.closed and second.url != first.url
            driver.switch_to.window(driver.window_handles[0])
            flood = await browser.run(element_text_until, driver, "flood", lambda t: "ok," in t)
            ok, too_many, other = map(int, re.findall(r"\d+", flood))
            assert too_many > 0 and ok > 0 and other == 0, flood
            assert ok + too_many == 400
            ran = json.loads(texts(await host.client.call_tool("ran")))  # type: ignore[union-attr]
            assert server.requests == []  # the view's fetches never left the browser
    assert "model_only" not in ran
    assert ran.count("app_helper") == 2


async def test_a_declared_connect_domain_is_reachable_and_nothing_else(browser: Browser) -> None:
    driver = browser.driver
    with anyio.fail_after(BOUND):
        async with Recorder().serving() as allowed, Recorder().serving() as other:
            async with hosted(probe_server("--connect", allowed.origin), browser) as host:
                await host.show(
                    "probe", {"target": allowed.origin + "/allowed", "other": other.origin + "/no"}
                )
                shown = await browser.run(view_text_until, driver, lambda t: "app_helper: ok" in t)
    assert "fetch: reached" in shown and "other: blocked" in shown
    assert allowed.requests == ["GET /allowed HTTP/1.1"]
    assert other.requests == []


async def test_closing_a_view_and_leaving_the_host_tear_the_views_down(browser: Browser) -> None:
    with anyio.fail_after(BOUND):
        async with hosted(probe_server(), browser) as host:
            view = await host.show("probe", {"target": "http://127.0.0.1:9/"})
            await browser.run(element_text_until, browser.driver, "app-helper", lambda t: "ok" in t)
            await view.close()
            await view.wait_closed()
            assert view.closed
            assert await browser.run(page_closed_text, browser.driver) == "The view of probe is closed."

            browser.reset(new_tab=True)
            async with hosted(example("basic-vanillajs"), browser) as other:
                shown = await other.show("get-time", {})
                await browser.run(view_text_until, browser.driver, lambda t: texts(shown.result) in t)
            # Leaving the host closed its view, and the page said so before the server stopped.
            assert shown.closed
            assert await browser.run(page_closed_text, browser.driver) == "The view of get-time is closed."


async def test_a_tool_without_a_view_is_refused_by_name(browser: Browser) -> None:
    with anyio.fail_after(BOUND):
        async with hosted(probe_server(), browser, open_browser=False) as host:
            with pytest.raises(ValueError, match=r"the tool 'ran' of .* has no view"):
                await host.show("ran", {})
            with pytest.raises(ValueError, match=r"has no tool named 'nope'"):
                await host.show("nope", {})
            ran = json.loads(texts(await host.client.call_tool("ran")))  # type: ignore[union-attr]
    assert ran == []  # refused before anything was called


@pytest.mark.parametrize(("name", "theme"), [("budget-allocator", "light"), ("cohort-heatmap", "dark")])
async def test_docs_pictures(name: str, theme: str, browser: Browser, tmp_path: Path) -> None:
    """The two pictures of docs/apps.md (``MCP_CLIENT_SCREENSHOTS=docs/pictures`` writes them there)."""
    shot = Path(os.environ.get("MCP_CLIENT_SCREENSHOTS", tmp_path)) / f"apps-{theme}.png"
    with anyio.fail_after(BOUND):
        async with hosted(example(name), browser, theme=theme) as host:
            view: AppView = await host.show(TOOLS[name], {})
            await browser.run(view_text_until, browser.driver, shows_the_result(name, view.result))
            await anyio.sleep(1.5)  # let the charts finish their first animation
            await browser.run(screenshot, browser.driver, shot)
    assert shot.read_bytes().startswith(b"\x89PNG")
