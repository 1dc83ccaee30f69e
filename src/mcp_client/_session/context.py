"""Who is asking, or telling: the context every question's callback receives, and the server a notice
callback is hearing from (``current_server()``)."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Generator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

from mcp_client._protocol.versions import EraName
from mcp_client.types import Implementation

__all__ = [
    "ClientRequestContext",
    "current_server",
    "notices_from",
    "shown_name",
    "with_notices_from",
    "with_server_name",
]

_CURRENT_SERVER: ContextVar[str | None] = ContextVar("mcp_client.current_server", default=None)


def shown_name(info: Implementation | None, server: str) -> str:
    """The name to show for a server: its own title or name, else its URL or command line."""
    if info is not None:
        return info.title or info.name or server
    return server


def current_server() -> str | None:
    """The name of the server whose notice is being handled, or ``None`` outside a notice callback.

    Call it inside a ``logging_callback``, ``message_handler`` or ``progress_callback`` (sync or async)
    when one callback hears several servers: in a ``ClientGroup`` it is the server's name in the
    ``mcpServers`` config; under a ``Client`` of its own, the server's title or name as it gave them (else
    its URL or command line), as ``ClientRequestContext.server_name`` says for questions. It names the
    server for the whole callback, tasks the callback starts included, and nothing after it returned.
    """
    return _CURRENT_SERVER.get()


@contextmanager
def notices_from(name: str) -> Generator[None]:
    """While the block runs, ``current_server()`` is ``name``."""
    token = _CURRENT_SERVER.set(name)
    try:
        yield
    finally:
        _CURRENT_SERVER.reset(token)


@dataclass(frozen=True, slots=True)
class ClientRequestContext:
    """Tells an elicitation callback which server asks, so a UI can name it (the spec requires that).

    ``server`` is the URL or the command line the client was given; ``server_info`` is what the server
    said about itself (``None`` before it said anything). In the legacy era ``request_id`` is the id of the
    server's ``elicitation/create`` request; in the 2026-07-28 era ``input_key`` is the key of the question
    in ``inputRequests``. ``question_index`` / ``question_count`` number the questions of one round
    (always 1 of 1 for a legacy push), so a UI can say "question 2 of 3". ``task_id`` is set when the
    question comes from a tool task (``input_required`` on ``tasks/get``): ``input_key`` is then its key
    in the task's ``inputRequests``. ``config_name`` is the
    server's name in the ``mcpServers`` config when the question comes through a ``ClientGroup``.

    ``tool_name`` and ``arguments`` are the tool call that asks (read-only arguments, as the app sent
    them), so a UI can say "bistro · book_table asks". 2026-07-28: the call whose result (or task) carried
    the question. Legacy: the request the server says the question belongs to, which only streamable
    HTTP can say (the question arrives on that call's response stream); over stdio and the old HTTP+SSE
    transport, and for a question not asked by a tool call (a prompt, a resource), they are ``None``.
    """

    server: str
    server_info: Implementation | None
    protocol_version: str
    era: EraName
    request_id: int | str | None = None
    input_key: str | None = None
    question_index: int = 1
    question_count: int = 1
    task_id: str | None = None
    config_name: str | None = None
    tool_name: str | None = None
    arguments: Mapping[str, Any] | None = field(default=None, hash=False)

    @property
    def server_name(self) -> str:
        """The best name to show for the server.

        The name an ``mcpServers`` config gave it (``config_name``, set by ``ClientGroup``), else its own
        title or name, else the URL or command.
        """
        if self.config_name is not None:
            return self.config_name
        return shown_name(self.server_info, self.server)


def with_server_name(callback: Callable[..., object], name: str) -> Callable[..., Awaitable[Any]]:
    """``callback`` as an async callback that sees ``context.server_name == name``.

    For an app that connects to several servers itself and wants each question labelled with its own
    name for the server (``ClientGroup`` does this with the ``mcpServers`` names): wrap the elicitation,
    sampling or roots callback given to that server's ``Client``. The context's ``config_name`` is set to
    ``name``; the callback may be sync or async, and gets every other argument unchanged.
    """

    async def named(context: ClientRequestContext, /, *args: Any, **kwargs: Any) -> Any:
        answer = callback(replace(context, config_name=name), *args, **kwargs)
        return await answer if inspect.isawaitable(answer) else answer

    return named


def with_notices_from(callback: Callable[..., object], name: str) -> Callable[..., Awaitable[Any]]:
    """``callback`` (a logging callback, message handler or progress callback, sync or async) as an
    async callback during which ``current_server() == name`` (``ClientGroup`` wraps each server's so)."""

    async def named(*args: Any) -> Any:
        with notices_from(name):
            answer = callback(*args)
            return await answer if inspect.isawaitable(answer) else answer

    return named
