"""End-to-end: our Client, with SamplingReview as its sampling callback, on the questions server.

Run in a real terminal (the tests drive it through a pty with pexpect):

    python tests/ui_adapters/e2e_sampling_script.py [--mode legacy|2026-07-28]

tests/servers/questions_server.py is started over stdio and its ``haiku`` tool asks the client's model
for a haiku. The "model" here repeats the prompt it got, so the screen shows what the person let
through. The tool's answer is printed as ``TOOL RESULT: ...``, a refusal as ``REFUSED: ...``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import anyio

from mcp_client import Client, MCPError, StdioServerParameters
from mcp_client.types import CreateMessageRequestParams, CreateMessageResult, TextContent
from ui_adapters import SamplingReview

SERVER = Path(__file__).resolve().parents[1] / "servers" / "questions_server.py"


async def echo_model(params: CreateMessageRequestParams) -> CreateMessageResult:
    prompt = params.messages[-1].content_as_list[0]
    text = prompt.text if isinstance(prompt, TextContent) else "?"
    return CreateMessageResult(
        content=TextContent(text=f"echo: {text}"), model="echo-model", stop_reason="endTurn"
    )


async def main(mode: str) -> None:
    server = StdioServerParameters(command=sys.executable, args=[str(SERVER), "stdio"])
    async with Client(server, mode=mode, sampling_callback=SamplingReview(echo_model)) as client:
        print(f"CONNECTED: {client.protocol_version}", flush=True)
        try:
            result = await client.call_tool("haiku", {"topic": "rain"})
        except MCPError as exc:
            print(f"REFUSED: {exc.message}", flush=True)
            return
    texts = [getattr(block, "text", "") for block in result.content]
    print(f"TOOL RESULT: {' '.join(texts)}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="legacy")
    anyio.run(main, parser.parse_args().mode)
