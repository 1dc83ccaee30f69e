"""Test peer for the CLI: a stdio server that speaks only protocol 2026-07-28 (standard library only).

It refuses ``initialize`` the way the 2026-07-28 spec says a server without the legacy era does
(``-32022``, naming the versions it speaks) and answers ``server/discover``, ``tools/list`` and
``tools/call``. Its tool ``era`` says which era the call came in, and it writes a line to the file
named by ``MODERN_ONLY_CALLS`` (if set) for each call, so a test can count the calls. ``must_task`` is
refused as a fastmcp-tasks server refuses a task-only tool to a client without the tasks extension
(``-32021`` naming ``io.modelcontextprotocol/tasks``).

    python tests/cli/modern_only_server.py
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

_MODERN = "2026-07-28"
_TOOLS = [
    {"name": "era", "description": "Says which era the call came in.", "inputSchema": {"type": "object"}},
    {"name": "must_task", "description": "Runs only as a task.", "inputSchema": {"type": "object"}},
]
_TASKS = "io.modelcontextprotocol/tasks"


def _send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _result(request_id: Any, result: dict[str, Any]) -> None:
    _send({"jsonrpc": "2.0", "id": request_id, "result": {**result, "resultType": "complete"}})


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if method is None or request_id is None:
            continue
        if method == "initialize":
            error = {
                "code": -32022,
                "message": "Unsupported protocol version",
                "data": {"supported": [_MODERN]},
            }
            _send({"jsonrpc": "2.0", "id": request_id, "error": error})
        elif method == "server/discover":
            info = {"io.modelcontextprotocol/serverInfo": {"name": "modern-only", "version": "1"}}
            _result(
                request_id, {"supportedVersions": [_MODERN], "capabilities": {"tools": {}}, "_meta": info}
            )
        elif method == "tools/list":
            _result(request_id, {"tools": _TOOLS})
        elif method == "tools/call" and message["params"]["name"] == "must_task":
            data = {"requiredCapabilities": {"extensions": {_TASKS: {}}}}
            error = {"code": -32021, "message": f"Tool 'must_task' requires the tasks extension ({_TASKS})"}
            _send({"jsonrpc": "2.0", "id": request_id, "error": {**error, "data": data}})
        elif method == "tools/call":
            version = (
                message["params"].get("_meta", {}).get("io.modelcontextprotocol/protocolVersion", "none")
            )
            if log := os.environ.get("MODERN_ONLY_CALLS"):
                with open(log, "a", encoding="utf-8") as calls:
                    calls.write(f"{version}\n")
            _result(request_id, {"content": [{"type": "text", "text": f"called in {version}"}]})
        else:
            _send(
                {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "Method not found"}}
            )


if __name__ == "__main__":
    main()
