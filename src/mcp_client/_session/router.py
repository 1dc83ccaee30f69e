"""One router for every question a server asks, pushed (legacy) or returned (2026-07-28).

Each kind of question is a small handler (``QuestionHandler``): it parses the params, runs the app's callback,
checks the answer and shapes the wire result. The router finds the handler by method, for both the legacy push
path (``_session.server_messages``) and the multi-round-trip loop (``_session.input_required``), and the
client's declared capabilities are derived from the handlers: a handler declares its kind only when the app
gave it a callback. Adding a kind of question is one new handler module.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

from mcp_client._errors import (
    CallbackError,
    CapabilityNotDeclaredError,
    LocalRefusalError,
    MCPClientError,
    MCPError,
)
from mcp_client._protocol.eras import Era
from mcp_client._session.context import ClientRequestContext


@dataclass(frozen=True, slots=True)
class Question:
    """One question, read: the arguments the app's callback gets, and what the handler keeps for later.

    ``about`` says who asked, for the error when the callback fails; ``detail`` is the handler's own
    (the normalized form of an elicitation, for instance).
    """

    args: tuple[Any, ...]
    about: str
    detail: Any = None


class QuestionHandler(Protocol):
    """Answers one kind of server question (``method``), the same way in both eras.

    The router runs every kind the same way (``Router.run``): ``read`` the params (raising
    ``MCPError`` for a question this client refuses, another ``MCPClientError`` for one it cannot
    read), call ``callback`` with the question's ``args`` (awaited if it returns an awaitable),
    validate what it returned to ``result_types``, and ``answered`` shapes the wire result. A local
    failure (``MCPClientError`` other than ``MCPError``) goes to ``refusal`` for what the server is told
    (no user data in it).
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

    @property
    def callback(self) -> Callable[..., Any] | None:
        """The app's callback (``None``: not declared, and never called)."""
        ...

    @property
    def callback_label(self) -> str:
        """How errors name the callback (``"list_roots"``: "the list_roots callback raised ...")."""
        ...

    @property
    def result_types(self) -> tuple[type[BaseModel], ...]:
        """What the callback may return (a dict is validated to ``result_model`` first)."""
        ...

    @property
    def result_name(self) -> str:
        """The expected return type, for the error (``"an ElicitResult"``)."""
        ...

    def result_model(self, result: dict[str, Any]) -> type[BaseModel]:
        """The model a returned dict is validated to."""
        ...

    def callback_error(self, message: str) -> CallbackError:
        """The error for a callback that raised or returned something unusable."""
        ...

    def read(self, params: object, context: ClientRequestContext, era: Era) -> Question:
        """The question in ``params`` (see the class docstring for what it raises)."""
        ...

    def answered(self, question: Question, result: Any) -> dict[str, Any]:
        """The wire result for the callback's (validated) ``result``."""
        ...

    def refusal(self, error: MCPClientError) -> tuple[int, str]:
        """The JSON-RPC error code and message for a local failure, as the server may see it."""
        ...


def not_declared(handler: QuestionHandler) -> CapabilityNotDeclaredError:
    """The error for a question of ``handler``'s kind when the app gave no callback for it."""
    return CapabilityNotDeclaredError(
        handler.kind, handler.method, handler.callback_name, handler.unsupported
    )


async def run_callback(handler: QuestionHandler, question: Question) -> Any:
    """Call the handler's callback on ``question``: its validated result, or why it is unusable.

    An ``MCPError`` the callback raises is its refusal and passes through as it is; anything else it
    raises, or returns that is not one of ``result_types``, is the handler's ``CallbackError``.
    """
    callback = handler.callback
    if callback is None:
        raise not_declared(handler)
    label = handler.callback_label
    try:
        result = callback(*question.args)
        if inspect.isawaitable(result):
            result = await result
    except MCPError:
        raise
    except Exception as exc:
        raise handler.callback_error(
            f"the {label} callback raised {type(exc).__name__}: {exc} ({question.about})"
        ) from exc
    if isinstance(result, dict):
        try:
            result = handler.result_model(result).model_validate(result)
        except ValidationError as exc:
            raise handler.callback_error(f"the {label} callback returned an invalid answer: {exc}") from exc
    if not isinstance(result, handler.result_types):
        raise handler.callback_error(
            f"the {label} callback returned {type(result).__name__}; it must return {handler.result_name}"
        )
    return result


class Router:
    """The handlers of one client, by method, the capabilities they declare, and how each is run.

    Built by ``Client`` (``_options.router_for``); asked by the ``ServerMessageHandler`` (pushed
    questions) and by ``Questions`` (returned ones). The router alone refuses a kind not declared.
    """

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
            raise LocalRefusalError(-32601, "Method not found")
        return await self.run(handler, params, context, era)

    async def run(
        self, handler: QuestionHandler, params: object, context: ClientRequestContext, era: Era
    ) -> dict[str, Any]:
        """Run one question through ``handler``: declared?, read, callback, validated, wire result."""
        self.require_declared(handler)
        question = handler.read(params, context, era)
        return handler.answered(question, await run_callback(handler, question))
