"""The broker's stores as ``mcp_client``'s ``ApprovalStore`` (issue 45): approvals remembered "always".

Each store (memory, SQLite, a real ``redis-server``) keeps one decision per key, never lets it expire
(a sweep long past ``keep_for`` leaves it), forgets it on ``purge()``, and refuses a decision that is
neither allow nor deny. SQLite and Redis share it between processes: one real Python process writes,
another reads.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest

import ui_adapters
from ui_adapters import MemoryStore, RedisStore, SqliteStore

pytestmark = pytest.mark.anyio

SCRIPT = Path(__file__).with_name("approval_store_script.py")
ROOT = Path(__file__).resolve().parents[2]
SRC = Path(ui_adapters.__file__).resolve().parents[1]  # the code under test, wherever it was imported from


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    made: MemoryStore | SqliteStore | RedisStore
    if request.param == "memory":
        made = MemoryStore(keep_for=0.1)
    elif request.param == "sqlite":
        made = SqliteStore(tmp_path / "a.db", keep_for=0.1)
    else:
        made = RedisStore(request.getfixturevalue("redis_url"), namespace=f"ap-{tmp_path.name}", keep_for=0.1)
    await made.open()
    try:
        yield made
    finally:
        await made.purge()
        await made.close()


async def test_a_decision_is_kept_per_key_and_replaced(store: Any) -> None:
    assert await store.get_approval("srv\x00delete_file\x00policy") is None
    await store.set_approval("srv\x00delete_file\x00policy", "allow")
    await store.set_approval("srv\x00drop_table\x00policy", "deny")
    assert await store.get_approval("srv\x00delete_file\x00policy") == "allow"
    assert await store.get_approval("srv\x00drop_table\x00policy") == "deny"
    await store.set_approval("srv\x00delete_file\x00policy", "deny")
    assert await store.get_approval("srv\x00delete_file\x00policy") == "deny"


async def test_a_remembered_approval_outlives_keep_for_and_sweeps(store: Any) -> None:
    await store.set_approval("k", "allow")
    await store.add_question({"id": "q", "call_id": None, "view": {}}, owner=None, expires_in=0.1)
    await anyio.sleep(0.4)
    await store.sweep()
    assert await store.get_question("q") is None  # questions expire ...
    assert await store.get_approval("k") == "allow"  # ... "always" does not


async def test_purge_forgets_remembered_approvals(store: Any) -> None:
    await store.set_approval("k", "allow")
    await store.purge()
    assert await store.get_approval("k") is None


async def test_a_decision_that_is_not_allow_or_deny_is_refused(store: Any) -> None:
    with pytest.raises(ValueError, match="'allow' or 'deny'"):
        await store.set_approval("k", "yes")
    assert await store.get_approval("k") is None


def run_script(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": f"{SRC}:{ROOT}"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_an_approval_set_in_one_process_is_read_in_another_sqlite(tmp_path: Path) -> None:
    path = str(tmp_path / "approvals.db")
    assert run_script("sqlite", path, "get", "files.delete_file") == "None"
    assert run_script("sqlite", path, "set", "files.delete_file", "allow") == "set"
    assert run_script("sqlite", path, "get", "files.delete_file") == "allow"
    assert run_script("sqlite", path, "get", "files.other") == "None"


def test_an_approval_set_in_one_process_is_read_in_another_redis(redis_url: str, tmp_path: Path) -> None:
    namespace = f"ap2-{tmp_path.name}"
    assert run_script("redis", redis_url, namespace, "set", "files.delete_file", "deny") == "set"
    assert run_script("redis", redis_url, namespace, "get", "files.delete_file") == "deny"
    assert run_script("redis", redis_url, f"{namespace}-other", "get", "files.delete_file") == "None"
