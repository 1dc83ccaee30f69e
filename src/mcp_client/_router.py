"""One router for every question a server asks, pushed (legacy) or returned (2026-07-28).

Each kind of question is a small handler (``QuestionHandler``): it parses the params, runs the app's
callback, checks the answer and shapes the wire result. The router finds the handler by method, for
both the legacy push path (``_server_messages``) and the multi-round-trip loop (``_input_required``),
and the client's declared capabilities are derived from the handlers: a handler declares its kind
only when the app gave it a callback. Adding a kind of question is one new handler module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from mcp_client._context import ClientRequestContext
from mcp_client._eras import Era
from mcp_client._errors import CapabilityNotDeclaredError, MCPClientError, MCPError


class QuestionHandler(Protocol):
    """Answers one kind of server question (``method``), the same way in both eras.

    ``answer`` returns the wire result, raises ``MCPError`` for a refusal the server should hear as it
    is (legacy) or the call should raise (2026-07-28), or raises another ``MCPClientError`` for a
    failure on our side, which ``refusal`` turns into what the server is told (no user data in it).
    """

    @property
    def method(self) -> str: ...

    @property
    def kind(self) -> str:
        """The capability key (``"elicitation"``), also the word used in errors."""
        ...

    @property
    def capability(self) -> dict[str, Any] | None:
        """The capability object to declare, or ``None`` when the app gave no callback."""
        ...

    @property
    def callback_name(self) -> str:
        """The ``Client`` parameter that declares this kind (named in ``CapabilityNotDeclaredError``)."""
        ...

    @property
    def unsupported(self) -> str:
        """What a legacy server is told when the kind is not declared (``"Sampling not supported"``)."""
        ...

    async def answer(self, params: object, context: ClientRequestContext, era: Era) -> dict[str, Any]: ...

    def refusal(self, error: MCPClientError) -> tuple[int, str]:
        """The JSON-RPC error code and message for a local failure, as the server may see it."""
        ...


def not_declared(handler: QuestionHandler) -> CapabilityNotDeclaredError:
    """The error for a question of ``handler``'s kind when the app gave no callback for it."""
    return CapabilityNotDeclaredError(
        handler.kind, handler.method, handler.callback_name, handler.unsupported
    )


class Router:
    """The handlers of one client, by method, and the capabilities they declare."""

    def __init__(self, handlers: Iterable[QuestionHandler]) -> None:
        self._handlers = {handler.method: handler for handler in handlers}
        self.capabilities: dict[str, Any] = {
            handler.kind: capability
            for handler in self._handlers.values()
            if (capability := handler.capability) is not None
        }
        """The client capabilities to declare, derived from the handlers (in both eras)."""

    def handler(self, method: str) -> QuestionHandler | None:
        """The handler of ``method`` (declared or not), ``None`` for a method no handler knows."""
        return self._handlers.get(method)

    def require_declared(self, handler: QuestionHandler) -> None:
        """Refuse a question whose kind the client did not declare (``CapabilityNotDeclaredError``)."""
        if handler.capability is None:
            raise not_declared(handler)

    async def answer(
        self, method: str, params: object, context: ClientRequestContext, era: Era
    ) -> dict[str, Any]:
        """Answer one question of any kind: the wire result, or the handler's exception."""
        handler = self._handlers.get(method)
        if handler is None:
            raise MCPError(-32601, "Method not found")
        self.require_declared(handler)
        return await handler.answer(params, context, era)
