"""Shared test set-up: real servers (tests/support/fixtures.py), the anyio backend, and the two axes
most tests run along: the protocol ``era`` and the ``transport``."""

from collections.abc import Iterator

import pytest

from tests.support import temp

pytest_plugins = [
    "tests.support.fixtures",
    "tests.support.browser",
    "tests.support.oidc_provider",
    "ui_adapters.pytest_plugin",
]

ERAS = ("legacy", "2026-07-28")
"""Every protocol era, as ``Client(mode=...)`` spells it: the handshake era and the per-request one."""

TRANSPORTS = ("http", "stdio")
"""Every transport a test server is reached over: streamable HTTP on 127.0.0.1, or a subprocess."""


@pytest.fixture(params=ERAS)
def era(request: pytest.FixtureRequest) -> str:
    """The era a test's client asks for (``Client(url, mode=era)``): a test that takes it runs in each."""
    return request.param


@pytest.fixture(params=TRANSPORTS)
def transport(request: pytest.FixtureRequest) -> str:
    """How a test reaches its server: a test that takes it runs over each (see ``tests/core/helpers``)."""
    return request.param


@pytest.fixture
def anyio_backend() -> str:
    """asyncio by default; modules that also run on trio parametrize this fixture themselves."""
    return "asyncio"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """``docs examples: N run, M not run (marked)`` whenever the docs examples test ran."""
    reports = [
        report
        for key in ("passed", "failed")
        for report in terminalreporter.stats.get(key, [])
        if getattr(report, "when", None) == "call"
        and "test_docs_examples.py::test_the_example_runs" in report.nodeid
    ]
    if not reports:
        return
    from tests.support.docs_examples import examples

    found = examples()
    not_run = sum(1 for example in found if example.not_run is not None)
    elsewhere = sum(1 for example in found if example.tested_by is not None)
    failed = sum(1 for report in reports if report.failed)
    outcome = f" ({failed} failed)" if failed else ""
    terminalreporter.write_line(
        f"docs examples: {len(reports)} run{outcome}, {elsewhere} run by their own tests (tested-by), "
        f"{not_run} not run (marked)"
    )


@pytest.fixture(scope="session", autouse=True)
def _leaves_no_temp_files() -> Iterator[None]:
    """Tests clean up after themselves: nothing this run made stays in the system temp folder."""
    yield
    temp.remove_registered()
    left = temp.leftovers()
    if left:
        pytest.fail(f"the test run left these in the temp folder: {left}", pytrace=False)
