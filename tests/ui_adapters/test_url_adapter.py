"""UrlAdapter end to end at the terminal: keys in through a prompt_toolkit pipe, screen out of rich.

The browser opener is a recorder, so no test ever opens a browser; what the user sees is asserted on
the rich console's text, and what the server would get on the returned ElicitResult.
"""

from __future__ import annotations

import io

import anyio
import pytest
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from mcp_client import ClientRequestContext
from mcp_client.types import ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult, Implementation
from tests.ui_adapters._terminal_helpers import PipeTerminal
from ui_adapters.url import UrlAdapter

PAY_URL = "https://pay.example.com/deposit?booking=B42"
BOUND = 10  # seconds; every await below is bounded so a prompt that never ends fails instead of hanging


def _adapter(terminal: PipeTerminal, **kwargs: object) -> UrlAdapter:
    return UrlAdapter(
        console=terminal.console(),
        input=terminal.keys,
        output=DummyOutput(),
        open_browser=terminal.open_browser,
        **kwargs,  # type: ignore[arg-type]
    )


def context(era: str = "legacy", name: str = "Guide Server") -> ClientRequestContext:
    return ClientRequestContext(
        server="http://127.0.0.1:8000/mcp",
        server_info=Implementation(name=name, version="1"),
        protocol_version="2025-11-25" if era == "legacy" else "2026-07-28",
        era="legacy" if era == "legacy" else "modern",
    )


def url_question(url: str = PAY_URL, *, elicitation_id: str | None = "pay-B42") -> ElicitRequestURLParams:
    return ElicitRequestURLParams(
        message="Pay the 20 EUR deposit for booking B42 on our payment page.",
        url=url,
        elicitation_id=elicitation_id,
    )


async def ask(adapter: UrlAdapter, params: ElicitRequestURLParams, era: str = "legacy") -> ElicitResult:
    with anyio.fail_after(BOUND):
        return await adapter(context(era), params)


# ------------------------------------------------------------------------------------------ consent


@pytest.mark.anyio
async def test_yes_opens_the_browser_and_accepts(terminal: PipeTerminal) -> None:
    terminal.keys.send_text("y\r")
    result = await ask(
        _adapter(terminal),
        url_question(),
    )
    assert result == ElicitResult(action="accept")
    assert terminal.opened == [PAY_URL]
    assert "Guide Server asks you to open a web page" in terminal.text
    assert f"Link: {PAY_URL}" in terminal.text
    assert "Site:  pay.example.com" in terminal.text.replace("\n", " ")
    assert "Opened in your browser." in terminal.text


@pytest.mark.anyio
@pytest.mark.parametrize("keys", ["\r", "n\r", "no\r", "N\r"])
async def test_enter_or_no_declines_without_opening(terminal: PipeTerminal, keys: str) -> None:
    terminal.keys.send_text(keys)
    result = await ask(
        _adapter(terminal),
        url_question(),
    )
    assert result == ElicitResult(action="decline")
    assert terminal.opened == []
    assert "Not opened." in terminal.text


@pytest.mark.anyio
async def test_an_unclear_answer_is_asked_again(terminal: PipeTerminal) -> None:
    terminal.keys.send_text("maybe\ryes\r")
    result = await ask(
        _adapter(terminal),
        url_question(),
    )
    assert result.action == "accept"
    assert "Please answer y (open it) or n (do not)." in terminal.text


@pytest.mark.anyio
async def test_ctrl_c_cancels(terminal: PipeTerminal) -> None:
    terminal.keys.send_text("\x03")
    result = await ask(
        _adapter(terminal),
        url_question(),
    )
    assert result == ElicitResult(action="cancel")
    assert terminal.opened == []


@pytest.mark.anyio
async def test_end_of_input_cancels(terminal: PipeTerminal) -> None:
    terminal.keys.send_text("\x04")  # Ctrl-D on an empty line
    result = await ask(
        _adapter(terminal),
        url_question(),
    )
    assert result.action == "cancel"


@pytest.mark.anyio
async def test_print_only_prints_the_link_and_never_opens(terminal: PipeTerminal) -> None:
    terminal.keys.send_text("y\r")
    result = await ask(_adapter(terminal, print_only=True), url_question())
    assert result.action == "accept"
    assert terminal.opened == []
    lines = terminal.text.splitlines()
    assert lines[lines.index("Open this link in your browser:") + 1] == PAY_URL


@pytest.mark.anyio
async def test_no_browser_falls_back_to_printing(terminal: PipeTerminal) -> None:
    terminal.browser_works = False
    terminal.keys.send_text("y\r")
    result = await ask(
        _adapter(terminal),
        url_question(),
    )
    assert result.action == "accept"
    assert terminal.opened == [PAY_URL]
    assert "No browser could be opened. Open this link yourself:" in terminal.text
    assert terminal.text.splitlines()[-2] == PAY_URL or PAY_URL in terminal.text.splitlines()


@pytest.mark.anyio
async def test_a_failing_opener_still_keeps_the_consent(terminal: PipeTerminal) -> None:
    def broken(url: str) -> bool:
        raise OSError("no xdg-open")

    adapter = UrlAdapter(
        console=Console(file=terminal.screen, width=120),
        input=terminal.keys,
        output=DummyOutput(),
        open_browser=broken,
    )
    terminal.keys.send_text("y\r")
    assert (await ask(adapter, url_question())).action == "accept"
    assert "Open this link yourself:" in terminal.text


@pytest.mark.anyio
async def test_a_form_question_is_declined(terminal: PipeTerminal) -> None:
    form = ElicitRequestFormParams(message="Name?", requested_schema={"type": "object", "properties": {}})
    with anyio.fail_after(BOUND):
        result = await _adapter(terminal)(context(), form)
    assert result.action == "decline"


def test_declares_url_mode_only() -> None:
    assert UrlAdapter.elicitation_modes == frozenset({"url"})


# ------------------------------------------------------------------------------- refusals and warnings


@pytest.mark.anyio
@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(document.cookie)",
        "JavaScript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "file:///etc/passwd",
        "ftp://files.example.com/x",
        "vbscript:msgbox",
        "pay.example.com/deposit",
    ],
)
async def test_other_schemes_are_refused_without_asking(terminal: PipeTerminal, url: str) -> None:
    # No key is sent: had the adapter prompted, the bound would fail the test.
    result = await ask(
        _adapter(terminal),
        url_question(url),
    )
    assert result == ElicitResult(action="decline")
    assert terminal.opened == []
    assert "✗ Not opened:" in terminal.text


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "https://xn--pple-43d.com/login",
            "it looks like 'аpple.com' but the real address is xn--pple-43d.com",
        ),
        ("https://аpple.com/login", "the real address is xn--pple-43d.com"),
        ("https://bank.com@evil.example/pay", "this link opens evil.example, not bank.com"),
        ("https://203.0.113.7/pay", "a bare IP address (203.0.113.7)"),
        ("http://3232235777/", "the browser will open 192.168.1.1"),
        ("http://0xC0A80101/", "the browser will open 192.168.1.1"),
        ("http://pay.example.com/deposit", "not encrypted (http://, not https://)"),
    ],
)
async def test_each_warning_is_shown_before_asking(terminal: PipeTerminal, url: str, expected: str) -> None:
    terminal.keys.send_text("\r")
    result = await ask(
        _adapter(terminal),
        url_question(url),
    )
    assert result.action == "decline"
    assert expected in " ".join(terminal.text.split())
    assert "⚠" in terminal.text


@pytest.mark.anyio
@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8765/callback", "http://localhost:3000/done", "http://[::1]:8080/"]
)
async def test_http_to_this_machine_is_not_warned_about(terminal: PipeTerminal, url: str) -> None:
    terminal.keys.send_text("y\r")
    assert (
        await ask(
            _adapter(terminal),
            url_question(url),
        )
    ).action == "accept"
    assert "⚠" not in terminal.text
    assert terminal.opened == [url]


@pytest.mark.anyio
@pytest.mark.parametrize(
    "url",
    [
        "https://pay.example.com\n.evil.example/",
        "https://pay.example.com\r\nSite: pay.example.com",
        "https://pay.example.com\tevil",
        "https://pay.example.com/\x1b[2K\x1b[1Apay",
        "https://pay.example.com/\x1b]8;;https://evil.example\x07click\x1b]8;;\x07",
        "https://evil.example/\u202emoc.elpmaxe.yap",
        "https://pay.example.com\u200b.evil.example/",
        "https://pay.example.com\u00a0.evil.example/",
        "https://pay.example.com\x00.evil.example/",
        "https://evil.example\\@pay.example.com/",
        "https://pay.example.com/" + "a" * 5000,
    ],
)
async def test_deceptive_links_are_refused_and_never_shown_raw(terminal: PipeTerminal, url: str) -> None:
    result = await ask(
        _adapter(terminal),
        url_question(url),
    )
    assert result.action == "decline"
    assert terminal.opened == []
    text = terminal.text
    assert "✗ Not opened:" in text
    for raw in ("\x1b", "\x07", "\x00", "\t", "\r", "\u202e", "\u200b", "\u00a0"):
        assert raw not in text
    # The injected fake "Site:" line did not become a line of its own.
    assert not any(line.startswith("Site:") for line in text.splitlines())
    assert "a" * 400 not in text  # a huge link is cut, not dumped


@pytest.mark.anyio
async def test_long_but_reasonable_link_is_shown_in_full(terminal: PipeTerminal) -> None:
    url = "https://pay.example.com/deposit?token=" + "x" * 1500
    terminal.keys.send_text("y\r")
    assert (
        await ask(
            _adapter(terminal),
            url_question(url),
        )
    ).action == "accept"
    assert url in terminal.text  # soft-wrapped: one logical line, no inserted breaks
    assert terminal.opened == [url]


@pytest.mark.anyio
async def test_max_url_length_is_configurable(terminal: PipeTerminal) -> None:
    result = await ask(_adapter(terminal, max_url_length=20), url_question())
    assert result.action == "decline"
    assert "the limit is 20" in terminal.text


@pytest.mark.anyio
async def test_server_text_is_sanitized_and_never_markup(terminal: PipeTerminal) -> None:
    params = ElicitRequestURLParams(
        message="Pay \x1b[31mnow\x1b[0m [bold red]or else[/] [link=https://evil.example]here[/link]",
        url=PAY_URL,
        elicitation_id="pay-B42",
    )
    terminal.keys.send_text("\r")
    with anyio.fail_after(BOUND):
        await _adapter(terminal)(context(name="Evil\x1b]0;title\x07 Corp"), params)
    text = terminal.text
    assert "\x1b" not in text
    assert "Pay now [bold red]or else[/] [link=https://evil.example]here[/link]" in text
    assert "Evil Corp asks you to open a web page" in text


# ------------------------------------------------------------------------------- after consent: waiting


@pytest.mark.anyio
async def test_legacy_consent_returns_at_once_and_shows_a_waiting_line(terminal: PipeTerminal) -> None:
    adapter = _adapter(terminal)
    terminal.keys.send_text("y\r")
    assert (await ask(adapter, url_question())).action == "accept"
    assert "Waiting for pay.example.com… Guide Server will say when the step is done." in terminal.text
    assert not adapter.is_complete("pay-B42")

    await adapter.on_elicitation_complete("pay-B42")
    assert adapter.is_complete("pay-B42")
    assert "✓ pay.example.com is done (the server confirmed it)." in terminal.text
    with anyio.fail_after(BOUND):
        assert await adapter.wait_for_completion("pay-B42") is True


@pytest.mark.anyio
async def test_unknown_and_repeated_completions_are_ignored(terminal: PipeTerminal) -> None:
    adapter = _adapter(terminal)
    await adapter.on_elicitation_complete("never-seen")
    assert terminal.text == ""
    assert not adapter.is_complete("never-seen")

    terminal.keys.send_text("y\r")
    await ask(adapter, url_question())
    await adapter.on_elicitation_complete("pay-B42")
    await adapter.on_elicitation_complete("pay-B42")
    assert terminal.text.count("is done (the server confirmed it)") == 1


@pytest.mark.anyio
async def test_declined_link_is_not_waited_for(terminal: PipeTerminal) -> None:
    adapter = _adapter(terminal)
    terminal.keys.send_text("\r")
    await ask(adapter, url_question())
    await adapter.on_elicitation_complete("pay-B42")
    assert "Waiting" not in terminal.text
    assert "the server confirmed it" not in terminal.text


@pytest.mark.anyio
async def test_wait_for_completion_ends_when_the_notification_arrives(terminal: PipeTerminal) -> None:
    adapter = _adapter(terminal)
    terminal.keys.send_text("y\r")
    await ask(adapter, url_question())
    outcome: list[bool] = []

    async def wait() -> None:
        outcome.append(await adapter.wait_for_completion("pay-B42"))

    with anyio.fail_after(BOUND):
        async with anyio.create_task_group() as tg:
            tg.start_soon(wait)
            await anyio.wait_all_tasks_blocked()
            await adapter.on_elicitation_complete("pay-B42")
    assert outcome == [True]


@pytest.mark.anyio
async def test_enter_stops_waiting(terminal: PipeTerminal) -> None:
    adapter = _adapter(terminal)
    terminal.keys.send_text("y\r")
    await ask(adapter, url_question())
    terminal.keys.send_text("\r")
    with anyio.fail_after(BOUND):
        assert await adapter.wait_for_completion("pay-B42") is False
    assert not adapter.is_complete("pay-B42")


@pytest.mark.anyio
async def test_completion_timeout_stops_waiting(terminal: PipeTerminal) -> None:
    adapter = _adapter(terminal, completion_timeout=0.01)
    with anyio.fail_after(BOUND):
        assert await adapter.wait_for_completion("bank-B42", stop_key=False) is False


@pytest.mark.anyio
async def test_a_completion_for_an_id_being_waited_on_is_heard(terminal: PipeTerminal) -> None:
    # The -32042 flow: the app shows the link itself, then waits; the id is known from the wait.
    adapter = _adapter(terminal)
    outcome: list[bool] = []

    async def wait() -> None:
        outcome.append(await adapter.wait_for_completion("bank-B42", stop_key=False))

    with anyio.fail_after(BOUND):
        async with anyio.create_task_group() as tg:
            tg.start_soon(wait)
            await anyio.wait_all_tasks_blocked()
            await adapter.on_elicitation_complete("bank-B42")
    assert outcome == [True]


@pytest.mark.anyio
async def test_modern_era_says_the_server_will_be_asked_again(terminal: PipeTerminal) -> None:
    terminal.keys.send_text("y\r")
    result = await ask(
        _adapter(terminal),
        url_question(elicitation_id=None),
        era="modern",
    )
    assert result.action == "accept"
    assert "When you have finished on pay.example.com, Guide Server will be asked again." in terminal.text
    assert "Waiting" not in terminal.text


@pytest.mark.parametrize("anyio_backend", ["trio"])
@pytest.mark.anyio
async def test_consent_works_on_trio(terminal: PipeTerminal) -> None:
    terminal.keys.send_text("y\r")
    assert (
        await ask(
            _adapter(terminal),
            url_question(),
        )
    ).action == "accept"
    assert terminal.opened == [PAY_URL]


# ------------------------------------------------------------------- the same keys as in a form


@pytest.mark.anyio
async def test_the_link_prompt_shows_its_keys(terminal: PipeTerminal) -> None:
    screen = io.StringIO()
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.output.vt100 import Vt100_Output

    from tests.ui_adapters._terminal_helpers import render_screen

    adapter = UrlAdapter(
        console=Console(file=terminal.screen, width=120, color_system=None),
        input=terminal.keys,
        output=Vt100_Output(screen, lambda: Size(rows=20, columns=100), term="xterm"),
        open_browser=terminal.open_browser,
    )
    terminal.keys.send_text("n\r")
    assert await ask(adapter, url_question()) == ElicitResult(action="decline")
    assert "Esc/Ctrl-C cancel" in render_screen(screen.getvalue())


@pytest.mark.anyio
@pytest.mark.parametrize(("key", "action"), [("\x1b", "cancel"), ("\x0e", "decline")])
async def test_esc_cancels_and_ctrl_n_declines_at_the_link_prompt(
    terminal: PipeTerminal, key: str, action: str
) -> None:
    terminal.keys.send_text(key)
    assert await ask(
        _adapter(terminal),
        url_question(),
    ) == ElicitResult(action=action)  # type: ignore[arg-type]
    assert terminal.opened == []
