"""A terminal chat with a model that books tables through the bistro's MCP tool; the bistro's
questions are asked in the terminal form, mid-call, while the model waits for the tool's result.

    python examples/clients/model_chat.py                        # offline: a scripted model stands in
    OPENAI_API_KEY=sk-... python examples/clients/model_chat.py  # a real model (needs the openai extra)

Try "a table for 2 on 2025-12-25": that date is full, so the bistro asks whether another date will do.
The loop is the whole integration: ``ToolBridge.openai_tools()`` hands the model the server's tools,
``ToolBridge.run_openai(call)`` runs each call it asks for (questions go to ``terminal_callback()``) and
returns the message to append. ``OPENAI_MODEL`` picks the model (default ``gpt-4.1-mini``).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread

from mcp_client import Client, StdioServerParameters
from mcp_client.llm import ToolBridge
from ui_adapters import terminal_callback

BISTRO = StdioServerParameters(
    sys.executable, [str(Path(__file__).resolve().parent.parent / "servers" / "bistro.py")]
)
SYSTEM = "You book tables at the bistro with its tools. Dates are YYYY-MM-DD. Be brief."

Model = Callable[[list[dict[str, Any]], list[dict[str, Any]]], Awaitable[dict[str, Any]]]
"""``model(messages, tools) -> the assistant's message`` (a Chat Completions message as a dict)."""


async def scripted_model(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
    """A stand-in for a real model, so the example runs offline: it books when it sees a date."""
    last = messages[-1]
    if last["role"] == "tool":
        return {"role": "assistant", "content": f"The bistro says: {last['content']}"}
    date = re.search(r"\d{4}-\d{2}-\d{2}", last["content"])
    if date is None:
        return {"role": "assistant", "content": "Which date (YYYY-MM-DD), and for how many people?"}
    size = re.search(r"(\d+)\s*(?:people|persons|guests)|for\s+(\d+)\b", last["content"])
    party = int(next(g for g in size.groups() if g)) if size else 2
    arguments = json.dumps({"date": date.group(), "party_size": party})
    call = {
        "id": f"call_{len(messages)}",
        "type": "function",
        "function": {"name": "book_table", "arguments": arguments},
    }
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def openai_model(model: str) -> Model:
    """A real model through the OpenAI SDK (any Chat Completions endpoint: set ``OPENAI_BASE_URL``)."""
    from openai import AsyncOpenAI  # only when a key is set: the offline run needs no SDK

    client = AsyncOpenAI()

    async def ask(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        response = await client.chat.completions.create(model=model, messages=messages, tools=tools)  # type: ignore[arg-type]
        return response.choices[0].message.model_dump(exclude_none=True)

    return ask


async def chat(model: Model, bridge: ToolBridge) -> None:
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM}]
    tools = await bridge.openai_tools()
    while True:
        try:
            line = await anyio.to_thread.run_sync(input, "you: ")
        except EOFError:
            return
        if not line.strip():
            continue
        messages.append({"role": "user", "content": line})
        while True:  # the model may call tools several times before it answers
            reply = await model(messages, tools)
            messages.append(reply)
            calls = reply.get("tool_calls") or []
            if not calls:
                print("model:", reply.get("content"), flush=True)
                break
            for call in calls:
                print(f"  (calling {call['function']['name']} {call['function']['arguments']})", flush=True)
                messages.append(await bridge.run_openai(call))


async def main() -> None:
    key = os.environ.get("OPENAI_API_KEY")
    model = openai_model(os.environ.get("OPENAI_MODEL", "gpt-4.1-mini")) if key else scripted_model
    print("Chatting with", "a real model" if key else "a scripted model (set OPENAI_API_KEY for a real one)")
    async with Client(BISTRO, mode="legacy", elicitation_callback=terminal_callback()) as client:
        await chat(model, ToolBridge(client))


if __name__ == "__main__":
    anyio.run(main)
