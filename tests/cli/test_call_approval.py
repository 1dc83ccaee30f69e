"""``mcp-client call`` asks before a tool the server does not mark read-only, unless ``--yes`` (issue 45).

Against tests/servers/approvals_server.py over HTTP, whose ``ran`` tool lists what reached it: at a
terminal (a pty, pexpect) the person sees the approval and decides; without one (stdin a pipe) the
call is refused with exit code 4 and a message naming ``--yes``, and the server never runs the tool.
A read-only tool, or ``--yes``, runs as before.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import anyio
import pexpect
import pytest

from mcp_client import Client
from mcp_client.types import TextContent
from tests.cli._cli import run_cli, terminal_cli_env
from tests.support.screen import spawn_cli
from tests.support.servers import SERVERS_DIR, start_http_server

pytestmark = pytest.mark.slow

ENTER = "\r"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with start_http_server(script=SERVERS_DIR / "approvals_server.py") as served:
        yield served


def ran(url: str) -> list[str]:
    async def read() -> list[str]:
        async with Client(url) as client:
            result = await client.call_tool("ran", {})
            block = result.content[0]
            assert isinstance(block, TextContent)
            return json.loads(block.text)

    return anyio.run(read)


def test_without_a_terminal_a_tool_not_marked_read_only_is_refused_and_never_sent(url: str) -> None:
    before = ran(url)
    done = run_cli("call", url, "drop_notes", yes=False)
    assert done.returncode == 4, done.stderr
    said = " ".join(done.stderr.split())
    assert "drop_notes on" in said and "is not marked read-only by the server" in said
    assert "stdin is not a terminal" in said and "Nothing was sent" in said
    assert f"pass --yes: mcp-client call --yes {url} drop_notes" in said
    assert done.stdout == ""
    assert ran(url) == before  # the server never heard of the call


def test_a_read_only_tool_runs_unasked_and_yes_runs_any(url: str) -> None:
    read = run_cli("call", url, "search_notes", "query=x", yes=False)
    assert read.returncode == 0, read.stderr
    assert read.stdout == "ran search_notes\n"
    forced = run_cli("call", "--yes", url, "drop_notes", yes=False)
    assert forced.returncode == 0, forced.stderr
    assert forced.stdout == "ran drop_notes\n"
    short = run_cli("call", "-y", url, "write_note", "text=hi", yes=False)
    assert short.returncode == 0 and short.stdout == "ran write_note\n"


def test_a_lying_server_is_believed_its_read_only_claim_runs_unasked(url: str) -> None:
    """wipe_disk says readOnlyHint: true: the CLI takes the server's word (docs/approvals.md says so)."""
    done = run_cli("call", url, "wipe_disk", yes=False)
    assert done.returncode == 0 and done.stdout == "ran wipe_disk\n"


def test_at_a_terminal_the_person_denies_and_the_call_is_not_sent(url: str) -> None:
    before = ran(url)
    with spawn_cli(["call", url, "drop_notes"], env=terminal_cli_env(), yes=False) as child:
        child.expect("This app asks before it runs a tool call")
        child.expect("drop_notes")
        child.expect("o/s/a/d or Up/Down")
        child.send("d")
        child.send(ENTER)
        child.expect(r"Note \(optional\)")
        child.send("not today" + ENTER)
        child.expect("you denied the call of drop_notes")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 4
    assert ran(url) == before


def test_at_a_terminal_the_person_allows_and_the_tool_runs(url: str) -> None:
    with spawn_cli(["call", url, "write_note", "text=hello"], env=terminal_cli_env(), yes=False) as child:
        child.expect("This app asks before it runs a tool call")
        child.expect("o/s/a/d or Up/Down")
        child.send("o")
        child.send(ENTER)
        child.expect(r"Note \(optional\)")
        child.send(ENTER)
        child.expect("ran write_note")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0


# ---------------------------------------------------------------- a --config file's tool_policy


def policy_file(tmp_path: Path, url: str, policy: dict[str, object]) -> str:
    """An mcpServers file naming the approvals server ``notes`` with ``policy`` as its tool_policy."""
    path = tmp_path / "mcp.json"
    entry = {"url": url, "tool_policy": policy}
    path.write_text(json.dumps({"mcpServers": {"notes": entry}}), encoding="utf-8")
    return str(path)


def test_a_deny_of_the_file_refuses_the_call_and_yes_does_not_override_it(url: str, tmp_path: Path) -> None:
    """The file's deny patterns hold for ``call`` as for a ClientGroup of the file: on ``server.tool``
    and on the group's name, for a tool the server marks read-only too, with or without ``--yes``."""
    config = policy_file(tmp_path, url, {"deny": ["notes.drop_*", "notes_wipe_*"], "ask": "never"})
    before = ran(url)
    for yes in (False, True):
        done = run_cli("call", "--config", config, "notes.drop_notes", yes=yes)
        assert done.returncode == 4, done.stdout + done.stderr
        said = " ".join(done.stderr.split())
        assert (
            f"drop_notes on notes is denied by the tool_policy of server 'notes' in {config}: deny pattern "
            f"'notes.drop_*'. Nothing was sent. --yes does not override a deny: to run it, change that "
            f"tool_policy in {config}"
        ) in said
        assert done.stdout == ""
    wiped = run_cli("call", "--config", config, "wipe_disk")  # read-only; its group name is denied
    assert wiped.returncode == 4 and "deny pattern 'notes_wipe_*'" in wiped.stderr
    assert ran(url) == before  # the server never heard of the calls
    allowed = run_cli("call", "--config", config, "--server", "notes", "write_note", "text=hi", yes=False)
    assert allowed.returncode == 0, allowed.stderr  # ask: "never": what deny does not name runs unasked
    assert allowed.stdout == "ran write_note\n"


def test_an_allow_of_the_file_runs_the_call_without_asking(url: str, tmp_path: Path) -> None:
    """No terminal, no --yes: the CLI alone would refuse drop_notes (exit 4); the file allows it."""
    config = policy_file(tmp_path, url, {"allow": ["notes.drop_notes"], "ask": "always"})
    done = run_cli("call", "--config", config, "notes_drop_notes", yes=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ran drop_notes\n"


def test_what_the_file_asks_about_is_refused_without_a_terminal_and_runs_with_yes(
    url: str, tmp_path: Path
) -> None:
    """``ask: "always"`` asks about a tool the server marks read-only too (the CLI alone runs it)."""
    config = policy_file(tmp_path, url, {"ask": "always"})
    before = ran(url)
    done = run_cli("call", "--config", config, "notes.search_notes", "query=x", yes=False)
    assert done.returncode == 4, done.stdout + done.stderr
    said = " ".join(done.stderr.split())
    assert (
        f"search_notes on approvals-server is asked about before it runs (the tool_policy of server "
        f"'notes' in {config}: ask=\"always\"), and stdin is not a terminal to ask on. Nothing was sent. "
        f"To run it without asking, pass --yes: mcp-client call --yes --config {config} notes.search_notes "
        "query=x"
    ) in said
    assert ran(url) == before
    forced = run_cli("call", "--config", config, "notes.search_notes", "query=x")  # --yes
    assert forced.returncode == 0 and forced.stdout == "ran search_notes\n"


def test_at_a_terminal_the_file_s_policy_is_the_reason_shown(url: str, tmp_path: Path) -> None:
    config = policy_file(tmp_path, url, {"ask": "always"})
    with spawn_cli(
        ["call", "--config", config, "notes.search_notes", "query=x"], env=terminal_cli_env(), yes=False
    ) as child:
        child.expect("This app asks before it runs a tool call")
        child.expect("tool_policy of server")
        child.expect("o/s/a/d or Up/Down")
        child.send("o")
        child.send(ENTER)
        child.expect(r"Note \(optional\)")
        child.send(ENTER)
        child.expect("ran search_notes")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
