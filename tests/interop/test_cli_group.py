"""``mcp-client`` against the interop peers: a config of every kind, HTTP+SSE, prompts and resources.

server-everything (TypeScript SDK) over stdio, streamable HTTP and the older HTTP+SSE; the FastMCP peer
over HTTP and HTTP+SSE; a command that does not exist. Each command's output is what a user reads.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.cli._cli import run_cli
from tests.support.screen import cli_screen

DOCUMENT = "demo://resource/static/document/architecture.md"


@pytest.fixture
def config(
    tmp_path: Path,
    everything_stdio_command: tuple[str, list[str]],
    everything_url: str,
    everything_sse_url: str,
    fastmcp_url: str,
) -> str:
    node, args = everything_stdio_command
    servers: dict[str, Any] = {
        "everything": {"command": node, "args": args},
        "everything_http": {"url": everything_url, "include_tools": ["echo"]},
        "everything_sse": {"type": "sse", "url": everything_sse_url, "include_tools": ["echo"]},
        "fastmcp": {"url": fastmcp_url, "tool_prefix": "fm."},
        "broken": {"command": "/no/such/mcp-server"},
    }
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return str(path)


def test_servers_of_every_transport(config: str) -> None:
    done = run_cli("servers", "--config", config, "--json", timeout=120)
    assert done.returncode == 3, done.stderr
    rows = {row["name"]: row for row in json.loads(done.stdout)}
    assert rows["everything"]["transport"] == "stdio"
    assert rows["everything_http"]["transport"] == "http"
    assert rows["everything_sse"]["transport"] == "sse"
    assert rows["fastmcp"]["transport"] == "http"
    assert rows["everything_http"]["tools"] == 1  # include_tools applies
    assert rows["everything"]["tools"] > 5
    assert rows["broken"]["connected"] is False


def test_tools_across_the_config_and_a_call_through_sse(config: str) -> None:
    done = run_cli("tools", "--config", config, timeout=120)
    assert done.returncode == 3
    names = {line.split()[0] for line in done.stdout.splitlines() if line and not line.startswith(" ")}
    assert {"everything_echo", "everything_http_echo", "everything_sse_echo", "fm.echo"} <= names
    called = run_cli("call", "--config", config, "everything_sse.echo", "message=over sse", timeout=120)
    assert called.returncode == 0, called.stderr
    assert "over sse" in called.stdout


def test_prompts_and_resources_of_every_server(config: str) -> None:
    prompts = run_cli("prompts", "--config", config, "--json", timeout=120)
    assert prompts.returncode == 3  # the broken server
    found = {(p["server"], p["name"]) for p in json.loads(prompts.stdout)}
    assert ("everything", "args-prompt") in found and ("everything_sse", "args-prompt") in found
    resources = run_cli("resources", "--config", config, timeout=120)
    assert f"{DOCUMENT}  architecture.md  text/markdown  [everything_http]" in resources.stdout


def test_get_prompt_and_read_on_a_server_of_the_file(config: str) -> None:
    prompt = run_cli("get-prompt", "--config", config, "everything_http.args-prompt", "city=Lisbon")
    assert prompt.returncode == 0, prompt.stderr
    assert prompt.stdout.splitlines()[:2] == ["user:", "What's weather in Lisbon?"]
    read = run_cli("read", "--config", config, "everything_sse", DOCUMENT)
    assert read.returncode == 0, read.stderr
    assert read.stdout.startswith("# Everything Server – Architecture")


def test_single_server_prompts_resources_get_prompt_read(everything_url: str) -> None:
    prompts = run_cli("prompts", everything_url)
    assert prompts.returncode == 0, prompts.stderr
    assert "args-prompt\n  A prompt with two arguments" in prompts.stdout
    assert "  city  required  Name of the city" in prompts.stdout
    listed = json.loads(run_cli("resources", everything_url, "--json").stdout)
    assert DOCUMENT in [r["uri"] for r in listed["resources"]]
    assert listed["resourceTemplates"]
    got = json.loads(run_cli("get-prompt", everything_url, "args-prompt", "city=Porto", "--json").stdout)
    assert got["messages"][0]["content"]["text"] == "What's weather in Porto?"
    read = json.loads(run_cli("read", "--json", everything_url, DOCUMENT).stdout)
    assert read["contents"][0]["uri"] == DOCUMENT
    assert read["contents"][0]["mimeType"] == "text/markdown"


def test_a_missing_prompt_and_a_prompt_argument_mistake(everything_url: str) -> None:
    missing = run_cli("get-prompt", everything_url, "no-such-prompt")
    assert missing.returncode == 2
    assert "has no prompt 'no-such-prompt'. Its prompts: simple-prompt, args-prompt" in missing.stderr
    wrong = run_cli("get-prompt", everything_url, "args-prompt", "Lisbon")
    assert wrong.returncode == 2
    assert "prompt arguments are KEY=VALUE, got 'Lisbon'" in wrong.stderr


def test_an_sse_url_is_reached_without_being_told(everything_sse_url: str, fastmcp_sse_url: str) -> None:
    """Client(url) falls back to HTTP+SSE; --transport sse goes there at once."""
    for url in (everything_sse_url, fastmcp_sse_url):
        done = run_cli("tools", url)
        assert done.returncode == 0, done.stderr
        assert re.search(r"^echo\b", done.stdout, re.M), done.stdout
    told = run_cli("call", "--transport", "sse", fastmcp_sse_url, "echo", "text=hi there")
    assert told.returncode == 0, told.stderr
    assert "hi there" in told.stdout


def test_forcing_streamable_http_on_an_sse_server_gives_the_advice(everything_sse_url: str) -> None:
    done = run_cli("tools", "--transport", "http", everything_sse_url)
    assert done.returncode == 3
    assert "leave --transport out (or give --transport sse)" in done.stderr


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["prompts"], r"args-prompt"),
        (["resources"], r"architecture\.md"),
        (["get-prompt", "", "args-prompt", "city=Faro"], r"What's weather in Faro\?"),
        (["read", "", DOCUMENT], r"\[How It Works\]"),
    ],
)
def test_each_new_command_on_a_terminal(everything_url: str, argv: list[str], expected: str) -> None:
    words = [everything_url if word == "" else word for word in argv]
    if len(words) == 1:
        words.append(everything_url)
    with cli_screen(*words) as term:
        term.wait_for(expected)
        assert term.wait_exit() == 0
