"""The runnable examples run: the client scripts, the example pytest file, the demo's copy of the servers."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.cli._cli import BISTRO, EXAMPLE_CLIENTS, FILES, ROOT, TIMEOUT, cli_env, run_cli

pytestmark = pytest.mark.slow


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=ROOT,
        env=cli_env(),
    )


def test_canned_callback_client() -> None:
    done = _run(str(EXAMPLE_CLIENTS / "canned_callback.py"))
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "bistro asks: No tables for 2 on 2025-12-25. Would you like another date?\n"
        "[SUCCESS] Booked for 2025-12-27\n"
    )


def test_terminal_client_with_answers_piped_in() -> None:
    done = _run(str(EXAMPLE_CLIENTS / "terminal.py"), stdin="y\n\n\ny\n\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "bistro: [SUCCESS] Booked for 2025-12-26\nfiles: deleted /tmp/old-drafts\n"


def test_the_example_pytest_file_passes() -> None:
    """examples/clients/test_bistro.py is run as a user would: pytest on that file alone (asyncio only)."""
    done = _run(
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-k",
        "asyncio",
        str(EXAMPLE_CLIENTS / "test_bistro.py"),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 passed" in done.stdout


def _tools_of(module: str, path: Path | None = None) -> dict[str, dict[str, Any]]:
    """The tools a server module declares (imported here, not run: the test peers' SDK is installed)."""
    if path is None:
        loaded = importlib.import_module(module)
    else:
        spec = importlib.util.spec_from_file_location(module, path)
        assert spec is not None and spec.loader is not None
        loaded = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(loaded)
    tools = anyio.run(loaded.mcp.list_tools)
    return {tool.name: tool.model_dump(by_alias=True, exclude_none=True) for tool in tools}


def test_the_demo_server_is_a_faithful_copy_of_the_examples() -> None:
    demo = _tools_of("ui_adapters.cli._demo_server")
    originals = {**_tools_of("example_bistro", BISTRO), **_tools_of("example_files", FILES)}
    assert sorted(demo) == sorted(originals) == ["book_table", "delete_folder"]
    for name, tool in originals.items():
        assert demo[name]["inputSchema"] == tool["inputSchema"]
        assert demo[name]["description"] == tool["description"]


def test_the_demo_server_runs_over_stdio_too() -> None:
    done = run_cli("tools", f"{sys.executable} -m ui_adapters.cli._demo_server")
    assert done.returncode == 0, done.stderr
    assert "book_table" in done.stdout and "delete_folder" in done.stdout
