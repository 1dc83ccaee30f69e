"""A terminal chat with an assistant that books tables through the bistro's tools; the bistro's question
arrives in the chat itself, as messages with quick replies, not as a separate form.

    python examples/clients/chat_bot.py

Runs offline: a scripted assistant stands in for a model (for a real model calling the tools, see
``model_chat.py``; its questions could come here the same way). Try "a table for 2 on 2025-12-25":
that date is full, so the bistro asks whether another date will do. Reply in your own words ("yes",
"27 Dec"), or type a quick reply's label; "bye" (or end of input, or Ctrl-C) leaves.

The integration is one line: ``chat_callback(show, next_line)`` is the ``elicitation_callback``. The
chat and the question share one input: while a tool call waits for an answer the chat itself waits too,
so each line goes to whoever is asking. Starts ``examples/servers/bistro.py`` over stdio (the official
MCP SDK must be installed: ``pip install -e ".[examples]"``).
"""

from __future__ import annotations

import math
import re
import sys
import threading
from pathlib import Path

import anyio
from anyio.from_thread import BlockingPortal

from mcp_client import Client, StdioServerParameters
from mcp_client.types import CallToolResult, TextContent
from ui_adapters.chat import ChatMessage, chat_callback

BISTRO = StdioServerParameters(
    sys.executable, [str(Path(__file__).resolve().parent.parent / "servers" / "bistro.py")]
)


class Terminal:
    """The person at the terminal: lines read one at a time, only when someone waits for one.

    A line is read in a thread of its own (``input`` blocks), a daemon thread: leaving (Ctrl-C) never
    waits for a line nobody will type. If whoever waited gives up (a question withdrawn), the read goes
    on, and its line goes to the next one who waits: no line is lost, and nothing is read ahead of need.
    """

    def __init__(self, portal: BlockingPortal) -> None:
        self._portal = portal  # how the reading thread hands its line to the event loop
        self._lines_in, self._lines = anyio.create_memory_object_stream[str | None](math.inf)
        self._reading = False
        self.quick_replies: tuple[tuple[str, str], ...] = ()

    async def next_line(self) -> str | None:
        """The next line typed (``None`` at the end of input); a quick reply's label becomes its value."""
        if not self._reading:
            self._reading = True
            threading.Thread(target=self._read, name="terminal input", daemon=True).start()
        line = await self._lines.receive()
        self._reading = False
        if line is None:
            return None
        for label, value in self.quick_replies:
            if line.strip().casefold() == label.casefold():
                return value
        return line

    async def reply(self) -> str:
        """``receive`` for ``chat_callback``: the next line, "cancel" at the end of input."""
        line = await self.next_line()
        return "cancel" if line is None else line

    def _read(self) -> None:
        """In the reading thread: read a line and post it, even if whoever waited for it has given up."""
        try:
            line: str | None = input("you: ")
        except EOFError:
            line = None
        try:
            self._portal.call(self._lines_in.send_nowait, line)
        except RuntimeError:  # the chat has ended meanwhile: nobody will read it
            pass

    async def show(self, message: ChatMessage) -> None:
        """Post a message from the server: its text (already plain, server name first), its quick replies."""
        if self._reading:  # a prompt still waits for a line (the question was withdrawn): start a new one
            print()
        for line in message.text.splitlines():
            print(f"  │ {line}")
        self.quick_replies = message.choices
        if message.choices:
            print("  │ " + "   ".join(_button(label, value) for label, value in message.choices))
        sys.stdout.flush()


def _button(label: str, value: str) -> str:
    return f"[{label}]" if label.casefold() == value.casefold() else f"[{label} → {value}]"


def say(text: str) -> None:
    print(f"assistant: {text}", flush=True)


def text_of(result: CallToolResult) -> str:
    return " ".join(block.text for block in result.content if isinstance(block, TextContent))


async def assistant(client: Client, you: Terminal) -> None:
    """The scripted assistant: it books a table when a message names a date, and chats otherwise."""
    tools = [tool.name for tool in (await client.list_tools()).tools]
    say(f"Hello! I can book a table at the bistro (its tools: {', '.join(tools)}).")
    say('Try "a table for 2 on 2025-12-25".')
    while (line := await you.next_line()) is not None and line.strip().casefold() != "bye":
        date = re.search(r"\d{4}-\d{2}-\d{2}", line)
        if date is None:
            say("Which date (YYYY-MM-DD), and for how many people?")
            continue
        size = re.search(r"(\d+)\s*(?:people|persons|guests)|for\s+(\d+)\b", line)
        party = int(next(group for group in size.groups() if group)) if size else 2
        say(f"Booking for {party} on {date.group()}…")
        result = await client.call_tool("book_table", {"date": date.group(), "party_size": party})
        say(f"The bistro says: {text_of(result)}")
    say("Bye!")


async def main() -> None:
    async with BlockingPortal() as portal:
        you = Terminal(portal)
        callback = chat_callback(you.show, you.reply)
        async with Client(BISTRO, mode="legacy", elicitation_callback=callback) as client:
            await assistant(client, you)


if __name__ == "__main__":
    try:
        anyio.run(main)
    except KeyboardInterrupt:  # Ctrl-C: the chat and the bistro are closed by now; leave without a traceback
        print("\nassistant: Interrupted. Bye!", flush=True)
        sys.exit(130)
