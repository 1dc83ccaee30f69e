"""Session-scoped pytest fixtures for the guide test server (tests/servers/guide_server.py).

Load from tests/conftest.py with `pytest_plugins = ["tests.support.fixtures"]`. Each HTTP fixture
starts one server process per test session and stops it at the end; all bind 127.0.0.1 only.

Also `fastmcp_tasks_url`, the fastmcp-tasks peer over HTTP, shared by the interop tests and the tests
of tasks kept in the question store.

The `crash` tool kills the server it runs on: use it over stdio (the client spawns its own process)
or with a private `start_http_server()`, never against these shared session servers.
"""

from collections.abc import Iterator

import pytest

from tests.support.servers import (
    FEATURES_SERVER,
    FORMS_SERVER,
    QUESTIONS_SERVER,
    start_http_server,
    stdio_command,
)
from tests.support.servers import guide_stdio_command as _guide_stdio_command


@pytest.fixture(scope="session")
def guide_http_url() -> Iterator[str]:
    """Default (stateful, SSE-answering) dual-era endpoint."""
    with start_http_server() as url:
        yield url


@pytest.fixture(scope="session")
def guide_http_json_url() -> Iterator[str]:
    """`json_response=True`: legacy POSTs answered with JSON, so `ctx.elicit` has no back-channel."""
    with start_http_server("--json-response") as url:
        yield url


@pytest.fixture(scope="session")
def guide_http_stateless_url() -> Iterator[str]:
    """`stateless_http=True`: no legacy session ids, no back-channel for `ctx.elicit`."""
    with start_http_server("--stateless") as url:
        yield url


@pytest.fixture(scope="session")
def guide_http_resumable_url() -> Iterator[str]:
    """In-memory event store + `retry: 300`: legacy SSE streams carry ids and can be resumed."""
    with start_http_server("--resumable") as url:
        yield url


@pytest.fixture(scope="session")
def guide_http_legacy_only_url() -> Iterator[str]:
    """Modern headers hidden from the server: a legacy-only endpoint (auto mode must fall back)."""
    with start_http_server("--legacy-only") as url:
        yield url


@pytest.fixture(scope="session")
def guide_http_paged_url() -> Iterator[str]:
    """List results paginated 3 per page (MCPServer itself never paginates; the guide server adds it)."""
    with start_http_server("--page-size", "3") as url:
        yield url


@pytest.fixture(scope="session")
def guide_stdio_command() -> tuple[str, list[str]]:
    """`(command, args)` launching the guide server on stdio (the client spawns one per connection)."""
    return _guide_stdio_command()


@pytest.fixture(scope="session")
def features_http_url() -> Iterator[str]:
    """The features server (progress, logs, templates, completions, notices, output schemas) over HTTP."""
    with start_http_server(script=FEATURES_SERVER) as url:
        yield url


@pytest.fixture(scope="session")
def features_stdio_command() -> tuple[str, list[str]]:
    """`(command, args)` launching the features server on stdio."""
    return stdio_command(FEATURES_SERVER)


@pytest.fixture(scope="session")
def questions_http_url() -> Iterator[str]:
    """The sampling and roots peer (tests/servers/questions_server.py), both eras on one endpoint."""
    with start_http_server(script=QUESTIONS_SERVER) as url:
        yield url


@pytest.fixture(scope="session")
def questions_stdio_command() -> tuple[str, list[str]]:
    """`(command, args)` launching the sampling and roots peer on stdio."""
    return stdio_command(QUESTIONS_SERVER)


@pytest.fixture(scope="session")
def forms_http_url() -> Iterator[str]:
    """tests/servers/forms_server.py: one `ask(message, schema)` tool that asks any form, both eras."""
    with start_http_server(script=FORMS_SERVER) as url:
        yield url


@pytest.fixture(scope="session")
def fastmcp_tasks_url() -> Iterator[str]:
    """The URL of the running fastmcp-tasks peer (tools that run as SEP-2663 tasks; its own venv)."""
    from tests.interop import _peers

    python = _peers.require_installed(_peers.FASTMCP_TASKS_PYTHON, "fastmcp-tasks 4.1.4 (its venv)")
    cmd = [str(python), str(_peers.FASTMCP_TASKS_SERVER), "http"]
    with _peers.running_peer(cmd, ready_pattern=r"LISTENING (\d+)") as (_, port):
        _peers.wait_http_ready(port)
        yield f"http://{_peers.LOOPBACK}:{port}/mcp"
