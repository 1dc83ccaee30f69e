"""``mcp-client demo``: a guided tour that needs nothing but this package and the ``examples`` extra.

It starts the bundled example server (``_demo_server``, built with the official MCP SDK) on a free
127.0.0.1 port, then makes two calls whose tools stop half-way to ask the person something:

1. ``book_table`` for the full date 2025-12-25, in the legacy era (2025-11-25): the server pushes its
   question (a request of its own) while the call is open;
2. ``delete_folder``, in the modern era (2026-07-28): the call returns "input required", the client
   asks, then calls again with the answer (a ``Resolve(...)`` resolver on the server).

Both questions go through the same terminal UI as ``mcp-client call``; the server is stopped at the
end whatever happens.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
from pathlib import Path

import anyio
from rich.console import Console
from rich.text import Text

from mcp_client import Client
from mcp_client.types import CallToolResult, TextContent
from ui_adapters.cli._exit import EXIT_CONNECTION, EXIT_OK, EXIT_TOOL_ERROR
from ui_adapters.cli._local_server import LocalServerError, local_server
from ui_adapters.cli._status import StatusAwareCallback, terminal_ui
from ui_adapters.text import sanitize

__all__ = ["run_demo"]

SERVER_MODULE = "ui_adapters.cli._demo_server"
READY_MARKER = "MCP_DEMO_SERVER_READY"  # the same as _demo_server.READY_MARKER (that module needs mcp)
FULL_DATE = "2025-12-25"
PARTY_SIZE = 2
FOLDER = "~/projects/old-drafts"
_INDENT = "     "


def run_demo(out: Console, err: Console) -> int:
    """Run the demo; 0 when both calls completed (whatever was answered), 1 if a tool failed."""
    if importlib.util.find_spec("mcp") is None:
        err.print(
            Text(
                "mcp-client demo: the example server needs the official MCP SDK, which is not installed.\n"
                'Install it with:  pip install "mcp-elicit-client[examples]"\n'
                '(in a checkout: pip install -e ".[examples]"; or just: pip install "mcp==2.3.0")'
            ),
            soft_wrap=True,
        )
        return EXIT_CONNECTION
    _intro(out)
    out.print(Text("Starting the example server…", style="dim"), end=" ")
    try:
        with local_server(SERVER_MODULE, ["--http", "--port", "0"], marker=READY_MARKER) as url:
            out.print(Text(f"ready at {url}", style="dim"))
            failed = anyio.run(_tour, url, out, err)
    except LocalServerError as error:
        out.print()
        err.print(Text(f"mcp-client demo: {error}"), soft_wrap=True)
        return EXIT_CONNECTION
    _outro(out)
    return EXIT_TOOL_ERROR if failed else EXIT_OK


async def _tour(url: str, out: Console, err: Console) -> bool:
    """Both calls; True if a tool reported an error."""
    ui = terminal_ui(err)
    _step(
        out,
        1,
        f"Booking a table for {PARTY_SIZE} on {FULL_DATE} (the bistro is full that day)…",
    )
    async with _client(url, "legacy", ui) as client:
        _note(out, f"Protocol {client.protocol_version} (legacy era): the server sends its question")
        _note(out, "while the call is still open.")
        with ui.status.show("The bistro is looking for a table…"):
            booking = await client.call_tool("book_table", {"date": FULL_DATE, "party_size": PARTY_SIZE})
    _result(out, booking)

    _step(out, 2, f"Deleting the folder {FOLDER} (the server wants a confirmation first)…")
    async with _client(url, "2026-07-28", ui) as client:
        _note(out, f'Protocol {client.protocol_version} (modern era): the call comes back with "input')
        _note(out, 'required"; mcp-client asks you, then calls again with your answer.')
        with ui.status.show("Asking the file store…"):
            deletion = await client.call_tool("delete_folder", {"path": FOLDER})
    _result(out, deletion)
    _note(out, "(nothing was deleted: the example server only pretends)")
    return booking.is_error or deletion.is_error


def _client(url: str, mode: str, ui: StatusAwareCallback) -> Client:
    return Client(
        url,
        mode=mode,
        elicitation_callback=ui,
        elicitation_complete_callback=ui.elicitation_complete_callback,
    )


def _intro(out: Console) -> None:
    out.print(Text("mcp-client demo", style="bold"))
    out.print()
    out.print(
        Text(
            "This demo starts a small example MCP server on this machine (127.0.0.1, a free port) and "
            "calls two of its tools. Each one stops half-way to ask you something: that question is "
            "an elicitation, and mcp-client shows it as a form right here. Answer however you like."
        )
    )
    if not sys.stdin.isatty():
        out.print(Text("(stdin is not a terminal: answers are read from it line by line)", style="dim"))
    out.print()


def _step(out: Console, number: int, text: str) -> None:
    out.print()
    line = Text(f"{number}/2  ", style="bold cyan")
    line.append(text, style="bold")
    out.print(line)


def _note(out: Console, text: str) -> None:
    out.print(Text(_INDENT + text, style="dim"))


def _result(out: Console, result: CallToolResult) -> None:
    texts = [block.text for block in result.content if isinstance(block, TextContent)]
    shown = sanitize(" ".join(texts), max_length=500, single_line=True) or "(no text in the result)"
    line = Text(_INDENT + "→ ", style="bold")
    line.append(shown, style="bold red" if result.is_error else "bold green")
    out.print(line)


def _outro(out: Console) -> None:
    """Commands to try next, written so that they run as printed, from where the demo was started."""
    program, note = _how_to_run()
    out.print()
    out.print(Text("Done; the example server is stopped. Try the same yourself:"))
    examples = Path("examples/servers")
    if (examples / "bistro.py").is_file() and (examples / "files.py").is_file():
        commands = [
            f"{program} tools examples/servers/bistro.py",
            f"{program} call examples/servers/bistro.py book_table date=2025-12-25 party_size=2",
            f"{program} call examples/servers/files.py delete_folder path=/tmp/old-drafts",
        ]
    else:
        server = shlex.quote(f"{shlex.quote(sys.executable)} -m {SERVER_MODULE}")
        commands = [
            f"{program} tools {server}",
            f"{program} call {server} book_table date=2025-12-25 party_size=2",
        ]
    for command in commands:
        out.print(Text("  " + command, style="cyan"), soft_wrap=True)
    if note:
        out.print(Text(note, style="dim"), soft_wrap=True)


def _how_to_run() -> tuple[str, str]:
    """How to type the command here: ``mcp-client`` if that is on PATH, else its path (and why)."""
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    on_path = shutil.which("mcp-client")
    if on_path is not None and (script is None or _same_file(Path(on_path), script)):
        return "mcp-client", ""
    if script is not None and script.name == "mcp-client" and script.is_file():
        shown = _relative(script)
        folder = shlex.quote(str(Path(shown).parent))
        return shlex.quote(
            shown
        ), f"(mcp-client is not on your PATH: type {shown}, or run `source {folder}/activate` first.)"
    return f"{shlex.quote(sys.executable)} -m ui_adapters.cli", ""


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _relative(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return str(path)
