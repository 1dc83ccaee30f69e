// A view built on the official `App` class of @modelcontextprotocol/ext-apps 2.0.4, run in Node.js with
// no browser: its JSON-RPC goes over stdin/stdout, one JSON message a line, instead of postMessage.
//
//   node node_view.mjs <path of ext-apps/dist/src/app-with-deps.js>
//
// Lines it reads: the host's JSON-RPC messages, or a test's command {"command": "<App method>",
// "params": {...}, "id": n}, which it runs (`app.callServerTool(params)`, `app.openLink(params)`, ...).
// Lines it writes: its own JSON-RPC messages, or events {"event": ...}: "connected" (with what the host
// answered), "tool-input", "tool-result", "tool-cancelled", "host-context-changed", "teardown", and
// "answer" / "error" for a command. `App.connect` checks the host's ui/initialize answer against the
// spec's schemas: "connected" means the host passed.
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const { App } = await import(pathToFileURL(process.argv[2]).href);

const emit = (message) => process.stdout.write(JSON.stringify(message) + "\n");

class StdioTransport {
  async start() {}
  async send(message) {
    emit(message);
  }
  async close() {
    this.onclose?.();
  }
  deliver(message) {
    this.onmessage?.(message);
  }
}

const transport = new StdioTransport();
const app = new App({ name: "node-view", version: "1.0.0" }, {}, { autoResize: false });
app.ontoolinput = (params) => emit({ event: "tool-input", params });
app.ontoolinputpartial = (params) => emit({ event: "tool-input-partial", params });
app.ontoolresult = (params) => emit({ event: "tool-result", params });
app.ontoolcancelled = (params) => emit({ event: "tool-cancelled", params });
app.onhostcontextchanged = (params) => emit({ event: "host-context-changed", params });
app.onteardown = async (params) => {
  emit({ event: "teardown", params });
  return {};
};

const lines = createInterface({ input: process.stdin });
lines.on("line", async (line) => {
  const message = JSON.parse(line);
  if (message.command === undefined) {
    transport.deliver(message);
    return;
  }
  try {
    const result = await app[message.command](message.params);
    emit({ event: "answer", id: message.id, result: result ?? null });
  } catch (error) {
    emit({ event: "error", id: message.id, message: String(error?.message ?? error) });
  }
});
lines.on("close", () => process.exit(0));

try {
  await app.connect(transport);
  emit({
    event: "connected",
    hostInfo: app.getHostVersion(),
    hostCapabilities: app.getHostCapabilities(),
    hostContext: app.getHostContext(),
  });
} catch (error) {
  emit({ event: "connect-failed", message: String(error?.message ?? error) });
}
