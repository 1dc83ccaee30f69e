"""``mcp-client`` against server-everything, a server we did not write (issue 12, items 6, 7, 8, 11)."""

from __future__ import annotations

import re
import shlex

from tests.cli._cli import run_cli


def _command(stdio_command: tuple[str, list[str]]) -> str:
    command, args = stdio_command
    return shlex.join([command, *args])


def test_tools_lists_the_tools_that_ask_questions(everything_stdio_command: tuple[str, list[str]]) -> None:
    done = run_cli("tools", _command(everything_stdio_command))
    assert done.returncode == 0, done.stderr
    names = re.findall(r"^(\S+)", done.stdout, re.M)
    assert "trigger-elicitation-request" in names
    assert "trigger-url-elicitation" in names


def test_long_echoed_text_is_not_wrapped_when_redirected(
    everything_stdio_command: tuple[str, list[str]],
) -> None:
    done = run_cli("call", _command(everything_stdio_command), "echo", "message=" + "x" * 300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Echo: " + "x" * 300 + "\n"


def test_a_url_required_error_shows_the_link_then_retries(
    everything_stdio_command: tuple[str, list[str]],
) -> None:
    done = run_cli(
        "call",
        _command(everything_stdio_command),
        "trigger-url-elicitation",
        "url=https://example.com/authorize",
        "errorPath=true",
        stdin="y\n\ny\n",  # open the prerequisite link; done; then the retried call's own link
    )
    assert done.returncode == 0, done.stderr
    assert "Link: https://modelcontextprotocol.io" in done.stderr  # the -32042 error's link
    assert "press Enter to call trigger-url-elicitation again" in done.stderr
    assert "User completed the URL elicitation flow" in done.stdout
    assert "-32042" not in done.stderr


def test_a_url_required_error_without_consent_says_what_is_needed(
    everything_stdio_command: tuple[str, list[str]],
) -> None:
    done = run_cli(
        "call",
        _command(everything_stdio_command),
        "trigger-url-elicitation",
        "url=https://example.com/authorize",
        "errorPath=true",
        stdin="n\n",
    )
    assert done.returncode == 3
    assert "Link: https://modelcontextprotocol.io" in done.stderr


def test_a_modern_mode_against_a_legacy_only_server_suggests_auto(everything_url: str) -> None:
    done = run_cli("tools", "--mode", "2026-07-28", everything_url)
    assert done.returncode == 3
    assert "try --mode auto" in done.stderr
