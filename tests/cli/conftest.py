"""Example servers (and the CLI's typed test peer) on 127.0.0.1, one process per test session each."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from tests.cli._cli import BISTRO, BISTRO_URL, FILES, TYPED
from tests.support.servers import run_http_server


def _serve(script: Path) -> AbstractContextManager[str]:
    """The example-server convention: ``python SCRIPT --http --port N`` serves http://127.0.0.1:N/mcp."""
    return run_http_server(lambda port: [sys.executable, str(script), "--http", "--port", str(port)])


@pytest.fixture(scope="session")
def bistro_http_url() -> Iterator[str]:
    with _serve(BISTRO) as url:
        yield url


@pytest.fixture(scope="session")
def bistro_url_http_url() -> Iterator[str]:
    with _serve(BISTRO_URL) as url:
        yield url


@pytest.fixture(scope="session")
def files_http_url() -> Iterator[str]:
    with _serve(FILES) as url:
        yield url


@pytest.fixture(scope="session")
def typed_http_url() -> Iterator[str]:
    with _serve(TYPED) as url:
        yield url


def _either(request: pytest.FixtureRequest, script: Path, http_fixture: str) -> str:
    """SERVER for this test: the script's path (stdio) or its URL (HTTP), per the test's param."""
    return str(script) if request.param == "stdio" else request.getfixturevalue(http_fixture)


@pytest.fixture(params=["stdio", "http"])
def bistro(request: pytest.FixtureRequest) -> str:
    return _either(request, BISTRO, "bistro_http_url")


@pytest.fixture(params=["stdio", "http"])
def bistro_url(request: pytest.FixtureRequest) -> str:
    return _either(request, BISTRO_URL, "bistro_url_http_url")


@pytest.fixture(params=["stdio", "http"])
def files(request: pytest.FixtureRequest) -> str:
    return _either(request, FILES, "files_http_url")
