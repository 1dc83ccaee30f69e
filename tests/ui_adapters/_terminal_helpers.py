"""Shared set-up for the terminal adapter tests: trace schemas, contexts, captured terminals."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Generator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.base import PipeInput
from prompt_toolkit.output.vt100 import Vt100_Output
from rich.console import Console

from mcp_client._session.context import ClientRequestContext
from mcp_client.types import ElicitRequestFormParams, ElicitRequestParams, ElicitResult, Implementation
from tests.support.traces import TRACES
from ui_adapters.terminal import TerminalFormAdapter

UP = "\x1b[A"
DOWN = "\x1b[B"
END = "\x1b[F"
ENTER = "\r"
SPACE = " "
CTRL_C = "\x03"
CTRL_D = "\x04"
CTRL_N = "\x0e"
ESC = "\x1b"


def trace_questions(trace: str) -> list[tuple[str, dict[str, Any]]]:
    """Every distinct (message, requestedSchema) a server sent in a captured trace, in order."""
    found: list[tuple[str, dict[str, Any]]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if "requestedSchema" in node and "message" in node:
                question = (str(node["message"]), dict(node["requestedSchema"]))  # type: ignore[arg-type]
                if question not in found:
                    found.append(question)
            for value in node.values():  # type: ignore[union-attr]
                walk(value)
        elif isinstance(node, list):
            for value in node:  # type: ignore[union-attr]
                walk(value)

    walk(json.loads((TRACES / f"{trace}.json").read_text()))
    return found


def trace_params(trace: str, index: int = 0) -> ElicitRequestFormParams:
    message, schema = trace_questions(trace)[index]
    return ElicitRequestFormParams(message=message, requested_schema=schema)


def make_context(index: int = 1, count: int = 1, *, name: str = "guide-server") -> ClientRequestContext:
    return ClientRequestContext(
        server="http://127.0.0.1:8000/mcp",
        server_info=Implementation(name=name, version="1.0"),
        protocol_version="2025-11-25",
        era="legacy",
        question_index=index,
        question_count=count,
    )


_CONTROL = re.compile(r"\x1b\[([?0-9;]*)([A-Za-z])|\r|\n|[^\x1b\r\n]")


def render_screen(stream: str) -> str:
    """Replay the escape sequences prompt_toolkit writes (cursor moves, erases) onto a grid of lines.

    prompt_toolkit only redraws the cells that changed, so the raw byte stream is not readable text;
    this tiny emulator (just the sequences its non-full-screen renderer uses) gives the visible lines.
    """
    rows: list[list[str]] = [[]]
    row = col = 0
    for match in _CONTROL.finditer(stream):
        token = match.group(0)
        if token == "\r":
            col = 0
        elif token == "\n":
            row += 1
        elif match.group(2) is not None:
            params, command = match.group(1), match.group(2)
            count = int(params) if params.isdigit() else 1
            if command == "A":
                row = max(0, row - count)
            elif command == "B":
                row += count
            elif command == "C":
                col += count
            elif command == "D":
                col = max(0, col - count)
            elif command == "K":
                if row < len(rows):
                    del rows[row][col:]
            elif command == "J":
                del rows[row + 1 :]
                if row < len(rows):
                    del rows[row][col:]
            continue
        else:
            while len(rows) <= row:
                rows.append([])
            line = rows[row]
            while len(line) <= col:
                line.append(" ")
            line[col] = token
            col += 1
            continue
        while len(rows) <= row:
            rows.append([])
    return "\n".join("".join(line).rstrip() for line in rows)


@dataclass
class PipeTerminal:
    """A fake terminal for the prompts that draw with rich alone (link consent, login, sampling review).

    Keys go in through ``keys`` (a prompt_toolkit pipe); what ``console()`` prints collects in
    ``screen``; ``open_browser`` records the links it is asked to open and says whether it could
    (``browser_works``). The ``terminal`` fixture (tests/ui_adapters/conftest.py) gives a fresh one.
    """

    keys: PipeInput
    screen: io.StringIO = field(default_factory=io.StringIO)
    opened: list[str] = field(default_factory=list[str])
    browser_works: bool = True

    def console(self, width: int = 120) -> Console:
        """A rich console without colour that prints onto ``screen``."""
        return Console(file=self.screen, width=width, color_system=None)

    def open_browser(self, url: str) -> bool:
        self.opened.append(url)
        return self.browser_works

    def send(self, text: str) -> None:
        self.keys.send_text(text)

    @property
    def text(self) -> str:
        return self.screen.getvalue()


@dataclass
class Terminal:
    """A fake terminal for the form adapter: keys go in through ``keys``, what rich and prompt_toolkit
    draw is captured (prompt_toolkit's part on a vt100 screen)."""

    keys: PipeInput
    adapter: TerminalFormAdapter
    console_file: io.StringIO
    screen_file: io.StringIO

    def send(self, text: str) -> None:
        self.keys.send_text(text)

    @property
    def screen(self) -> str:
        """What prompt_toolkit's part of the terminal shows right now, as plain lines."""
        return render_screen(self.screen_text)

    async def wait_for(self, text: str, seconds: float = 20) -> None:
        """Wait until ``text`` is on screen (prompt_toolkit) or printed (rich); fail after ``seconds``."""
        with anyio.move_on_after(seconds):
            # Polling is the point: the screen is a byte stream written from prompt_toolkit's thread.
            while text not in self.screen and text not in self.console_text:  # noqa: ASYNC110
                await anyio.sleep(0.01)
            return
        raise AssertionError(
            f"{text!r} never appeared; console:\n{self.console_text[-2000:]}\nscreen:\n{self.screen}"
        )

    @property
    def console_text(self) -> str:
        return self.console_file.getvalue()

    @property
    def screen_text(self) -> str:
        return self.screen_file.getvalue()


@contextmanager
def terminal(*, colour: bool = False, **options: Any) -> Generator[Terminal]:
    """An adapter wired to a pipe for keys, a StringIO console and a vt100 screen in a StringIO.

    ``colour`` makes the rich console behave like a colour terminal (it then writes escape sequences
    of its own, and would write hyperlinks if anything asked for one).
    """
    console_file = io.StringIO()
    screen_file = io.StringIO()
    if colour:
        console = Console(file=console_file, width=100, color_system="truecolor", force_terminal=True)
    else:
        console = Console(file=console_file, width=100, color_system=None, force_terminal=False)
    screen = Vt100_Output(screen_file, lambda: Size(rows=40, columns=100), term="xterm")
    with create_pipe_input() as keys:
        adapter = TerminalFormAdapter(console=console, input=keys, output=screen, **options)
        yield Terminal(keys, adapter, console_file, screen_file)


async def converse(
    term: Terminal,
    params: ElicitRequestParams,
    steps: Sequence[tuple[str, str | None]],
    *,
    context: ClientRequestContext | None = None,
    seconds: float = 20,
) -> ElicitResult:
    """Ask ``params`` and play ``steps``: send the keys, then wait until the text appears (if any).

    Waiting for what a step should show makes each state of the screen actually get drawn (keys sent
    all at once are processed before the next redraw). Every wait is bounded by ``seconds``.
    """
    results: list[ElicitResult] = []

    async def call() -> None:
        results.append(await term.adapter(context or make_context(), params))

    with anyio.fail_after(seconds):
        async with anyio.create_task_group() as group:
            group.start_soon(call)
            for keys, expect in steps:
                term.send(keys)
                if expect is not None:
                    await term.wait_for(expect, seconds / 2)
    return results[0]
