"""examples/clients/apps_web_chat.py as a user runs it: a subprocess on loopback, against the official
example ``server-basic-vanillajs`` (npm, over stdio), used over HTTP as its page does.

The chat's page and its API are on ``127.0.0.1``; the view's host page (mounted ``asgi_app``) too, framable
by the chat; the view's sandbox proxy only on ``localhost``. Another ``Host`` is refused.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from tests.support import ext_apps
from tests.support.servers import run_http_server

pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "clients" / "apps_web_chat.py"
BOUND = 60


@pytest.fixture(scope="module")
def chat() -> Iterator[str]:
    command, args = ext_apps.stdio_command("basic-vanillajs")
    server = " ".join([command, *args])
    with run_http_server(
        lambda port: [sys.executable, str(EXAMPLE), server, "--port", str(port)], path=""
    ) as url:
        yield url


def test_the_page_lists_the_tools_with_a_view_and_runs_one_beside_the_chat(chat: str) -> None:
    with httpx2.Client(timeout=BOUND) as http:
        page = http.get(chat + "/")
        assert page.status_code == 200
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert http.get(chat + "/api/tools").json() == ["get-time"]
        answer = http.post(chat + "/api/run", json={"tool": "get-time", "arguments": {}}).json()
        assert answer["is_error"] is False
        assert re.match(r"\d{4}-\d\d-\d\dT", answer["text"])
        assert answer["url"].startswith(chat + "/")
        view = http.get(answer["url"])
        assert view.status_code == 200
        assert f"frame-ancestors {chat}" in view.headers["content-security-policy"]
        port = chat.rsplit(":", 1)[1]
        proxy = re.search(rf'src="(http://localhost:{port}/[^"]+)"', view.text)
        assert proxy is not None
        assert http.get(proxy.group(1)).status_code == 200
        assert http.get(answer["url"], headers={"Host": f"evil.example:{port}"}).status_code == 400
        assert http.get(chat + "/api/messages").json() == []


def test_a_tool_without_a_view_is_an_error_in_the_chat(chat: str) -> None:
    with httpx2.Client(timeout=BOUND) as http:
        answer = http.post(chat + "/api/run", json={"tool": "no-such-tool"}).json()
    assert answer["is_error"] is True
    assert answer["url"] is None
    assert "no tool named 'no-such-tool'" in answer["text"]
