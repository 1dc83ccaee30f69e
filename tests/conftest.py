"""Shared test set-up: real servers (tests/support/fixtures.py) and the anyio backend."""

from collections.abc import Iterator

import pytest

from tests.support import temp

pytest_plugins = [
    "tests.support.fixtures",
    "tests.support.browser",
    "tests.support.oidc_provider",
    "ui_adapters.pytest_plugin",
]


@pytest.fixture
def anyio_backend() -> str:
    """asyncio by default; modules that also run on trio parametrize this fixture themselves."""
    return "asyncio"


@pytest.fixture(scope="session", autouse=True)
def _leaves_no_temp_files() -> Iterator[None]:
    """Tests clean up after themselves: nothing this run made stays in the system temp folder."""
    yield
    temp.remove_registered()
    left = temp.leftovers()
    if left:
        pytest.fail(f"the test run left these in the temp folder: {left}", pytrace=False)
