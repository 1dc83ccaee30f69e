"""The ``terminal`` fixture (a fake terminal for the prompts that draw with rich alone), ``redis_url``
(a Redis server of Debian's for each test module of the question stores), ``shared_stores`` (the
workers' views of one store, on each kind of store: the tests of tasks kept in the store) and
``approvals_url`` (``tests/servers/approvals_server.py`` over HTTP, for each test module of approvals)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input

from tests.support.redis_server import run_redis
from tests.support.servers import SERVERS_DIR, start_http_server
from tests.ui_adapters._terminal_helpers import PipeTerminal
from ui_adapters import MemoryStore, RedisStore, SqliteStore
from ui_adapters.broker.stores import QuestionStore


@pytest.fixture
def terminal() -> Iterator[PipeTerminal]:
    with create_pipe_input() as keys:
        yield PipeTerminal(keys)


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """``redis://127.0.0.1:PORT/0`` of a ``redis-server`` started for the test module, in a temp dir."""
    with run_redis() as url:
        yield url


@pytest.fixture(scope="module")
def approvals_url() -> Iterator[str]:
    """The approvals server over HTTP, started for the test module (its ``ran`` tool: what reached it)."""
    with start_http_server(script=SERVERS_DIR / "approvals_server.py") as url:
        yield url


@pytest.fixture(params=["memory", "sqlite", "redis"])
def shared_stores(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], QuestionStore]:
    """A factory of stores on the same data, one store a call (each worker's view): the one
    ``MemoryStore``, a ``SqliteStore`` on one file, or a ``RedisStore`` on one namespace of the module's
    Redis (``redis_url``, asked for only here)."""
    if request.param == "memory":
        memory = MemoryStore()
        return lambda: memory
    if request.param == "sqlite":
        return lambda: SqliteStore(tmp_path / "tasks.db")
    url = request.getfixturevalue("redis_url")
    return lambda: RedisStore(url, namespace=f"tasks-{tmp_path.name}")
