"""Token storage: what survives a restart, who may read it, and what a damaged file does."""

from __future__ import annotations

import json
import logging
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import anyio
import pytest

from mcp_client.auth import (
    ClientRegistration,
    FileTokenStorage,
    InMemoryTokenStorage,
    StoredTokens,
    TokenStorage,
    default_storage_path,
)

pytestmark = pytest.mark.anyio

SERVER = "https://mcp.example.com/mcp"
TOKENS = StoredTokens(
    access_token="at-secret-value",
    refresh_token="rt-secret-value",
    scope="a b",
    expires_at=1_900_000_000.0,
    issuer="https://as.example.com",
    client_id="c1",
    client_auth_method="client_secret_basic",
    resource=SERVER,
    token_endpoint="https://as.example.com/token",
)
CLIENT = ClientRegistration(
    "c1", "cs-secret-value", "client_secret_basic", "http://127.0.0.1:5/cb", "https://as.example.com"
)


async def _exercise(storage: TokenStorage) -> None:
    assert isinstance(storage, TokenStorage)
    assert await storage.get_tokens(SERVER) is None
    await storage.set_tokens(SERVER, TOKENS)
    await storage.set_client(SERVER, "https://as.example.com", CLIENT)
    await storage.set_tokens("https://other.example.com/mcp", TOKENS.with_changes(access_token="other"))
    assert await storage.get_tokens(SERVER) == TOKENS
    assert await storage.get_client(SERVER, "https://as.example.com") == CLIENT
    assert await storage.get_client(SERVER, "https://as2.example.com") is None  # bound to its issuer
    await storage.clear(SERVER)
    assert await storage.get_tokens(SERVER) is None
    assert await storage.get_client(SERVER, "https://as.example.com") is None
    other = await storage.get_tokens("https://other.example.com/mcp")
    assert other is not None and other.access_token == "other"


async def test_in_memory_storage() -> None:
    await _exercise(InMemoryTokenStorage())


async def test_file_storage(tmp_path: Path) -> None:
    await _exercise(FileTokenStorage(tmp_path / "sub" / "tokens.json"))


def test_file_storage_survives_a_restart_with_the_absolute_expiry(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    anyio.run(FileTokenStorage(path).set_tokens, SERVER, TOKENS)
    code = (
        "import anyio, sys; from mcp_client.auth import FileTokenStorage\n"
        f"t = anyio.run(FileTokenStorage({str(path)!r}).get_tokens, {SERVER!r})\n"
        "print(t.expires_at, t.scope, t.client_auth_method)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["1900000000.0", "a", "b", "client_secret_basic"], done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
async def test_file_is_0600_in_a_0700_folder_and_loose_modes_are_tightened(tmp_path: Path) -> None:
    path = tmp_path / "new-folder" / "tokens.json"
    storage = FileTokenStorage(path)
    await storage.set_tokens(SERVER, TOKENS)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    os.chmod(path, 0o644)
    assert await storage.get_tokens(SERVER) == TOKENS
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


async def test_a_damaged_file_is_treated_as_empty_and_replaced(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "tokens.json"
    path.write_text("{ not json")
    storage = FileTokenStorage(path)
    with caplog.at_level(logging.WARNING):
        assert await storage.get_tokens(SERVER) is None
    assert "not readable" in caplog.text
    await storage.set_tokens(SERVER, TOKENS)
    assert json.loads(path.read_text())["version"] == 1
    path.write_text(json.dumps({"version": 1, "servers": {SERVER: {"tokens": {"access_token": 5}}}}))
    assert await storage.get_tokens(SERVER) is None  # a bad record is skipped, not fatal


async def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    servers = [f"https://s{i}.example.com/mcp" for i in range(8)]

    def write(server: str) -> None:
        anyio.run(FileTokenStorage(path).set_tokens, server, TOKENS)

    threads = [threading.Thread(target=write, args=(server,)) for server in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert await FileTokenStorage(path).servers() == sorted(servers)


def test_a_folder_path_holds_tokens_json_and_the_default_follows_xdg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert FileTokenStorage(tmp_path).path == tmp_path / "tokens.json"
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
        assert default_storage_path() == tmp_path / "mcp-client" / "tokens.json"
        assert FileTokenStorage().path == tmp_path / "mcp-client" / "tokens.json"


@pytest.mark.parametrize("relative", ["data", "./data", "~/data", ""])
def test_a_relative_xdg_data_home_is_ignored(
    relative: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The XDG spec: a relative path in XDG_DATA_HOME is invalid and must be ignored (it would put the
    tokens wherever the program happens to run)."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", relative)
    assert default_storage_path() == tmp_path / "home" / ".local" / "share" / "mcp-client" / "tokens.json"


def test_records_hide_their_secrets() -> None:
    for text in (repr(TOKENS), str(TOKENS), repr(CLIENT), repr(InMemoryTokenStorage())):
        assert "secret-value" not in text
    assert "c1" in repr(CLIENT) and "a b" in repr(TOKENS)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"access_token": ""},
        {"access_token": "x", "expires_at": "soon"},
        {"access_token": "x", "scope": 3},
    ],
)
def test_unusable_records_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        StoredTokens.from_dict(data)


async def test_clearing_a_server_never_stored_creates_no_file(tmp_path: Path) -> None:
    """``mcp-client logout`` of a server never logged in to: no tokens.json, no lock file (issue 26)."""
    folder = tmp_path / "data"
    storage = FileTokenStorage(folder / "tokens.json")
    await storage.clear(SERVER)
    assert await storage.get_tokens(SERVER) is None
    assert not folder.exists()
    await storage.set_tokens(SERVER, TOKENS)
    before = (folder / "tokens.json").stat().st_mtime_ns
    await storage.clear("https://other.example.com/mcp")  # nothing to forget: the file is not rewritten
    assert (folder / "tokens.json").stat().st_mtime_ns == before


async def test_the_refresh_lock_is_held_by_one_holder_at_a_time(tmp_path: Path) -> None:
    """Two holders of the same file's refresh lock (other processes hold it the same way) take turns."""
    first, second = FileTokenStorage(tmp_path), FileTokenStorage(tmp_path)
    order: list[str] = []
    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            async with first.refresh_lock(SERVER):
                order.append("first in")

                async def other() -> None:
                    async with second.refresh_lock(SERVER):
                        order.append("second in")

                tg.start_soon(other)
                await anyio.sleep(0.3)  # the other holder is kept waiting meanwhile
                order.append("first out")
    assert order == ["first in", "first out", "second in"]
