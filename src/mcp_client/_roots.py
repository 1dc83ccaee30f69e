"""The roots handler: the server asks which folders the app works in (``roots/list``).

Pushed by a legacy server or returned in ``inputRequests``, the question reaches
``list_roots_callback(context) -> ListRootsResult``. The callback is also the capability declaration:
``roots`` (with ``listChanged``: the app may call ``Client.send_roots_list_changed()``) is declared only
when there is a callback. Every root must be a ``file://`` URI, as the spec requires; a callback that
raises or returns anything else is a ``CallbackError`` on our side (``MCPError`` passes through, as a
refusal).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import ValidationError

from mcp_client._context import ClientRequestContext
from mcp_client._eras import Era
from mcp_client._errors import CallbackError, MCPClientError, MCPError
from mcp_client._jsonrpc import INTERNAL_ERROR
from mcp_client._router import not_declared
from mcp_client.types import ListRootsResult

ListRootsCallback = Callable[[ClientRequestContext], Awaitable[ListRootsResult]]
"""``async def callback(context) -> ListRootsResult``: the folders the app lets the server work in."""


class RootsHandler:
    method = "roots/list"
    kind = "roots"
    callback_name = "list_roots_callback"
    unsupported = "List roots not supported"

    def __init__(self, callback: ListRootsCallback | None) -> None:
        self.callback = callback

    @property
    def capability(self) -> dict[str, Any] | None:
        return {"listChanged": True} if self.callback is not None else None

    def refusal(self, error: MCPClientError) -> tuple[int, str]:
        return INTERNAL_ERROR, "The client's roots handler failed"

    async def answer(self, params: object, context: ClientRequestContext, era: Era) -> dict[str, Any]:
        callback = self.callback
        if callback is None:
            raise not_declared(self)
        try:
            result: object = callback(context)
            if inspect.isawaitable(result):
                result = await result
        except MCPError:
            raise
        except Exception as exc:
            raise CallbackError(
                f"the list_roots callback raised {type(exc).__name__}: {exc} "
                f"(asked by {context.server_name})",
                kind="roots",
            ) from exc
        if isinstance(result, dict):
            try:
                result = ListRootsResult.model_validate(result)
            except ValidationError as exc:
                raise CallbackError(
                    f"the list_roots callback returned an invalid answer: {exc}", kind="roots"
                ) from exc
        if not isinstance(result, ListRootsResult):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise CallbackError(
                f"the list_roots callback returned {type(result).__name__}; it must return a ListRootsResult",
                kind="roots",
            )
        for root in result.roots:
            if not root.uri.startswith("file://"):
                raise CallbackError(
                    f"the list_roots callback returned the root {root.uri!r}; roots must be file:// URIs",
                    kind="roots",
                )
        return result.model_dump_wire()
