"""The two documents of a view: the host page (ours, on the host origin) and the sandbox proxy (on the
sandbox origin), both with their scripts.

The host page frames the proxy (``sandbox="allow-scripts allow-same-origin"``, on the other origin, so
the view can never reach the page); the proxy says ``ui/notifications/sandbox-proxy-ready``, is sent
``ui/notifications/sandbox-resource-ready`` with the view's HTML, and loads it into an inner frame
(``sandbox="allow-scripts"``: an opaque origin) that inherits the proxy's Content-Security-Policy. From
then on the proxy only relays: the view's messages up to the host page, the host page's down to the view.

The host page is a pipe between the proxy and Python: the view's messages are batched into POST requests,
the host's messages come back on an event stream (``EventSource``), as the browser form does. It sizes the
frame from the view's ``ui/notifications/size-changed`` and says so when the view is closed.

Everything the server wrote that the page shows (the tool's and the server's names) is plain text:
sanitized and escaped. Values handed to the scripts are JSON with ``<`` escaped, so nothing closes the
``<script>`` element early.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping

from ui_adapters.text import sanitize

__all__ = ["render_host_page", "render_notice", "render_proxy"]

_THEMES: Mapping[str, tuple[str, str, str, str]] = {
    # page, card, text, muted
    "light": ("#f3f4f7", "#ffffff", "#1f1f1f", "#5f6368"),
    "dark": ("#17181a", "#202124", "#e8eaed", "#a9adb3"),
}

_HOST_CSS = """
:root { color-scheme: %(scheme)s; }
* { box-sizing: border-box; }
body { margin: 0; padding: 16px; background: %(page)s; color: %(text)s;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
header { max-width: 960px; margin: 0 auto 10px; display: flex; flex-wrap: wrap; column-gap: 10px;
  align-items: baseline; }
header h1 { font-size: 16px; margin: 0; font-weight: 600; overflow-wrap: anywhere; }
header p { margin: 0; color: %(muted)s; font-size: 13px; overflow-wrap: anywhere; }
main { max-width: 960px; margin: 0 auto; }
iframe#view { display: block; width: 100%%; height: 480px; border: 0; background: %(card)s;
  color-scheme: %(scheme)s; }
main.border iframe#view { border: 1px solid %(muted)s; border-radius: 10px; }
#status { margin: 10px 0 0; color: %(muted)s; font-size: 14px; }
#status:empty { display: none; }
.closed { padding: 16px; border: 1px solid %(muted)s; border-radius: 10px; background: %(card)s; }
"""

_HOST_SCRIPT = """
"use strict";
(() => {
  const config = JSON.parse(document.getElementById("config").textContent);
  const frame = document.getElementById("view");
  const status = document.getElementById("status");
  const queue = [];
  let sending = false;
  let closed = false;
  const toView = (message) => {
    if (!closed && frame.contentWindow) { frame.contentWindow.postMessage(message, config.sandboxOrigin); }
  };
  const refuse = (message, why) => {
    if (message && typeof message.method === "string" && message.id !== undefined && message.id !== null) {
      toView({ jsonrpc: "2.0", id: message.id, error: { code: -32000, message: why } });
    }
  };
  const flush = async () => {
    if (sending || closed || queue.length === 0) { return; }
    sending = true;
    const batch = queue.splice(0, config.batch);
    try {
      const response = await fetch(config.messages, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ csrf: config.csrf, messages: batch }),
        credentials: "same-origin",
        cache: "no-store",
      });
      if (!response.ok) {
        batch.forEach((m) => refuse(m, "The host refused this message (HTTP " + response.status + ")."));
      }
    } catch (error) {
      batch.forEach((m) => refuse(m, "The host could not be reached."));
    }
    sending = false;
    if (queue.length > 0) { flush(); }
  };
  window.addEventListener("message", (event) => {
    if (closed || event.source !== frame.contentWindow || event.origin !== config.sandboxOrigin) { return; }
    const message = event.data;
    if (!message || typeof message !== "object" || message.jsonrpc !== "2.0") { return; }
    if (message.method === "ui/notifications/size-changed" && message.params) {
      const height = Number(message.params.height);
      if (Number.isFinite(height) && height > 0) {
        frame.style.height = Math.min(Math.max(Math.ceil(height), 40), 4000) + "px";
      }
    }
    if (queue.length >= config.maxQueued) {
      refuse(message, "Too many messages: the host is still working on earlier ones. Wait for answers.");
      return;
    }
    queue.push(message);
    queueMicrotask(flush);
  });
  const events = new EventSource(config.events);
  events.addEventListener("message", (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (error) { return; }
    toView(message);
  });
  events.addEventListener("closed", (event) => {
    closed = true;
    events.close();
    frame.remove();
    const notice = document.createElement("p");
    notice.className = "closed";
    notice.id = "closed";
    notice.textContent = event.data || "This view is closed.";
    document.querySelector("main").appendChild(notice);
  });
  events.addEventListener("error", () => {
    if (!closed && events.readyState === EventSource.CLOSED) { status.textContent = "The host is gone."; }
  });
})();
"""

_PROXY_SCRIPT = """
"use strict";
(() => {
  const config = JSON.parse(document.getElementById("config").textContent);
  if (window.parent === window) {
    document.body.textContent = "This page only works inside its host page.";
    return;
  }
  let inner = null;
  window.addEventListener("message", (event) => {
    const message = event.data;
    if (event.source === window.parent && event.origin === config.hostOrigin) {
      if (message && message.method === "ui/notifications/sandbox-resource-ready") {
        if (inner !== null || !message.params || typeof message.params.html !== "string") { return; }
        inner = document.createElement("iframe");
        inner.setAttribute("sandbox", config.sandbox);
        if (config.allow) { inner.setAttribute("allow", config.allow); }
        inner.setAttribute("title", "view");
        inner.srcdoc = message.params.html;
        document.body.appendChild(inner);
        return;
      }
      if (inner !== null && inner.contentWindow) { inner.contentWindow.postMessage(message, "*"); }
      return;
    }
    if (inner !== null && event.source === inner.contentWindow) {
      const method = message && typeof message.method === "string" ? message.method : "";
      if (method.startsWith("ui/notifications/sandbox-")) {
        return;  // only the proxy speaks for the sandbox
      }
      window.parent.postMessage(message, config.hostOrigin);
    }
  });
  window.parent.postMessage(
    { jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, config.hostOrigin);
})();
"""

_PROXY_CSS = """
html, body { margin: 0; padding: 0; height: 100%; overflow: hidden; background: transparent; }
:root { color-scheme: light dark; }
iframe { display: block; width: 100%; height: 100%; border: 0; }
"""


def _json_for_script(value: object) -> str:
    return json.dumps(value, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e")


def _text(value: str, limit: int = 200) -> str:
    return html.escape(sanitize(value)[:limit], quote=True)


def render_host_page(
    *,
    title: str,
    server: str,
    theme: str,
    nonce: str,
    proxy_url: str,
    allow: str,
    border: bool,
    config: Mapping[str, object],
) -> str:
    """The host page of one view: a header naming the tool and its server, and the proxy's frame."""
    page, card, text, muted = _THEMES.get(theme, _THEMES["light"])
    css = _HOST_CSS % {
        "scheme": "dark" if theme == "dark" else "light",
        "page": page,
        "card": card,
        "text": text,
        "muted": muted,
    }
    allow_attr = f' allow="{html.escape(allow, quote=True)}"' if allow else ""
    return (
        "<!doctype html>\n"
        f'<html lang="en" data-theme="{html.escape(theme, quote=True)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_text(title)} · {_text(server)}</title>"
        f'<style nonce="{nonce}">{css}</style></head><body>'
        f"<header><h1>{_text(title)}</h1><p>from {_text(server)}</p></header>"
        f'<main class="{"border" if border else ""}">'
        f'<iframe id="view" title="{_text(title)}" src="{html.escape(proxy_url, quote=True)}" '
        f'sandbox="allow-scripts allow-same-origin"{allow_attr} referrerpolicy="no-referrer"></iframe>'
        '<p id="status" role="status"></p></main>'
        f'<script type="application/json" id="config">{_json_for_script(dict(config))}</script>'
        f'<script nonce="{nonce}">{_HOST_SCRIPT}</script>'
        "</body></html>\n"
    )


def render_proxy(*, host_origin: str, sandbox: str, allow: str) -> str:
    """The sandbox proxy's document (its script runs under the view's own policy: inline only)."""
    config = {"hostOrigin": host_origin, "sandbox": sandbox, "allow": allow}
    return (
        '<!doctype html>\n<html><head><meta charset="utf-8">'
        f"<style>{_PROXY_CSS}</style></head><body>"
        f'<script type="application/json" id="config">{_json_for_script(config)}</script>'
        f"<script>{_PROXY_SCRIPT}</script>"
        "</body></html>\n"
    )


def render_notice(title: str, text: str, *, nonce: str) -> str:
    """A page with one message (an unknown or closed view)."""
    css = _HOST_CSS % {
        "scheme": "light",
        "page": _THEMES["light"][0],
        "card": _THEMES["light"][1],
        "text": _THEMES["light"][2],
        "muted": _THEMES["light"][3],
    }
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<title>{_text(title)}</title><style nonce="{nonce}">{css}</style></head><body>'
        f'<main><p class="closed" id="closed">{_text(text, 1000)}</p></main></body></html>\n'
    )
