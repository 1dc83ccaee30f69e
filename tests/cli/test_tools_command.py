"""``mcp-client tools SERVER``: each tool with its arguments, as text or JSON, both transports and eras."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import mcp_client
from tests.cli._cli import FILES, ROOT, TIMEOUT, TYPED, cli_env, run_cli
from tests.support.screen import cli_screen

# typed_server.py's `forecast` tool: a description and a parameter description longer than 80 columns.
FORECAST = (
    "Look up the weather forecast for a city several days ahead, with temperatures in Celsius and the "
    "chance of rain for each half day."
)
CITY = "The city to forecast, spelled in English or in the local language, for example Lisbon or Lisboa."


def test_lists_each_tool_with_its_arguments(bistro: str) -> None:
    done = run_cli("tools", bistro)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("book_table\n")
    assert "2025-12-25 is full" in done.stdout
    assert re.search(r"^\s+date\s+string\s+required$", done.stdout, re.M)
    assert re.search(r"^\s+party_size\s+integer\s+required$", done.stdout, re.M)


@pytest.mark.parametrize("mode", ["legacy", "auto", "2026-07-28"])
def test_lists_in_every_mode(typed_http_url: str, mode: str) -> None:
    done = run_cli("tools", "--mode", mode, typed_http_url)
    assert done.returncode == 0, done.stderr
    # each optional parameter with the default the schema gives it (issue 26, item 8)
    assert re.search(r"^\s+colour\s+one of: red, green, blue\s+optional\s+default: red$", done.stdout, re.M)
    assert re.search(r"^\s+note\s+string \| null\s+optional\s+default: null$", done.stdout, re.M)
    assert re.search(r'^\s+label\s+string\s+optional\s+default: ""$', done.stdout, re.M)
    assert re.search(r"^no_params\n.*\n\s+\(no parameters\)$", done.stdout, re.M)


def test_piped_each_line_of_the_listing_arrives_whole() -> None:
    env = cli_env()
    del env["COLUMNS"]  # a pipe has no width; rich would assume 80 columns
    done = subprocess.run(
        [sys.executable, "-m", "ui_adapters.cli", "tools", str(TYPED)],
        stdin=subprocess.DEVNULL,
        capture_output=True,  # stdout is a pipe
        text=True,
        cwd=ROOT,
        env=env,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    assert f"\nforecast\n  {FORECAST}\n" in done.stdout
    assert re.search(rf"^  city\s+string\s+required  {re.escape(CITY)}$", done.stdout, re.M)
    assert re.search(r"^  days\s+integer\s+optional\s+default: 3$", done.stdout, re.M)
    assert [line for line in done.stdout.splitlines() if line != line.rstrip()] == []


@pytest.mark.slow
def test_in_a_terminal_the_listing_wraps_at_its_width_between_words() -> None:
    with cli_screen("tools", str(TYPED), rows=60, columns=80) as term:
        assert term.wait_exit() == 0
        lines = term.lines
    start = lines.index("forecast")
    description = lines[start + 1 : start + 3]
    assert all(line.startswith("  ") and len(line) <= 80 for line in description), lines
    assert " ".join(line.strip() for line in description) == FORECAST
    city = lines[start + 3 : start + 5]
    column = city[0].index("The city")
    assert re.match(r"^  city\s+string\s+required  The city", city[0]), lines
    assert city[1][:column].strip() == "" and city[1][column] != " ", lines  # continued under its column
    assert " ".join(line[column:] for line in city) == CITY
    assert re.match(r"^  days\s+integer\s+optional\s+default: 3$", lines[start + 5]), lines


def test_json_is_the_raw_tool_list(files: str) -> None:
    done = run_cli("tools", files, "--json")
    assert done.returncode == 0, done.stderr
    tools = json.loads(done.stdout)
    assert [tool["name"] for tool in tools] == ["delete_folder"]
    assert tools[0]["inputSchema"]["required"] == ["path"]


def test_a_quoted_command_line_is_run_over_stdio() -> None:
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(FILES))}"
    done = run_cli("tools", command)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^\s+path\s+string\s+required$", done.stdout, re.M)


def test_the_console_script_is_installed() -> None:
    script = Path(sys.executable).with_name("mcp-client")
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=TIMEOUT)
    assert (done.returncode, done.stdout) == (0, f"mcp-client {mcp_client.__version__}\n")


def test_importing_the_library_loads_no_terminal_code() -> None:
    # (rich is left out: httpx loads it for its own CLI whenever click and pygments are installed)
    modules = "('prompt_toolkit', 'ui_adapters.cli', 'ui_adapters')"
    code = f"import sys, mcp_client; print(sorted(m for m in {modules} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT)
    assert done.stdout == "[]\n", done.stderr
