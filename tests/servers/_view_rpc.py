"""The MCP Apps JSON-RPC a hand-written view speaks to its host, as JavaScript for the view's `<script>`.

The views of `apps_probe_server.py` and `apps_approval_server.py` use no ext-apps bundle: they post
JSON-RPC to `window.parent` themselves. What they share is here, put at the top of each view's script:

- `send(message)`: post a message to the host;
- `request(method, params)`: send a request, a promise of the host's reply (the whole message);
- `describe(reply)`: a tool call's reply as the view shows it, `ok: <texts>` or `refused: <message>`;
- `listen(onMessage)`: every message from the host; a reply goes to its request, the rest to
  `onMessage(message)` (the view's own: `ui/resource-teardown`, `ui/notifications/tool-input`);
- `initialize(name)`: `ui/initialize` as app `name` 1.0.0, then `ui/notifications/initialized`.

Imported as `_view_rpc` (the script's own folder is first on `sys.path`, as for `_serve`).
"""

VIEW_RPC = """\
"use strict";
const pending = new Map();
let next = 1;
const send = (message) => window.parent.postMessage(message, "*");
const request = (method, params) => new Promise((resolve) => {
  const id = next++;
  pending.set(id, resolve);
  send({ jsonrpc: "2.0", id, method, params });
});
const describe = (reply) => reply.error
  ? "refused: " + reply.error.message
  : "ok: " + (reply.result.content || []).map((c) => c.text).join(" ");
const listen = (onMessage) => window.addEventListener("message", (event) => {
  const message = event.data;
  if (!message || message.jsonrpc !== "2.0") { return; }
  if (message.method === undefined && pending.has(message.id)) {
    pending.get(message.id)(message);
    pending.delete(message.id);
    return;
  }
  onMessage(message);
});
const initialize = async (name) => {
  await request("ui/initialize", {
    protocolVersion: "2026-01-26",
    appInfo: { name, version: "1.0.0" },
    appCapabilities: {},
  });
  send({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} });
};
"""
