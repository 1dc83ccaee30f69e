"""A scripted 2026-07-28 tasks server over stdio, for what fastmcp-tasks never does.

Each ``tools/call`` answers with a task (``resultType: "task"``) whose ``tasks/get`` answers follow the
script named by the tool (``SCRIPTS``): poll intervals of 0, 300 ms and a day; questions repeated
across polls; a key reused for another question; a ``notifications/tasks`` pushed instead of waiting
for a poll; a task that vanishes; one that never ends; one that ends only by a ``notifications/tasks`` on a
``subscriptions/listen`` stream asking for its id. ``prompts/get`` answers with a task too (which
the extension does not allow), and the server hands out tasks whether or not the client declared the
extension (which it must not).

Every message received is appended to the journal file named by ``--journal`` as one JSON line
``{"t": <seconds>, "message": {...}}``, so a test can read what the client sent, and when.

    python tests/hostile/tasks_stdio_server.py --journal /tmp/journal.jsonl [--legacy]

``--legacy`` makes it a 2025-11-25 server that offers only the experimental tasks (SEP-1686) and
refuses every ``tools/call`` without ``task`` (as such servers do for a task-only tool).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

TASKS = "io.modelcontextprotocol/tasks"
_lock = threading.Lock()
_out = sys.stdout.buffer


def send(message: dict[str, Any]) -> None:
    with _lock:
        _out.write(json.dumps(message).encode() + b"\n")
        _out.flush()


def task(task_id: str, status: str, interval: float | None = 100, **extra: Any) -> dict[str, Any]:
    state: dict[str, Any] = {
        "taskId": task_id,
        "status": status,
        "createdAt": "2026-12-04T10:00:00Z",
        "lastUpdatedAt": "2026-12-04T10:00:00Z",
        "ttlMs": 60000,
        **extra,
    }
    if interval is not None:
        state["pollIntervalMs"] = interval
    return state


def done(task_id: str, text: str) -> dict[str, Any]:
    return task(task_id, "completed", result={"content": [{"type": "text", "text": text}], "isError": False})


def question(message: str) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    params = {"mode": "form", "message": message, "requestedSchema": schema}
    return {"method": "elicitation/create", "params": params}


class Script:
    """What ``tasks/get`` answers, poll after poll; ``answers`` holds what ``tasks/update`` brought."""

    def __init__(
        self,
        task_id: str,
        steps: list[Callable[[Script], dict[str, Any] | None]],
        first_interval: float = 100,
    ) -> None:
        self.task_id = task_id
        self.first_interval = first_interval
        """The ``pollIntervalMs`` of the ``CreateTaskResult``."""
        self.steps = steps
        self.answers: dict[str, Any] = {}
        self.polls = 0

    def next(self) -> dict[str, Any] | None:
        step = self.steps[min(self.polls, len(self.steps) - 1)]
        self.polls += 1
        return step(self)


def _intervals(tid: str) -> Script:
    return Script(
        tid,
        [
            lambda s: task(tid, "working", 0, statusMessage="no wait at all"),
            lambda s: task(tid, "working", 300, statusMessage="a little slower"),
            lambda s: task(tid, "working", 86_400_000, statusMessage="see you tomorrow"),
            lambda s: done(tid, "intervals done"),
        ],
    )


def _repeat(tid: str) -> Script:
    ask = question("Your name?")
    return Script(
        tid,
        [
            lambda s: task(tid, "input_required", 50, inputRequests={"q1": ask}),
            lambda s: task(tid, "input_required", 50, inputRequests={"q1": ask}),  # not processed yet
            lambda s: task(tid, "working", 50),
            lambda s: done(tid, "answers: " + json.dumps(s.answers, sort_keys=True)),
        ],
    )


def _reuse(tid: str) -> Script:
    return Script(
        tid,
        [
            lambda s: task(tid, "input_required", 50, inputRequests={"q1": question("Your name?")}),
            lambda s: task(tid, "input_required", 50, inputRequests={"q1": question("Your password?")}),
        ],
    )


def _vanish(tid: str) -> Script:
    return Script(tid, [lambda s: task(tid, "working", 50), lambda s: None])


def _failing_poll(tid: str) -> Script:
    """The second poll fails on the server's side (-32603): the task is not lost, the server failed."""
    return Script(
        tid, [lambda s: task(tid, "working", 50), lambda s: {"error": (-32603, "the database is down")}]
    )


def _endless(tid: str) -> Script:
    return Script(tid, [lambda s: task(tid, "working", 100)])


def push_later(tid: str, params: dict[str, Any]) -> None:
    """Send ``notifications/tasks`` with ``params`` half a second from now."""

    def later() -> None:
        time.sleep(0.5)
        send({"jsonrpc": "2.0", "method": "notifications/tasks", "params": params})

    threading.Thread(target=later, daemon=True).start()


def _notify(tid: str) -> Script:
    push_later(tid, done(tid, "notified done"))
    return _quiet(tid)


def _quiet(tid: str) -> Script:
    """Working, with a day between polls: only a notification can finish it in a test's time."""
    return Script(tid, [lambda s: task(tid, "working", 86_400_000)], first_interval=86_400_000)


SCRIPTS: dict[str, Callable[[str], Script]] = {
    "intervals": _intervals,
    "repeat_question": _repeat,
    "reuse_key": _reuse,
    "vanish": _vanish,
    "failing_poll": _failing_poll,
    "endless": _endless,
    "notify": _notify,
    "quiet": _quiet,
}


def main() -> None:
    journal_path = sys.argv[sys.argv.index("--journal") + 1]
    journal = open(journal_path, "a", encoding="utf-8")
    tasks: dict[str, Script] = {}
    for line in sys.stdin.buffer:
        message = json.loads(line)
        journal.write(json.dumps({"t": time.monotonic(), "message": message}) + "\n")
        journal.flush()
        method = message.get("method")
        request_id = message.get("id")
        if request_id is None:
            continue  # notifications (notifications/initialized included) need no answer
        params = message.get("params") or {}

        def reply(result: dict[str, Any]) -> None:
            send({"jsonrpc": "2.0", "id": request_id, "result": {"resultType": "complete", **result}})  # noqa: B023

        def error(code: int, text: str) -> None:
            send({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": text}})  # noqa: B023

        if method == "server/discover" and "--legacy" in sys.argv:
            error(-32601, "Method not found")
        elif method == "initialize":  # a 2025-11-25 server with the experimental tasks (SEP-1686)
            sep1686 = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
            reply(
                {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {"tools": {}, "tasks": sep1686},
                    "serverInfo": {"name": "tasks-stdio-legacy", "version": "1.0"},
                }
            )
        elif method == "tools/call" and "--legacy" in sys.argv:
            error(-32601, "Tool requires task augmentation")
        elif method == "server/discover":
            reply(
                {
                    "supportedVersions": ["2026-07-28"],
                    "capabilities": {"tools": {}, "prompts": {}, "extensions": {TASKS: {}}},
                    "serverInfo": {"name": "tasks-stdio", "version": "1.0"},
                }
            )
        elif method in ("tools/call", "prompts/get"):
            name = params.get("name", "")
            tid = f"task-{len(tasks) + 1}-{name}"
            tasks[tid] = script = SCRIPTS.get(name, _endless)(tid)
            created = {"resultType": "task", **task(tid, "working", script.first_interval)}
            send({"jsonrpc": "2.0", "id": request_id, "result": created})
        elif method == "tools/list":
            reply({"tools": []})
        elif method == "subscriptions/listen":
            # The request stays open: its acknowledgement, then the listened tasks' states as they change.
            wanted = (params.get("notifications") or {}).get("taskIds") or []
            meta = {"io.modelcontextprotocol/subscriptionId": request_id}
            ack = {"notifications": {"taskIds": wanted}, "_meta": meta}
            send({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": ack})
            for tid in wanted:
                if tid in tasks:
                    push_later(tid, {**done(tid, "pushed on the listen stream"), "_meta": meta})
        elif method == "tasks/get":
            script = tasks.get(params.get("taskId"))
            state = script.next() if script is not None else None
            if state is None:
                error(-32602, "Failed to retrieve task: Task not found")
            elif "error" in state:
                error(*state["error"])
            else:
                reply(state)
        elif method == "tasks/update":
            script = tasks.get(params.get("taskId"))
            if script is not None:
                script.answers.update(params.get("inputResponses") or {})
            reply({})
        elif method == "tasks/cancel":
            tasks.pop(params.get("taskId"), None)
            reply({})
        else:
            error(-32601, f"Method not found: {method}")


if __name__ == "__main__":
    main()
