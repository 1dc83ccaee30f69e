"""A small web app that answers MCP servers' questions in the browser, with ``ui_adapters.QuestionBroker``.

    pip install -e ".[examples]"
    python examples/clients/web_app.py                                   # the bistro, over stdio
    python examples/clients/web_app.py http://127.0.0.1:8000/mcp --mode legacy --port 8080

Several workers sharing the questions (an answer may be posted to any of them; see docs/ui.md):

    python examples/clients/web_app.py http://127.0.0.1:8000/mcp --workers 4 --store redis://127.0.0.1:6379
    python examples/clients/web_app.py --workers 2 --store sqlite:///tmp/questions.db

Then open http://127.0.0.1:8080, pick a tool and call it. When the server asks something (try the
bistro's ``book_table`` with ``{"date": "2025-12-25", "party_size": 2}``), the question appears in the
"Waiting for you" list, drawn from ``PendingQuestion.to_json()``; your answer is posted back with
``broker.answer`` and the call, which waited meanwhile, carries on.

The app is Starlette (an ASGI framework that comes with the official MCP SDK, so the ``examples`` extra
already has it) served by uvicorn on 127.0.0.1. The broker side is the few lines in ``lifespan`` and the
``/api/questions`` handlers; a 2026-07-28 call is released while its question waits
(``broker.call_tool``) and resumed by whichever worker receives the answer; the rest is the page.
Tools can also run as tasks the server keeps (``POST /api/tasks``, a server with the tasks extension):
the task is kept in the store and followed by one worker; ``GET /api/tasks/{id}`` on any worker shows
its status and, once it ended, its result; a worker that dies has its tasks taken over by another
(``broker.adopt_tasks``).

With ``--approve`` the app asks before it runs a tool the server does not mark read-only: the broker is
the client's ``approval_callback`` too, so the approval waits in the same "Waiting for you" list, next
to the server's questions (``kind: "approval"``, drawn from ``PendingApproval.to_json()``), and the
buttons post ``{"decision", "remember", "note"}`` to the same ``/api/questions/{id}``.

Server text is always put in the page with ``textContent``, never as HTML; the ``Host`` header is
checked (DNS rebinding) and a Content-Security-Policy allows only this app's own script and style.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from mcp_client import (
    Client,
    InvalidElicitationContentError,
    MCPClientError,
    StdioServerParameters,
    ToolCallDenied,
    ToolPolicy,
)
from mcp_client.types import CallToolResult, TextContent
from ui_adapters import (
    PausedCall,
    PausedCallNotReadyError,
    QuestionBroker,
    QuestionNotPendingError,
    QuestionStore,
    RedisStore,
    SqliteStore,
)

BISTRO = Path(__file__).resolve().parent.parent / "servers" / "bistro.py"
CONFIG_ENV = "MCP_WEB_APP_CONFIG"  # how --workers hands the options to each worker process


def open_store(where: str | None) -> QuestionStore | None:
    """``redis://...`` (or ``rediss://``), ``sqlite:///path`` or a ``.db`` path; ``None``: in memory."""
    if not where:
        return None
    if where.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(where, namespace="mcp-web-app")
    return SqliteStore(where.removeprefix("sqlite://"))


def create_app(
    server: str | StdioServerParameters,
    mode: str,
    timeout: float | None = 3600,
    store: str | None = None,
    lease: float = 10.0,
    approve: bool = False,
) -> Starlette:
    # A question nobody answers within the hour is cancelled; with a store, every worker sees it.
    # pause_approvals=False: POST /api/call waits for an approval as it waits for a legacy question.
    broker = QuestionBroker(timeout=timeout, store=open_store(store), lease=lease, pause_approvals=False)
    clients: list[Client] = []
    results: dict[str, dict[str, Any]] = {}  # resumed calls' results, without a store

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        # --approve: the broker answers approvals too (ask unless the server marks a tool read-only)
        gate: dict[str, Any] = {"approval_callback": broker, "tool_policy": ToolPolicy()} if approve else {}
        async with (
            broker,
            Client(server, mode=mode, elicitation_callback=broker, tasks=True, **gate) as client,
        ):
            clients.append(client)
            if broker.store is not None:
                broker.adopt_tasks(client)  # a dead worker's tasks are finished by a live one
            try:
                yield
            finally:
                broker.close()  # waiting calls get "cancel"; open question streams end

    def shown(result: CallToolResult) -> dict[str, Any]:
        text = "\n".join(block.text for block in result.content if isinstance(block, TextContent))
        return {"text": text, "is_error": result.is_error}

    async def keep_result(call_id: str, result: dict[str, Any]) -> None:
        if broker.store is not None:
            await broker.store.put_record("call-result", call_id, result)
        else:
            results[call_id] = result

    async def resume_if_ready(call_id: str) -> dict[str, Any] | None:
        """The worker that took the last answer sends them all; any worker could."""
        try:
            result = await broker.resume(call_id, clients[0])
        except (PausedCallNotReadyError, QuestionNotPendingError):
            return None  # more answers to come, or another worker resumes it
        if isinstance(result, PausedCall):
            return None  # the server asked again: the new questions are pending
        assert isinstance(result, CallToolResult)
        await keep_result(call_id, shown(result))
        return shown(result)

    # ------------------------------------------------------------------------- the broker's API

    async def questions(_request: Request) -> JSONResponse:
        return JSONResponse([question.to_json() for question in broker.pending()])

    async def question_stream(_request: Request) -> StreamingResponse:
        async def events() -> AsyncIterator[str]:
            async for question in broker:  # the waiting ones first, then each new one as it comes
                yield f"event: question\ndata: {json.dumps(question.to_json())}\n\n"

        return StreamingResponse(
            events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )

    async def describe(request: Request) -> JSONResponse:
        found = await broker.describe(request.path_params["id"])
        return JSONResponse(found) if found is not None else JSONResponse({"error": "unknown"}, 404)

    async def answer(request: Request) -> JSONResponse:
        question_id = request.path_params["id"]
        body: Any = await request.json()
        action = body.get("action") if isinstance(body, dict) else None
        asked = await broker.describe(question_id)
        if asked is not None and asked.get("kind") == "approval" and isinstance(body, dict):
            decision = {key: body[key] for key in ("decision", "remember", "note") if key in body}
            try:  # {"decision": "allow" | "deny", "remember": "once" | "session" | "always", "note"}
                await broker.answer(question_id, decision)
            except (TypeError, ValueError) as exc:
                return JSONResponse({"error": str(exc)}, status_code=400)
            except QuestionNotPendingError as exc:
                return JSONResponse({"error": str(exc)}, status_code=404)
            return JSONResponse({"ok": True})
        try:
            if action == "accept":
                await broker.answer(question_id, body.get("content") or {})
            elif action == "decline":
                await broker.decline(question_id)
            elif action == "cancel":
                await broker.cancel(question_id)
            else:
                return JSONResponse({"error": "action must be accept, decline or cancel"}, status_code=400)
        except InvalidElicitationContentError as exc:  # not sent: the question stays open
            return JSONResponse({"error": str(exc), "field": exc.field}, status_code=422)
        except QuestionNotPendingError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        if asked is not None and asked["call_id"] is not None:  # a released 2026-07-28 call
            return JSONResponse({"ok": True, "result": await resume_if_ready(asked["call_id"])})
        return JSONResponse({"ok": True})

    async def call_result(request: Request) -> JSONResponse:
        call_id = request.path_params["id"]
        if broker.store is not None:
            found = await broker.store.get_record("call-result", call_id)
        else:
            found = results.get(call_id)
        return JSONResponse(found) if found is not None else JSONResponse({"status": "paused"}, 404)

    # ------------------------------------------------------------- tools run as tasks (with a store)

    async def start_task(request: Request) -> JSONResponse:
        body: Any = await request.json()
        arguments: Any = (body.get("arguments") or {}) if isinstance(body, dict) else None
        if not isinstance(arguments, dict) or not isinstance(body.get("tool"), str):
            return JSONResponse({"error": 'post {"tool": NAME, "arguments": {...}}'}, status_code=400)
        if broker.store is None:
            return JSONResponse({"error": "tasks are kept in the store: start the app with --store"}, 400)
        try:
            task = await broker.call_tool(clients[0], body["tool"], arguments, as_task=True)
        except MCPClientError as exc:
            return JSONResponse({"error": str(exc)}, status_code=502)
        if task.id is None:  # the server answered at once
            return JSONResponse({"status": "completed", "result": shown(await task.result())})
        return JSONResponse({"task": task.id, "status": task.status}, status_code=202)

    async def task_status(request: Request) -> JSONResponse:
        if broker.store is None:
            return JSONResponse({"error": "unknown"}, 404)
        try:
            found = await broker.describe_task(request.path_params["id"])
        except ValueError as exc:  # the store's record of it is damaged: the message says which field
            return JSONResponse({"error": str(exc)}, status_code=500)
        if found is None:
            return JSONResponse({"error": "unknown"}, 404)
        if found.get("result") is not None:
            found["result"] = shown(CallToolResult.model_validate(found["result"]))
        return JSONResponse(found)

    async def tasks(_request: Request) -> JSONResponse:
        if broker.store is None:
            return JSONResponse([])
        return JSONResponse([task.to_json() for task in await broker.stored_tasks()])

    async def worker(_request: Request) -> JSONResponse:
        return JSONResponse({"pid": os.getpid(), "worker": broker.worker})

    # ----------------------------------------------------------------------- calling the server

    async def tools(_request: Request) -> JSONResponse:
        listed = await clients[0].list_tools()
        return JSONResponse(
            [{"name": tool.name, "description": tool.description or ""} for tool in listed.tools]
        )

    async def call(request: Request) -> JSONResponse:
        body: Any = await request.json()
        if not isinstance(body, dict) or not isinstance(body.get("tool"), str):
            return JSONResponse({"error": 'post {"tool": NAME, "arguments": {...}}'}, status_code=400)
        arguments = body.get("arguments") or {}
        try:
            # Legacy: waits while a question is open. 2026-07-28: released at once if the server asks.
            result = await broker.call_tool(clients[0], body["tool"], arguments)
        except ToolCallDenied as exc:  # --approve: the person said no; the server never heard of it
            return JSONResponse({"error": str(exc), "denied": True}, status_code=403)
        except MCPClientError as exc:
            return JSONResponse({"error": str(exc)}, status_code=502)
        if isinstance(result, PausedCall):
            return JSONResponse({"paused": result.id}, status_code=202)
        return JSONResponse(shown(result))

    # ------------------------------------------------------------------------------- the page

    async def page(_request: Request) -> HTMLResponse:
        return HTMLResponse(PAGE)

    async def script(_request: Request) -> Response:
        return Response(SCRIPT, media_type="text/javascript")

    async def style(_request: Request) -> Response:
        return Response(STYLE, media_type="text/css")

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/app.js", script),
            Route("/app.css", style),
            Route("/api/tools", tools),
            Route("/api/call", call, methods=["POST"]),
            Route("/api/questions", questions),
            Route("/api/questions/stream", question_stream),
            Route("/api/questions/{id}", answer, methods=["POST"]),
            Route("/api/questions/{id}", describe, methods=["GET"]),
            Route("/api/calls/{id}", call_result),
            Route("/api/tasks", start_task, methods=["POST"]),
            Route("/api/tasks", tasks, methods=["GET"]),
            Route("/api/tasks/{id}", task_status),
            Route("/api/worker", worker),
        ],
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=["127.0.0.1", "localhost"]),
            Middleware(_SecurityHeaders),
        ],
        lifespan=lifespan,
    )
    app.state.broker = broker
    return app


class _QuestionsFirstServer(uvicorn.Server):
    """uvicorn that cancels the waiting questions as soon as it is asked to stop (Ctrl-C, SIGTERM).

    uvicorn stops by waiting for the open requests to finish, and only then runs the lifespan's end;
    a call waiting on a question would never finish, so it was cut off after the grace period with a
    page of traceback. Closing the broker first answers each waiting question with "cancel": the calls
    end normally, their requests complete, and the app stops at once.
    """

    def __init__(self, config: uvicorn.Config, broker: QuestionBroker) -> None:
        super().__init__(config)
        self._broker = broker
        self._loop: asyncio.AbstractEventLoop | None = None

    async def serve(self, sockets: Any = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: Any) -> None:
        if not self.should_exit and self._loop is not None:
            self._loop.call_soon_threadsafe(self._broker.close)  # a signal handler: leave it to the loop
        super().handle_exit(sig, frame)


class _SecurityHeaders:
    """Only this app's own script and style may run; nothing loads from elsewhere; no framing."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] += [
                    (
                        b"content-security-policy",
                        b"default-src 'self'; base-uri 'none'; frame-ancestors 'none'",
                    ),
                    (b"x-content-type-options", b"nosniff"),
                ]
            await send(message)

        await self.app(scope, receive, with_headers)


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>MCP questions</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<main>
<h1>MCP client</h1>
<section>
<h2>Call a tool</h2>
<form id="call">
<label for="tool">Tool</label> <select id="tool"></select>
<label for="arguments">Arguments (JSON)</label>
<textarea id="arguments" rows="3">{"date": "2025-12-25", "party_size": 2}</textarea>
<button type="submit">Call</button>
</form>
<ol id="results"></ol>
</section>
<section>
<h2>Waiting for you</h2>
<p id="none">No questions.</p>
<div id="questions"></div>
</section>
</main>
</body>
</html>
"""

STYLE = """
body { font: 16px/1.45 system-ui, sans-serif; background: #f3f4f7; margin: 0; padding: 16px; }
main { max-width: 720px; margin: 0 auto; }
section, .question { background: #fff; border: 1px solid #d6d9de; border-radius: 10px; padding: 14px 18px;
  margin-bottom: 16px; }
label { display: block; font-weight: 600; margin-top: 10px; }
label.choice { display: inline-block; font-weight: 400; margin-right: 14px; }
input:not([type=radio]):not([type=checkbox]), select, textarea { width: 100%; padding: 6px 8px;
  font: inherit; }
.asker { color: #5f6368; margin: 0; } .message { font-weight: 600; white-space: pre-wrap; }
.help { color: #5f6368; font-size: 14px; margin: 2px 0; } .error { color: #b3261e; }
button { margin: 12px 8px 0 0; padding: 6px 14px; font: inherit; }
"""

SCRIPT = r"""
"use strict";
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);  // strings become text nodes: server text is never parsed as HTML
  return node;
};
const post = async (url, body) => {
  const response = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                                     body: JSON.stringify(body)});
  return {status: response.status, body: await response.json()};
};

const localTime = (iso) => {  // a datetime-local input shows local time without a zone
  const moment = new Date(iso);
  return new Date(moment.getTime() - moment.getTimezoneOffset() * 60000).toISOString().slice(0, 19);
};

function fieldInput(field, id) {
  const kind = field.kind;
  if (kind === "boolean") {
    return el("span", {}, ...["Yes", "No"].map((word) => {
      const radio = el("input", {type: "radio", name: id, value: word === "Yes" ? "true" : "false"});
      radio.checked = field.default === (word === "Yes");
      return el("label", {className: "choice"}, radio, " " + word);
    }));
  }
  if (kind === "single-choice") {
    const select = el("select", {id}, el("option", {value: ""}, field.required ? "Choose one" : "(none)"));
    for (const option of field.options) {
      const selected = option.value === field.default;
      select.append(el("option", {value: option.value, selected}, option.label));
    }
    return select;
  }
  if (kind === "multi-choice") {
    return el("span", {}, ...field.options.map((option) => el("label", {className: "choice"},
      el("input", {type: "checkbox", name: id, value: option.value,
                   checked: (field.default || []).includes(option.value)}), " " + option.label)));
  }
  const types = {email: "email", uri: "url", date: "date", "date-time": "datetime-local",
                 integer: "number", number: "number"};
  const input = el("input", {id, type: types[kind] || "text"});
  if (kind === "integer") { input.step = "1"; }
  if (kind === "number") { input.step = "any"; }
  if (field.minimum !== null) { input.min = field.minimum; }
  if (field.maximum !== null) { input.max = field.maximum; }
  if (field.max_length !== null) { input.maxLength = field.max_length; }
  if (field.default !== null) {
    input.value = kind === "date-time" ? localTime(field.default) : field.default;
  }
  return input;
}

function readField(field, id, card) {
  const kind = field.kind;
  if (kind === "boolean") {
    const chosen = card.querySelector(`input[name="${id}"]:checked`);
    return chosen ? chosen.value === "true" : undefined;
  }
  if (kind === "multi-choice") {
    return Array.from(card.querySelectorAll(`input[name="${id}"]:checked`), (box) => box.value);
  }
  const value = card.querySelector("#" + id).value;
  if (value === "") { return undefined; }
  if (kind === "integer" || kind === "number") { return Number(value); }
  if (kind === "date-time") { return new Date(value).toISOString(); }  // local time, sent in UTC
  return value;
}

function showApproval(approval) {
  // The app's own question: its words are the app's, the call's details are data from the server.
  const call = approval.approval;
  const card = el("form", {className: "question approval", id: "q-" + approval.id});
  card.append(el("p", {className: "message"}, "This app asks before it runs a tool call"),
              el("p", {className: "asker"}, "Server: " + call.server + " · tool: " + call.tool));
  for (const [name, value] of Object.entries(call.arguments)) {
    const shown = JSON.stringify(value);
    const folded = shown.length > 200 ? shown.slice(0, 200) + "… (" + shown.length + " characters)" : shown;
    card.append(el("p", {className: "help"}, name + " = " + folded));
  }
  if (call.title) { card.append(el("p", {className: "help"}, "The server titles it: “" + call.title + "”")); }
  if (call.description) {
    card.append(el("p", {className: "help"}, "The server describes it: “" + call.description + "”"));
  }
  card.append(el("p", {className: "help"}, "Asked because " + call.reason));
  const note = el("input", {type: "text", placeholder: "Note (optional)", name: "note"});
  card.append(note);
  const choices = [["allow", "once", "Allow once"], ["allow", "session", "Allow for this session"],
                   ["allow", "always", "Always allow"], ["deny", "once", "Deny"]];
  for (const [decision, remember, label] of choices) {
    const button = el("button", {type: "button", name: decision + "-" + remember}, label);
    button.addEventListener("click", async () => {
      await post("/api/questions/" + approval.id, {decision, remember, note: note.value || null});
      card.remove();
      updateEmpty();
    });
    card.append(button);
  }
  document.getElementById("questions").append(card);
  updateEmpty();
}

function showQuestion(question) {
  if (document.getElementById("q-" + question.id)) { return; }
  if (question.kind === "approval") { showApproval(question); return; }
  const card = el("form", {className: "question", id: "q-" + question.id});
  card.append(el("p", {className: "asker"}, question.server_name + " asks"),
              el("p", {className: "message"}, question.message));
  const fields = question.form ? question.form.fields : [];
  fields.forEach((field, index) => {
    const id = `q-${question.id}-${index}`;
    card.append(el("label", {htmlFor: id}, field.label + (field.required ? " *" : "")));
    if (field.help) { card.append(el("p", {className: "help"}, field.help)); }
    card.append(fieldInput(field, id));
  });
  if (question.url) {
    card.append(el("p", {}, "Open this link on ", el("strong", {}, question.url_host || "?"), ": ",
                   el("code", {}, question.url)));
  }
  const error = el("p", {className: "error", role: "alert"});
  const send = async (action) => {
    const content = {};
    fields.forEach((field, index) => {
      const value = readField(field, `q-${question.id}-${index}`, card);
      if (value !== undefined) { content[field.name] = value; }
    });
    const reply = await post("/api/questions/" + question.id, {action, content});
    if (reply.status === 422) { error.textContent = reply.body.error; return; }
    card.remove();
    updateEmpty();
  };
  for (const [action, label] of [["accept", "Accept"], ["decline", "Decline"], ["cancel", "Cancel"]]) {
    const button = el("button", {type: "button", name: action}, label);
    button.addEventListener("click", () => send(action));
    card.append(button);
  }
  card.append(error);
  document.getElementById("questions").append(card);
  updateEmpty();
}

function updateEmpty() {
  document.getElementById("none").hidden = document.getElementById("questions").children.length > 0;
}

async function refresh() {
  // Only a card shown before the list was asked for can be missing from it for a reason: one the
  // stream showed while the list was on its way is newer than the list.
  const shown = new Set(Array.from(document.getElementById("questions").children, (card) => card.id));
  const waiting = await (await fetch("/api/questions")).json();
  const ids = new Set(waiting.map((question) => "q-" + question.id));
  for (const card of Array.from(document.getElementById("questions").children)) {
    // answered elsewhere, timed out or withdrawn
    if (shown.has(card.id) && !ids.has(card.id)) { card.remove(); }
  }
  waiting.forEach(showQuestion);
  updateEmpty();
}

async function start() {
  const select = document.getElementById("tool");
  for (const tool of await (await fetch("/api/tools")).json()) {
    select.append(el("option", {value: tool.name, title: tool.description}, tool.name));
  }
  document.getElementById("call").addEventListener("submit", async (event) => {
    event.preventDefault();
    const item = el("li", {}, select.value + ": waiting…");
    document.getElementById("results").append(item);
    let args;
    try { args = JSON.parse(document.getElementById("arguments").value || "{}"); }
    catch (problem) { item.textContent = "the arguments are not JSON: " + problem.message; return; }
    let reply = await post("/api/call", {tool: select.value, arguments: args});
    while (reply.body.paused) {  // a released 2026-07-28 call: its result comes once it is answered
      await new Promise((done) => setTimeout(done, 300));
      const polled = await fetch("/api/calls/" + reply.body.paused);
      if (polled.status === 200) { reply = {body: await polled.json()}; }
    }
    item.textContent = select.value + ": " + (reply.body.error || reply.body.text);
    refresh();
  });
  new EventSource("/api/questions/stream").addEventListener("question", (event) => {
    showQuestion(JSON.parse(event.data));
  });
  refresh();
}

start();
"""


def main() -> None:
    parser = argparse.ArgumentParser(description="Answer an MCP server's questions in a web page.")
    parser.add_argument("server", nargs="?", help="an http(s) URL, or a Python server script run over stdio")
    parser.add_argument(
        "--mode", default=None, help="legacy, auto or 2026-07-28 (default: legacy for the bistro)"
    )
    parser.add_argument("--port", type=int, default=8080, help="port on 127.0.0.1 (default 8080)")
    parser.add_argument(
        "--store",
        default=None,
        help="share questions between workers and restarts: redis://HOST:PORT/DB or sqlite:///PATH",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="worker processes on the one port (needs --store)"
    )
    parser.add_argument(
        "--lease", type=float, default=10.0, help="seconds before a dead worker's questions are withdrawn"
    )
    parser.add_argument(
        "--approve",
        action="store_true",
        help="ask in the page before running a tool the server does not mark read-only",
    )
    args = parser.parse_args()
    if args.workers > 1 and not args.store:
        parser.error("--workers above 1 needs --store: each worker must see the questions of the others")
    target = args.server or str(BISTRO)
    mode = args.mode or ("legacy" if args.server is None else "auto")
    config = {
        "server": target,
        "mode": mode,
        "store": args.store,
        "lease": args.lease,
        "approve": args.approve,
    }
    print(f"web app: open http://127.0.0.1:{args.port} (Ctrl-C to stop)", file=sys.stderr, flush=True)
    if args.workers > 1:  # uvicorn's worker processes import the app by name: the options go by env
        os.environ[CONFIG_ENV] = json.dumps(config)
        uvicorn.run(
            "web_app:app_from_environment",
            factory=True,
            app_dir=str(Path(__file__).resolve().parent),
            workers=args.workers,
            host="127.0.0.1",
            port=args.port,
            log_level="warning",
            timeout_graceful_shutdown=2,
        )
        return
    app = app_from_config(config)
    server_config = uvicorn.Config(
        app, host="127.0.0.1", port=args.port, log_level="warning", timeout_graceful_shutdown=2
    )
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn raises the Ctrl-C again once it has stopped
        _QuestionsFirstServer(server_config, app.state.broker).run()
    print("web app: stopped", file=sys.stderr, flush=True)


def app_from_config(config: dict[str, Any]) -> Starlette:
    target: str = config["server"]
    server: str | StdioServerParameters = (
        target
        if target.startswith(("http://", "https://"))
        else StdioServerParameters(sys.executable, [target])
    )
    return create_app(
        server,
        config["mode"],
        store=config["store"],
        lease=float(config["lease"]),
        approve=bool(config.get("approve")),
    )


def app_from_environment() -> Starlette:
    """For uvicorn's worker processes (``--workers``): the options ``main`` put in the environment."""
    return app_from_config(json.loads(os.environ[CONFIG_ENV]))


if __name__ == "__main__":
    main()
