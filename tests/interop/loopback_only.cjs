// Preloaded with `node --require` into the npm peer servers of the interop tests.
//
// server-everything calls `app.listen(PORT)` with no host, which binds every interface. Tests must only
// ever listen on loopback, so this rewrites every TCP listen() to host 127.0.0.1 (whatever host was
// asked for), and reports the port actually bound (PORT=0 picks a free one) on stderr as
// `MCP_PEER_LISTENING 127.0.0.1:<port>` for the test fixture to read.
"use strict";
const net = require("node:net");

const originalListen = net.Server.prototype.listen;

net.Server.prototype.listen = function listenOnLoopback(...args) {
  const callbacks = args.filter((arg) => typeof arg === "function");
  const first = args[0];
  let options;
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    options = { port: Number(first) };
  } else if (first && typeof first === "object" && !("fd" in first) && !("path" in first) && !("handle" in first) && !("_handle" in first)) {
    options = { ...first };
  } else {
    return originalListen.apply(this, args); // unix socket, inherited handle: not a TCP port
  }
  options.host = "127.0.0.1";
  delete options.ipv6Only;
  this.once("listening", () => {
    const address = this.address();
    if (address && typeof address === "object") {
      process.stderr.write(`MCP_PEER_LISTENING ${address.address}:${address.port}\n`);
    }
  });
  return originalListen.call(this, options, ...callbacks);
};
