"""The runnable examples run: the client scripts, the example pytest file, the servers the demo shares."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_client import Client, ClientRequestContext, StdioServerParameters
from mcp_client.types import ElicitRequestParams, ElicitResult, TextContent
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


def test_the_demo_server_lists_the_examples_tools() -> None:
    demo = _tools_of("ui_adapters.cli._demo_server")
    originals = {**_tools_of("example_bistro", BISTRO), **_tools_of("example_files", FILES)}
    assert sorted(demo) == sorted(originals) == ["book_table", "delete_folder"]
    for name, tool in originals.items():
        assert demo[name]["inputSchema"] == tool["inputSchema"]
        assert demo[name]["description"] == tool["description"]


# The demo server and the two example servers share their tools (written once in _demo_server: the wheel
# has no examples/ folder), so the example files must serve them exactly as the demo does: every behaviour
# a person sees is compared: the questions asked (message and form) and the results, for each answer, in
# each era a tool asks in.
_Cases = list[tuple[dict[str, Any], ElicitResult | None]]  # (arguments, the answer to its question if any)
_ACCEPT_ALTERNATIVE = ElicitResult(
    action="accept", content={"accept_alternative": True, "date": "2025-12-27"}
)
_REFUSE_ALTERNATIVE = ElicitResult(action="accept", content={"accept_alternative": False})
_BOOKINGS: _Cases = [
    ({"date": "2025-12-24", "party_size": 2}, None),
    ({"date": "2025-12-25", "party_size": 2}, _ACCEPT_ALTERNATIVE),
    ({"date": "2025-12-25", "party_size": 4}, _REFUSE_ALTERNATIVE),
    ({"date": "2025-12-25", "party_size": 6}, ElicitResult(action="decline")),
    ({"date": "2025-12-25", "party_size": 8}, ElicitResult(action="cancel")),
]
_DELETIONS: _Cases = [
    ({"path": "/tmp/empty"}, None),
    ({"path": "/tmp/old-drafts"}, ElicitResult(action="accept", content={"confirm": True})),
    ({"path": "/tmp/old-drafts"}, ElicitResult(action="accept", content={"confirm": False})),
    ({"path": "/tmp/old-drafts"}, ElicitResult(action="decline")),
    ({"path": "/tmp/old-drafts"}, ElicitResult(action="cancel")),
]


async def _transcript(
    server: StdioServerParameters, mode: str, tool: str, cases: _Cases
) -> list[tuple[Any, ...]]:
    """For each case: the arguments, each question asked (message, form), the result text and isError."""
    asked: list[tuple[str, dict[str, Any]]] = []
    answer: list[ElicitResult] = []

    async def callback(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        assert params.mode == "form" and answer, f"unexpected question: {params.message}"
        asked.append((params.message, params.requested_schema))
        return answer[0]

    transcript: list[tuple[Any, ...]] = []
    async with Client(server, mode=mode, elicitation_callback=callback) as client:
        for arguments, reply in cases:
            asked.clear()
            answer[:] = [] if reply is None else [reply]
            result = await client.call_tool(tool, arguments)
            text = [block.text for block in result.content if isinstance(block, TextContent)]
            transcript.append((arguments, reply, list(asked), text, result.is_error))
    return transcript


@pytest.mark.anyio
async def test_the_demo_server_behaves_as_the_examples() -> None:
    demo = StdioServerParameters(sys.executable, ["-m", "ui_adapters.cli._demo_server"])
    bistro = StdioServerParameters(sys.executable, [str(BISTRO)])
    files = StdioServerParameters(sys.executable, [str(FILES)])
    runs = [(mode, "book_table", _BOOKINGS, bistro) for mode in ("legacy", "2026-07-28")]
    runs += [(mode, "delete_folder", _DELETIONS, files) for mode in ("legacy", "2026-07-28")]
    for mode, tool, cases, example in runs:
        expected = await _transcript(example, mode, tool, cases)
        assert sum(len(asked) for _, _, asked, _, _ in expected) == len(cases) - 1  # each answer was used
        assert await _transcript(demo, mode, tool, cases) == expected, (mode, tool)


def test_the_demo_server_runs_over_stdio_too() -> None:
    done = run_cli("tools", f"{sys.executable} -m ui_adapters.cli._demo_server")
    assert done.returncode == 0, done.stderr
    assert "book_table" in done.stdout and "delete_folder" in done.stdout
