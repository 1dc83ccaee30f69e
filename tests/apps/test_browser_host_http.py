"""BrowserAppHost's HTTP seen from the wire: the two origins, what each refuses, the view's policy, the
sandbox handshake and the flood limit, with no browser and no bridge.

The routes (``AppSite``) run on their real loopback listeners; a view channel is answered by a handler
the test controls. An HTTP client sends what a page, a DNS-rebinding page or a flooding view would, and
the tests check the status, the headers and what comes back on the view's event stream.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx
import pytest

from ui_adapters.apps._channel import MAX_PENDING, MAX_RUNNING, ViewChannel
from ui_adapters.apps._csp import ViewPolicy, allow_attribute, view_csp
from ui_adapters.apps._server import listen_loopback, serve_forever
from ui_adapters.apps._site import AppSite

pytestmark = pytest.mark.anyio

BOUND = 30
HTML = "<!doctype html><title>view</title><p>the view</p>"
Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any] | None]]


async def echo(message: dict[str, Any]) -> dict[str, Any] | None:
    if "id" not in message:
        return None
    return {"jsonrpc": "2.0", "id": message["id"], "result": {"echo": message.get("method")}}


class Served:
    def __init__(self, site: AppSite, tg: Any) -> None:
        self.site = site
        self.tg = tg

    def view(self, handler: Handler = echo, *, csp: Any = None, permissions: Any = None) -> ViewChannel:
        policy = ViewPolicy.of(csp)
        channel = ViewChannel(
            title="get-time",
            server="example",
            html=HTML,
            csp=None,
            permissions=None,
            proxy_csp=view_csp(policy, frame_ancestors=(self.site.host_origin, self.site.sandbox_origin)),
            allow=allow_attribute(permissions),
            border=False,
            theme="light",
        )
        self.site.add(channel)
        self.tg.start_soon(channel.serve, handler)
        return channel

    def post(self, channel: ViewChannel, messages: list[dict[str, Any]], **overrides: Any) -> dict[str, Any]:
        body = {"csrf": channel.csrf, "messages": messages}
        kwargs: dict[str, Any] = {
            "content": json.dumps(body),
            "headers": {"Content-Type": "application/json", "Origin": self.site.host_origin},
        }
        kwargs.update(overrides)
        return kwargs


@asynccontextmanager
async def served() -> AsyncIterator[Served]:
    host, sandbox = listen_loopback(), listen_loopback()
    site = AppSite(
        host_authority=f"127.0.0.1:{host.getsockname()[1]}",
        sandbox_authority=f"127.0.0.1:{sandbox.getsockname()[1]}",
    )
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(serve_forever, site, host, tg)
            tg.start_soon(serve_forever, site, sandbox, tg)
            yield Served(site, tg)
            tg.cancel_scope.cancel()
    finally:
        host.close()
        sandbox.close()


async def events(http: httpx.AsyncClient, url: str, count: int) -> list[tuple[str, str]]:
    """The first ``count`` events (name, data) of the event stream at ``url``."""
    found: list[tuple[str, str]] = []
    name = "message"
    with anyio.fail_after(BOUND):
        async with http.stream("GET", url) as response:
            assert response.status_code == 200
            assert response.headers["content-type"] == "text/event-stream"
            async for line in response.aiter_lines():
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    found.append((name, line[6:]))
                    name = "message"
                    if len(found) == count:
                        break
    return found


async def test_two_origins_and_the_host_header() -> None:
    async with served() as s, httpx.AsyncClient(timeout=BOUND) as http:
        view = s.view()
        site = s.site
        assert site.host_origin != site.sandbox_origin
        page = await http.get(site.page_url(view))
        assert page.status_code == 200
        csp = page.headers["content-security-policy"]
        assert f"frame-src {site.sandbox_origin};" in csp
        assert "script-src 'nonce-" in csp and "frame-ancestors 'none'" in csp
        assert page.headers["x-frame-options"] == "DENY"
        assert f'src="{site.proxy_url(view)}" sandbox="allow-scripts allow-same-origin"' in page.text

        # A DNS-rebinding page reaches the same socket under another name: refused.
        for url in (site.page_url(view), site.proxy_url(view)):
            rebound = await http.get(url, headers={"Host": "evil.example:80"})
            assert rebound.status_code == 421
            assert "the view" not in rebound.text
        # Each origin serves only its own documents, under its own unguessable path.
        assert (await http.get(site.host_origin + "/" + view.sandbox_token)).status_code == 404
        assert (await http.get(site.sandbox_origin + "/" + view.token)).status_code == 404
        assert (await http.get(site.host_origin + "/")).status_code == 404
        assert (await http.get(site.page_url(view) + "x")).status_code == 404


async def test_the_proxy_gets_the_restrictive_default_policy_when_nothing_is_declared() -> None:
    async with served() as s, httpx.AsyncClient(timeout=BOUND) as http:
        view = s.view()
        proxy = await http.get(s.site.proxy_url(view))
        assert proxy.status_code == 200
        csp = proxy.headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["default-src"] == "'none'"
        assert directives["connect-src"] == "'none'"
        assert directives["frame-src"] == "'none'"
        assert directives["script-src"] == "'self' 'unsafe-inline'"
        assert directives["frame-ancestors"] == f"{s.site.host_origin} {s.site.sandbox_origin}"
        assert "x-frame-options" not in proxy.headers
        assert '"sandbox":"allow-scripts"' in proxy.text
        assert '"allow":""' in proxy.text


def test_a_declared_policy_is_used_and_never_loosened() -> None:
    csp = {
        "connectDomains": [
            "https://api.example.com",
            "*",
            "'unsafe-eval'",
            "https://a.example; script-src *",
            "https://b.example 'unsafe-inline'",
            "https://c.example,https://d.example",
            "data:",
            "wss://live.example.com:8443",
        ],
        "resourceDomains": ["https://*.cdn.example", "'self'", "javascript:alert(1)"],
        "frameDomains": ["https://maps.example/embed/"],
        "baseUriDomains": "https://not-a-list.example",
    }
    policy = ViewPolicy.of(csp)
    assert policy.connect == ["https://api.example.com", "wss://live.example.com:8443"]
    assert policy.resource == ["https://*.cdn.example"]
    assert policy.frame == ["https://maps.example/embed/"]
    assert policy.base_uri == []
    header = view_csp(policy, frame_ancestors=("http://127.0.0.1:1",))
    directives = dict(d.strip().split(" ", 1) for d in header.split(";"))
    assert directives["connect-src"] == "https://api.example.com wss://live.example.com:8443"
    assert directives["script-src"] == "'self' 'unsafe-inline' https://*.cdn.example"
    assert directives["img-src"] == "'self' data: https://*.cdn.example"
    assert directives["frame-src"] == "https://maps.example/embed/"
    assert "'unsafe-eval'" not in header and "*;" not in header and "javascript:" not in header
    assert header.count(";") == len(directives) - 1  # no directive smuggled in


def test_allow_comes_from_the_declared_permissions_only() -> None:
    assert allow_attribute(None) == ""
    assert allow_attribute({}) == ""
    assert allow_attribute({"camera": {}, "clipboardWrite": {}, "usb": {}, "microphone": None}) == (
        "camera; clipboard-write"
    )


async def test_messages_only_from_the_page_with_its_token() -> None:
    async with served() as s, httpx.AsyncClient(timeout=BOUND) as http:
        view = s.view()
        url = s.site.page_url(view) + "/messages"
        hello = [{"jsonrpc": "2.0", "id": 1, "method": "ping"}]
        no_origin = s.post(view, hello)
        no_origin["headers"] = {"Content-Type": "application/json"}
        assert (await http.post(url, **no_origin)).status_code == 403
        other = s.post(view, hello)
        other["headers"] = {"Content-Type": "application/json", "Origin": s.site.sandbox_origin}
        assert (await http.post(url, **other)).status_code == 403
        stale = s.post(view, hello, content=json.dumps({"csrf": "nope", "messages": hello}))
        assert (await http.post(url, **stale)).status_code == 403
        form = s.post(view, hello)
        form["headers"] = {"Content-Type": "text/plain", "Origin": s.site.host_origin}
        assert (await http.post(url, **form)).status_code == 415
        assert (await http.get(url)).status_code == 405
        # None of them reached the view's handler: the next answer is to the good post.
        good = await http.post(url, **s.post(view, [{"jsonrpc": "2.0", "id": 7, "method": "ping"}]))
        assert good.status_code == 200 and good.json() == {"queued": 1}
        [(_, data)] = await events(http, s.site.page_url(view) + "/events", 1)
        assert json.loads(data) == {"jsonrpc": "2.0", "id": 7, "result": {"echo": "ping"}}


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_the_sandbox_handshake_sends_the_html() -> None:
    async with served() as s, httpx.AsyncClient(timeout=BOUND) as http:
        view = s.view()
        ready = {"jsonrpc": "2.0", "method": "ui/notifications/sandbox-proxy-ready", "params": {}}
        response = await http.post(s.site.page_url(view) + "/messages", **s.post(view, [ready]))
        assert response.status_code == 200
        [(_, data)] = await events(http, s.site.page_url(view) + "/events", 1)
        assert json.loads(data) == {
            "jsonrpc": "2.0",
            "method": "ui/notifications/sandbox-resource-ready",
            "params": {"html": HTML},
        }


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_a_flooding_view_is_told_and_stalls_nobody() -> None:
    release = anyio.Event()

    async def stuck(message: dict[str, Any]) -> dict[str, Any] | None:
        await release.wait()
        return await echo(message)

    async with served() as s, httpx.AsyncClient(timeout=BOUND) as http:
        flood = s.view(stuck)
        calm = s.view()
        sent = 4 * 64
        batch = [{"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {}} for n in range(sent)]
        with anyio.fail_after(BOUND):
            response = await http.post(s.site.page_url(flood) + "/messages", **s.post(flood, batch))
        assert response.status_code == 200
        queued = response.json()["queued"]
        assert MAX_PENDING <= queued <= MAX_PENDING + MAX_RUNNING + 1
        refused = await events(http, s.site.page_url(flood) + "/events", sent - queued)
        errors = [json.loads(data) for _, data in refused]
        assert {e["id"] for e in errors} == set(range(queued, sent))
        assert all(e["error"]["code"] == -32000 for e in errors)
        told = errors[0]["error"]["message"]
        assert told.startswith(f"Too many messages: {MAX_PENDING} are already waiting")
        assert flood.refused == sent - queued

        # Meanwhile another view of the same host is answered at once.
        ping = [{"jsonrpc": "2.0", "id": "a", "method": "ping"}]
        await http.post(s.site.page_url(calm) + "/messages", **s.post(calm, ping))
        [(_, data)] = await events(http, s.site.page_url(calm) + "/events", 1)
        assert json.loads(data)["id"] == "a"

        # Once the host catches up, the flood's queued requests are all answered.
        release.set()
        answered = await events(http, s.site.page_url(flood) + "/events", queued)
        assert sorted(json.loads(data)["id"] for _, data in answered) == list(range(queued))


async def test_a_closed_view_tells_its_page() -> None:
    async with served() as s, httpx.AsyncClient(timeout=BOUND) as http:
        view = s.view()

        async def close_soon() -> None:
            await view.page_seen.wait()
            view.close("The view of get-time is closed.")

        s.tg.start_soon(close_soon)
        assert await events(http, s.site.page_url(view) + "/events", 1) == [
            ("closed", "The view of get-time is closed.")
        ]
        page = await http.get(s.site.page_url(view))
        assert "The view of get-time is closed." in page.text and "<iframe" not in page.text
