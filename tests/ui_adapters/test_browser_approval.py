"""browser_approval() in a real headless Chromium (issue 45 §2), with a real client and server.

The test plays the person: the callback's ``open_browser`` loads the page in Chromium, the test reads it
and clicks. The server (tests/servers/approvals_server.py) counts what ran: an allowed call reaches it,
a denied one never does.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_client import Client, ToolCallDenied, ToolPolicy
from tests.support.browser import Browser, closed_text, stream_opened
from tests.ui_adapters._approval_helpers import text_of
from tests.ui_adapters.test_browser_form import screenshot
from ui_adapters import browser_approval

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

BOUND = 90


def by_id(driver: Any, element_id: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id)


def rows(driver: Any) -> dict[str, str]:
    from selenium.webdriver.common.by import By

    table = by_id(driver, "call")
    return {
        row.find_element(By.TAG_NAME, "th").text: row.find_element(By.TAG_NAME, "td").text
        for row in table.find_elements(By.TAG_NAME, "tr")
    }


class Outcome:
    text: str | None = None
    denied: ToolCallDenied | None = None


async def call(client: Client, tool: str, arguments: dict[str, Any], outcome: Outcome) -> None:
    try:
        outcome.text = text_of(await client.call_tool(tool, arguments))
    except ToolCallDenied as exc:
        outcome.denied = exc


async def ran(client: Client) -> list[str]:
    return json.loads(text_of(await client.call_tool("ran", {})))


async def test_the_person_allows_for_the_session_and_the_call_runs(
    browser: Browser, approvals_url: str
) -> None:
    browser.reset()
    approve = browser_approval(open_browser=browser.open, timeout=BOUND)
    outcome = Outcome()
    with anyio.fail_after(BOUND):
        async with Client(approvals_url, approval_callback=approve, tool_policy=ToolPolicy()) as client:
            async with anyio.create_task_group() as tg:
                tg.start_soon(call, client, "write_note", {"text": "buy <milk> & eggs"}, outcome)
                await browser.wait_opened()
                driver = browser.driver
                asks = await browser.run(lambda: by_id(driver, "app-asks").text)
                shown = await browser.run(rows, driver)
                focused = await browser.run(lambda: driver.switch_to.active_element.get_attribute("id"))
                await browser.run(lambda: by_id(driver, "allow-session").click())
                said = await browser.run(closed_text, driver)
            assert outcome.text == "ran write_note"
            await call(client, "write_note", {"text": "again"}, outcome)  # the session remembers: no page
            assert outcome.text == "ran write_note" and len(browser.opened) == 1
    assert asks == "This app asks before it runs a tool call (the app asks you, not the server)."
    assert shown["Server"] == "approvals-server" and shown["Tool"] == "write_note"
    assert shown["Argument text"] == '"buy <milk> & eggs"'  # escaped by the page, shown as written
    assert shown["The server claims"] == "readOnlyHint=false, destructiveHint=false"
    assert "does not mark it read-only" in shown["Asked because"]
    assert focused not in ("allow-once", "allow-session", "allow-always")  # nothing risky pre-chosen
    assert said == "Allowed for this session."


async def test_the_person_denies_with_a_note_and_the_server_never_runs_it(
    browser: Browser, approvals_url: str, tmp_path: Path
) -> None:
    browser.reset()
    approve = browser_approval(open_browser=browser.open, timeout=BOUND)
    outcome = Outcome()
    with anyio.fail_after(BOUND):
        async with Client(approvals_url, approval_callback=approve, tool_policy=ToolPolicy()) as client:
            before = await ran(client)
            async with anyio.create_task_group() as tg:
                tg.start_soon(call, client, "drop_notes", {}, outcome)
                await browser.wait_opened()
                driver = browser.driver
                shown = await browser.run(rows, driver)
                await browser.run(lambda: by_id(driver, "note").send_keys("keep my notes"))
                shot = Path(os.environ.get("MCP_CLIENT_SCREENSHOTS", tmp_path)) / "browser-approval.png"
                await browser.run(screenshot, driver, shot)  # the docs' picture (scripts/docs_pictures.py)
                await browser.run(lambda: by_id(driver, "deny").click())
                said = await browser.run(closed_text, driver)
            assert await ran(client) == before  # drop_notes never reached the server
    assert shown["Tool"] == "drop_notes" and shown["Arguments"] == "(none)"
    assert shown["The server describes it"] == "“Delete every note.”"
    assert outcome.denied is not None and outcome.denied.note == "keep my notes"
    assert said == "Denied: the tool call does not run. Note: keep my notes"


async def test_closing_the_tab_denies(browser: Browser, approvals_url: str) -> None:
    browser.reset(new_tab=True)
    approve = browser_approval(open_browser=browser.open, timeout=BOUND, closed_tab_grace=0.5)
    outcome = Outcome()
    with anyio.fail_after(BOUND):
        async with Client(approvals_url, approval_callback=approve, tool_policy=ToolPolicy()) as client:
            async with anyio.create_task_group() as tg:
                tg.start_soon(call, client, "plain", {"text": "x"}, outcome)
                await browser.wait_opened()
                driver = browser.driver
                # A tab is noticed once its stream is open (a 1 s sleep was too short under load).
                await browser.run(stream_opened, driver)
                await browser.run(driver.close)
                await browser.run(lambda: driver.switch_to.window(driver.window_handles[0]))
    assert outcome.denied is not None and outcome.denied.note == "the approval page was closed"
