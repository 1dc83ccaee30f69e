"""A FastMCP 4.1.4 + fastmcp-tasks 4.1.4 peer: tools the server runs as SEP-2663 tasks.

Run by the interop fixtures with the interpreter of ``.cache/peers/fastmcp-tasks-venv`` (fastmcp-tasks
needs fastmcp 4.1.4 exactly, so it has a venv of its own). The tasks backend is Docket's in-memory
``memory://``, so nothing outside the process is needed.

* ``must_task(n)``: a task always (``mode="required"``): a client without the extension gets -32021.
* ``maybe_task(n)``: a task only when the client declared the extension (``mode="optional"``).
* ``ask_name(greeting)``: a task that asks a form question (the guard pattern: it returns an
  ``InputRequiredResult``; the task sits in ``input_required`` until ``tasks/update`` answers).
* ``fail_task()``: raises a JSON-RPC error inside the task: the task ends ``failed`` with it.
* ``slow_task(seconds)``: sleeps, for cancellation.

Usage: ``python fastmcp_tasks_server.py http`` (prints ``LISTENING <port>``) or ``... stdio``.
"""

from __future__ import annotations

import os
import socket
import sys

os.environ.setdefault("FASTMCP_DOCKET_URL", "memory://")

import anyio
import mcp_types
import uvicorn
from fastmcp import Context, FastMCP
from fastmcp.utilities.tasks import TaskConfig
from fastmcp_tasks import TasksExtension
from mcp.shared.exceptions import MCPError

mcp = FastMCP("fastmcp-tasks-peer")
mcp.add_extension(TasksExtension(url="memory://"))


@mcp.tool(task=TaskConfig(mode="required"))
async def must_task(n: int = 1) -> str:
    """A job that only runs as a background task."""
    await anyio.sleep(0.2)
    return f"required job {n} done"


@mcp.tool(task=TaskConfig(mode="optional"))
async def maybe_task(n: int = 1) -> str:
    """A job that runs as a task when the client can follow one, else at once."""
    await anyio.sleep(0.1)
    return f"optional job {n} done"


@mcp.tool(task=TaskConfig(mode="required"))
async def ask_name(ctx: Context, greeting: str = "Hello") -> str | mcp_types.InputRequiredResult:
    """A task that asks for the user's name (a form), then greets them."""
    answer = (ctx.input_responses or {}).get("name")
    if answer is None:
        request = mcp_types.ElicitRequest(
            params=mcp_types.ElicitRequestFormParams(
                message="What is your name?",
                requested_schema={
                    "type": "object",
                    "properties": {"name": {"type": "string", "title": "Name"}},
                    "required": ["name"],
                },
            )
        )
        return mcp_types.InputRequiredResult(input_requests={"name": request})
    dumped = answer.model_dump(mode="json", exclude_none=True)
    if dumped.get("action") != "accept":
        return f"no name given ({dumped.get('action')})"
    return f"{greeting}, {dumped['content']['name']}!"


@mcp.tool(task=TaskConfig(mode="required"))
async def fail_task() -> str:
    """A task whose work fails with a JSON-RPC error (the task ends ``failed``)."""
    raise MCPError(code=-32603, message="the backend is down")


@mcp.tool(task=TaskConfig(mode="required"))
async def slow_task(seconds: float = 60.0) -> str:
    """A task that sleeps ``seconds`` (for cancellation)."""
    await anyio.sleep(seconds)
    return "slept"


def _serve_http() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    app = mcp.http_app(path="/mcp")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    print(f"LISTENING {port}", flush=True)
    server.run(sockets=[sock])


if __name__ == "__main__":
    if (sys.argv[1] if len(sys.argv) > 1 else "http") == "stdio":
        mcp.run(transport="stdio", show_banner=False)
    else:
        _serve_http()
