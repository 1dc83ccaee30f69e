"""BrowserFormAdapter in a real headless Chromium, against the official server in both eras.

The test plays the person: the adapter's ``open_browser`` hook loads the page in Chromium, and the test
types, clicks and closes tabs there with Selenium. What counts is what the tool received (the forms
server returns ``<action> <content JSON>``) and what the page shows. The server is
tests/servers/forms_server.py, whose ``ask`` tool asks whatever form the test gives it.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from mcp_client import Client
from tests.support.browser import STEP_TIMEOUT, Browser, closed_text, stream_opened
from ui_adapters import BrowserFormAdapter

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

BOUND = 90  # seconds for a whole test: a browser on a busy 2-core machine is slow

EVERY_KIND: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {
            "type": "string",
            "title": "Your name",
            "description": "As on your passport",
            "minLength": 2,
            "maxLength": 40,
            "default": "Ada",
        },
        "email": {"type": "string", "format": "email", "title": "E-mail"},
        "website": {"type": "string", "format": "uri", "title": "Website"},
        "day": {"type": "string", "format": "date", "title": "Day", "default": "2026-03-01"},
        "arrival": {
            "type": "string",
            "format": "date-time",
            "title": "Arrival",
            "default": "2026-03-01T15:00:00Z",
        },
        "guests": {"type": "integer", "title": "Guests", "minimum": 1, "maximum": 12, "default": 2},
        "budget": {"type": "number", "title": "Budget (EUR)", "minimum": 0, "maximum": 5000},
        "newsletter": {"type": "boolean", "title": "Newsletter", "default": False},
        "agree": {"type": "boolean", "title": "I agree to the house rules"},
        "room": {
            "type": "string",
            "title": "Room",
            "oneOf": [
                {"const": "std", "title": "Standard"},
                {"const": "sea", "title": "Sea view"},
                {"const": "suite", "title": "Suite"},
            ],
        },
        "extras": {
            "type": "array",
            "title": "Extras",
            "minItems": 1,
            "maxItems": 2,
            "items": {
                "anyOf": [
                    {"const": "breakfast", "title": "Breakfast"},
                    {"const": "parking", "title": "Parking"},
                    {"const": "late", "title": "Late check-out"},
                ]
            },
        },
        "notes": {"type": "string", "title": "Notes", "maxLength": 200},
    },
    "required": ["name", "email", "day", "arrival", "guests", "agree", "room", "extras"],
}
FIELD = {name: index for index, name in enumerate(EVERY_KIND["properties"])}
MESSAGE = "Book a room at the Seaside hotel?"


def input_id(name: str) -> str:
    return f"field-{FIELD[name]}"


class Call:
    def __init__(self, client: Client, message: str, schema: dict[str, Any]) -> None:
        self.client, self.message, self.schema = client, message, schema
        self.text: str | None = None
        self.done = anyio.Event()

    async def run(self) -> None:
        try:
            result = await self.client.call_tool("ask", {"message": self.message, "schema": self.schema})
            self.text = "\n".join(block.text for block in result.content if block.type == "text")
        finally:
            self.done.set()

    async def received(self) -> tuple[str, Any]:
        with anyio.fail_after(STEP_TIMEOUT):
            await self.done.wait()
        assert self.text is not None
        action, _, content = self.text.partition(" ")
        return action, json.loads(content)


@asynccontextmanager
async def asking(
    browser: Browser, client: Client, message: str, schema: dict[str, Any]
) -> AsyncIterator[tuple[Call, str]]:
    """The tool call running in a task group of its own, and the form's URL once the browser opened it:
    the block fills the form in, and leaving the block waits for the call to end."""
    call = Call(client, message, schema)
    async with anyio.create_task_group() as tg:
        tg.start_soon(call.run)
        yield call, await browser.wait_opened()


# ------------------------------------------------------------------------------ steps in the browser


def by_id(driver: Any, element_id: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id)


def set_value(driver: Any, element_id: str, value: str) -> None:
    """Date and date-time pickers are typed differently in every locale: set them as a script would."""
    driver.execute_script(
        "const e = arguments[0]; e.value = arguments[1];"
        "e.dispatchEvent(new Event('input', {bubbles: true}));"
        "e.dispatchEvent(new Event('change', {bubbles: true}));",
        by_id(driver, element_id),
        value,
    )


def type_into(driver: Any, element_id: str, text: str) -> None:
    element = by_id(driver, element_id)
    element.clear()
    element.send_keys(text)


def fill_every_kind(driver: Any) -> None:
    from selenium.webdriver.support.select import Select

    type_into(driver, input_id("name"), "Grace Hopper")
    type_into(driver, input_id("email"), "grace@example.com")
    type_into(driver, input_id("website"), "https://example.com/grace")
    set_value(driver, input_id("day"), "2026-04-02")
    set_value(driver, input_id("arrival"), "2026-04-02T14:30:00")
    type_into(driver, input_id("guests"), "3")
    type_into(driver, input_id("budget"), "1234.5")
    by_id(driver, input_id("newsletter") + "-0").click()  # Yes
    by_id(driver, input_id("agree") + "-0").click()  # Yes
    Select(by_id(driver, input_id("room"))).select_by_visible_text("Sea view")
    by_id(driver, input_id("extras") + "-0").click()  # Breakfast
    by_id(driver, input_id("extras") + "-2").click()  # Late check-out
    type_into(driver, input_id("notes"), "A quiet room, please")


def fill_required_only(driver: Any) -> None:
    from selenium.webdriver.support.select import Select

    type_into(driver, input_id("email"), "ada@example.com")
    by_id(driver, input_id("agree") + "-0").click()
    Select(by_id(driver, input_id("room"))).select_by_visible_text("Standard")
    by_id(driver, input_id("extras") + "-1").click()


def asker_text(driver: Any) -> str:
    """The line above the message: who asks (the server, and the tool whose call asks)."""
    return str(by_id(driver, "server").find_element("xpath", "..").text)


def click(driver: Any, element_id: str) -> None:
    by_id(driver, element_id).click()


def screenshot(driver: Any, path: Path) -> None:
    """The whole page, top to bottom (the window grows to fit it for the shot)."""
    driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0);")
    size = driver.get_window_size()
    chrome = driver.execute_script("return window.outerHeight - window.innerHeight;")
    height = driver.execute_script("return document.documentElement.scrollHeight;")
    driver.set_window_size(size["width"], height + chrome)
    try:
        driver.save_screenshot(str(path))
    finally:
        driver.set_window_size(size["width"], size["height"])


# ------------------------------------------------------------------------------------------ tests


async def test_every_field_kind_filled_in_and_sent(
    forms_http_url: str, browser: Browser, era: str, tmp_path: Path
) -> None:
    adapter = BrowserFormAdapter(open_browser=browser.open, timeout=BOUND)
    with anyio.fail_after(BOUND):
        async with Client(forms_http_url, mode=era, elicitation_callback=adapter) as client:
            async with asking(browser, client, MESSAGE, EVERY_KIND) as (call, url):
                await browser.run(fill_every_kind, browser.driver)
                asker = await browser.run(asker_text, browser.driver)
                shot = Path(os.environ.get("MCP_CLIENT_SCREENSHOTS", tmp_path)) / "browser-form.png"
                await browser.run(screenshot, browser.driver, shot)
                await browser.run(click, browser.driver, "accept")
                action, content = await call.received()
                page_says = await browser.run(closed_text, browser.driver)
    assert url.startswith("http://127.0.0.1:")
    assert action == "accept"
    assert content == {
        "name": "Grace Hopper",
        "email": "grace@example.com",
        "website": "https://example.com/grace",
        "day": "2026-04-02",
        "arrival": datetime(2026, 4, 2, 14, 30).astimezone().isoformat(),  # the browser's local time
        "guests": 3,
        "budget": 1234.5,
        "newsletter": True,
        "agree": True,
        "room": "sea",
        "extras": ["breakfast", "late"],
        "notes": "A quiet room, please",
    }
    assert page_says == "Your answer was sent to forms-lab. You can close this tab."
    assert asker == "forms-lab · ask asks"  # the server, and the tool whose call asks
    assert shot.read_bytes().startswith(b"\x89PNG")


async def test_defaults_are_shown_and_sent(forms_http_url: str, browser: Browser) -> None:
    adapter = BrowserFormAdapter(open_browser=browser.open, timeout=BOUND)

    def prefilled(driver: Any) -> dict[str, Any]:
        return {
            "name": by_id(driver, input_id("name")).get_attribute("value"),
            "day": by_id(driver, input_id("day")).get_attribute("value"),
            "arrival": by_id(driver, input_id("arrival")).get_attribute("value"),
            "guests": by_id(driver, input_id("guests")).get_attribute("value"),
            "newsletter no": by_id(driver, input_id("newsletter") + "-1").is_selected(),
            "agree yes": by_id(driver, input_id("agree") + "-0").is_selected(),
            "agree no": by_id(driver, input_id("agree") + "-1").is_selected(),
            "required marks": [
                element.text
                for element in driver.find_elements("css selector", ".required")  # the red asterisks
            ],
            "email required": by_id(driver, input_id("email")).get_attribute("required"),
        }

    with anyio.fail_after(BOUND):
        async with Client(forms_http_url, mode="legacy", elicitation_callback=adapter) as client:
            async with asking(browser, client, MESSAGE, EVERY_KIND) as (call, _):
                shown = await browser.run(prefilled, browser.driver)
                await browser.run(fill_required_only, browser.driver)
                await browser.run(click, browser.driver, "accept")
                action, content = await call.received()
    local_arrival = datetime.fromisoformat("2026-03-01T15:00:00+00:00").astimezone()
    assert shown == {
        "name": "Ada",
        "day": "2026-03-01",
        "arrival": local_arrival.strftime("%Y-%m-%dT%H:%M"),  # the picker drops ":00" seconds
        "guests": "2",
        "newsletter no": True,
        "agree yes": False,  # a yes/no question without a default starts with neither chosen
        "agree no": False,
        "required marks": ["*"] * 8,
        "email required": "true",
    }
    assert action == "accept"
    assert content == {
        "name": "Ada",
        "email": "ada@example.com",
        "day": "2026-03-01",
        "arrival": local_arrival.replace(tzinfo=None).astimezone().isoformat(),
        "guests": 2,
        "newsletter": False,
        "agree": True,
        "room": "std",
        "extras": ["parking"],
    }


async def test_decline_with_required_fields_empty(forms_http_url: str, browser: Browser, era: str) -> None:
    adapter = BrowserFormAdapter(open_browser=browser.open, timeout=BOUND)
    with anyio.fail_after(BOUND):
        async with Client(forms_http_url, mode=era, elicitation_callback=adapter) as client:
            async with asking(browser, client, MESSAGE, EVERY_KIND) as (call, _):
                await browser.run(click, browser.driver, "decline")
                action, content = await call.received()
                page_says = await browser.run(closed_text, browser.driver)
    assert (action, content) == ("decline", None)
    assert page_says == "forms-lab was told that you declined. You can close this tab."


async def test_the_cancel_button(forms_http_url: str, browser: Browser) -> None:
    adapter = BrowserFormAdapter(open_browser=browser.open, timeout=BOUND)
    with anyio.fail_after(BOUND):
        async with Client(forms_http_url, mode="2026-07-28", elicitation_callback=adapter) as client:
            async with asking(browser, client, MESSAGE, EVERY_KIND) as (call, _):
                await browser.run(click, browser.driver, "cancel")
                action, content = await call.received()
    assert (action, content) == ("cancel", None)


async def test_closing_the_tab_cancels(forms_http_url: str, browser: Browser, era: str) -> None:
    browser.reset(new_tab=True)
    adapter = BrowserFormAdapter(open_browser=browser.open, timeout=BOUND, closed_tab_grace=0.5)

    def close_tab(driver: Any) -> None:
        driver.close()
        driver.switch_to.window(driver.window_handles[0])

    with anyio.fail_after(BOUND):
        async with Client(forms_http_url, mode=era, elicitation_callback=adapter) as client:
            async with asking(browser, client, MESSAGE, EVERY_KIND) as (call, _):
                await browser.run(fill_required_only, browser.driver)  # half-way through, then gone
                await browser.run(stream_opened, browser.driver)  # a tab is noticed once its stream is up
                await browser.run(close_tab, browser.driver)
                action, content = await call.received()
    assert (action, content) == ("cancel", None)


async def test_a_reload_is_not_a_closed_tab(forms_http_url: str, browser: Browser) -> None:
    # The grace is the time the reloaded page has to open its stream again: 2 s was near what a reload
    # takes on a busy machine.
    grace = 6.0
    adapter = BrowserFormAdapter(open_browser=browser.open, timeout=BOUND, closed_tab_grace=grace)
    with anyio.fail_after(BOUND):
        async with Client(forms_http_url, mode="legacy", elicitation_callback=adapter) as client:
            async with asking(
                browser, client, MESSAGE, {"type": "object", "properties": {"ok": {"type": "boolean"}}}
            ) as (call, _):
                await browser.run(stream_opened, browser.driver)
                reloaded = anyio.current_time()
                await browser.run(lambda: browser.driver.refresh())
                await browser.run(stream_opened, browser.driver)  # the reloaded page's own stream
                # longer than the grace: a closed tab would have been cancelled by now
                await anyio.sleep(max(0.0, grace + 0.5 - (anyio.current_time() - reloaded)))
                assert not call.done.is_set()
                await browser.run(click, browser.driver, "field-0-0")
                await browser.run(click, browser.driver, "accept")
                action, content = await call.received()
    assert (action, content) == ("accept", {"ok": True})


async def test_the_timeout_cancels_and_the_page_says_so(forms_http_url: str, browser: Browser) -> None:
    adapter = BrowserFormAdapter(open_browser=browser.open, timeout=5)  # time for Chromium to open it
    with anyio.fail_after(BOUND):
        async with Client(forms_http_url, mode="legacy", elicitation_callback=adapter) as client:
            async with asking(browser, client, MESSAGE, EVERY_KIND) as (call, _):
                action, content = await call.received()
                page_says = await browser.run(closed_text, browser.driver)
    assert (action, content) == ("cancel", None)
    assert (
        page_says
        == "Nobody answered in time, so the question from forms-lab was cancelled. You can close this tab."
    )


async def test_an_invalid_value_is_refused_by_the_page_and_by_us(
    forms_http_url: str, browser: Browser, era: str
) -> None:
    adapter = BrowserFormAdapter(open_browser=browser.open, timeout=BOUND)

    def too_many_guests(driver: Any) -> dict[str, Any]:
        fill_every_kind(driver)
        type_into(driver, input_id("guests"), "40")
        click(driver, "accept")
        return {
            "url": driver.current_url,
            "error": by_id(driver, f"error-{FIELD['guests']}").text,
            "csrf": driver.find_element("name", "csrf").get_attribute("value"),
        }

    def too_many_extras(driver: Any) -> str:
        type_into(driver, input_id("guests"), "12")
        click(driver, input_id("extras") + "-1")  # a third extra; at most two are allowed
        click(driver, "accept")
        return by_id(driver, f"error-{FIELD['extras']}").text

    def fix_and_send(driver: Any) -> None:
        click(driver, input_id("extras") + "-1")
        click(driver, "accept")

    with anyio.fail_after(BOUND):
        async with Client(forms_http_url, mode=era, elicitation_callback=adapter) as client:
            async with asking(browser, client, MESSAGE, EVERY_KIND) as (call, url):
                in_page = await browser.run(too_many_guests, browser.driver)
                assert in_page["url"] == url  # the browser did not submit
                assert in_page["error"]  # the browser's own message, next to the field
                extras_error = await browser.run(too_many_extras, browser.driver)
                assert extras_error == "Choose at most 2 options."

                # Forced past the page: the same post a script would send, with a valid CSRF token.
                form = {
                    "csrf": in_page["csrf"],
                    "action": "accept",
                    input_id("name"): "Grace Hopper",
                    input_id("email"): "grace@example.com",
                    input_id("day"): "2026-04-02",
                    input_id("arrival"): "2026-04-02T14:30:00",
                    input_id("guests"): "40",
                    input_id("agree"): "true",
                    input_id("room"): "1",
                    input_id("extras"): ["0", "1", "2"],
                    input_id("budget"): "lots",
                }
                async with httpx.AsyncClient() as http:
                    forced = await http.post(url, data=form, headers={"Origin": url.rsplit("/", 1)[0]})
                assert forced.status_code == 422
                assert "Must be at most 12" in forced.text
                assert "Must have at most 2 options selected" in forced.text
                assert "Must be a number" in forced.text
                assert not call.done.is_set()  # nothing was sent; the question is still open

                await browser.run(fix_and_send, browser.driver)
                action, content = await call.received()
    assert action == "accept"
    assert content["guests"] == 12 and content["extras"] == ["breakfast", "late"]


HOSTILE_MESSAGE = (
    "<script>document.title='pwned'</script><b>Bold?</b> & <img src=x onerror=\"document.title='img'\">"
)
HOSTILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "who": {
            "type": "string",
            "title": "<i>Name</i> <script>alert(1)</script>",
            "description": "</p><a href='https://evil.example'>click</a>",
            "default": '"><script>alert(2)</script>',
        },
        "pick": {
            "type": "string",
            "enum": ["a", "b"],
            "enumNames": ["<b>First</b>", "<u>Second</u>"],
        },
    },
}


async def test_hostile_server_text_is_shown_as_text(forms_http_url: str, browser: Browser, era: str) -> None:
    adapter = BrowserFormAdapter(open_browser=browser.open, timeout=BOUND)

    def look(driver: Any) -> dict[str, Any]:
        from selenium.webdriver.support.select import Select

        return {
            "title": driver.title,
            "message": by_id(driver, "message").text,
            "label": driver.find_element("css selector", "label[for=field-0]").text,
            "help": by_id(driver, "help-0").text,
            "default": by_id(driver, "field-0").get_attribute("value"),
            "options": [o.text for o in Select(by_id(driver, "field-1")).options],
            "injected": driver.find_elements("css selector", "main b, main i, main u, main img, main a"),
            "scripts": len(driver.find_elements("css selector", "script")),
        }

    with anyio.fail_after(BOUND):
        async with Client(forms_http_url, mode=era, elicitation_callback=adapter) as client:
            async with asking(browser, client, HOSTILE_MESSAGE, HOSTILE_SCHEMA) as (call, _):
                seen = await browser.run(look, browser.driver)
                await browser.run(click, browser.driver, "accept")
                action, content = await call.received()
    assert seen == {
        "title": "Question from forms-lab",
        "message": HOSTILE_MESSAGE,
        "label": "<i>Name</i> <script>alert(1)</script>",
        "help": "</p><a href='https://evil.example'>click</a>",
        "default": '"><script>alert(2)</script>',
        "options": ["(none)", "<b>First</b>", "<u>Second</u>"],
        "injected": [],
        "scripts": 2,  # ours: the page script and its JSON data block
    }
    assert (action, content) == ("accept", {"who": '"><script>alert(2)</script>'})
