"""``ToolPolicy.decide`` at each edge: deny beats allow, patterns on the app's name and on
``server.tool``, each ask rule with annotations absent, true, false and not booleans."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_client import ToolPolicy

RO_TRUE = {"readOnlyHint": True}
RO_FALSE = {"readOnlyHint": False}
DESTRUCTIVE_FALSE = {"destructiveHint": False}
DESTRUCTIVE_TRUE = {"destructiveHint": True}
JUNK = {"readOnlyHint": "true", "destructiveHint": 0}  # what a sloppy server sends: no booleans


def test_deny_beats_allow_and_allow_beats_ask() -> None:
    policy = ToolPolicy(allow=["*"], deny=["drop_*"], ask="always")
    assert policy.decide("drop_table").action == "deny"
    assert policy.decide("drop_table").reason == "deny pattern 'drop_*'"
    assert policy.decide("select").action == "allow"
    assert policy.decide("select").reason == "allow pattern '*'"
    assert ToolPolicy(ask="always").decide("select", RO_TRUE).action == "ask"


def test_patterns_match_the_whole_name_case_sensitively() -> None:
    policy = ToolPolicy(deny=["drop"], ask="never")
    assert policy.decide("drop").action == "deny"
    assert policy.decide("drop_table").action == "allow"  # fnmatch on the whole name, no prefix match
    assert policy.decide("DROP").action == "allow"  # fnmatchcase: case counts on every OS


def test_server_dot_tool_patterns() -> None:
    policy = ToolPolicy(deny=["files.*"], allow=["notes.*"], ask="always")
    assert policy.decide("delete", server="files").action == "deny"
    assert policy.decide("delete", server="notes").action == "allow"
    assert policy.decide("delete").action == "ask"  # no server: only the name is matched
    # A group's unique name is matched as it is, and server.tool with the server's own tool name.
    assert policy.decide("files_delete", server="files", own_name="delete").action == "deny"
    group = ToolPolicy(deny=["files_delete"], ask="never")
    assert group.decide("files_delete", server="files", own_name="delete").action == "deny"
    assert group.decide("delete", server="files").action == "allow"


@pytest.mark.parametrize(
    ("annotations", "expected"),
    [(None, "ask"), ({}, "ask"), (RO_TRUE, "allow"), (RO_FALSE, "ask"), (DESTRUCTIVE_FALSE, "ask"),
     (JUNK, "ask")],
)  # fmt: skip
def test_unless_read_only(annotations: Any, expected: str) -> None:
    assert ToolPolicy().decide("tool", annotations).action == expected


@pytest.mark.parametrize(
    ("annotations", "expected"),
    [(None, "ask"), ({}, "ask"), (RO_TRUE, "allow"), (RO_FALSE, "ask"), (DESTRUCTIVE_FALSE, "allow"),
     (DESTRUCTIVE_TRUE, "ask"), ({**RO_FALSE, **DESTRUCTIVE_FALSE}, "allow"), (JUNK, "ask")],
)  # fmt: skip
def test_destructive(annotations: Any, expected: str) -> None:
    """The spec's defaults: a tool that says nothing is destructive, so it is asked about."""
    assert ToolPolicy(ask="destructive").decide("tool", annotations).action == expected


@pytest.mark.parametrize("annotations", [None, {}, RO_TRUE, RO_FALSE, DESTRUCTIVE_FALSE, JUNK])
def test_always_and_never_ignore_annotations(annotations: Any) -> None:
    assert ToolPolicy(ask="always").decide("tool", annotations).action == "ask"
    assert ToolPolicy(ask="never").decide("tool", annotations).action == "allow"


def test_the_reason_names_the_rule() -> None:
    assert ToolPolicy().decide("t", RO_TRUE).reason == 'ask="unless_read_only": the server marks it read-only'
    assert ToolPolicy(ask="destructive").decide("t").reason == (
        'ask="destructive": the server does not mark it safe'
    )


def test_bad_policies_are_refused_at_construction() -> None:
    with pytest.raises(ValueError, match="ask is one of 'always', 'unless_read_only'"):
        ToolPolicy(ask="sometimes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="non-empty strings"):
        ToolPolicy(allow=[""])
    assert ToolPolicy(allow="get_*").allow == ("get_*",)  # one pattern as a string, not its letters
    assert not ToolPolicy(ask="never").may_ask and ToolPolicy().may_ask


def test_a_server_dot_tool_pattern_uses_the_servers_own_tool_name_and_needs_a_server() -> None:
    exact = ToolPolicy(deny=["files.delete"], ask="never")
    assert exact.decide("files_delete", server="files", own_name="delete").action == "deny"
    assert exact.decide("files_delete", server="files").action == "allow"  # files.files_delete
    assert ToolPolicy(deny=["*.drop"], ask="never").decide("drop").action == "allow"  # no server


def test_every_rule_gives_its_own_reason() -> None:
    """The reason is what an approval UI and the audit log show: each rule says which it is."""
    assert ToolPolicy(ask="never").decide("t").reason == 'ask="never"'
    assert ToolPolicy(ask="always").decide("t", RO_TRUE).reason == 'ask="always"'
    assert ToolPolicy().decide("t").reason == 'ask="unless_read_only": the server does not mark it read-only'
    assert ToolPolicy(ask="destructive").decide("t", DESTRUCTIVE_FALSE).reason == (
        'ask="destructive": the server marks it not destructive'
    )
    assert ToolPolicy(deny=["t*"]).decide("t").reason == "deny pattern 't*'"
    assert ToolPolicy(allow=["t"]).decide("t").reason == "allow pattern 't'"


def test_a_bad_pattern_is_named_with_its_parameter() -> None:
    with pytest.raises(TypeError, match=r"^ToolPolicy\(allow=\.\.\.\) takes fnmatch patterns"):
        ToolPolicy(allow=["ok", 3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"^ToolPolicy\(deny=\.\.\.\) takes fnmatch patterns .* got ''"):
        ToolPolicy(deny=[""])
