"""A tool's view offered at the terminal (``TerminalAppOffer``), in a real terminal (a pty, pyte screen).

``app_offer_script.py`` runs a model's call of a tool with a view through ``ToolBridge(on_app=offer)``
against ``app_tools_server.py``; the screen shows the tool's text, the view's link with its real host,
and the link consent's question; the browser (a recorder) is opened only after a yes, and the model
reads the text whatever the person answers.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.screen import Screen, screen

SCRIPT = Path(__file__).with_name("app_offer_script.py")
URL = "http://127.0.0.1:8765/view/Zk3q/"
QUESTION = r"Open its view in your browser\? \[y/N\]"

pytestmark = pytest.mark.slow


def _offered(term: Screen) -> None:
    term.wait_for(QUESTION)
    text = term.text
    assert "forecast has a view of its result" in text
    assert "Sunny in Oslo, 21 C" in text
    assert f"Link: {URL}" in text
    assert "Site:  127.0.0.1" in term.lines
    assert "y open it · Enter/n/Ctrl-N do not · Esc/Ctrl-C cancel" in text
    assert "BROWSER OPENED" not in term.output  # nothing opened before the answer


def test_yes_opens_the_view_in_the_browser_and_the_model_reads_the_text() -> None:
    with screen([str(SCRIPT)]) as term:
        _offered(term)
        term.send("y\r")
        term.wait_for("MODEL READS: Sunny in Oslo, 21 C")
        assert f"BROWSER OPENED {URL}" in term.text
        assert "Opened in your browser." in term.text
        assert "VIEW CLOSED" not in term.text
        assert term.wait_exit() == 0


@pytest.mark.parametrize("keys", ["\r", "n\r", "\x0e"], ids=["enter", "n", "ctrl-n"])
def test_no_never_opens_it_and_closes_the_view(keys: str) -> None:
    with screen([str(SCRIPT)]) as term:
        _offered(term)
        term.send(keys)
        term.wait_for("MODEL READS: Sunny in Oslo, 21 C")
        assert "Not opened." in term.text
        assert "VIEW CLOSED" in term.text
        assert "BROWSER OPENED" not in term.output
        assert term.wait_exit() == 0


def test_escape_cancels_the_offer_not_the_call() -> None:
    with screen([str(SCRIPT)]) as term:
        _offered(term)
        term.send("\x1b")
        term.wait_for("MODEL READS: Sunny in Oslo, 21 C")
        assert "Cancelled." in term.text
        assert "VIEW CLOSED" in term.text
        assert "BROWSER OPENED" not in term.output


def test_an_error_result_is_offered_too() -> None:
    with screen([str(SCRIPT), "--tool", "storm"]) as term:
        term.wait_for(QUESTION)
        assert "No forecast for Oslo" in term.text
        term.send("\r")
        term.wait_for("MODEL READS: No forecast for Oslo")


def test_a_view_that_cannot_be_made_ready_is_said_and_nothing_is_asked() -> None:
    with screen([str(SCRIPT), "--view-fails"]) as term:
        term.wait_for("MODEL READS: Sunny in Oslo, 21 C")
        assert "Sunny in Oslo, 21 C" in term.text
        assert "✗ The view could not be made ready: the host is closed" in term.text
        assert "[y/N]" not in term.text
        assert "BROWSER OPENED" not in term.output


def test_with_a_real_browser_host_the_page_is_served_and_opened_on_yes() -> None:
    with screen([str(SCRIPT), "--host"]) as term:
        term.wait_for(QUESTION)
        assert "Sunny in Oslo, 21 C" in term.text
        site = [line for line in term.lines if line.startswith("Site:")]
        assert site == ["Site:  127.0.0.1"]
        assert "BROWSER OPENED" not in term.output
        term.send("y\r")
        term.wait_for("MODEL READS: Sunny in Oslo, 21 C")
        assert re.search(r"BROWSER OPENED http://127\.0\.0\.1:\d+/\S+ HTTP 200", term.text)
        assert "OPEN VIEWS: 1" in term.text


def test_with_a_real_browser_host_no_closes_the_view() -> None:
    with screen([str(SCRIPT), "--host"]) as term:
        term.wait_for(QUESTION)
        term.send("n\r")
        term.wait_for("MODEL READS: Sunny in Oslo, 21 C")
        assert "OPEN VIEWS: 0" in term.text
        assert "BROWSER OPENED" not in term.output
