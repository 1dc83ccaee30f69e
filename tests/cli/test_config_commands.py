"""``mcp-client --config FILE``: the servers of an mcpServers file, one broken, as a user runs them.

The file holds our bistro example and the typed test server (both real stdio servers) and a command
that does not exist. Every command is run piped (``run_cli``) and, where a person would watch it, on a
real terminal (``cli_screen``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli._cli import BISTRO, ROOT, TIMEOUT, TYPED, cli_env, run_cli
from tests.support.screen import cli_screen

ENTER = "\r"


def write_config(folder: Path, servers: dict[str, Any]) -> str:
    path = folder / "mcp.json"
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return str(path)


@pytest.fixture
def config(tmp_path: Path) -> str:
    return write_config(
        tmp_path,
        {
            "bistro": {"command": sys.executable, "args": [str(BISTRO)]},
            "typed": {"command": sys.executable, "args": [str(TYPED)], "tool_prefix": "t."},
            "broken": {"command": "/no/such/mcp-server"},
            "off": {"command": "/no/such/either", "disabled": True},
        },
    )


def test_servers_says_how_each_server_went(config: str) -> None:
    done = run_cli("servers", "--config", config)
    assert done.returncode == 3, done.stderr  # one server did not connect
    lines = {line.split()[0]: line.split(maxsplit=1)[1] for line in done.stdout.splitlines()}
    assert lines["bistro"].startswith("connected ") and "stdio" in lines["bistro"]
    assert "1 tool" in lines["bistro"] and lines["typed"].startswith("connected ")
    # ClientGroup.health()'s state, one look at each server (not tried again: the same every run).
    failed = r"failed +could not start the server command '/no/such/mcp-server'"
    assert re.match(failed, lines["broken"]), done.stdout
    assert re.match(r"disabled +in the file", lines["off"])


def test_servers_exit_0_when_the_only_server_not_connected_is_disabled_in_the_file(tmp_path: Path) -> None:
    """A disabled server is the file's choice, not a failure: exit 3 is for a server that did not connect."""
    config = write_config(
        tmp_path,
        {
            "bistro": {"command": sys.executable, "args": [str(BISTRO)]},
            "off": {"command": "/no/such/either", "disabled": True},
        },
    )
    done = run_cli("servers", "--config", config)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"disabled +in the file", done.stdout)
    done = run_cli("servers", "--config", config, "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert {row["name"]: row.get("disabled", False) for row in json.loads(done.stdout)} == {
        "bistro": False,
        "off": True,
    }


def test_servers_columns_line_up_whatever_the_lengths_of_the_names(tmp_path: Path) -> None:
    names = ["b", "bistro-on-the-corner-of-the-street", "typed", "x-broken", "off"]
    config = write_config(
        tmp_path,
        {
            names[0]: {"command": sys.executable, "args": [str(BISTRO)]},
            names[1]: {"command": sys.executable, "args": [str(BISTRO)]},
            names[2]: {"command": sys.executable, "args": [str(TYPED)]},
            names[3]: {"command": "/no/such/mcp-server"},
            names[4]: {"command": "/no/such/either", "disabled": True},
        },
    )
    done = run_cli("servers", "--config", config)
    assert done.returncode == 3, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == names
    states = ["connected"] * 3 + ["failed", "disabled"]
    status = {line.index(word) for line, word in zip(lines, states, strict=True)}
    assert status == {len(names[1]) + 2}, done.stdout  # one column, two spaces after the longest name
    connected = lines[:3]
    for word in ("stdio", "tool"):
        assert len({line.index(word) for line in connected}) == 1, done.stdout
    # What follows the state starts in one column too: two spaces after the longest state.
    column = len(names[1]) + 2 + len("connected") + 2
    assert {line[column - 2 : column] for line in lines} == {"  "}, done.stdout
    assert all(line[column] != " " for line in lines), done.stdout


def test_servers_as_json(config: str) -> None:
    done = run_cli("servers", "--config", config, "--json")
    assert done.returncode == 3, done.stderr
    rows = {row["name"]: row for row in json.loads(done.stdout)}
    assert rows["bistro"]["connected"] is True
    assert rows["bistro"]["transport"] == "stdio"
    assert rows["bistro"]["era"] in ("legacy", "modern")
    assert rows["bistro"]["tools"] == 1
    assert rows["broken"]["connected"] is False and "/no/such/mcp-server" in rows["broken"]["error"]
    assert rows["bistro"]["health"] == {"state": "connected", "attempt": 0, "nextDelay": None, "reason": None}
    broken = rows["broken"]["health"]
    assert broken["state"] == "failed" and "/no/such/mcp-server" in broken["reason"]
    assert rows["off"]["health"] is None


def test_servers_of_one_name_only(config: str) -> None:
    done = run_cli("servers", "--config", config, "typed")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("typed  connected  ")
    assert "bistro" not in done.stdout


def test_tools_of_every_server_under_the_groups_names(config: str) -> None:
    done = run_cli("tools", "--config", config)
    assert done.returncode == 3  # the listing is there, and the broken server is reported
    assert "\nbistro_book_table\n" in "\n" + done.stdout
    assert "\nt.describe\n" in done.stdout
    assert "server 'broken' left out: could not start the server command" in done.stderr


def test_tools_of_every_server_as_json_name_the_server(config: str) -> None:
    done = run_cli("tools", "--config", config, "--json")
    tools = {tool["name"]: tool["server"] for tool in json.loads(done.stdout)}
    assert tools["bistro_book_table"] == "bistro"
    assert tools["t.no_params"] == "typed"


@pytest.mark.parametrize("how", [["typed"], ["--server", "typed"]])
def test_tools_of_one_server_of_the_file_show_the_names_call_takes(config: str, how: list[str]) -> None:
    """One naming everywhere: one server's listing shows the group's names too (here its tool_prefix)."""
    done = run_cli("tools", "--config", config, *how)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("t.describe\n")
    assert "bistro_book_table" not in done.stdout


@pytest.mark.parametrize("name", ["bistro_book_table", "bistro.book_table"])
def test_call_takes_the_name_tools_shows_and_server_dot_tool(config: str, name: str) -> None:
    done = run_cli("call", "--config", config, name, "date=2025-12-24", "party_size=2")
    assert done.returncode == 0, done.stderr
    assert "Booked for 2025-12-24" in done.stdout


def test_call_takes_a_prefixed_or_renamed_name_and_refuses_one_the_file_filters_out(tmp_path: Path) -> None:
    config = write_config(
        tmp_path,
        {
            "typed": {
                "command": sys.executable,
                "args": [str(TYPED)],
                "tool_prefix": "t.",
                "rename_tools": {"no_params": "ping_typed"},
                "exclude_tools": ["describe"],
            },
            "bistro": {"command": sys.executable, "args": [str(BISTRO)]},
        },
    )
    listed = run_cli("tools", "--config", config)
    assert "ping_typed" in listed.stdout.split() and "t.describe" not in listed.stdout.split()
    done = run_cli("call", "--config", config, "ping_typed")
    assert done.returncode == 0, done.stderr
    done = run_cli("call", "--config", config, "t.describe")  # excluded: not a name the group offers
    assert done.returncode == 2
    assert "'t.describe' names no server" in done.stderr and "the name `tools --config` shows" in done.stderr


def test_a_name_two_servers_would_give_is_refused_naming_both(tmp_path: Path) -> None:
    config = write_config(
        tmp_path,
        {
            "a": {"command": sys.executable, "args": [str(BISTRO)], "tool_prefix": "x_"},
            "b": {"command": sys.executable, "args": [str(BISTRO)], "tool_prefix": "x_"},
        },
    )
    done = run_cli("call", "--config", config, "x_book_table", "date=2025-12-24", "party_size=2")
    assert done.returncode == 2
    assert "a.book_table and b.book_table" in done.stderr


def test_call_server_dot_tool_answers_the_question_naming_the_server(config: str) -> None:
    done = run_cli(
        "call", "--config", config, "bistro.book_table", "date=2025-12-25", "party_size=2",
        stdin="y\n2025-12-27\n\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Booked for 2025-12-27" in done.stdout
    assert "Server bistro (" in done.stderr  # the question says which server of the file asks


def test_call_with_server_option(config: str) -> None:
    done = run_cli("call", "--config", config, "--server", "typed", "no_params", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["structuredContent"] == {"result": "nothing needed"}


def test_wrong_arguments_show_the_usage_as_the_person_wrote_it(config: str) -> None:
    done = run_cli("call", "--config", config, "bistro.book_table", "date=2025-12-24")
    assert done.returncode == 2
    assert "missing required parameter: party_size" in done.stderr
    usage = f"Usage: mcp-client call --config {config} --server bistro book_table date=STRING party_size="
    assert usage in done.stderr


def test_a_header_for_every_server_is_refused(config: str) -> None:
    done = run_cli("tools", "--config", config, "--header", "X-A: 1")
    assert done.returncode == 2
    assert "--header goes to one server" in done.stderr


def test_call_on_the_broken_server_says_why(config: str) -> None:
    done = run_cli("call", "--config", config, "broken.anything")
    assert done.returncode == 3
    assert "/no/such/mcp-server" in done.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["call", "nowhere.book_table"], "'nowhere.book_table' names no server of"),
        (["call", "--server", "nowhere", "book_table"], "no server named 'nowhere'"),
        (["tools", "nowhere"], "no server named 'nowhere'"),
        (["read", "file:///x"], "name one server of"),
    ],
)
def test_unknown_server_names_list_the_servers(config: str, argv: list[str], message: str) -> None:
    done = run_cli(*argv[:1], "--config", config, *argv[1:])
    assert done.returncode == 2
    assert message in done.stderr
    assert "bistro, typed, broken" in done.stderr


def test_a_config_mistake_names_the_file_server_and_field(tmp_path: Path) -> None:
    path = write_config(tmp_path, {"notes": {"url": "http://127.0.0.1:9/mcp", "type": "websocket"}})
    done = run_cli("tools", "--config", path)
    assert done.returncode == 2
    assert f"{path}: server 'notes', field 'type': unknown type 'websocket'" in done.stderr
    assert "Traceback" not in done.stderr


def test_listing_a_file_with_a_tool_policy_that_may_ask(tmp_path: Path) -> None:
    """A server's ``tool_policy`` that may ask needs someone to ask in a ``ClientGroup``: the listing
    commands call no tool, and list as before; a bad policy is said as any config mistake."""
    bistro = {"command": sys.executable, "args": [str(BISTRO)]}
    path = write_config(tmp_path, {"bistro": {**bistro, "tool_policy": {"deny": ["bistro.book_*"]}}})
    for command in ("tools", "servers"):
        done = run_cli(command, "--config", path)
        assert done.returncode == 0, done.stderr
        assert "bistro" in done.stdout
    path = write_config(tmp_path, {"bistro": {**bistro, "tool_policy": {"ask": "sometimes"}}})
    done = run_cli("tools", "--config", path)
    assert done.returncode == 2
    assert f"{path}: server 'bistro', field 'tool_policy.ask': must be one of 'always'" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_missing_config_file(tmp_path: Path) -> None:
    done = run_cli("servers", "--config", str(tmp_path / "absent.json"))
    assert done.returncode == 2
    assert "absent.json: no such file" in done.stderr


def test_no_config_is_ever_picked_up_from_the_current_folder(tmp_path: Path) -> None:
    """A cloned repository's .mcp.json must not start its commands: without --config it is not read."""
    marker = tmp_path / "started"
    evil = {"command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w')"]}
    for name in (".mcp.json", "mcp.json"):
        (tmp_path / name).write_text(json.dumps({"mcpServers": {"evil": evil}}), encoding="utf-8")
    for command in (["tools"], ["servers"], ["prompts"]):
        done = subprocess.run(
            [sys.executable, "-m", "ui_adapters.cli", *command],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            cwd=tmp_path,
            env={**cli_env(), "PYTHONPATH": str(ROOT / "src")},
        )
        assert done.returncode == 2, done.stderr
        assert "--config" in done.stderr
    assert not marker.exists()


def test_servers_needs_a_config() -> None:
    done = run_cli("servers")
    assert done.returncode == 2
    assert "mcp-client servers --config FILE" in done.stderr


def test_a_question_on_the_terminal_names_the_server_of_the_file(config: str) -> None:
    argv = ("call", "--config", config, "bistro.book_table", "date=2025-12-25", "party_size=2")
    with cli_screen(*argv) as term:
        term.wait_for(r"Server bistro")
        term.wait_for(r"Enter to choose\)")
        term.send("y" + ENTER)
        term.wait_for(r"2025-12-26")
        term.send(ENTER)  # keep the proposed date
        term.wait_for("Send these answers")
        term.send(ENTER)
        term.wait_for(r"Booked for 2025-12-26")
        assert term.wait_exit() == 0


def test_servers_on_the_terminal(config: str) -> None:
    with cli_screen("servers", "--config", config) as term:
        term.wait_for(r"broken\s+failed\s+could not start")
        assert term.wait_exit() == 3
        assert any(line.startswith("bistro  connected") for line in term.lines), term.text
