"""A view that probes its host (official `mcp==2.3.0`, `mcp.server.apps`): what the npm examples never try.

| tool | `_meta.ui` | what it is for |
|---|---|---|
| `probe(target)` | view `ui://probe/view.html`, no CSP declared | the view below |
| `model_only(text)` | visibility `["model"]` | a tool the view tries and must be refused |
| `app_helper()` | visibility `["app"]`, no view | a tool the view may call |
| `slow()` | visibility `["app"]`, no view | takes a second: the view floods the host with it |
| `ran()` | none | every tool run so far (itself left out), as a JSON list |

The view speaks the MCP Apps JSON-RPC by hand (no ext-apps bundle): it initializes, then on
`ui/notifications/tool-input` it fetches `target` (its CSP declares nothing, so the fetch must fail),
calls `model_only` and `app_helper`, and shows each outcome in an element the test reads
(`#fetch`, `#model-only`, `#app-helper`). `#flood-btn` sends 400 `slow` calls at once and shows how
many were refused with "Too many messages" (`#flood`); `#after-btn` calls `app_helper` again (`#after`).
It answers `ui/resource-teardown`.

    python tests/servers/apps_probe_server.py stdio
"""

import asyncio
import json
from collections.abc import Sequence

from _serve import serve, transport_parser
from mcp.server.apps import Apps
from mcp.server.mcpserver import MCPServer

READY_MARKER = "APPS_PROBE_READY"
VIEW = "ui://probe/view.html"

VIEW_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>Probe</title></head>
<body>
<h1>Probe</h1>
<p id="input">input: none yet</p>
<p id="fetch">fetch: not tried</p>
<p id="model-only">model_only: not tried</p>
<p id="app-helper">app_helper: not tried</p>
<p id="flood">flood: not tried</p>
<p id="after">after: not tried</p>
<p id="teardown">teardown: not asked</p>
<button id="flood-btn">Flood</button>
<button id="after-btn">After</button>
<script>
"use strict";
const pending = new Map();
let next = 1;
const send = (message) => window.parent.postMessage(message, "*");
const request = (method, params) => new Promise((resolve) => {
  const id = next++;
  pending.set(id, resolve);
  send({ jsonrpc: "2.0", id, method, params });
});
const show = (id, text) => { document.getElementById(id).textContent = text; };
const describe = (reply) => reply.error
  ? "refused: " + reply.error.message
  : "ok: " + (reply.result.content || []).map((c) => c.text).join(" ");
window.addEventListener("message", (event) => {
  const message = event.data;
  if (!message || message.jsonrpc !== "2.0") { return; }
  if (message.method === undefined && pending.has(message.id)) {
    pending.get(message.id)(message);
    pending.delete(message.id);
    return;
  }
  if (message.method === "ui/notifications/tool-input") { run(message.params.arguments || {}); }
  if (message.method === "ui/resource-teardown") {
    show("teardown", "teardown: asked");
    send({ jsonrpc: "2.0", id: message.id, result: {} });
  }
});
async function run(args) {
  show("input", "input: " + JSON.stringify(args));
  try {
    await fetch(args.target, { cache: "no-store" });
    show("fetch", "fetch: reached");
  } catch (error) {
    show("fetch", "fetch: blocked");
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
(async () => {
  await request("ui/initialize", {
    protocolVersion: "2026-01-26",
    appInfo: { name: "probe", version: "1.0.0" },
    appCapabilities: {},
  });
  send({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} });
})();
</script>
</body></html>
"""

apps = Apps()
runs: list[str] = []


@apps.tool(resource_uri=VIEW, description="A view that probes its host.")
def probe(target: str) -> str:
    runs.append("probe")
    return f"probing {target}"


@apps.tool(resource_uri=VIEW, visibility=["model"], description="For the model only.")
def model_only(text: str) -> str:
    runs.append("model_only")
    return f"model only: {text}"


def app_helper() -> str:
    runs.append("app_helper")
    return "helped"


async def slow() -> str:
    await asyncio.sleep(1)
    return "slow done"


apps.add_html_resource(VIEW, VIEW_HTML, name="probe")
mcp = MCPServer("apps-probe", version="0.0.1", log_level="WARNING", extensions=[apps])
APP_ONLY = {"ui": {"visibility": ["app"]}}
mcp.add_tool(app_helper, name="app_helper", description="For the view only.", meta=APP_ONLY)
mcp.add_tool(slow, name="slow", description="Takes a second.", meta=APP_ONLY)


@mcp.tool(description="Every tool run so far (this one left out), as a JSON list.")
def ran() -> str:
    return json.dumps(runs)


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, _ = transport_parser(__doc__)
    serve(parser.parse_args(argv), ready_marker=READY_MARKER, server=mcp)


if __name__ == "__main__":
    main()
