"""examples/clients/web_app.py as a user runs it: a subprocess on loopback, used over HTTP and in a browser.

The app's client talks to a real server (the bistro example over stdio by default, or the forms test
server over HTTP); questions go through ``QuestionBroker`` to the page and the answers come back.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from tests.support.browser import Browser, wait_until
from tests.support.servers import run_http_server

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

WEB_APP = Path(__file__).resolve().parents[2] / "examples" / "clients" / "web_app.py"
BOUND = 60  # seconds for a whole conversation
HOSTILE_MESSAGE = "<script>document.title='pwned'</script><b>Bold?</b> & <img src=x onerror=\"alert(1)\">"


def web_app(*args: str) -> Iterator[str]:
    from tests.cli._cli import ROOT

    with run_http_server(
        lambda port: [sys.executable, str(ROOT / WEB_APP), *args, "--port", str(port)], path=""
    ) as url:
        yield url


@pytest.fixture(scope="module")
def bistro_app() -> Iterator[str]:
    """The web app with its defaults: the bistro example over stdio, legacy era."""
    yield from web_app()


@pytest.fixture(scope="module")
def forms_app(forms_http_url: str) -> Iterator[str]:
    yield from web_app(forms_http_url, "--mode", "2026-07-28")


async def first_question(http: httpx.AsyncClient, app: str) -> dict[str, Any]:
    """The first question on the app's event stream (``async for question in broker`` behind it)."""
    async with http.stream("GET", app + "/api/questions/stream") as stream:
        async for line in stream.aiter_lines():
            if line.startswith("data: "):
                return json.loads(line[len("data: ") :])
    raise AssertionError("the question stream ended")


async def book_table_asking(http: httpx.AsyncClient, app: str, results: list[httpx.Response]) -> None:
    """``book_table`` for 2 on 2025-12-25 (a date the bistro asks about) through the app's API; the
    response, once the call is over, is put in ``results``."""
    arguments = {"date": "2025-12-25", "party_size": 2}
    results.append(await http.post(app + "/api/call", json={"tool": "book_table", "arguments": arguments}))


async def test_a_question_answered_over_the_api(bistro_app: str) -> None:
    results: list[httpx.Response] = []
    with anyio.fail_after(BOUND):
        async with httpx.AsyncClient(timeout=BOUND) as http, anyio.create_task_group() as tg:
            tg.start_soon(book_table_asking, http, bistro_app, results)
            question = await first_question(http, bistro_app)
            assert question["server_name"] == "bistro"
            assert question["message"] == "No tables for 2 on 2025-12-25. Would you like another date?"
            assert [(f["name"], f["kind"], f["required"]) for f in question["form"]["fields"]] == [
                ("accept_alternative", "boolean", True),
                ("date", "date", False),
            ]
            assert (await http.get(bistro_app + "/api/questions")).json() == [question]
            where = f"{bistro_app}/api/questions/{question['id']}"
            refused = await http.post(
                where, json={"action": "accept", "content": {"accept_alternative": "yes"}}
            )
            assert refused.status_code == 422 and refused.json()["field"] == "accept_alternative"
            assert not results  # nothing was sent; the call still waits
            content = {"accept_alternative": True, "date": "2025-12-27"}
            assert (await http.post(where, json={"action": "accept", "content": content})).json() == {
                "ok": True
            }
            assert (await http.post(where, json={"action": "decline"})).status_code == 404
    assert results[0].json() == {"text": "[SUCCESS] Booked for 2025-12-27", "is_error": False}


async def test_the_app_only_answers_to_its_own_host_name(bistro_app: str) -> None:
    async with httpx.AsyncClient(timeout=BOUND) as http:
        rebound = await http.get(bistro_app + "/api/questions", headers={"Host": "evil.example"})
        page = await http.get(bistro_app + "/")
    assert rebound.status_code == 400
    assert page.status_code == 200
    assert page.headers["content-security-policy"].startswith("default-src 'self'")


async def test_a_task_request_it_cannot_take_is_refused_with_what_to_do(bistro_app: str) -> None:
    async with httpx.AsyncClient(timeout=BOUND) as http:
        malformed = await http.post(bistro_app + "/api/tasks", json={"tool": "book_table", "arguments": "x"})
        no_store = await http.post(bistro_app + "/api/tasks", json={"tool": "book_table", "arguments": {}})
    assert (malformed.status_code, malformed.json()) == (
        400,
        {"error": 'post {"tool": NAME, "arguments": {...}}'},
    )
    assert no_store.status_code == 400 and "--store" in no_store.json()["error"]


@pytest.mark.browser
async def test_the_page_answers_a_question(bistro_app: str, browser: Browser) -> None:
    def answer(driver: Any) -> dict[str, str]:
        card = wait_for(driver, lambda d: d.find_elements("css selector", ".question"))[0]
        seen = {"message": card.find_element("css selector", ".message").text}
        card.find_element("css selector", "input[type=radio][value=true]").click()
        date = card.find_element("css selector", "input[type=date]")  # the schema says format: date
        seen["default date"] = date.get_attribute("value")
        # A date input takes keys in the browser's locale order; set its ISO value as a picker would.
        driver.execute_script(
            "arguments[0].value = arguments[1];"
            "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));"
            "arguments[0].dispatchEvent(new Event('change', {bubbles: true}));",
            date,
            "2025-12-28",
        )
        card.find_element("css selector", "button[name=accept]").click()
        seen["result"] = result_line(driver, "SUCCESS")
        return seen

    with anyio.fail_after(BOUND):
        await browser.run(call_on_page, browser.driver, bistro_app, "book_table")
        seen = await browser.run(answer, browser.driver)
    assert seen == {
        "message": "No tables for 2 on 2025-12-25. Would you like another date?",
        "default date": "2025-12-26",
        "result": "book_table: [SUCCESS] Booked for 2025-12-28",
    }


# Run before the page's own script: its list of waiting questions, once answered, is held back until a
# question's card is on the page (bounded), as a slow answer to that request would be; ``heldLists``
# counts the lists handed to the page.
HOLD_THE_LIST = """
const nativeFetch = window.fetch;
window.heldLists = 0;
window.fetch = async (...args) => {
  const response = await nativeFetch(...args);
  if (String(args[0]) !== "/api/questions") { return response; }
  const data = await response.json();
  const until = Date.now() + 20000;
  while (!document.querySelector(".question") && Date.now() < until) {
    await new Promise((done) => setTimeout(done, 50));
  }
  window.heldLists += 1;
  return {status: response.status, json: async () => data};
};
"""


@pytest.mark.browser
async def test_a_question_that_arrives_while_the_page_reads_the_list_stays(
    bistro_app: str, browser: Browser
) -> None:
    """The list the page asked for before the question existed comes back after the stream showed the
    question: the card must stay (it was removed as "answered elsewhere", the question still waiting)."""

    def call_book_table(driver: Any) -> None:
        from selenium.webdriver.support.select import Select

        driver.switch_to.new_window("tab")  # the script stays with this tab, closed after the test
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOLD_THE_LIST})
        driver.get(bistro_app)
        wait_for(driver, lambda d: d.find_elements("css selector", "#tool option"))
        Select(driver.find_element("id", "tool")).select_by_visible_text("book_table")
        driver.find_element("css selector", "#call button").click()

    def answer(driver: Any) -> str:
        # The page has read the list that was asked for before the question (after its card showed).
        wait_for(driver, lambda d: d.execute_script("return window.heldLists") >= 1)
        card = wait_for(driver, lambda d: d.find_elements("css selector", ".question"))[0]
        card.find_element("css selector", "input[type=radio][value=true]").click()
        card.find_element("css selector", "button[name=accept]").click()
        return wait_for(
            driver,
            lambda d: [
                li.text for li in d.find_elements("css selector", "#results li") if "SUCCESS" in li.text
            ],
        )[0]

    with anyio.fail_after(BOUND):
        await browser.run(call_book_table, browser.driver)
        result = await browser.run(answer, browser.driver)
    assert result == "book_table: [SUCCESS] Booked for 2025-12-26"


@pytest.mark.browser
async def test_the_page_shows_server_text_as_text(forms_app: str, browser: Browser) -> None:
    schema = {
        "type": "object",
        "properties": {"who": {"type": "string", "title": "<i>Name</i>", "description": "<b>bold</b>"}},
    }

    def ask(driver: Any) -> dict[str, Any]:
        driver.get(forms_app)
        wait_for(driver, lambda d: d.find_elements("css selector", "#tool option"))
        arguments = driver.find_element("id", "arguments")
        arguments.clear()
        arguments.send_keys(json.dumps({"message": HOSTILE_MESSAGE, "schema": schema}))
        driver.find_element("css selector", "#call button").click()
        card = wait_for(driver, lambda d: d.find_elements("css selector", ".question"))[0]
        seen = {
            "title": driver.title,
            "message": card.find_element("css selector", ".message").text,
            "label": card.find_element("css selector", "label").text,
            "help": card.find_element("css selector", ".help").text,
            "injected": card.find_elements("css selector", "b, i, img, script"),
        }
        card.find_element("css selector", "input").send_keys("Ada")
        card.find_element("css selector", "button[name=accept]").click()
        seen["result"] = result_line(driver, "accept")
        return seen

    with anyio.fail_after(BOUND):
        seen = await browser.run(ask, browser.driver)
    assert seen == {
        "title": "MCP questions",
        "message": HOSTILE_MESSAGE,
        "label": "<i>Name</i>",
        "help": "<b>bold</b>",
        "injected": [],
        "result": 'ask: accept {"who": "Ada"}',
    }


def wait_for(driver: Any, condition: Any) -> Any:
    return wait_until(driver, condition)


def call_on_page(driver: Any, app: str, tool: str) -> None:
    """Open the app's page and call ``tool`` (its default arguments) from the page's form."""
    from selenium.webdriver.support.select import Select

    driver.get(app)
    wait_for(driver, lambda d: d.find_elements("css selector", "#tool option"))
    Select(driver.find_element("id", "tool")).select_by_visible_text(tool)
    driver.find_element("css selector", "#call button").click()


def result_line(driver: Any, containing: str) -> str:
    """The first line of the page's results that holds ``containing``, waited for."""
    return wait_for(
        driver,
        lambda d: [li.text for li in d.find_elements("css selector", "#results li") if containing in li.text],
    )[0]


async def test_ctrl_c_with_a_question_pending_cancels_it_and_stops_cleanly(tmp_path: Path) -> None:
    """Ctrl-C used to wait out uvicorn's grace period and print some 60 lines of traceback (issue 26)."""
    from tests.support.servers import free_loopback_port

    port = free_loopback_port()
    app = f"http://127.0.0.1:{port}"
    output = tmp_path / "output.txt"
    process = _start_web_app(port, output)
    try:
        results: list[httpx.Response] = []
        with anyio.fail_after(BOUND):
            async with httpx.AsyncClient(timeout=BOUND) as http:
                while True:  # until the app listens
                    try:
                        await http.get(app + "/api/questions")
                        break
                    except httpx.TransportError:
                        await anyio.sleep(0.1)
                async with anyio.create_task_group() as tg:
                    tg.start_soon(book_table_asking, http, app, results)
                    await first_question(http, app)  # the call now waits on its question
                    process.send_signal(signal.SIGINT)
            code = await anyio.to_thread.run_sync(process.wait)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    text = output.read_text()
    assert code == 0, text
    assert "Traceback" not in text and "ERROR" not in text, text
    assert text.splitlines()[-1] == "web app: stopped"
    assert len(text.splitlines()) <= 3, text
    # the waiting call got "cancel" for its question and ended normally
    assert results[0].json() == {"text": "[CANCELLED] user cancelled", "is_error": False}


def _start_web_app(port: int, output: Path) -> subprocess.Popen[bytes]:
    """The web app with its defaults on ``port``, its stdout and stderr in ``output``."""
    from tests.cli._cli import ROOT

    with output.open("wb") as sink:
        return subprocess.Popen(
            [sys.executable, str(ROOT / WEB_APP), "--port", str(port)], stdout=sink, stderr=subprocess.STDOUT
        )


@pytest.fixture(scope="module")
def approving_app() -> Iterator[str]:
    """The web app with --approve: the broker is the client's approval_callback too (issue 45)."""
    yield from web_app("--approve")


async def test_an_approval_waits_next_to_the_servers_question_and_is_answered_over_the_api(
    approving_app: str,
) -> None:
    results: list[httpx.Response] = []
    with anyio.fail_after(BOUND):
        async with httpx.AsyncClient(timeout=BOUND) as http, anyio.create_task_group() as tg:
            tg.start_soon(book_table_asking, http, approving_app, results)
            approval = await first_question(http, approving_app)
            assert approval["kind"] == "approval" and approval["status"] == "pending"
            assert approval["approval"]["tool"] == "book_table"
            assert approval["approval"]["arguments"] == {"date": "2025-12-25", "party_size": 2}
            assert "does not mark it read-only" in approval["approval"]["reason"]
            where = f"{approving_app}/api/questions/{approval['id']}"
            bad = await http.post(where, json={"decision": "maybe"})
            assert bad.status_code == 400 and "'allow' or 'deny'" in bad.json()["error"]
            assert (await http.post(where, json={"decision": "allow"})).json() == {"ok": True}
            # then the server's own question, in the same list, answered the usual way
            for _ in range(100):
                waiting = (await http.get(approving_app + "/api/questions")).json()
                if waiting:
                    break
                await anyio.sleep(0.1)
            (question,) = waiting
            assert question["kind"] == "question" and question["server_name"] == "bistro"
            content = {"accept_alternative": True, "date": "2025-12-27"}
            answered = await http.post(
                f"{approving_app}/api/questions/{question['id']}",
                json={"action": "accept", "content": content},
            )
            assert answered.json() == {"ok": True}
    assert results[0].json() == {"text": "[SUCCESS] Booked for 2025-12-27", "is_error": False}


async def test_a_denied_approval_is_a_refusal_not_a_server_error(approving_app: str) -> None:
    results: list[httpx.Response] = []
    with anyio.fail_after(BOUND):
        async with httpx.AsyncClient(timeout=BOUND) as http, anyio.create_task_group() as tg:
            tg.start_soon(book_table_asking, http, approving_app, results)
            approval = await first_question(http, approving_app)
            where = f"{approving_app}/api/questions/{approval['id']}"
            await http.post(where, json={"decision": "deny", "note": "not tonight"})
    assert results[0].status_code == 403
    assert results[0].json()["denied"] is True and "not tonight" in results[0].json()["error"]


@pytest.mark.browser
async def test_the_page_shows_the_approval_then_the_question(approving_app: str, browser: Browser) -> None:
    def allow_then_answer(driver: Any) -> dict[str, str]:
        card = wait_for(driver, lambda d: d.find_elements("css selector", ".question.approval"))[0]
        seen = {"approval": card.find_element("css selector", ".message").text}
        seen["asker"] = card.find_element("css selector", ".asker").text
        card.find_element("css selector", "button[name=allow-once]").click()
        question = wait_for(driver, lambda d: d.find_elements("css selector", ".question:not(.approval)"))[0]
        seen["question"] = question.find_element("css selector", ".message").text
        question.find_element("css selector", "input[type=radio][value=true]").click()
        question.find_element("css selector", "button[name=accept]").click()
        seen["result"] = result_line(driver, "SUCCESS")
        return seen

    with anyio.fail_after(BOUND):
        await browser.run(call_on_page, browser.driver, approving_app, "book_table")
        seen = await browser.run(allow_then_answer, browser.driver)
    assert seen == {
        "approval": "This app asks before it runs a tool call",
        "asker": "Server: bistro · tool: book_table",
        "question": "No tables for 2 on 2025-12-25. Would you like another date?",
        "result": "book_table: [SUCCESS] Booked for 2025-12-26",
    }
