"""The roots handler: the server asks which folders the app works in (``roots/list``).

Pushed by a legacy server or returned in ``inputRequests``, the question reaches
``list_roots_callback(context) -> ListRootsResult``. The callback is also the capability declaration:
``roots`` (with ``listChanged``: the app may call ``Client.send_roots_list_changed()``) is declared only
when there is a callback. Every root must be a ``file://`` URI, as the spec requires; a callback that
raises or returns anything else is a ``CallbackError`` on our side (``MCPError`` passes through, as a
refusal).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from mcp_client._errors import CallbackError, MCPClientError
from mcp_client._protocol.eras import Era
from mcp_client._protocol.jsonrpc import INTERNAL_ERROR
from mcp_client._session.context import ClientRequestContext
from mcp_client._session.router import Question
from mcp_client.types import ListRootsResult

ListRootsCallback = Callable[[ClientRequestContext], Awaitable[ListRootsResult]]
"""``async def callback(context) -> ListRootsResult``: the folders the app lets the server work in."""


class RootsHandler:
    """Answers ``roots/list`` with the app's folders; the router runs the callback.
    Built by ``_options.router_for``."""

    method = "roots/list"
    kind = "roots"
    callback_name = "list_roots_callback"
    unsupported = "List roots not supported"
    callback_label = "list_roots"
    result_types = (ListRootsResult,)
    result_name = "a ListRootsResult"

    def __init__(self, callback: ListRootsCallback | None) -> None:
        self.callback = callback

    @property
    def capability(self) -> dict[str, Any] | None:
        return {"listChanged": True} if self.callback is not None else None

    def refusal(self, error: MCPClientError) -> tuple[int, str]:
        return INTERNAL_ERROR, "The client's roots handler failed"

    def result_model(self, result: dict[str, Any]) -> type[ListRootsResult]:
        return ListRootsResult

    def callback_error(self, message: str) -> CallbackError:
        return CallbackError(message, kind="roots")

    def read(self, params: object, context: ClientRequestContext, era: Era) -> Question:
        return Question((context,), f"asked by {context.server_name}")

    def answered(self, question: Question, result: ListRootsResult) -> dict[str, Any]:
        for root in result.roots:
            if not root.uri.startswith("file://"):
                raise CallbackError(
                    f"the list_roots callback returned the root {root.uri!r}; roots must be file:// URIs",
                    kind="roots",
                )
        return result.model_dump_wire()
