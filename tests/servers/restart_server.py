"""A server that tests can kill and restart, and that counts how often each tool ran (the official `mcp` SDK).

    python tests/servers/restart_server.py stdio
    python tests/servers/restart_server.py http --port N

Environment (all optional):

- `RESTART_RUNS`: a file each tool run appends one line to (`read`, `write`): how often each ran.
- `RESTART_STARTS`: a file each start of the process appends its pid to.
- `RESTART_HOLD`: a file; a tool run waits (up to 60 s) while it holds this process's pid (or `*`:
  any process), so that a test can kill the server during a call, and the restarted server (another
  pid) answers at once.
- `RESTART_HINTS`: a file read at each start: `read-only`, `idempotent` or `destructive` (the
  default), the annotations of the tool `stock` in this process (a server whose hints change when
  it is redeployed).
- `RESTART_CRASH_AFTER`: a number N: the process exits with code 3 at start, after writing
  "boom at start" to stderr, once N starts are in `RESTART_STARTS` (a server that crashes at start).
  A crashed start adds its pid only while that file exists: removing it lets the next start through.

Tools: `pid` (read-only: the process id), `peek` (read-only), `order` (a side effect), `stock` (its
hints from `RESTART_HINTS`; runs noted as `stock`), `ask` (asks a question by elicitation, then waits
as `peek` does).
"""

import os
import sys
import time


def _note(env: str, line: str, *, create: bool = True) -> None:
    path = os.environ.get(env)
    if not path:
        return
    flags = os.O_WRONLY | os.O_APPEND | (os.O_CREAT if create else 0)
    try:
        fd = os.open(path, flags, 0o644)
    except FileNotFoundError:
        return  # create=False and the test removed the file: nothing to add to
    with os.fdopen(fd, "a") as file:
        file.write(line + "\n")


def _hold() -> None:
    path = os.environ.get("RESTART_HOLD")
    deadline = time.monotonic() + 60
    while path and time.monotonic() < deadline:
        try:
            with open(path) as file:
                if file.read().strip() not in (str(os.getpid()), "*"):
                    return
        except FileNotFoundError:
            return
        time.sleep(0.05)


def _starts() -> int:
    path = os.environ.get("RESTART_STARTS")
    if not path or not os.path.exists(path):
        return 0
    with open(path) as file:
        return len(file.read().split())


crash_after = os.environ.get("RESTART_CRASH_AFTER")
if crash_after is not None and _starts() >= int(crash_after):
    # Never create the file here: a test lets the server start by removing it, and a start that read
    # it just before must not put it back (it would crash every start after, for good).
    _note("RESTART_STARTS", str(os.getpid()), create=False)
    sys.stderr.write("boom at start\n")
    sys.exit(3)

# The heavy imports come after the crash above: a start that crashes is over in the time Python takes
# to start (0.1 s at a load of 12 on 2 cores), well inside the 5 s a group's health() gives the
# reconnect its ping sets off. With the imports first it took 3-4.6 s there, so three attempts never
# fitted, no look ever read "boom at start" and test_group_keeps_servers timed out.
from _serve import serve, transport_parser  # noqa: E402
from mcp.server.mcpserver import Context, MCPServer  # noqa: E402
from mcp_types import ToolAnnotations  # noqa: E402
from pydantic import BaseModel  # noqa: E402

_note("RESTART_STARTS", str(os.getpid()))
print(f"restart server starting, pid {os.getpid()}", file=sys.stderr, flush=True)

server = MCPServer("restart-server")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def pid() -> str:
    """This server process's id."""
    return str(os.getpid())


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def peek() -> str:
    """Read something (no side effect): safe to run twice."""
    _note("RESTART_RUNS", "read")
    _hold()
    return f"peeked by {os.getpid()}"


@server.tool(annotations=ToolAnnotations(destructiveHint=True, idempotentHint=False))
def order(item: str) -> str:
    """Order something (a side effect): must never run twice for one call."""
    _note("RESTART_RUNS", "write")
    _hold()
    return f"ordered {item} by {os.getpid()}"


def _stock_hints() -> ToolAnnotations:
    path = os.environ.get("RESTART_HINTS")
    said = ""
    if path and os.path.exists(path):
        with open(path) as file:
            said = file.read().strip()
    if said == "read-only":
        return ToolAnnotations(readOnlyHint=True)
    if said == "idempotent":
        return ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True)
    return ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=False)


@server.tool(annotations=_stock_hints())
def stock(item: str) -> str:
    """Set the stock of an item: read-only, idempotent or destructive as RESTART_HINTS says at start."""
    _note("RESTART_RUNS", "stock")
    _hold()
    return f"stocked {item} by {os.getpid()}"


class Answer(BaseModel):
    name: str


@server.tool(annotations=ToolAnnotations(readOnlyHint=False))
async def ask(ctx: Context) -> str:
    """Ask a question, then answer with what was said."""
    _note("RESTART_RUNS", "ask")
    result = await ctx.elicit("What is your name?", Answer)
    return f"hello {getattr(result, 'data', None)}"


if __name__ == "__main__":
    parser, _, _ = transport_parser(__doc__)
    serve(parser.parse_args(), ready_marker="RESTART_SERVER_READY", server=server)
