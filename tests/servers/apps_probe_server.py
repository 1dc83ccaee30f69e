"""A view that probes its host (official `mcp==2.3.0`, `mcp.server.apps`): what the npm examples never try.

| tool | `_meta.ui` | what it is for |
|---|---|---|
| `probe(target, other)` | view `ui://probe/view.html`, `connectDomains` from `--connect` | the view |
| `model_only(text)` | visibility `["model"]` | a tool the view tries and must be refused |
| `app_helper()` | visibility `["app"]`, no view | a tool the view may call |
| `slow()` | visibility `["app"]`, no view | takes a second: the view floods the host with it |
| `ran()` | none | every tool run so far (itself left out), as a JSON list |

The view speaks the MCP Apps JSON-RPC by hand (no ext-apps bundle; `_view_rpc.py`): it initializes, then on
`ui/notifications/tool-input` it fetches `target` and then `other` (`no-cors`: nothing but the CSP can
stop them; without `--connect ORIGIN` the view declares no CSP, so both must fail; with it, only
`ORIGIN` may be reached), calls `model_only` and `app_helper`, and shows each outcome in an element the
test reads (`#fetch`, `#other`, `#model-only`, `#app-helper`). `#flood-btn` sends 400 `slow` calls at
once and shows how many were refused with "Too many messages" (`#flood`); `#after-btn` calls
`app_helper` again (`#after`). It answers `ui/resource-teardown`.

    python tests/servers/apps_probe_server.py stdio [--connect http://127.0.0.1:N]
"""

import asyncio
import json
from collections.abc import Sequence

from _serve import serve, transport_parser
from _view_rpc import VIEW_RPC
from mcp.server.apps import Apps, ResourceCsp
from mcp.server.mcpserver import MCPServer

READY_MARKER = "APPS_PROBE_READY"
VIEW = "ui://probe/view.html"

VIEW_HTML = (
    """<!doctype html>
<html><head><meta charset="utf-8"><title>Probe</title></head>
<body>
<h1>Probe</h1>
<p id="input">input: none yet</p>
<p id="fetch">fetch: not tried</p>
<p id="other">other: not tried</p>
<p id="model-only">model_only: not tried</p>
<p id="app-helper">app_helper: not tried</p>
<p id="flood">flood: not tried</p>
<p id="after">after: not tried</p>
<p id="teardown">teardown: not asked</p>
<button id="flood-btn">Flood</button>
<button id="after-btn">After</button>
<script>
"""
    + VIEW_RPC
    + """
const show = (id, text) => { document.getElementById(id).textContent = text; };
listen((message) => {
  if (message.method === "ui/notifications/tool-input") { run(message.params.arguments || {}); }
  if (message.method === "ui/resource-teardown") {
    show("teardown", "teardown: asked");
    send({ jsonrpc: "2.0", id: message.id, result: {} });
  }
});
async function run(args) {
  show("input", "input: " + JSON.stringify(args));
  for (const [id, url] of [["fetch", args.target], ["other", args.other]]) {
    if (!url) { continue; }
    try {
      await fetch(url, { cache: "no-store", mode: "no-cors" });
      show(id, id + ": reached");
    } catch (error) {
      show(id, id + ": blocked");
    }
  }
  const refused = await request("tools/call", { name: "model_only", arguments: { text: "hi" } });
  show("model-only", "model_only: " + describe(refused));
  const helped = await request("tools/call", { name: "app_helper", arguments: {} });
  show("app-helper", "app_helper: " + describe(helped));
}
document.getElementById("flood-btn").addEventListener("click", async () => {
  show("flood", "flood: sending");
  const calls = Array.from({ length: 400 }, () => request("tools/call", { name: "slow", arguments: {} }));
  const replies = await Promise.all(calls);
  const tooMany = replies.filter((r) => r.error && r.error.message.startsWith("Too many messages")).length;
  const ok = replies.filter((r) => !r.error).length;
  show("flood", "flood: " + ok + " ok, " + tooMany + " too many, " + (400 - ok - tooMany) + " other");
});
document.getElementById("after-btn").addEventListener("click", async () => {
  show("after", "after: " + describe(await request("tools/call", { name: "app_helper", arguments: {} })));
});
initialize("probe");
</script>
</body></html>
"""
)

runs: list[str] = []


def probe(target: str, other: str = "") -> str:
    runs.append("probe")
    return f"probing {target}"


def model_only(text: str) -> str:
    runs.append("model_only")
    return f"model only: {text}"


def app_helper() -> str:
    runs.append("app_helper")
    return "helped"


async def slow() -> str:
    await asyncio.sleep(1)
    return "slow done"


def ran() -> str:
    return json.dumps(runs)


def build(connect: Sequence[str]) -> MCPServer:
    """The server, its view allowed to fetch the origins in ``connect`` (none: no CSP declared)."""
    apps = Apps()
    apps.tool(resource_uri=VIEW, description="A view that probes its host.")(probe)
    apps.tool(resource_uri=VIEW, visibility=["model"], description="For the model only.")(model_only)
    csp = ResourceCsp(connect_domains=list(connect)) if connect else None
    apps.add_html_resource(VIEW, VIEW_HTML, name="probe", csp=csp)
    mcp = MCPServer("apps-probe", version="0.0.1", log_level="WARNING", extensions=[apps])
    app_only = {"ui": {"visibility": ["app"]}}
    mcp.add_tool(app_helper, name="app_helper", description="For the view only.", meta=app_only)
    mcp.add_tool(slow, name="slow", description="Takes a second.", meta=app_only)
    mcp.add_tool(ran, name="ran", description="Every tool run so far (this one left out), as a JSON list.")
    return mcp


def main(argv: Sequence[str] | None = None) -> None:
    parser, stdio, http = transport_parser(__doc__)
    for sub in (stdio, http):
        if sub is not None:
            sub.add_argument("--connect", action="append", default=[], help="an origin the view may fetch")
    args = parser.parse_args(argv)
    serve(args, ready_marker=READY_MARKER, server=build(args.connect))


if __name__ == "__main__":
    main()
