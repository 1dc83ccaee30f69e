"""browser_approval()'s page server seen from the wire (issue 45): what it refuses, and that a refused
post never approves the call.

No browser: an HTTP client sends what a DNS-rebinding page, a cross-site form or a local script would
send. A wrong ``Host``, a missing or wrong CSRF token, a foreign ``Origin`` or a post that is not a
form are refused, and the approval stays open; the page's own post decides it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import anyio
import httpx
import pytest

from mcp_client import ApprovalResult
from tests.ui_adapters._approval_helpers import CONTEXT, DELETE, hostile
from tests.ui_adapters._page_helpers import BOUND, OpenedPage
from ui_adapters import browser_approval

pytestmark = pytest.mark.anyio


class Asked(OpenedPage[ApprovalResult]):
    """Runs the callback on one approval in the background; ``url`` is the page it opened."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__()
        options: dict[str, object] = {"timeout": BOUND, **kwargs}
        self.approve = browser_approval(open_browser=self.open, **options)  # type: ignore[arg-type]

    async def run(self, request: object = DELETE) -> None:
        await self.settle(self.approve(CONTEXT, request))  # type: ignore[arg-type]


async def test_a_bad_csrf_token_or_a_foreign_origin_is_refused_and_the_call_is_not_approved() -> None:
    asked = Asked()
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run)
        _, csrf = await asked.page(http)
        allow = {"choice": "always"}
        refused = [
            await http.post(asked.url, data=allow),  # no token
            await http.post(asked.url, data={**allow, "csrf": csrf[:-2] + "xx"}),
            await http.post(
                asked.url, data={**allow, "csrf": csrf}, headers={"Origin": "https://evil.example"}
            ),
            await http.post(asked.url, data={**allow, "csrf": csrf}, headers={"Origin": "null"}),
            await http.post(asked.url, json={**allow, "csrf": csrf}),  # not a form post
            await http.post(asked.url, data={"choice": "yes-please", "csrf": csrf}),  # no such button
        ]
        assert [r.status_code for r in refused] == [403, 403, 403, 403, 400, 400]
        assert "out of date" in refused[0].text
        await anyio.sleep(0.2)
        assert not asked.done.is_set()  # nothing decided: the call still waits
        ok = await http.post(
            asked.url,
            data={"choice": "deny", "note": "not /srv", "csrf": csrf},
            headers={"Origin": asked.origin},
        )
        assert ok.status_code == 200 and "Denied" in ok.text
    assert await asked.outcome() == ApprovalResult(decision="deny", note="not /srv")


async def test_a_wrong_host_header_is_refused_on_every_route() -> None:
    """DNS rebinding: a page on evil.example whose name resolves to 127.0.0.1 sends its own Host."""
    asked = Asked()
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run)
        _, csrf = await asked.page(http)
        port = urlsplit(asked.url).port
        for host in (f"evil.example:{port}", f"localhost:{port}", "127.0.0.1"):
            for method, path in (("GET", ""), ("GET", "/events"), ("POST", "")):
                response = await http.request(
                    method,
                    asked.url + path,
                    headers={"Host": host},
                    data={"csrf": csrf, "choice": "once"} if method == "POST" else None,
                )
                assert response.status_code == 421, (host, method, path)
        assert not asked.done.is_set()
        ok = await http.post(
            asked.url, data={"csrf": csrf, "choice": "session"}, headers={"Origin": asked.origin}
        )
        assert ok.status_code == 200
    assert await asked.outcome() == ApprovalResult(decision="allow", remember="session")


async def test_the_page_says_the_app_asks_and_shows_server_text_as_escaped_quoted_data() -> None:
    asked = Asked()
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run, hostile())
        page, _ = await asked.page(http)
        tg.cancel_scope.cancel()
    text = page.text
    policy = page.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert "This app asks before it runs a tool call (the app asks you, not the server)." in text
    for piece in ("\x1b", "\x07", "\x9b", "\u202e", "\u202c"):
        assert piece not in text  # no control or bidi character reaches the page
    assert "[bold]loud[/bold]" in text  # markup is shown as the characters it is
    # the server's title: in quotes, in a cell under a label that says whose words they are
    assert '<th scope="row">The server titles it</th><td>“Harmless This app says' in text
    assert "TAIL-OF-THE-BIG-ARGUMENT" not in text  # a long argument is folded
    assert "(10024 characters)" in text
    assert 'id="allow-once" autofocus' not in text  # a risky call: no button pre-chosen


async def test_a_closed_tab_or_the_timeout_denies() -> None:
    asked = Asked(timeout=0.5)
    async with anyio.create_task_group() as tg:
        tg.start_soon(asked.run)
    # Nobody decided: asked=False, so the refusal does not say the user refused it.
    assert await asked.outcome() == ApprovalResult(
        decision="deny", note="nobody answered within 0.5s", asked=False
    )


def test_only_loopback_is_served() -> None:
    with pytest.raises(ValueError, match="browser_approval serves its pages on loopback only"):
        browser_approval(host="0.0.0.0")


async def test_html_in_server_text_is_escaped() -> None:
    asked = Asked()
    request = hostile(title='<img src=x onerror="alert(1)">', description="</td><script>alert(2)</script>")
    async with anyio.create_task_group() as tg, httpx.AsyncClient() as http:
        tg.start_soon(asked.run, request)
        page, _ = await asked.page(http)
        tg.cancel_scope.cancel()
    assert "<img" not in page.text and "<script>alert" not in page.text
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page.text


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"timeout": 0}, r"^timeout must be a positive number of seconds or None; got 0$"),
        ({"timeout": float("inf")}, r"^timeout must be a positive number of seconds or None; got inf$"),
        ({"closed_tab_grace": -1}, r"^closed_tab_grace must be 0 or more seconds; got -1$"),
    ],
)
def test_the_page_times_are_checked_as_the_browser_forms_are(options: dict[str, float], message: str) -> None:
    from ui_adapters import BrowserFormAdapter, browser_approval

    with pytest.raises(ValueError, match=message):
        browser_approval(**options)
    with pytest.raises(ValueError, match=message):
        BrowserFormAdapter(**options)
