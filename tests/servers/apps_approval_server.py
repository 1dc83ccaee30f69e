"""A view whose buttons call a read-only tool and one that is not (official `mcp==2.3.0`): what
`mcp-client apps` must ask about, or refuse, before the view's call reaches the server.

| tool | annotations | `_meta.ui` |
|---|---|---|
| `show_notes()` | `readOnlyHint: true` | view `ui://notes/view.html` |
| `edit_notes()` | `destructiveHint: true` | the same view; and its "Edit" button |
| `count_notes()` | `readOnlyHint: true` | none: the view's "Count" button |
| `delete_note(id)` | `destructiveHint: true` | none: the view's "Delete" button |
| `ran()` | `readOnlyHint: true` | none: every tool run so far (itself left out), as a JSON list |

Each tool but `ran` answers `ran <name>`. The view speaks the MCP Apps JSON-RPC by hand (as
`apps_probe_server.py`, with `_view_rpc.py`): it initializes, and each click of `#count-btn` / `#delete-btn` /
`#edit-btn` calls its tool, logs `waiting for <tool> <n>` (a line the host prints while the call may
be waiting for a person), and shows the n-th outcome in `#count` / `#delete` / `#edit`:
`count 1: ok: ran count_notes`, or `delete 1: refused: <the host's error>`.

    python tests/servers/apps_approval_server.py stdio
    python tests/servers/apps_approval_server.py http --port N   # APPS_APPROVAL_SERVER_READY <url>
"""

import json
from collections.abc import Sequence

from _serve import serve, transport_parser
from _view_rpc import VIEW_RPC
from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations

READY_MARKER = "APPS_APPROVAL_SERVER_READY"
VIEW_URI = "ui://notes/view.html"
APP_MIME_TYPE = "text/html;profile=mcp-app"

VIEW_HTML = (
    """<!doctype html>
<html><head><meta charset="utf-8"><title>Notes</title></head>
<body>
<h1>Notes</h1>
<p id="ready">not initialized</p>
<p id="count">count: not tried</p>
<p id="delete">delete: not tried</p>
<p id="edit">edit: not tried</p>
<button id="count-btn">Count</button>
<button id="delete-btn">Delete</button>
<button id="edit-btn">Edit</button>
<script>
"""
    + VIEW_RPC
    + """
const clicks = { count: 0, delete: 0, edit: 0 };
listen((message) => {
  if (message.method === "ui/resource-teardown") {
    send({ jsonrpc: "2.0", id: message.id, result: {} });
  }
});
const button = (what, name, args) => {
  document.getElementById(what + "-btn").addEventListener("click", async () => {
    const n = ++clicks[what];
    const asked = request("tools/call", { name, arguments: args });
    const data = "waiting for " + name + " " + n;
    send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data } });
    document.getElementById(what).textContent = what + " " + n + ": " + describe(await asked);
  });
};
button("count", "count_notes", {});
button("delete", "delete_note", { id: "n1" });
button("edit", "edit_notes", {});
(async () => {
  await initialize("notes");
  document.getElementById("ready").textContent = "initialized";
})();
</script>
</body></html>
"""
)

mcp = MCPServer("notes", version="1.0.0", log_level="WARNING")
_runs: list[str] = []
_VIEW = {"ui": {"resourceUri": VIEW_URI}}
READ_ONLY = ToolAnnotations(readOnlyHint=True)
DESTRUCTIVE = ToolAnnotations(readOnlyHint=False, destructiveHint=True)


def _ran(name: str) -> str:
    _runs.append(name)
    return f"ran {name}"


@mcp.tool(annotations=READ_ONLY, meta=_VIEW)
def show_notes() -> str:
    """Show the notes (read-only, with a view)."""
    return _ran("show_notes")


@mcp.tool(annotations=DESTRUCTIVE, meta=_VIEW)
def edit_notes() -> str:
    """Edit the notes (not read-only, with a view)."""
    return _ran("edit_notes")


@mcp.tool(annotations=READ_ONLY)
def count_notes() -> str:
    """Count the notes (read-only)."""
    return _ran("count_notes")


@mcp.tool(annotations=DESTRUCTIVE)
def delete_note(id: str) -> str:
    """Delete a note (not read-only)."""
    return _ran(f"delete_note {id}")


@mcp.tool(annotations=READ_ONLY)
def ran() -> str:
    """Every tool run so far by this process (this one left out), as a JSON list."""
    return json.dumps(_runs)


@mcp.resource(VIEW_URI, name="notes_view", mime_type=APP_MIME_TYPE)
def view() -> str:
    return VIEW_HTML


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, _ = transport_parser(__doc__)
    serve(parser.parse_args(argv), ready_marker=READY_MARKER, server=mcp)


if __name__ == "__main__":
    main()
