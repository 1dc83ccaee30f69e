"""``ui_adapters.login``: the browser step of an OAuth login, at a fake terminal, with a real listener.

Keys go in through a prompt_toolkit pipe and the screen comes out of rich; the "browser" is a function
that fetches the login URL and follows its redirect to the listener, as a real browser would after the
person clicked "Allow". Every wait is bounded.
"""

from __future__ import annotations

import socket
from urllib.parse import urlencode

import anyio
import httpx
import pytest
from prompt_toolkit.output import DummyOutput

from mcp_client import OAuthError
from tests.ui_adapters._terminal_helpers import PipeTerminal
from ui_adapters.login import BrowserLogin
from ui_adapters.login._listener import listen_for_redirect

BOUND = 10
STATE = "st4te-of-this-login"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _login_url(redirect_uri: str, host: str = "as.example.com") -> str:
    query = urlencode(
        {"response_type": "code", "client_id": "c", "redirect_uri": redirect_uri, "state": STATE}
    )
    return f"https://{host}/authorize?{query}"


def _login(terminal: PipeTerminal, **options: object) -> BrowserLogin:
    return BrowserLogin(
        console=terminal.console(width=200),
        input=terminal.keys,
        output=DummyOutput(),
        **options,  # type: ignore[arg-type]
    )


def _browser_that_comes_back(redirect_uri: str, opened: list[str], *, state: str = STATE) -> object:
    """An opener: the "login page" sends the browser straight to the redirect URI with a code."""

    def open_browser(url: str) -> bool:
        opened.append(url)
        back = f"{redirect_uri}?" + urlencode({"code": "the-code", "state": state})
        response = httpx.get(back, timeout=BOUND)
        assert "Login received" in response.text
        return True

    return open_browser


@pytest.mark.anyio
async def test_consent_then_the_browser_comes_back_to_the_listener(terminal: PipeTerminal) -> None:
    redirect_uri = f"http://127.0.0.1:{_free_port()}/callback"
    login = _login(
        terminal, server="Files", open_browser=_browser_that_comes_back(redirect_uri, terminal.opened)
    )
    terminal.keys.send_text("y\n")
    with anyio.fail_after(BOUND):
        back = await login(_login_url(redirect_uri))
    assert back == f"{redirect_uri}?code=the-code&state={STATE}"
    assert terminal.opened == [_login_url(redirect_uri)]
    text = terminal.text
    assert "Log in to Files" in text and "Site:  as.example.com" in text and "Opened in your browser" in text


@pytest.mark.anyio
async def test_no_consent_opens_nothing_and_a_pasted_address_is_checked(terminal: PipeTerminal) -> None:
    redirect_uri = f"http://127.0.0.1:{_free_port()}/callback"
    login = _login(terminal, open_browser=_browser_that_comes_back(redirect_uri, terminal.opened))
    good = f"{redirect_uri}?code=c0de&state={STATE}"
    terminal.keys.send_text(f"n\n\nhttps://example.com/\n{redirect_uri}?code=c0de&state=other\n{good}\n")
    with anyio.fail_after(BOUND):
        assert await login(_login_url(redirect_uri)) == good
    assert terminal.opened == []
    assert "has no code" in terminal.text and "another login attempt" in terminal.text


@pytest.mark.anyio
async def test_headless_machine_is_told_to_paste(
    terminal: PipeTerminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    redirect_uri = "https://app.example.com/oauth/callback"  # not loopback: nothing can listen
    terminal.keys.send_text(f"{redirect_uri}?code=c&state={STATE}\n")
    with anyio.fail_after(BOUND):
        await _login(terminal)(_login_url(redirect_uri))
    assert "No browser can be opened on this machine" in terminal.text
    assert "Open the login page" not in terminal.text  # no pointless question


@pytest.mark.anyio
async def test_ctrl_c_end_of_input_and_the_timeout_end_the_login(terminal: PipeTerminal) -> None:
    redirect_uri = f"http://127.0.0.1:{_free_port()}/callback"
    terminal.keys.send_text("\x03")
    with anyio.fail_after(BOUND), pytest.raises(OAuthError, match="cancelled"):
        await _login(terminal, print_only=True)(_login_url(redirect_uri))
    with anyio.fail_after(BOUND), pytest.raises(OAuthError, match=r"no login arrived within 0\.2 seconds"):
        await _login(terminal, print_only=True, timeout=0.2)(_login_url(redirect_uri))


@pytest.mark.anyio
async def test_a_deceptive_login_link_is_warned_about_or_refused(terminal: PipeTerminal) -> None:
    redirect_uri = f"http://127.0.0.1:{_free_port()}/callback"
    terminal.keys.send_text(f"{redirect_uri}?code=c&state={STATE}\n")
    with anyio.fail_after(BOUND):
        await _login(terminal, print_only=True)(_login_url(redirect_uri, host="xn--pypl-53dc.com"))
    assert "⚠" in terminal.text
    with anyio.fail_after(BOUND), pytest.raises(OAuthError, match="refused"):
        await _login(terminal, print_only=True)("javascript:alert(1)")
    assert "Not opened" in terminal.text


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
@pytest.mark.anyio
async def test_the_listener_answers_only_this_login(anyio_backend: str) -> None:
    redirect_uri = f"http://127.0.0.1:{_free_port()}/callback"
    async with listen_for_redirect(redirect_uri, STATE) as listener:
        assert listener is not None
        async with httpx.AsyncClient(timeout=BOUND) as browser:
            assert (await browser.get(redirect_uri.replace("/callback", "/favicon.ico"))).status_code == 404
            assert (await browser.get(f"{redirect_uri}?code=x&state=forged")).status_code == 400
            assert (await browser.get(f"{redirect_uri}?nothing=here")).status_code == 400
            page = await browser.get(f"{redirect_uri}?error=access_denied&state={STATE}")
            assert page.status_code == 200 and "access_denied" not in page.text  # nothing echoed
        with anyio.fail_after(BOUND):
            assert await listener.wait() == f"{redirect_uri}?error=access_denied&state={STATE}"


@pytest.mark.anyio
async def test_no_listener_where_one_cannot_listen() -> None:
    for uri in ("https://app.example.com/cb", "http://10.0.0.1:8080/cb", "http://127.0.0.1/cb"):
        async with listen_for_redirect(uri, STATE) as listener:
            assert listener is None
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        async with listen_for_redirect(f"http://127.0.0.1:{taken.getsockname()[1]}/cb", STATE) as listener:
            assert listener is None  # the port is busy: the person pastes instead
