"""``ToolCallPaused``: a model's tool call released while its question waits for a person.

A 2026-07-28 server returns its questions instead of holding the call open, so an app whose questions
may wait for hours releases the call (``QuestionBroker.call_tool`` returns a paused call) and resumes
it later, perhaps in another process. A model's run cannot wait that long: the bridge and the
framework adapters stop the run with ``ToolCallPaused`` (or the framework's own deferral, which
carries the same id) instead of hanging or telling the model the tool failed.

``mcp_client`` never imports ``ui_adapters``: the bridge knows the broker only as a ``PausingCaller``,
and a paused call only as what it returns that is not a ``CallToolResult`` (its ``id`` names it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from mcp_client._client import Client
from mcp_client.llm._view import ExportedTool

__all__ = ["PausingCaller", "ToolCallPaused"]


class PausingCaller(Protocol):
    """What ``pause_with=`` takes; ``QuestionBroker`` is one.

    ``call_tool`` makes the call with ``client`` and returns the tool's ``CallToolResult``, or a paused
    call: any other object, with a string ``id`` the app resumes it by (``QuestionBroker.resume``).
    """

    async def call_tool(
        self, client: Client, name: str, arguments: Mapping[str, Any] | None = None
    ) -> object: ...


class ToolCallPaused(Exception):
    """A tool call the model made is paused: its server asked a question that waits for a person, or
    the client's ``tool_policy`` asks a person to approve it (the broker is its ``approval_callback``).

    Raised by ``ToolBridge`` (``call_tool``, ``run_*``) and the framework adapters when they were given
    ``pause_with=`` (a ``QuestionBroker``) and a 2026-07-28 server asked something. Nothing waits in
    memory: the questions are the broker's (``pending()``), and the call resumes with
    ``await broker.resume(call_id, client)`` once they are answered, here or in another process.

    ``call_id`` is the paused call's id, ``call`` the paused call itself (a ``PausedCall``), ``tool`` the
    ``ExportedTool`` the model called, ``arguments`` what it passed, ``server`` the server's name (a
    ``Client``'s ``server``), ``tool_call_id`` the model's id for the call where the framework gives
    one (``None`` otherwise). It is not an ``MCPClientError``: nothing failed.
    """

    def __init__(
        self,
        tool: ExportedTool,
        call: object,
        *,
        arguments: Mapping[str, Any],
        server: str,
        tool_call_id: str | None = None,
    ) -> None:
        call_id = getattr(call, "id", None)
        if not isinstance(call_id, str):
            raise TypeError(
                f"pause_with's call_tool returned {type(call).__name__}, which is neither a CallToolResult "
                "nor a paused call with a string id"
            )
        waits_for = "approves it" if getattr(call, "approval", None) is not None else "answers its question"
        super().__init__(
            f"the call to {tool.name} on {server} is paused until a person {waits_for} "
            f"(paused call {call_id}); resume it with `await broker.resume({call_id!r}, client)` and "
            "give the model its result"
        )
        self.tool = tool
        self.call = call
        self.call_id: str = call_id
        self.arguments: dict[str, Any] = dict(arguments)
        self.server = server
        self.tool_call_id = tool_call_id
