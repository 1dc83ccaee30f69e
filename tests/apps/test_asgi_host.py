"""``ui_adapters.apps.asgi_app``: the MCP Apps host served by a web app's ASGI server (uvicorn, on loopback).

The web app is Starlette with a route of its own and the host mounted at ``/`` after it; the two origins
are two names of the same port (``127.0.0.1`` for the host page, ``localhost`` for the sandbox). The view
is ``get-time`` of the official example ``server-basic-vanillajs`` (npm, over stdio). An HTTP client sends
what the view's page would: the page and the proxy are fetched, the view's ``ui/initialize`` and its
``tools/call`` are posted, and their answers come back on the event stream, all through ASGI.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route

from mcp_client import Client
from tests.support import ext_apps
from ui_adapters.apps import AppHostASGI, asgi_app

pytestmark = pytest.mark.anyio

BOUND = 60  # seconds: generous, for a busy machine


@asynccontextmanager
async def serving(app: Any, *, lifespan: str = "off") -> AsyncIterator[int]:
    """``app`` under uvicorn on a loopback port (in this event loop); yields the port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, lifespan=lifespan, log_level="warning"))
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve, [sock])
        with anyio.fail_after(BOUND):
            while not server.started:  # noqa: ASYNC110  # uvicorn offers no event
                await anyio.sleep(0.02)
        try:
            yield port
        finally:
            server.should_exit = True
    sock.close()


def _host(client: Client, port: int, **options: Any) -> AppHostASGI:
    return asgi_app(
        client, host_origin=f"http://127.0.0.1:{port}", sandbox_origin=f"http://localhost:{port}", **options
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def _answers(http: httpx2.AsyncClient, url: str, wanted: set[int], sent: Any) -> dict[int, Any]:
    """The JSON-RPC answers with ids in ``wanted`` that arrive on the view's event stream at ``url``,
    once ``sent()`` (called when the stream is open) has posted the requests."""
    found: dict[int, Any] = {}
    async with http.stream("GET", url) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"] == "text/event-stream"
        await sent()
        async for line in stream.aiter_lines():
            if line.startswith("data: "):
                message = json.loads(line[len("data: ") :])
                if message.get("id") in wanted:
                    found[message["id"]] = message
                    if set(found) == wanted:
                        return found
    raise AssertionError(f"the stream ended with {found}")


async def test_a_mounted_host_serves_the_view_beside_the_apps_routes_and_answers_it() -> None:
    port = _free_port()
    client = Client(ext_apps.stdio_parameters("basic-vanillajs"), apps=True)
    host = _host(client, port)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with client, host:
            yield

    async def chat(request: Any) -> PlainTextResponse:
        return PlainTextResponse("the chat")

    app = Starlette(routes=[Route("/chat", chat), Mount("/", app=host)], lifespan=lifespan)
    sock_port = port
    with anyio.fail_after(BOUND):
        async with _serving_on(app, sock_port), httpx2.AsyncClient(timeout=BOUND) as http:
            view = await host.show("get-time", {})
            assert view.url.startswith(f"http://127.0.0.1:{port}/")
            assert (await http.get(f"http://127.0.0.1:{port}/chat")).text == "the chat"

            page = await http.get(view.url)
            assert page.status_code == 200
            policy = page.headers["content-security-policy"]
            assert f"frame-ancestors http://127.0.0.1:{port}" in policy  # the web app's page may frame it
            assert f"frame-src http://localhost:{port}" in policy
            assert "x-frame-options" not in page.headers
            config = json.loads(re.search(r'id="config"[^>]*>(.*?)</script>', page.text, re.S).group(1))  # type: ignore[union-attr]

            proxy_url = re.search(r'src="(http://localhost:\d+/[^"]+)"', page.text).group(1)  # type: ignore[union-attr]
            proxy = await http.get(proxy_url)
            assert proxy.status_code == 200
            assert "connect-src 'none'" in proxy.headers["content-security-policy"]  # nothing declared
            assert (await http.get(proxy_url.replace("localhost", "127.0.0.1"))).status_code == 404
            rebound = await http.get(view.url, headers={"Host": "evil.example"})
            assert rebound.status_code == 421

            messages = [
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "ui/initialize",
                    "params": {
                        "protocolVersion": "2026-01-26",
                        "appInfo": {"name": "test view", "version": "1"},
                        "appCapabilities": {},
                    },
                },
                {"jsonrpc": "2.0", "method": "ui/notifications/initialized", "params": {}},
                {
                    "jsonrpc": "2.0",
                    "id": 2,
                    "method": "tools/call",
                    "params": {"name": "get-time", "arguments": {}},
                },
            ]

            async def post() -> None:
                posted = await http.post(
                    view.url + "/messages",
                    json={"csrf": config["csrf"], "messages": messages},
                    headers={"Origin": f"http://127.0.0.1:{port}"},
                )
                assert posted.status_code == 200, posted.text

            answers = await _answers(http, view.url + "/events", {1, 2}, post)
            assert answers[1]["result"]["hostContext"]["theme"] == "light"
            [block] = answers[2]["result"]["content"]
            assert re.match(r"\d{4}-\d\d-\d\dT", block["text"])

            foreign = await http.post(
                view.url + "/messages",
                json={"csrf": config["csrf"], "messages": messages[:1]},
                headers={"Origin": "http://evil.example"},
            )
            assert foreign.status_code == 403
    assert view.closed  # leaving the host closed its views


@asynccontextmanager
async def _serving_on(app: Any, port: int) -> AsyncIterator[None]:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(app, lifespan="on", log_level="warning"))
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve, [sock])
        while not server.started:  # noqa: ASYNC110  # uvicorn offers no event
            await anyio.sleep(0.02)
        try:
            yield
        finally:
            server.should_exit = True
    sock.close()


async def test_as_the_root_app_it_enters_on_start_up_and_closes_its_views_on_shut_down() -> None:
    with anyio.fail_after(BOUND):
        async with Client(ext_apps.stdio_parameters("basic-vanillajs"), apps=True) as client:
            port = _free_port()
            host = _host(client, port)
            async with _serving_on(host, port), httpx2.AsyncClient(timeout=BOUND) as http:
                view = await host.show("get-time", {})
                assert (await http.get(view.url)).status_code == 200
            assert view.closed


async def test_before_it_is_entered_it_says_how_to_start_it() -> None:
    with anyio.fail_after(BOUND):
        async with Client(ext_apps.stdio_parameters("basic-vanillajs"), apps=True) as client:
            host = _host(client, 8000)
            async with serving(host) as port, httpx2.AsyncClient(timeout=BOUND) as http:
                answer = await http.get(f"http://127.0.0.1:{port}/anything")
    assert answer.status_code == 503
    assert (
        answer.text == "The MCP Apps host is not started: enter it in the app's lifespan (async with host)."
    )


@pytest.mark.parametrize(
    ("host_origin", "sandbox_origin", "error"),
    [
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000", "need two different origins"),
        ("http://127.0.0.1:8000", "https://localhost:8000", "the same scheme"),
        ("http://127.0.0.1:8000/apps", "http://localhost:8000", "host_origin must be an origin such as"),
        ("127.0.0.1:8000", "http://localhost:8000", "host_origin must be an origin such as"),
        ("http://127.0.0.1:8000", "http://user@localhost:8000", "without credentials"),
    ],
)
def test_origins_that_are_not_two_origins_are_refused(
    host_origin: str, sandbox_origin: str, error: str
) -> None:
    client = Client("http://127.0.0.1:1/mcp")  # never connected
    with pytest.raises(ValueError, match=re.escape(error)):
        asgi_app(client, host_origin=host_origin, sandbox_origin=sandbox_origin)


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=BOUND)


def test_starlette_is_loaded_on_first_use_and_named_when_missing() -> None:
    lazy = _python("import sys, ui_adapters.apps; print('starlette' in sys.modules)")
    assert lazy.stdout.strip() == "False", lazy.stderr
    missing = _python(
        "import sys; sys.modules['starlette'] = None\n"
        "from mcp_client import Client\n"
        "from ui_adapters.apps import asgi_app\n"
        "try:\n"
        "    asgi_app(Client('http://127.0.0.1:9/mcp'), host_origin='http://127.0.0.1:8000',"
        " sandbox_origin='http://localhost:8000')\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    assert missing.stdout.strip() == (
        "ui_adapters.apps.asgi_app needs Starlette, which is not installed: "
        "pip install 'mcp-elicit-client[apps-web]'"
    ), missing.stderr
