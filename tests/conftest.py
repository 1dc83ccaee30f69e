"""Shared test set-up: real servers (tests/support/fixtures.py) and the anyio backend."""

import pytest

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
