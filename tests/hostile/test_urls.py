"""Deceptive URLs from a hostile server: refused or warned about, shown honestly, never fetched.

The corpus is in ``url_corpus.py``. End to end, the hostile server asks (in both eras, and with a
legacy ``-32042`` error) for links that point back at itself; its access log proves the client never
requested any of them, whatever the person answered.
"""

from __future__ import annotations

import io
import re
from urllib.parse import urlsplit

import anyio
import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from mcp_client import Client
from mcp_client._errors import UrlElicitationRequiredError
from mcp_client.types import ElicitRequestURLParams
from tests.hostile._leaks import no_leaks
from tests.hostile.conftest import HostileServer
from tests.hostile.url_corpus import HOST_IS_NOT_THE_FIRST_NAME, REFUSED, WARNED
from ui_adapters._url_safety import inspect_url
from ui_adapters.url import UrlAdapter

BOUND = 20
HIDDEN = ["\x1b", "\x07", "\r", "\x85", "\u2028", "\u00ad", "\u061c", "\U000e0041", "\ue000", "\u2066", "\t"]


@pytest.mark.parametrize(("url", "reason"), REFUSED, ids=[repr(u[:40]) for u, _ in REFUSED])
def test_refused(url: str, reason: str) -> None:
    verdict = inspect_url(url)
    assert verdict.refusal is not None and reason in verdict.refusal
    assert verdict.warnings == ()


@pytest.mark.parametrize(("url", "host", "codes"), WARNED, ids=[u[:40] for u, _, _ in WARNED])
def test_warned(url: str, host: str, codes: set[str]) -> None:
    verdict = inspect_url(url)
    assert verdict.refusal is None
    assert verdict.host == host
    assert verdict.warning_codes == codes


@pytest.mark.parametrize(("url", "host"), HOST_IS_NOT_THE_FIRST_NAME)
def test_the_real_host_is_the_one_shown(url: str, host: str) -> None:
    assert inspect_url(url).host == host


def test_a_bare_ipv6_address_is_warned_about_like_a_bare_ipv4_one() -> None:
    assert "ip-address" in inspect_url("https://[2001:db8::1]/pay").warning_codes


def test_an_ipv6_zone_id_is_refused() -> None:
    assert inspect_url("https://[fe80::1%25eth0]/").refused


# ------------------------------------------------------------------------------- through the client


class Person:
    """A UrlAdapter on a fake terminal: ``answer`` is typed at the prompt; the browser is a recorder."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.screen = io.StringIO()
        self.opened: list[str] = []

    def open_browser(self, url: str) -> bool:
        self.opened.append(url)
        return True

    @property
    def text(self) -> str:
        return self.screen.getvalue()


async def _ask_through_client(hostile: HostileServer, tag: str, mode: str, url: str, person: Person) -> str:
    with create_pipe_input() as keys:
        keys.send_text(person.answer)
        adapter = UrlAdapter(
            console=Console(file=person.screen, width=120, color_system="truecolor", force_terminal=True),
            input=keys,
            output=DummyOutput(),
            open_browser=person.open_browser,
        )
        async with Client(hostile.url(tag), mode=mode, elicitation_callback=adapter, timeout=5) as client:
            with anyio.fail_after(BOUND):
                result = await client.call_tool("url_elicit", {"url": url})
    return result.content[0].text  # type: ignore[union-attr]


def _fetched(hostile: HostileServer) -> list[str]:
    return [
        e["path"]
        for e in hostile.entries()
        if e.get("method") and not e["path"].startswith(("/mcp", "/admin"))
    ]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("shape", "answer", "action"),
    [
        ("plain", "y\r", "accept"),  # consent: handed to the browser, still never fetched by the client
        ("userinfo", "n\r", "decline"),  # warned, the person says no
        ("javascript", "", "decline"),  # refused without asking
        ("newline", "", "decline"),  # refused without asking
    ],
    ids=["plain", "userinfo", "javascript", "newline"],
)
async def test_links_to_the_server_itself_are_never_fetched(
    hostile: HostileServer, tag: str, era: str, shape: str, answer: str, action: str
) -> None:
    netloc = urlsplit(hostile.base).netloc
    secret = f"/secret/{tag}"
    url = {
        "plain": f"http://{netloc}{secret}",
        "userinfo": f"http://bank.example@{netloc}{secret}",
        "javascript": f"javascript:fetch('http://{netloc}{secret}')",
        "newline": f"http://{netloc}{secret}\nSite: bank.example",
    }[shape]
    person = Person(answer)
    async with no_leaks():
        outcome = await _ask_through_client(hostile, tag, era, url, person)
    assert outcome == f"action={action}"
    assert person.opened == ([url] if action == "accept" else [])
    assert not any(path.startswith("/secret") for path in _fetched(hostile))
    text = person.text
    for hidden in HIDDEN:
        assert hidden not in text.replace("\x1b[", "")  # rich's own colours are the only escapes
    assert "\x1b]" not in text  # no hyperlink, no title
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    if shape == "userinfo":
        assert "this link opens 127.0.0.1, not bank.example" in " ".join(plain.split())
    if shape == "newline":
        assert not any(line.startswith("Site: bank.example") for line in plain.splitlines())


@pytest.mark.anyio
async def test_a_legacy_url_required_error_fetches_nothing(hostile: HostileServer, tag: str) -> None:
    netloc = urlsplit(hostile.base).netloc
    url = f"http://{netloc}/secret/{tag}"
    async with no_leaks(), Client(hostile.url(tag), mode="legacy", timeout=5) as client:
        with anyio.fail_after(BOUND), pytest.raises(UrlElicitationRequiredError) as caught:
            await client.call_tool("url_required", {"url": url})
    assert caught.value.elicitations == [
        ElicitRequestURLParams(message="Open this first.", url=url, elicitation_id="req-1")
    ]
    assert not any(path.startswith("/secret") for path in _fetched(hostile))
