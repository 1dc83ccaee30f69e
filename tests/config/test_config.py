"""``mcp_client.config``: reading ``mcpServers`` files as Claude Desktop, Cursor and VS Code write them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_client.config import ConfigError, MCPConfig, load_config


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_claude_desktop_file(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        {
            "mcpServers": {
                "files": {
                    "command": "npx",
                    "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
                },
                "weather": {"url": "https://weather.example/mcp", "headers": {"X-Team": "blue"}},
                "legacy": {"type": "sse", "url": "https://old.example/sse"},
            }
        },
    )
    config = load_config(path)
    assert list(config.servers) == ["files", "weather", "legacy"]
    files = config["files"]
    assert (files.kind, files.command, files.args) == (
        "stdio", "npx", ("-y", "@modelcontextprotocol/server-filesystem", "/tmp"),
    )  # fmt: skip
    assert files.env is None and files.cwd is None
    assert (config["weather"].kind, config["weather"].headers) == ("http", {"X-Team": "blue"})
    assert config["legacy"].kind == "sse"
    assert config.source == str(path)


def test_vs_code_servers_with_type_and_inputs(tmp_path: Path) -> None:
    config = load_config(
        {
            "inputs": [{"type": "promptString", "id": "token"}],
            "servers": {
                "local": {"type": "stdio", "command": "python", "args": ["server.py"]},
                "remote": {"type": "http", "url": "http://127.0.0.1:9/mcp"},
                "other": {"type": "streamableHttp", "url": "http://127.0.0.1:9/mcp"},
            },
        }
    )
    assert [s.kind for s in config.servers.values()] == ["stdio", "http", "http"]


def test_variables_expand_in_env_headers_args_and_url() -> None:
    environ = {"TOKEN": "s3cret", "HOME_DIR": "/home/ada", "PORT": "8123"}
    config = load_config(
        {
            "mcpServers": {
                "a": {
                    "command": "run",
                    "args": ["--root", "${HOME_DIR}/work", "--cost", "$$5", "--level", "${LEVEL:-info}"],
                    "env": {"API_TOKEN": "${env:TOKEN}"},
                },
                "b": {"url": "http://127.0.0.1:${PORT}/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
            }
        },
        environ=environ,
    )
    assert config["a"].args == ("--root", "/home/ada/work", "--cost", "$5", "--level", "info")
    assert config["a"].env == {"API_TOKEN": "s3cret"}
    assert config["b"].url == "http://127.0.0.1:8123/mcp"
    assert config["b"].headers == {"Authorization": "Bearer s3cret"}


def test_a_missing_variable_is_an_error_not_an_empty_secret() -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(
            {"mcpServers": {"b": {"url": "http://x/mcp", "headers": {"Authorization": "${NOPE}"}}}},
            environ={},
        )
    message = str(caught.value)
    assert "server 'b'" in message and "headers.Authorization" in message and "${NOPE} is not set" in message


@pytest.mark.parametrize(
    ("entry", "field", "words"),
    [
        ({"type": "websocket", "url": "ws://x"}, "type", "unknown type 'websocket'"),
        ({"command": "x", "url": "http://x/mcp"}, None, 'both "command"'),
        ({"args": ["a"]}, None, 'needs a "command"'),
        ({"command": 5}, "command", "expected a string, got a number"),
        ({"command": "x", "args": "a b"}, "args", "expected a list of strings"),
        ({"command": "x", "env": {"A": None}}, "env.A", "expected a string, got null"),
        ({"command": "x", "cwd": "no/such/folder"}, "cwd", "is not a folder that exists"),
        ({"url": "ftp://x"}, "url", "must start with http://"),
        ({"type": "sse", "command": "x"}, "url", 'needs a "url"'),
        ({"command": "x", "mode": "2030-01-01"}, "mode", "must be one of"),
        ({"command": "x", "timeout": -1}, "timeout", "above 0"),
        ({"command": "x", "include_tools": "echo"}, "include_tools", "list of tool names"),
        ({"command": "x", "auth": "basic"}, "auth", '"oauth", or an object'),
        ({"url": "http://x/mcp", "headers": ["a"]}, "headers", "expected an object of strings"),
    ],
)
def test_errors_name_the_server_and_the_field(entry: dict[str, Any], field: str | None, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config({"mcpServers": {"srv": entry}})
    message = str(caught.value)
    assert "server 'srv'" in message
    if field is not None:
        assert f"field {field!r}" in message
    assert words in message


def test_unknown_keys_are_kept_and_ignored_and_disabled_servers_skipped() -> None:
    config = load_config(
        {
            "mcpServers": {
                "a": {"command": "x", "alwaysAllow": ["echo"], "autoApprove": [], "description": "mine"},
                "off": {"command": "y", "disabled": True},
            }
        }
    )
    assert dict(config["a"].extra) == {"alwaysAllow": ["echo"], "autoApprove": [], "description": "mine"}
    assert list(config.servers) == ["a"] and config.disabled == ("off",)


def test_our_options() -> None:
    config = load_config(
        {
            "mcpServers": {
                "a": {
                    "command": "x",
                    "mode": "legacy",
                    "timeout": 5,
                    "include_tools": ["get_*", "echo"],
                    "exclude_tools": ["get_secret"],
                    "tool_prefix": "",
                    "rename_tools": {"echo": "say"},
                    "auth": "oauth",
                }
            }
        }
    )
    a = config["a"]
    assert (a.mode, a.timeout, a.include_tools, a.exclude_tools) == (
        "legacy",
        5.0,
        ("get_*", "echo"),
        ("get_secret",),
    )
    assert (a.tool_prefix, dict(a.rename_tools), a.auth) == ("", {"echo": "say"}, "oauth")


def test_relative_cwd_is_read_from_the_files_folder(tmp_path: Path) -> None:
    (tmp_path / "srv").mkdir()
    config = load_config(write(tmp_path, {"mcpServers": {"a": {"command": "x", "cwd": "srv"}}}))
    assert config["a"].cwd == str((tmp_path / "srv").resolve())


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"mcpServers": {"a": {"command": "x",}}}')
    with pytest.raises(ConfigError, match=r"not valid JSON at line 1, column \d+"):
        load_config(bad)
    with pytest.raises(ConfigError, match='no "mcpServers" object'):
        load_config({"servers_": {}})


def test_a_loaded_config_passes_through_and_names_unknown_servers() -> None:
    config = load_config({"mcpServers": {"a": {"command": "x"}}})
    assert load_config(config) is config
    assert isinstance(config, MCPConfig)
    with pytest.raises(KeyError, match=r"no server named 'b'.*servers: a"):
        config["b"]


def test_auth_object_carries_the_login_options_of_the_cli(tmp_path: Path) -> None:
    """Issue 24: an entry names the client id, its private key (relative to the file) and DPoP."""
    path = write(
        tmp_path,
        {
            "mcpServers": {
                "corp": {
                    "url": "https://corp.example/mcp",
                    "auth": {"client_id": "${CORP_ID}", "private_key": "keys/corp.pem", "dpop": True},
                },
                "plain": {"url": "https://plain.example/mcp", "auth": "oauth"},
            }
        },
    )
    config = load_config(path, environ={"CORP_ID": "cli-123"})
    corp = config["corp"]
    assert corp.auth == "oauth"
    assert corp.auth_options is not None
    assert corp.auth_options.client_id == "cli-123"
    assert corp.auth_options.private_key == str(tmp_path.resolve() / "keys" / "corp.pem")
    assert corp.auth_options.dpop is True
    assert config["plain"].auth == "oauth" and config["plain"].auth_options is None


@pytest.mark.parametrize(
    ("auth", "message"),
    [
        ({"private_key": "k.pem"}, "field 'auth.private_key': needs \"client_id\""),
        ({"client_id": "x", "dpop": "yes"}, "field 'auth.dpop': expected true or false"),
        ({"client_id": "x", "secret": "s"}, "field 'auth.secret': unknown login option"),
        ({"client_id": 3}, "field 'auth.client_id': expected a non-empty string"),
        ("basic", "field 'auth': \"oauth\", or an object"),
    ],
)
def test_auth_object_mistakes_name_the_field(tmp_path: Path, auth: Any, message: str) -> None:
    path = write(tmp_path, {"mcpServers": {"corp": {"url": "https://corp.example/mcp", "auth": auth}}})
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert message in str(caught.value)
    assert "server 'corp'" in str(caught.value)


def test_a_tool_policy_is_read_into_a_tool_policy(tmp_path: Path) -> None:
    from mcp_client import ToolPolicy

    path = write(
        tmp_path,
        {
            "mcpServers": {
                "notes": {
                    "command": "notes-server",
                    "tool_policy": {"allow": ["get_*"], "deny": ["drop_*", "notes.wipe"], "ask": "always"},
                },
                "files": {"command": "files-server", "tool_policy": {"deny": ["wipe_*"]}},  # ask: the default
                "plain": {"command": "plain-server"},
            }
        },
    )
    config = load_config(path)
    assert config["notes"].tool_policy == ToolPolicy(
        allow=["get_*"], deny=["drop_*", "notes.wipe"], ask="always"
    )
    assert config["files"].tool_policy == ToolPolicy(deny=["wipe_*"], ask="unless_read_only")
    assert config["plain"].tool_policy is None
    assert "tool_policy" not in config["notes"].extra


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        (
            ["drop_*"],
            "server 'notes', field 'tool_policy': expected an object such as "
            '{"deny": ["drop_*"], "ask": "always"}; got a list',
        ),
        (
            {"ask": "sometimes"},
            "field 'tool_policy.ask': must be one of 'always', 'unless_read_only', "
            "'destructive', 'never'; got 'sometimes'",
        ),
        ({"ask": None}, "field 'tool_policy.ask': must be one of 'always'"),
        ({"ask": ["never"]}, "field 'tool_policy.ask': must be one of 'always'"),
        (
            {"deny": "drop_*"},
            "field 'tool_policy.deny': expected a list of tool names or fnmatch patterns "
            '(non-empty strings), such as ["drop_*", "files.wipe_disk"]; got \'drop_*\'',
        ),
        ({"allow": ["get_*", ""]}, "field 'tool_policy.allow': expected a list of tool names"),
        ({"allow": [3]}, "field 'tool_policy.allow': expected a list of tool names"),
        ({"deny": ["x"] * 50 + [None]}, "field 'tool_policy.deny': expected a list of tool names"),
        ({"denied": ["drop_*"]}, "field 'tool_policy.denied': unknown key; use allow, deny or ask"),
    ],
)
def test_tool_policy_mistakes_name_the_server_the_key_and_the_fix(
    tmp_path: Path, policy: Any, message: str
) -> None:
    path = write(tmp_path, {"mcpServers": {"notes": {"command": "notes-server", "tool_policy": policy}}})
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    said = str(caught.value)
    assert said.startswith(f"{path}: server 'notes', field 'tool_policy")
    assert message in said
    assert len(said) < 300  # a long value is cut, never the whole of it
    assert caught.value.__cause__ is None and caught.value.__context__ is None  # no traceback under it
