"""``ToolTask``: a handle on a tool call the server runs as a durable task (SEP-2663).

``await client.call_tool(..., as_task=True)`` returns one; the app awaits its ``result()``, watches
it (``async for update in task``), cancels it, or stores ``to_json()`` and picks it up later, from
another process, with ``await client.task(saved)``. The task's questions go to the client's callbacks
exactly as a plain call's do (``ClientRequestContext.task_id`` says which task asks), so a
``QuestionBroker`` lists them in ``pending()`` while ``result()`` waits.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

from mcp_client._errors import MCPClientError
from mcp_client._session import results as _results
from mcp_client._tasks.tasks import AskedKeys, TaskRunner
from mcp_client.types import CallToolResult, Task

if TYPE_CHECKING:
    from mcp_client._session.session import Session

__all__ = ["ToolTask"]

_FORMAT = "mcp-client/tool-task/1"


class ToolTask:
    """A tool call running as a task on the server (see the module docstring).

    ``id`` is the server's task id (``None`` when the server answered the call at once: then
    ``status`` is ``"completed"`` and ``result()`` returns that answer). ``status`` and
    ``status_message`` are as of the last look (the creation, a poll, a notification).
    """

    def __init__(
        self,
        session: Any,
        *,
        tool: str | None,
        runner: Any = None,
        immediate: dict[str, Any] | None = None,
    ) -> None:
        """Made by ``Client`` (``call_tool(as_task=True)``, ``client.task(...)``), never by the app: the
        client's private session and task runner are typed ``Any`` here, not part of the public API."""
        self._session: Session = session
        self._runner: TaskRunner | None = runner
        self._immediate = immediate
        self.tool = tool
        """The tool's name (``None`` for a task resumed from its bare id)."""

    def __repr__(self) -> str:
        return f"ToolTask(id={self.id!r}, tool={self.tool!r}, status={self.status!r})"

    @property
    def id(self) -> str | None:
        return self._runner.task.task_id if self._runner is not None else None

    @property
    def status(self) -> str:
        """``working``, ``input_required``, ``completed``, ``failed`` or ``cancelled``."""
        return self._runner.task.status if self._runner is not None else "completed"

    @property
    def status_message(self) -> str | None:
        return self._runner.task.status_message if self._runner is not None else None

    @property
    def state(self) -> Task | None:
        """The task as the server last described it (``None`` for an immediate answer)."""
        return self._runner.task if self._runner is not None else None

    async def result(self) -> CallToolResult:
        """Wait for the task's end (answering its questions) and return the tool's result.

        A ``failed`` task raises its JSON-RPC error (``ServerError``), a ``cancelled`` one
        ``TaskCancelledError``, a task the server forgot ``TaskLostError``. Cancelling this wait does
        not cancel the task (``cancel()`` does).
        """
        raw = self._immediate
        if raw is None:
            runner = self._require_runner()
            async with aclosing(runner.states()) as states:
                async for _ in states:
                    pass
            raw = runner.outcome()
        if self.tool is not None:
            await self._session.check_tool_result(self.tool, raw)
        return _results.parse(CallToolResult, raw, f"tools/call {self.tool!r}", self._session.label)

    async def cancel(self) -> None:
        """Ask the server to cancel the task (``tasks/cancel``), then look at its status once.

        Cancellation is cooperative: the task may still complete if it was nearly done.
        """
        if self._runner is None:
            return
        await self._runner.cancel()
        try:
            await self._runner.poll()
        except MCPClientError:
            pass  # the server may drop a cancelled task at once

    async def __aiter__(self) -> AsyncIterator[Task]:
        """Each state the task goes through, to a terminal one (questions answered on the way)."""
        if self._runner is None:
            return
        async with aclosing(self._runner.states()) as states:  # a `break` stops following at once
            async for state in states:
                yield state

    def to_json(self) -> dict[str, Any]:
        """What ``client.task(...)`` needs to pick the task up again (JSON-ready; store it)."""
        if self._runner is None:
            raise MCPClientError("this call was answered at once, without a task: there is nothing to resume")
        return {
            "format": _FORMAT,
            "taskId": self._runner.task.task_id,
            "tool": self.tool,
            "server": self._session.label,
            "status": self.status,
            "askedKeys": dict(self._runner.asked.fingerprints),
        }

    def _require_runner(self) -> TaskRunner:
        assert self._runner is not None
        return self._runner


def resume_data(saved: str | Mapping[str, Any]) -> tuple[str, str | None, AskedKeys]:
    """The task id, tool and asked keys of ``saved``: a ``to_json()`` dict, its JSON text, or a bare id."""
    data: object = saved
    if isinstance(saved, str):
        text = saved.strip()
        if not text.startswith("{"):
            if not text:
                raise ValueError("a task id must not be empty")
            return text, None, AskedKeys()
        data = json.loads(text)
    if not isinstance(data, Mapping) or not isinstance(data.get("taskId"), str):  # pyright: ignore[reportUnknownMemberType]
        raise ValueError("not a saved task: expected ToolTask.to_json() (with a taskId) or a task id")
    mapping: Mapping[str, Any] = data  # pyright: ignore[reportUnknownVariableType]
    tool = mapping.get("tool")
    asked = mapping.get("askedKeys")
    fingerprints = {str(k): str(v) for k, v in asked.items()} if isinstance(asked, Mapping) else {}  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    return mapping["taskId"], tool if isinstance(tool, str) else None, AskedKeys(fingerprints)
