"""``ServerConfig.tool_name`` / ``offers`` / ``tool_named``: the group's naming and filters, read from the
config alone, one promise a test (the names ``ClientGroup`` and ``mcp-client tools --config`` show, and
the reverse ``mcp-client call --config`` uses)."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_client.config import ServerConfig, load_config


def entry(**options: Any) -> ServerConfig:
    return load_config({"mcpServers": {"notes": {"command": "notes-server", **options}}})["notes"]


def test_the_default_name_is_server_underscore_tool() -> None:
    assert entry().tool_name("search") == "notes_search"
    assert entry().tool_named("notes_search") == "search"


def test_a_tool_prefix_replaces_the_default_one() -> None:
    notes = entry(tool_prefix="n.")
    assert notes.tool_name("search") == "n.search"
    assert notes.tool_named("n.search") == "search"
    assert notes.tool_named("notes_search") is None


def test_an_empty_tool_prefix_keeps_the_servers_own_names() -> None:
    notes = entry(tool_prefix="")
    assert notes.tool_name("search") == "search" and notes.tool_named("search") == "search"


def test_rename_tools_wins_over_the_prefix_both_ways() -> None:
    notes = entry(tool_prefix="n.", rename_tools={"search": "find_notes"})
    assert notes.tool_name("search") == "find_notes"
    assert notes.tool_named("find_notes") == "search"
    assert notes.tool_named("n.search") is None  # that tool is offered under its new name only
    assert notes.tool_name("list") == "n.list"


@pytest.mark.parametrize(
    ("options", "offered", "left_out"),
    [
        ({}, ["search", "delete"], []),
        ({"include_tools": ["search", "get_*"]}, ["search", "get_note"], ["delete"]),
        ({"exclude_tools": ["delete*"]}, ["search"], ["delete", "delete_all"]),
        ({"include_tools": ["get_*"], "exclude_tools": ["get_secret"]}, ["get_note"], ["get_secret"]),
    ],
)
def test_include_and_exclude_let_in_what_they_say(
    options: dict[str, Any], offered: list[str], left_out: list[str]
) -> None:
    notes = entry(**options)
    assert [tool for tool in offered + left_out if notes.offers(tool)] == offered
    assert [notes.tool_named(f"notes_{tool}") for tool in left_out] == [None] * len(left_out)


def test_a_bare_prefix_names_no_tool() -> None:
    assert entry().tool_named("notes_") is None
    assert entry().tool_named("other_search") is None
