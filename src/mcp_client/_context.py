"""Who is asking: the context every elicitation callback receives next to the question."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from mcp_client._versions import EraName
from mcp_client.types import Implementation

__all__ = ["ClientRequestContext", "with_server_name"]


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

    @property
    def server_name(self) -> str:
        """The best name to show for the server.

        The name an ``mcpServers`` config gave it (``config_name``, set by ``ClientGroup``), else its own
        title or name, else the URL or command.
        """
        if self.config_name is not None:
            return self.config_name
        if self.server_info is not None:
            return self.server_info.title or self.server_info.name or self.server
        return self.server


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
