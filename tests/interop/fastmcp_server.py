"""A FastMCP 4.1.6 peer whose one tool asks a form question in whichever protocol era the client speaks.

Run by the interop fixtures with the interpreter of ``.cache/peers/fastmcp-venv`` (fastmcp is never installed
into the project's own venv). In the handshake era the tool calls ``ctx.elicit`` (a pushed
``elicitation/create``); in the 2026-07-28 era FastMCP forbids that, so the tool returns an
``InputRequiredResult`` and reads the answer from ``ctx.input_responses`` when the client retries. Either way
the tool's text answer is a JSON object echoing exactly what the client answered, so a test can compare it
with what its callback returned.

Beside it: ``echo``, and for progress, logs and output schemas ``count`` (progress reports), ``chatty``
(logs at four levels) and ``forecast`` (structured output).

Usage: ``python fastmcp_server.py http`` (prints ``LISTENING <port>`` once bound to 127.0.0.1) or
``python fastmcp_server.py stdio``.
"""

from __future__ import annotations

import json
import socket
import sys
from typing import Any

import anyio
import mcp_types
import uvicorn
from fastmcp import Context, FastMCP
from fastmcp.server.elicitation import get_elicitation_schema
from pydantic import BaseModel, Field

MODERN_VERSIONS = {"2026-07-28"}
QUESTION_KEY = "profile"

mcp = FastMCP("fastmcp-interop-peer", instructions="Interop peer for the mcp-client tests.")


class Profile(BaseModel):
    """Tell us a little about yourself."""

    # FastMCP sends the docstring above as the form's description (handshake era). The form: a required
    # string, an integer with a default, a boolean with a default.

    name: str = Field(description="Your name")
    age: int = Field(default=30, ge=0, le=150, description="Your age in years")
    subscribe: bool = Field(default=False, description="Send me the newsletter")


def _protocol_version(ctx: Context) -> str:
    rc = ctx.request_context
    return str(getattr(rc, "protocol_version", "") or "") if rc is not None else ""


def _answer(era: str, version: str, action: str, content: Any, rounds: str | None = None) -> str:
    return json.dumps(
        {"era": era, "protocol_version": version, "action": action, "content": content, "state": rounds},
        sort_keys=True,
    )


@mcp.tool
async def ask_profile(ctx: Context, greeting: str = "Hello") -> str | mcp_types.InputRequiredResult:
    """Ask the user for a small profile form and echo back what was answered."""
    version = _protocol_version(ctx)
    message = f"{greeting}! Please fill in your profile."
    if version not in MODERN_VERSIONS:
        result = await ctx.elicit(message, Profile)
        if result.action == "accept":
            return _answer("legacy", version, "accept", result.data.model_dump())
        return _answer("legacy", version, result.action, None)

    responses = ctx.input_responses or {}
    response = responses.get(QUESTION_KEY)
    if response is None:
        request = mcp_types.ElicitRequest(
            params=mcp_types.ElicitRequestFormParams(
                message=message, requested_schema=get_elicitation_schema(Profile)
            )
        )
        return mcp_types.InputRequiredResult(
            input_requests={QUESTION_KEY: request}, request_state=f"asked:{greeting}"
        )
    dumped = response.model_dump(mode="json", exclude_none=True)
    return _answer("modern", version, dumped.get("action", "?"), dumped.get("content"), ctx.request_state)


@mcp.tool
def echo(text: str) -> str:
    """Return ``text`` unchanged (a tool that never elicits)."""
    return text


@mcp.tool
async def count(ctx: Context, steps: int = 3, interval: float = 0.05) -> str:
    """Report progress ``steps`` times, ``interval`` seconds apart (``step i of n``)."""
    for step in range(1, steps + 1):
        await anyio.sleep(interval)
        await ctx.report_progress(step, steps, f"step {step} of {steps}")
    return f"counted to {steps}"


@mcp.tool
async def chatty(ctx: Context) -> str:
    """Log one message at each of debug, info, warning and error."""
    await ctx.debug("a debug message")
    await ctx.info("an info message")
    await ctx.warning("a warning message")
    await ctx.error("an error message")
    return "logged"


class Forecast(BaseModel):
    city: str
    temperature: float


@mcp.tool
def forecast(city: str) -> Forecast:
    """Structured output with an output schema."""
    return Forecast(city=city, temperature=12.5)


def _serve_http(transport: str = "http") -> None:
    """Bind 127.0.0.1 on a free port ourselves, so the port is known before uvicorn starts (no race).

    ``transport`` is ``"http"`` (streamable HTTP at ``/mcp``) or ``"sse"`` (the older HTTP+SSE transport,
    its event stream at ``/sse``).
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    app = mcp.http_app(path="/sse", transport="sse") if transport == "sse" else mcp.http_app(path="/mcp")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    print(f"LISTENING {port}", flush=True)
    server.run(sockets=[sock])


if __name__ == "__main__":
    transport = sys.argv[1] if len(sys.argv) > 1 else "http"
    if transport == "stdio":
        mcp.run(transport="stdio", show_banner=False)
    else:
        _serve_http(transport)
