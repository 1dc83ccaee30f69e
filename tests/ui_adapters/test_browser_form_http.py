"""BrowserFormAdapter's page server seen from the wire: what it refuses, what it sends, how long it lives.

No browser here: an HTTP client sends exactly the requests an attacker (a DNS-rebinding page, a
cross-site form, a local script) would, and the tests check the status, the headers and that the
question stays open. The adapter is called the way the client calls it, with a question built from
a real schema.
"""

from __future__ import annotations

import re
import socket
from typing import Any
from urllib.parse import urlsplit

import anyio
import httpx
import pytest

from mcp_client import ClientRequestContext
from mcp_client.types import ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult
from tests.ui_adapters._page_helpers import BOUND, OpenedPage
from ui_adapters import BrowserFormAdapter

pytestmark = pytest.mark.anyio

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 2},
        "guests": {"type": "integer", "title": "Guests", "minimum": 1, "maximum": 12},
    },
    "required": ["name"],
}
CONTEXT = ClientRequestContext(
    server="http://127.0.0.1:9/mcp", server_info=None, protocol_version="2025-11-25", era="legacy"
)


class Asked(OpenedPage[ElicitResult]):
    """Runs the adapter on one question in the background; ``url`` is the page it opened."""

    def __init__(self, adapter_kwargs: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.adapter = BrowserFormAdapter(open_browser=self.open, **(adapter_kwargs or {"timeout": BOUND}))

    async def run(self, schema: dict[str, Any] = SCHEMA, message: str = "Who is coming?") -> None:
        params = ElicitRequestFormParams(message=message, requested_schema=schema)
        await self.settle(self.adapter(CONTEXT, params))


async def test_a_wrong_host_header_is_refused_on_every_route() -> None:
    """DNS rebinding: a page on evil.example whose name resolves to 127.0.0.1 sends its own Host."""
    asked = Asked()
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run)
        _, csrf = await asked.page(http)
        port = urlsplit(asked.url).port
        for host in (
            f"evil.example:{port}",
            f"localhost:{port}",
            "127.0.0.1",
            f"127.0.0.1:{port}.evil.example",
        ):
            headers = {"Host": host}
            for method, path in (("GET", ""), ("GET", "/events"), ("POST", ""), ("GET", "/../nothing")):
                response = await http.request(
                    method,
                    asked.url + path,
                    headers=headers,
                    data={"csrf": csrf, "action": "accept", "field-0": "Ada"} if method == "POST" else None,
                )
                assert response.status_code == 421, (host, method, path)
                assert "only served as" in response.text
        assert not asked.done.is_set()
        response = await http.post(
            asked.url,
            data={"csrf": csrf, "action": "accept", "field-0": "Ada"},
            headers={"Origin": asked.origin},
        )
        assert response.status_code == 200
    assert await asked.outcome() == ElicitResult(action="accept", content={"name": "Ada"})


async def test_only_the_token_path_is_served() -> None:
    asked = Asked()
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run)
        await asked.page(http)
        token = urlsplit(asked.url).path.strip("/")
        assert len(token) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", token)
        for path in ("/", "/favicon.ico", "/" + token[:-1], "/" + token + "x", "/" + token + "/", "/events"):
            response = await http.get(asked.origin + path)
            assert response.status_code == 404, path
        assert (await http.put(asked.url)).status_code == 405
        tg.cancel_scope.cancel()


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_the_answer_needs_the_csrf_token_and_this_origin() -> None:
    asked = Asked()
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run)
        _, csrf = await asked.page(http)
        answer = {"action": "accept", "field-0": "Mallory"}
        refused = [
            await http.post(asked.url, data=answer),  # no token
            await http.post(asked.url, data={**answer, "csrf": csrf[:-2] + "xx"}),
            await http.post(
                asked.url, data={**answer, "csrf": csrf}, headers={"Origin": "https://evil.example"}
            ),
            await http.post(asked.url, data={**answer, "csrf": csrf}, headers={"Origin": "null"}),
            await http.post(asked.url, json={**answer, "csrf": csrf}),  # not a form post
        ]
        assert [r.status_code for r in refused] == [403, 403, 403, 403, 400]
        assert "out of date" in refused[0].text
        assert not asked.done.is_set()
        ok = await http.post(asked.url, data={**answer, "csrf": csrf}, headers={"Origin": asked.origin})
        assert ok.status_code == 200
    assert await asked.outcome() == ElicitResult(action="accept", content={"name": "Mallory"})


async def test_the_page_has_a_strict_content_security_policy_and_loads_nothing_from_elsewhere() -> None:
    asked = Asked()
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run)
        page, _ = await asked.page(http)
        tg.cancel_scope.cancel()
    policy = page.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    nonce = re.fullmatch(r"'nonce-([A-Za-z0-9_-]{20,})'", directives["script-src"])
    assert nonce is not None
    assert directives["default-src"] == "'none'"
    assert directives["style-src"] == f"'nonce-{nonce.group(1)}'"
    assert directives["connect-src"] == directives["form-action"] == "'self'"
    assert directives["base-uri"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy and "http" not in policy
    scripts = re.findall(r"<script\s([^>]*)>", page.text)
    assert scripts == ['type="application/json" id="closed-texts"', f'nonce="{nonce.group(1)}"']
    assert re.findall(r"<style\s([^>]*)>", page.text) == [f'nonce="{nonce.group(1)}"']
    assert not re.search(r"\s(src|href)=", page.text)  # no external (or any) resources
    assert not re.search(r"<[^>]*\s(style|on[a-z]+)=", page.text)  # no inline styles or event handlers
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["cache-control"] == "no-store"
    assert page.headers["referrer-policy"] == "same-origin"
    # A fresh nonce for every response.
    assert nonce.group(1) not in (await _second_page_policy())


async def _second_page_policy() -> str:
    asked = Asked()
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run)
        page, _ = await asked.page(http)
        tg.cancel_scope.cancel()
    return page.headers["content-security-policy"]


async def test_malformed_and_oversized_requests_get_an_error_not_a_crash() -> None:
    asked = Asked()
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run)
        _, csrf = await asked.page(http)
        parts = urlsplit(asked.url)
        assert parts.hostname == "127.0.0.1" and parts.port is not None
        host = f"127.0.0.1:{parts.port}"

        async def raw(data: bytes) -> bytes:
            stream = await anyio.connect_tcp("127.0.0.1", parts.port or 0)
            async with stream:
                await stream.send(data)
                chunks = []
                with anyio.fail_after(BOUND):
                    try:
                        while True:
                            chunks.append(await stream.receive())
                    except anyio.EndOfStream:
                        pass
            return b"".join(chunks)

        assert (await raw(b"NONSENSE\r\n\r\n")).startswith(b"HTTP/1.1 400")
        assert (await raw(b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")).startswith(b"HTTP/1.1 400")
        big = f"POST {parts.path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 99999999\r\n\r\n".encode()
        assert (await raw(big)).startswith(b"HTTP/1.1 413")
        chunked = f"POST {parts.path} HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        assert (await raw(chunked.encode())).startswith(b"HTTP/1.1 411")
        huge_head = b"GET / HTTP/1.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n"
        assert (await raw(huge_head)).startswith(b"HTTP/1.1 431")
        assert not asked.done.is_set()
        ok = await http.post(
            asked.url, data={"csrf": csrf, "action": "decline"}, headers={"Origin": asked.origin}
        )
        assert ok.status_code == 200
    assert await asked.outcome() == ElicitResult(action="decline")


async def test_the_server_lives_only_as_long_as_the_question() -> None:
    asked = Asked()
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run)
        _, csrf = await asked.page(http)
        await http.post(asked.url, data={"csrf": csrf, "action": "cancel"}, headers={"Origin": asked.origin})
        assert await asked.outcome() == ElicitResult(action="cancel")
    port = urlsplit(asked.url).port
    assert port is not None
    with socket.socket() as sock, pytest.raises(ConnectionRefusedError):
        sock.connect(("127.0.0.1", port))

    second = Asked()
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(second.run)
        await second.page(http)
        tg.cancel_scope.cancel()
    assert urlsplit(second.url).path != urlsplit(asked.url).path  # a fresh token per question


async def test_our_side_refuses_what_the_form_refuses() -> None:
    asked = Asked()
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run)
        _, csrf = await asked.page(http)
        post = {"csrf": csrf, "action": "accept"}
        bad = await http.post(
            asked.url, data={**post, "field-0": "A", "field-1": "2.5"}, headers={"Origin": asked.origin}
        )
        assert bad.status_code == 422
        assert re.search(r'id="error-0"[^>]*>Must be at least 2 characters<', bad.text)
        assert re.search(r'id="error-1"[^>]*>Must be a whole number, not 2.5<', bad.text)
        assert 'value="A"' in bad.text  # what the person typed is kept
        missing = await http.post(asked.url, data={**post, "field-1": "3"}, headers={"Origin": asked.origin})
        assert missing.status_code == 422 and "Is required" in missing.text
        twice = await http.post(
            asked.url, data={**post, "field-0": ["Ada", "Bob"]}, headers={"Origin": asked.origin}
        )
        assert twice.status_code == 422 and "Was sent more than once" in twice.text
        assert not asked.done.is_set()
        good = await http.post(
            asked.url,
            data={**post, "field-0": "Ada", "field-1": "3.0", "field-7": "x"},
            headers={"Origin": asked.origin},
        )
        assert good.status_code == 200
    assert await asked.outcome() == ElicitResult(action="accept", content={"name": "Ada", "guests": 3})


async def test_the_default_opener_prints_the_link_when_no_browser_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    opened: list[str] = []

    def no_browser(url: str) -> bool:
        opened.append(url)
        return False

    monkeypatch.setattr("webbrowser.open", no_browser)
    adapter = BrowserFormAdapter(timeout=1)
    params = ElicitRequestFormParams(message="Who?", requested_schema=SCHEMA)
    with anyio.fail_after(BOUND):
        result = await adapter(CONTEXT, params)
    assert result == ElicitResult(action="cancel")  # nobody answered within the timeout
    (url,) = opened
    assert capsys.readouterr().err == (
        f"Open this page to answer the question from http://127.0.0.1:9/mcp: {url}\n"
    )


async def test_url_questions_are_declined_and_only_loopback_is_served() -> None:
    adapter = BrowserFormAdapter(open_browser=lambda url: None)
    assert adapter.elicitation_modes == frozenset({"form"})
    url_question = ElicitRequestURLParams(message="Pay", url="https://pay.example.com", elicitation_id="p1")
    assert await adapter(CONTEXT, url_question) == ElicitResult(action="decline")
    for host in ("0.0.0.0", "192.168.1.10", "example.com", "::", ""):
        with pytest.raises(ValueError, match="loopback only"):
            BrowserFormAdapter(host=host)
    with pytest.raises(ValueError, match="timeout"):
        BrowserFormAdapter(timeout=0)


async def test_terminal_and_bidi_controls_never_reach_the_page() -> None:
    asked = Asked()
    schema = {"type": "object", "properties": {"x": {"type": "string", "title": "Na\u202eme\x1b[31m"}}}
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run, schema, "Pay \u202e\u2066moc.evil\u2069 now\x1b]0;title\x07!")
        page, _ = await asked.page(http)
        tg.cancel_scope.cancel()
    assert '<p class="message" id="message">Pay moc.evil now!</p>' in page.text
    assert '<label for="field-0">Name</label>' in page.text
    assert not re.search("[\u202a-\u202e\u2066-\u2069\x00-\x08\x1b]", page.text)
