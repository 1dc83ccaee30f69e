"""What the AppBridge tests share: a view's side of the conversation, as dicts, and the host's outbox."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mcp_client.apps import AppBridge

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "ui/initialize",
    "params": {
        "appInfo": {"name": "test-view", "version": "1.0.0"},
        "appCapabilities": {"availableDisplayModes": ["inline"]},
        "protocolVersion": "2026-01-26",
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "ui/notifications/initialized"}


@dataclass
class Outbox:
    """The ``send`` of a bridge: records every host-to-view message, in order."""

    sent: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])

    async def __call__(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    @property
    def methods(self) -> list[str]:
        return [message.get("method", "") for message in self.sent]


def request(request_id: int | str, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """A view's JSON-RPC request."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


async def handshake(bridge: AppBridge) -> dict[str, Any]:
    """The view's ``ui/initialize`` then ``ui/notifications/initialized``; returns the initialize result."""
    answer = await bridge.handle(INITIALIZE)
    assert answer is not None and "result" in answer, answer
    assert await bridge.handle(INITIALIZED) is None
    return answer["result"]


def call(request_id: int, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    """A view's ``tools/call``."""
    return request(request_id, "tools/call", {"name": name, "arguments": arguments or {}})
