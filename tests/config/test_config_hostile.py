"""Hostile config files: each mistake is a ``ConfigError`` naming the file and the place, never a
``UnicodeDecodeError``, ``RecursionError`` or ``OverflowError`` from deep inside the loader; and an
error never shows the value a ``${VARIABLE}`` expanded to (it may be a secret), only the text as written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_client.config import ConfigError, load_config
from tests.cli._cli import run_cli

SECRET = "sk-live-1234567890abcdef"


def write(folder: Path, data: bytes | str) -> Path:
    path = folder / "mcp.json"
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def test_a_file_that_is_not_utf8_names_the_file_and_the_place(tmp_path: Path) -> None:
    path = write(tmp_path, b'{"mcpServers": {\n  "a": {"command": "caf\xe9"}}}')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert str(path) in message and "UTF-8" in message
    assert "byte 0xe9 at line 2, column 24" in message  # 1-based, as an editor counts


def test_a_utf8_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Windows editors may start a UTF-8 file with a BOM; it is not a mistake."""
    path = write(tmp_path, b"\xef\xbb\xbf" + json.dumps({"mcpServers": {"a": {"command": "x"}}}).encode())
    assert load_config(path)["a"].command == "x"


def test_brackets_nested_too_deep_name_the_file_and_the_place(tmp_path: Path) -> None:
    path = write(
        tmp_path, '{"mcpServers": {"a": {"command": "x", "extra": ' + "[" * 100_000 + "]" * 100_000 + "}}}"
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert str(path) in message and "nested" in message
    assert "line 1, column " in message


@pytest.mark.parametrize(
    "number",
    ["1" + "0" * 400, "-" + "1" * 400, "1e400", "-1e400", "NaN", "Infinity", "9" * 5000],
    ids=["400-digits", "minus-400-digits", "1e400", "-1e400", "NaN", "Infinity", "5000-digits"],
)
def test_a_timeout_no_float_can_hold_is_a_config_error(tmp_path: Path, number: str) -> None:
    path = write(tmp_path, '{"mcpServers": {"a": {"command": "x", "timeout": ' + number + "}}}")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert str(path) in message
    assert len(message) < 500, "the message quotes a shortened number, not all its digits"
    if number != "9" * 5000:  # refused while parsing: no server or field yet, but the line and column
        assert "server 'a', field 'timeout'" in message
    else:
        assert "line 1, column " in message


@pytest.mark.parametrize("timeout", [0, 0.0, -1, -0.5, True, "5", [5]])
def test_a_timeout_must_be_seconds_above_zero(timeout: Any) -> None:
    """docs/servers.md: seconds per request; 0 would time every request out at once."""
    with pytest.raises(
        ConfigError, match=r"server 'a', field 'timeout': expected a number of seconds above 0"
    ):
        load_config({"mcpServers": {"a": {"command": "x", "timeout": timeout}}})


@pytest.mark.parametrize("timeout", [0.001, 1, 2.5, 86_400])
def test_a_timeout_above_zero_is_kept(timeout: float) -> None:
    assert load_config({"mcpServers": {"a": {"command": "x", "timeout": timeout}}})["a"].timeout == timeout


def test_a_mistyped_url_error_shows_the_text_as_written_never_the_secret() -> None:
    written = "htps://api.example/mcp?key=${API_KEY}"
    with pytest.raises(ConfigError) as caught:
        load_config({"mcpServers": {"a": {"url": written}}}, environ={"API_KEY": SECRET})
    message = str(caught.value)
    assert "must start with http:// or https://" in message
    assert written in message
    assert SECRET not in message


def test_a_missing_folder_error_shows_the_text_as_written_never_the_secret(tmp_path: Path) -> None:
    written = "${TOKEN}/work"
    with pytest.raises(ConfigError) as caught:
        load_config({"mcpServers": {"a": {"command": "x", "cwd": written}}}, environ={"TOKEN": SECRET})
    message = str(caught.value)
    assert "is not a folder that exists" in message and written in message
    assert SECRET not in message


def test_servers_on_a_file_that_is_not_utf8_is_a_usage_error(tmp_path: Path) -> None:
    """docs/cli.md: a mistake in the file exits 2, naming the file; no traceback."""
    path = write(tmp_path, b'{"mcpServers": {"a": {"command": "\xff"}}}')
    done = run_cli("servers", "--config", str(path))
    assert done.returncode == 2, done.stderr
    assert str(path) in done.stderr and "UTF-8" in done.stderr
    assert "Traceback" not in done.stderr


def test_servers_on_a_file_nested_too_deep_is_a_usage_error(tmp_path: Path) -> None:
    path = write(tmp_path, "[" * 100_000)
    done = run_cli("servers", "--config", str(path))
    assert done.returncode == 2, done.stderr
    assert str(path) in done.stderr and "nested" in done.stderr
    assert "Traceback" not in done.stderr
