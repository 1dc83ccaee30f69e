"""A web chat that shows MCP Apps views beside its messages, with ``ui_adapters.apps.asgi_app``.

    pip install -e ".[examples,apps-web]"
    python examples/clients/apps_web_chat.py                  # server-basic-vanillajs, through npx
    python examples/clients/apps_web_chat.py "node .../server-basic-vanillajs/dist/index.js --stdio" \\
        --port 8080

Then open http://127.0.0.1:8080, pick a tool that has a view (``get-time``) and run it: its text joins
the chat and its view, the server's own interface, is shown beside it in a frame. What the view sends
back (its "send a message" button) joins the chat too. There is no model here: the chat is yours.

The host is ``asgi_app(client, host_origin=..., sandbox_origin=...)``, mounted at ``/`` after the chat's
routes and entered in the app's lifespan. The spec's two origins are two names of this one server:
``127.0.0.1`` serves the chat and the views' host pages, ``localhost`` the views' sandbox. Server text is
put in the page with ``textContent``, never as HTML; the ``Host`` header is checked; a
Content-Security-Policy allows only this app's own script, style and frames.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route

from mcp_client import Client, MCPClientError, StdioServerParameters
from mcp_client.apps import app_of
from mcp_client.types import TextContent
from ui_adapters.apps import asgi_app

DEFAULT_SERVER = "npx -y @modelcontextprotocol/server-basic-vanillajs --stdio"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP Apps chat</title>
<link rel="stylesheet" href="/chat.css"></head>
<body><h1>MCP Apps chat</h1>
<ol id="chat"></ol>
<form id="run"><select id="tool"></select>
<input id="arguments" value="{}" aria-label="arguments (JSON)"><button>Run</button></form>
<script src="/chat.js"></script></body></html>
"""

CSS = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 16px auto; max-width: 1100px; }
#chat { list-style: none; padding: 0; }
#chat li { display: flex; gap: 16px; align-items: flex-start; margin: 8px 0; }
#chat li p { flex: 1; margin: 0; white-space: pre-wrap; }
#chat li iframe { flex: 2; height: 420px; border: 1px solid #ccc; border-radius: 8px; }
#chat li.view p { color: #555; font-style: italic; }
"""

SCRIPT = """
const chat = document.getElementById("chat");
function say(text, url, kind) {
  const item = document.createElement("li");
  if (kind) { item.className = kind; }
  const words = document.createElement("p");
  words.textContent = text;
  item.append(words);
  if (url) {
    const frame = document.createElement("iframe");
    frame.src = url;
    frame.title = "the tool's view";
    item.append(frame);
  }
  chat.append(item);
}
async function tools() {
  const names = await (await fetch("/api/tools")).json();
  for (const name of names) {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    document.getElementById("tool").append(option);
  }
}
document.getElementById("run").addEventListener("submit", async (event) => {
  event.preventDefault();
  const tool = document.getElementById("tool").value;
  say("You: run " + tool);
  const response = await fetch("/api/run", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ tool, arguments: JSON.parse(document.getElementById("arguments").value) }),
  });
  const answer = await response.json();
  say((answer.is_error ? "Error: " : "") + answer.text, answer.url);
});
let heard = 0;
setInterval(async () => {
  const messages = await (await fetch("/api/messages")).json();
  for (const text of messages.slice(heard)) { say("The view says: " + text, null, "view"); }
  heard = messages.length;
}, 1000);
tools();
"""


def server_parameters(server: str) -> str | StdioServerParameters:
    if server.startswith(("http://", "https://")):
        return server
    command, *args = shlex.split(server)
    return StdioServerParameters(command, args)


def create_app(server: str, port: int) -> Starlette:
    client = Client(server_parameters(server), apps=True)
    heard: list[str] = []

    def on_message(params: dict[str, Any]) -> bool:
        """A view's ``ui/message`` joins the chat (its text parts)."""
        content = params.get("content")
        parts = content if isinstance(content, list) else []
        texts = [str(p.get("text")) for p in parts if isinstance(p, dict) and p.get("type") == "text"]  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType, reportUnknownArgumentType]
        heard.append(" ".join(texts) or "(a message without text)")
        return True

    host = asgi_app(
        client,
        host_origin=f"http://127.0.0.1:{port}",
        sandbox_origin=f"http://localhost:{port}",
        on_message=on_message,
    )

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncGenerator[None]:
        async with client, host:  # the host needs the client; leaving it closes every view
            yield

    policy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-src 'self'"

    def page(body: str, media_type: str) -> Response:
        return Response(body, media_type=media_type, headers={"Content-Security-Policy": policy})

    async def index(_request: Request) -> Response:
        return page(PAGE, "text/html")

    async def script(_request: Request) -> Response:
        return page(SCRIPT, "text/javascript")

    async def style(_request: Request) -> Response:
        return page(CSS, "text/css")

    async def tools(_request: Request) -> JSONResponse:
        listed = (await client.list_tools()).tools
        return JSONResponse([t.name for t in listed if (app := app_of(t)) and app.resource_uri])

    async def run(request: Request) -> JSONResponse:
        asked = await request.json()
        if not isinstance(asked, dict) or not isinstance(asked.get("tool"), str):  # pyright: ignore[reportUnknownMemberType]
            return JSONResponse({"error": "send {tool, arguments}"}, status_code=400)
        try:
            view = await host.show(asked["tool"], asked.get("arguments") or {})  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType]
        except (ValueError, MCPClientError) as error:
            return JSONResponse({"text": str(error), "url": None, "is_error": True})
        text = "\n".join(b.text for b in view.result.content if isinstance(b, TextContent))
        return JSONResponse({"text": text, "url": view.url, "is_error": bool(view.result.is_error)})

    async def messages(_request: Request) -> JSONResponse:
        return JSONResponse(heard)

    routes = [
        Route("/", index),
        Route("/chat.js", script),
        Route("/chat.css", style),
        Route("/api/tools", tools),
        Route("/api/run", run, methods=["POST"]),
        Route("/api/messages", messages),
        Mount("/", app=host),  # the views' pages and sandboxes: unguessable paths, after the chat's
    ]
    hosts = Middleware(TrustedHostMiddleware, allowed_hosts=["127.0.0.1", "localhost"])
    return Starlette(routes=routes, lifespan=lifespan, middleware=[hosts])


def main() -> None:
    parser = argparse.ArgumentParser(description="A web chat that shows MCP Apps views.")
    parser.add_argument("server", nargs="?", default=DEFAULT_SERVER, help="a URL or a command line")
    parser.add_argument("--port", type=int, default=8080)
    args = parser.parse_args()
    app = create_app(args.server, args.port)
    print(f"apps web chat: open http://127.0.0.1:{args.port} (Ctrl-C to stop)", file=sys.stderr, flush=True)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
