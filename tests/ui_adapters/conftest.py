"""The ``terminal`` fixture (a fake terminal for the prompts that draw with rich alone) and ``redis_url``
(a Redis server of Debian's for each test module of the question stores)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from prompt_toolkit.input import create_pipe_input

from tests.support.redis_server import run_redis
from tests.ui_adapters._terminal_helpers import PipeTerminal


@pytest.fixture
def terminal() -> Iterator[PipeTerminal]:
    with create_pipe_input() as keys:
        yield PipeTerminal(keys)


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """``redis://127.0.0.1:PORT/0`` of a ``redis-server`` started for the test module, in a temp dir."""
    with run_redis() as url:
        yield url
