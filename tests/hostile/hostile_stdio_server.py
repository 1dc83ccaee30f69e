"""A deliberately hostile MCP server over stdio: it writes scripted bytes on stdout and stderr.

It answers ``initialize`` (legacy) and ``server/discover`` (2026-07-28) like a real server, then each
``tools/call`` does what its tool name says (see ``main``): garbage lines before the real answer,
an answer with both ``result`` and ``error``, a line longer than the client's limit, megabytes of
stderr, silence, a crash while calls are pending, half a line and then an exit, a question pushed
for a call that is never answered nor cancelled.

    python tests/hostile/hostile_stdio_server.py stdio [--silent-discover] [--silent-ping]

``--silent-discover`` makes it a legacy server that says nothing at all to ``server/discover`` (as
legacy stdio servers may); ``--silent-ping`` one that never answers a ``ping``. Blocking I/O on
purpose: a hostile server does not need to be clever, only exact about its bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

_out = sys.stdout.buffer
_SERVER_INFO = {"name": "hostile-stdio", "version": "6.6.6"}


def write(data: bytes) -> None:
    _out.write(data)
    _out.flush()


def send(message: dict[str, Any]) -> None:
    write(json.dumps(message).encode() + b"\n")


def text_result(request_id: Any, text: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": text}]}}


def main() -> None:
    silent_discover = "--silent-discover" in sys.argv
    silent_ping = "--silent-ping" in sys.argv  # alive, and never answers a ping
    hanging: list[Any] = []
    list_ttl: str | None = None  # the raw ``ttlMs`` JSON text of tools/list, once a test set one
    listed_twice = False  # tools/list names ``echo`` twice (a buggy server)
    lists_served = 0
    crash_requested: Any = None
    crash_after = 0
    for line in sys.stdin.buffer:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        method = message.get("method")
        request_id = message.get("id")
        if method is None or request_id is None:
            continue  # a notification, or the client's answer to us
        if method == "initialize":
            send(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "result": {
                        "protocolVersion": "2025-11-25",
                        "capabilities": {"tools": {}},
                        "serverInfo": _SERVER_INFO,
                    },
                }
            )
            continue
        if method == "server/discover":
            if silent_discover:
                continue
            value = {
                "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {}},
                "resultType": "complete",
            }
            send({"jsonrpc": "2.0", "id": request_id, "result": value})
            continue
        if method == "ping":
            if not silent_ping:
                send({"jsonrpc": "2.0", "id": request_id, "result": {}})
            continue
        if method in ("resources/subscribe", "resources/unsubscribe"):
            send({"jsonrpc": "2.0", "id": request_id, "result": {}})
            continue
        if method == "tools/list" and list_ttl is not None:  # else "Method not found", as before
            lists_served += 1
            tools = '[{"name":"echo","inputSchema":{"type":"object"}}]'
            if listed_twice:
                tools = '[{"name":"echo","inputSchema":{"type":"object"}},' + tools[1:]
            write(f'{{"jsonrpc":"2.0","id":{json.dumps(request_id)},"result":{{"tools":{tools},'
                  f'"ttlMs":{list_ttl}}}}}\n'.encode())  # fmt: skip
            continue
        if method != "tools/call":
            send(
                {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "Method not found"}}
            )
            continue
        name = message["params"]["name"]
        args = message["params"].get("arguments") or {}
        if name == "echo":
            send(text_result(request_id, str(args.get("text", ""))))
        elif name == "serve_tool_lists":  # answer tools/list from now on, with `ttl` as raw JSON text
            list_ttl = str(args.get("ttl", "0"))
            listed_twice = bool(args.get("twice", False))  # and list `echo` twice
            send(text_result(request_id, "listing"))
        elif name == "lists_served":  # how many tools/list requests were answered
            send(text_result(request_id, str(lists_served)))
        elif name == "noise_then_answer":
            write(b"this line is not JSON at all\n")
            write(b"{broken json\n")
            write(b"\xff\xfe\xfa not even utf-8\n")
            write(b"\n   \n")
            write(b'{"hello":"world"}\n')
            write(b"[1,2,3]\n")
            write(b'"a string"\n')
            write(b'{"jsonrpc":"1.0","id":987654321,"result":{}}\n')
            send(text_result(987654321, "for an unknown request"))
            send({"jsonrpc": "2.0", "method": "notifications/made_up", "params": {"x": 1}})
            send({"jsonrpc": "2.0", "result": {"content": []}})  # a response without an id
            send(text_result(request_id, "first"))
            send(text_result(request_id, "duplicate, must be ignored"))
        elif name == "logs_then_answer":  # `n` log notifications and the answer, in one write
            logs = (
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/message",
                        "params": {"level": "info", "logger": "order", "data": index},
                    }
                ).encode()
                + b"\n"
                for index in range(int(args.get("n", 1)))
            )
            write(b"".join(logs) + json.dumps(text_result(request_id, "answer")).encode() + b"\n")
        elif name == "notice_flood":  # `same` identical list changes, `distinct` resource updates, the answer
            changed = b'{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n'
            same = changed * int(args.get("same", 0))
            updates = (
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/resources/updated",
                        "params": {"uri": f"{args.get('uri', 'notes://all')}/{index}"},
                    }
                ).encode()
                + b"\n"
                for index in range(int(args.get("distinct", 0)))
            )
            write(same + b"".join(updates) + json.dumps(text_result(request_id, "flooded")).encode() + b"\n")
        elif name == "slow_echo":  # the answer after `delay` seconds (a caller may have given up by then)
            time.sleep(float(args.get("delay", 0.5)))
            send(text_result(request_id, str(args.get("text", ""))))
        elif name == "result_and_error":
            reply = text_result(request_id, "both")
            reply["error"] = {"code": -32603, "message": "and also an error"}
            send(reply)
        elif name == "no_id":
            send({"jsonrpc": "2.0", "result": {"content": []}})
        elif name == "huge_line":
            write(
                b'{"jsonrpc":"2.0","id":%d,"result":{"x":"' % request_id
                + b"x" * (int(args.get("mb", 4)) << 20)
            )
            write(b'"}}\n')
        elif name == "sized_line":  # an answer line of exactly `size` bytes, newline aside
            size = int(args["size"])
            empty = json.dumps(text_result(request_id, "")).encode()
            write(json.dumps(text_result(request_id, "p" * (size - len(empty)))).encode() + b"\n")
        elif name == "stop_reading":  # never answer, and read nothing more for `hold` s
            time.sleep(float(args.get("hold", 10)))
        elif name == "flood_questions":  # push `n` questions, then stop reading stdin for `hold` s
            question = {
                "method": "elicitation/create",
                "params": {
                    "mode": "form",
                    "message": "Flood",
                    "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
                },
            }
            for index in range(int(args.get("n", 5000))):
                send({"jsonrpc": "2.0", "id": f"flood-{index}", **question})
            time.sleep(float(args.get("hold", 3)))
            os._exit(0)
        elif name == "deaf_flood_then_answer":  # `n` questions and the answer, then never read stdin again
            question = json.dumps(
                {
                    "method": "elicitation/create",
                    "params": {
                        "mode": "form",
                        "message": "Flood",
                        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
                    },
                }
            )[1:]
            flood = b"".join(
                b'{"jsonrpc":"2.0","id":"deaf-%d",%s\n' % (index, question.encode())
                for index in range(int(args.get("n", 30000)))
            )
            write(flood + json.dumps(text_result(request_id, "answered")).encode() + b"\n")
            time.sleep(float(args.get("hold", 60)))
            os._exit(0)
        elif name == "spawn_grandchild":  # a child that inherits our pipes and outlives us
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
            send(text_result(request_id, str(child.pid)))
        elif name == "stderr_flood":
            for _ in range(int(args.get("mb", 8)) * 16):
                sys.stderr.write("noise " * 10922 + "\n")  # ~64 KiB lines, some over the tail's cut
            sys.stderr.write("x" * 300_000)  # and one very long line
            sys.stderr.write("\nlast words before the answer\n")
            sys.stderr.flush()
            send(text_result(request_id, "still here"))
        elif name == "silent":
            pass
        elif name == "hang":
            hanging.append(request_id)
        elif name == "ask_then_tell":  # a request of method `method`; the call's text is the client's answer
            asked = f"asked-{request_id}"
            send({"jsonrpc": "2.0", "id": asked, "method": args["method"], "params": {}})
            answer: Any = None
            while answer is None:
                reply = json.loads(sys.stdin.buffer.readline() or b'{"id": null, "eof": true}')
                answer = reply if reply.get("id") == asked or reply.get("eof") else None
            send(text_result(request_id, json.dumps(answer, sort_keys=True)))
        elif name == "ask_forever":  # push a question, then never answer the call nor cancel the question
            question = {
                "mode": "form",
                "message": "Well?",
                "requestedSchema": {"type": "object", "properties": {}},
            }
            send(
                {
                    "jsonrpc": "2.0",
                    "id": f"ask-{request_id}",
                    "method": "elicitation/create",
                    "params": question,
                }
            )
        elif name == "crash":
            crash_requested, crash_after = request_id, int(args.get("after", 0))
        elif name == "half_line_then_exit":
            write(b'{"jsonrpc":"2.0","id":%d,"res' % request_id)
            sys.stderr.write("fatal: cut off in the middle of a line\n")
            sys.stderr.flush()
            os._exit(0)
        else:
            send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": "Unknown tool"}})
        if crash_requested is not None and len(hanging) >= crash_after:
            sys.stderr.write(f"fatal: hostile crash with {len(hanging)} calls pending\n")
            sys.stderr.flush()
            os._exit(7)


if __name__ == "__main__":
    main()
