"""A real view for ``AppBridge`` without a browser: the official ``App`` class of
``@modelcontextprotocol/ext-apps`` 2.0.4 running in Node.js (``node_view.mjs``), its JSON-RPC carried
over the process's stdin and stdout instead of ``postMessage``.

``async with NodeView.started() as view:`` then ``bridge = AppBridge(..., send=view.send)`` and
``async with view.serving(bridge):`` pumps the view's messages through ``bridge.handle`` and records its
events; ``await view.run("callServerTool", {...})`` makes the view call an ``App`` method.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
from anyio.abc import Process

from mcp_client.apps import AppBridge
from tests.support import ext_apps

SCRIPT = Path(__file__).with_name("node_view.mjs")
WAIT = 30.0  # seconds: a bound, never reached when things work


class NodeView:
    def __init__(self, process: Process) -> None:
        self._process = process
        self._write_lock = anyio.Lock()
        self._changed = anyio.Event()
        self.events: list[dict[str, Any]] = []
        self.from_view: list[dict[str, Any]] = []
        """Every JSON-RPC message the view sent, in order."""
        self._next_command = 0

    @classmethod
    @contextlib.asynccontextmanager
    async def started(cls) -> AsyncIterator[NodeView]:
        bundle = ext_apps.EXT_APPS_PACKAGE_DIR / "dist" / "src" / "app-with-deps.js"
        async with await anyio.open_process([ext_apps.node(), str(SCRIPT), str(bundle)]) as process:
            try:
                yield cls(process)
            finally:
                if process.returncode is None:
                    process.kill()

    async def send(self, message: dict[str, Any]) -> None:
        """The bridge's ``send``: one line to the view's stdin."""
        assert self._process.stdin is not None
        async with self._write_lock:
            await self._process.stdin.send((json.dumps(message) + "\n").encode())

    @contextlib.asynccontextmanager
    async def serving(self, bridge: AppBridge) -> AsyncIterator[None]:
        """Pump the view's messages through ``bridge.handle`` (each in its own task, as a host does)."""
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(self._pump, bridge, tasks)
            try:
                yield
            finally:
                tasks.cancel_scope.cancel()

    async def _pump(self, bridge: AppBridge, tasks: anyio.abc.TaskGroup) -> None:
        assert self._process.stdout is not None
        buffer = b""
        async for chunk in self._process.stdout:
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                message = json.loads(line)
                if "event" in message:
                    self.events.append(message)
                    self._changed.set()
                    self._changed = anyio.Event()
                else:
                    self.from_view.append(message)
                    tasks.start_soon(self._answer, bridge, message)

    async def _answer(self, bridge: AppBridge, message: dict[str, Any]) -> None:
        answer = await bridge.handle(message)
        if answer is not None:
            await self.send(answer)

    async def event(self, name: str, **match: Any) -> dict[str, Any]:
        """The first event ``name`` (with these keys), waiting for it (bounded)."""
        with anyio.fail_after(WAIT):
            while True:
                for event in self.events:
                    if event["event"] == name and all(event.get(k) == v for k, v in match.items()):
                        return event
                failed = [event for event in self.events if event["event"] == "connect-failed"]
                assert not failed, failed
                await self._changed.wait()

    async def run(self, command: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Make the view call ``app.<command>(params)``; its ``answer`` or ``error`` event."""
        self._next_command += 1
        number = self._next_command
        await self.send({"command": command, "params": params, "id": number})
        with anyio.fail_after(WAIT):
            while True:
                for event in self.events:
                    if event["event"] in ("answer", "error") and event.get("id") == number:
                        return event
                await self._changed.wait()
