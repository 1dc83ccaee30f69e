"""What goes wrong, said clearly, with a documented exit code: 1 tool error, 2 usage, 3 connection."""

from __future__ import annotations

import json
import re
import shlex
import sys

import pytest

from tests.cli._cli import GUIDE, run_cli
from tests.support.servers import free_loopback_port

BOOK = ("book_table",)


def _lists_book_table_parameters(stderr: str) -> None:
    assert "Parameters of book_table:" in stderr
    assert re.search(r"^\s+date\s+string\s+required$", stderr, re.M)
    assert re.search(r"^\s+party_size\s+integer\s+required$", stderr, re.M)


def test_wrong_type(bistro: str) -> None:
    done = run_cli("call", bistro, *BOOK, "date=2025-12-24", "party_size=two")
    assert (done.returncode, done.stdout) == (2, "")
    assert "party_size: expected an integer, got 'two' (write e.g. party_size=42)" in done.stderr
    _lists_book_table_parameters(done.stderr)
    assert f"Usage: mcp-client call {bistro} book_table date=STRING party_size=INTEGER" in done.stderr


def test_missing_required(bistro_http_url: str) -> None:
    done = run_cli("call", bistro_http_url, *BOOK, "date=2025-12-24")
    assert done.returncode == 2
    assert "missing required parameter: party_size" in done.stderr
    _lists_book_table_parameters(done.stderr)


def test_unknown_key(bistro_http_url: str) -> None:
    done = run_cli("call", bistro_http_url, *BOOK, "date=2025-12-24", "partysize=2")
    assert done.returncode == 2
    assert "book_table has no parameter 'partysize'; did you mean party_size?" in done.stderr
    _lists_book_table_parameters(done.stderr)


def test_every_problem_is_reported_at_once(bistro_http_url: str) -> None:
    done = run_cli("call", bistro_http_url, *BOOK, "party_size=2.5", "oops", "date=1", "date=2")
    assert done.returncode == 2
    assert "party_size: expected an integer, got '2.5'" in done.stderr
    assert "'oops' is not KEY=VALUE" in done.stderr
    assert "date is given twice" in done.stderr


def test_not_one_of_the_choices(typed_http_url: str) -> None:
    words = ["count=1", "ratio=1", "flag=true", "tags=[]", "options={}", "colour=pink"]
    done = run_cli("call", typed_http_url, "describe", *words)
    assert done.returncode == 2
    assert "colour: expected one of: red, green, blue, got 'pink'" in done.stderr
    assert 'tags=\'["a", "b"]\'' not in done.stderr  # only the bad argument gets advice


def test_json_arrays_get_an_example(typed_http_url: str) -> None:
    words = ["count=1", "ratio=1", "flag=maybe", "tags=a,b", "options={}"]
    done = run_cli("call", typed_http_url, "describe", *words)
    assert done.returncode == 2
    assert "flag: expected a boolean, got 'maybe' (write e.g. flag=true)" in done.stderr
    assert """tags: expected an array, got 'a,b' (write e.g. tags='["a", "b"]')""" in done.stderr


def test_unknown_tool(bistro_http_url: str) -> None:
    done = run_cli("call", bistro_http_url, "book", "date=2025-12-24")
    assert done.returncode == 2
    assert "has no tool 'book'. Did you mean 'book_table'? Its tools: book_table" in done.stderr


def test_the_tool_reports_an_error(typed_http_url: str) -> None:
    done = run_cli("call", typed_http_url, "broken")
    assert (done.returncode, done.stdout) == (1, "")
    assert "The tool reported an error:" in done.stderr
    assert "the oven is on fire" in done.stderr


def test_the_tool_reports_an_error_as_json() -> None:
    done = run_cli("call", "--json", f"{shlex.quote(sys.executable)} {shlex.quote(str(GUIDE))} stdio", "fail")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["isError"] is True


def test_connection_refused() -> None:
    url = f"http://127.0.0.1:{free_loopback_port()}/mcp"
    done = run_cli("tools", url)
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr.startswith("mcp-client: ")
    assert url in done.stderr


def test_a_server_command_that_exits_at_once() -> None:
    done = run_cli("tools", f"{shlex.quote(sys.executable)} -c pass")
    assert done.returncode == 3
    assert done.stderr.startswith("mcp-client: ")


def test_no_answer_within_the_timeout(guide_http_url: str) -> None:
    # A server already running: one started by the CLI can take over 10s to answer initialize on a busy
    # machine (CI failed so: "did not answer initialize within 10s"), and the call's timeout is the point.
    done = run_cli("call", "--timeout", "1", guide_http_url, "slow", "seconds=20")
    assert done.returncode == 3
    assert "the tool call to" in done.stderr and "got no answer within 1s" in done.stderr
    # the CLI's option, not the library's parameters (issue 26, item 9)
    assert "raise --timeout SECONDS if the server is slow" in done.stderr
    assert "read_timeout_seconds" not in done.stderr and "Client(" not in done.stderr


def test_login_to_a_server_that_needs_none_says_so_plainly(bistro_http_url: str) -> None:
    done = run_cli("login", bistro_http_url)
    assert done.returncode == 3
    assert done.stderr.startswith(f"mcp-client: {bistro_http_url} does not ask for a login"), done.stderr
    assert f"Use its tools directly: mcp-client tools {bistro_http_url}" in done.stderr
    assert "(protected resource or authorization server)" not in done.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tools", "no_such_server.py"], "no such Python file: 'no_such_server.py'"),
        (["tools", "no-such-command --flag"], "command not found: 'no-such-command'"),
        (["tools", "ftp://127.0.0.1/mcp"], "unsupported URL scheme 'ftp'"),
        (["tools", "'unbalanced"], "cannot split SERVER"),
        (["tools", "--header", "X: 1", "examples/servers/bistro.py"], "--header only applies to http(s)://"),
        (["tools", "--header", "no colon", "http://127.0.0.1:9/mcp"], "--header expects NAME:VALUE"),
        (["tools", "--mode", "2024-01-01", "http://127.0.0.1:9/mcp"], "invalid choice: '2024-01-01'"),
        (["tools", "--timeout", "0", "http://127.0.0.1:9/mcp"], "expected a positive number of seconds"),
        (["call", "http://127.0.0.1:9/mcp", "t", "--bogus"], "unrecognized arguments: --bogus"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert message in done.stderr


@pytest.mark.parametrize("command", ["login", "logout"])
def test_login_and_logout_help_lists_their_own_exit_codes(command: str) -> None:
    done = run_cli(command, "--help")
    assert done.returncode == 0, done.stderr
    codes = done.stdout[done.stdout.index("exit codes:") :]
    assert re.findall(r"^  (\d+) ", codes, re.M) == ["0", "2", "3", "130"]
    assert "isError" not in codes and "tool" not in codes  # no tool runs in these commands
    assert ("logged in" if command == "login" else "logged out") in codes


def test_tools_help_has_no_tool_error_code() -> None:
    codes = run_cli("tools", "--help").stdout.split("exit codes:")[1]
    assert re.findall(r"^  (\d+) ", codes, re.M) == ["0", "2", "3", "130", "141"]


@pytest.mark.parametrize("command", ["login", "logout"])
def test_login_and_logout_of_a_stdio_server_is_a_usage_error(command: str) -> None:
    done = run_cli(command, "examples/servers/bistro.py")
    assert done.returncode == 2
    assert "needs the server's http(s):// URL" in done.stderr
