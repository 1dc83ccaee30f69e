"""Following a tool task (SEP-2663) to its end: polling, its questions, its outcome, its cancellation.

A server that negotiated ``io.modelcontextprotocol/tasks`` may answer ``tools/call`` with a task
handle (``resultType: "task"``). ``TaskRunner`` follows it: ``tasks/get`` every ``pollIntervalMs``
(clamped to ``[POLL_FLOOR, POLL_CAP]`` seconds, so neither ``0`` nor a day from a hostile server
hurts), or sooner when a ``notifications/tasks`` for it arrives; each state goes to the caller
(``states``) so ``statusMessage`` reaches the progress callback or the CLI's status line.

A task in ``input_required`` carries ``inputRequests``: the same questions as a multi-round-trip
round, answered through the same router (``Questions.answer``, with the task id in the context) and
sent back with ``tasks/update``. The server repeats open questions on every poll until it has
processed the answers, so keys are remembered (``AskedKeys``): a key is asked once; a key that comes
back with a different question after it was answered is the server's error (refused).

Each ``tasks/get`` is a request with the call's timeout: a task that keeps answering polls is alive,
however long it runs; only silence times out. The outcome: ``completed`` gives the tool's result,
``failed`` raises the task's JSON-RPC error (``ServerError``), ``cancelled`` raises
``TaskCancelledError``, and a ``tasks/get`` error (the task expired) raises ``TaskLostError``.
"""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import AsyncGenerator, Mapping
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

import anyio
from pydantic import ValidationError

from mcp_client._errors import (
    MCPClientError,
    ProtocolError,
    ServerError,
    TaskCancelledError,
    TaskLostError,
)
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._session import input_required as _input_required
from mcp_client._session.questions import Call
from mcp_client.types import Task

if TYPE_CHECKING:
    from mcp_client._session.session import Session

logger = logging.getLogger("mcp_client")

POLL_FLOOR = 0.1
"""Seconds: the shortest wait between two polls, whatever ``pollIntervalMs`` says (``0`` included)."""
POLL_CAP = 10.0
"""Seconds: the longest wait between two polls, whatever ``pollIntervalMs`` says (a day included)."""
POLL_DEFAULT = 1.0
"""Seconds between polls when the server suggests nothing."""
_CANCEL_SECONDS = 5.0
_INVALID_PARAMS = -32602
"""What ``tasks/get`` answers for a task id the server does not know (expired, or never made)."""


def poll_delay(task: Task) -> float:
    """Seconds to wait before the next ``tasks/get``: the server's suggestion, clamped to ours."""
    suggested = task.poll_interval_ms
    if suggested is None or suggested != suggested:  # absent or NaN
        return POLL_DEFAULT
    return min(max(suggested / 1000.0, POLL_FLOOR), POLL_CAP)


def read_task(raw: object, what: str) -> Task:
    """A ``Task`` from a ``CreateTaskResult``, a ``tasks/get`` result or a ``notifications/tasks``."""
    try:
        return Task.model_validate(raw)
    except ValidationError as exc:
        raise ProtocolError(f"{what}: the server sent a task that cannot be read: {exc}") from exc


class AskedKeys:
    """The ``inputRequests`` keys of one task already asked, each with the question it stood for.

    Survives a restart inside ``ToolTask.to_json()`` (``fingerprints``), so a resumed task does not
    ask again what was answered before.
    """

    def __init__(self, fingerprints: Mapping[str, str] | None = None) -> None:
        self.fingerprints: dict[str, str] = dict(fingerprints or {})

    @staticmethod
    def _fingerprint(request: object) -> str:
        return json.dumps(request, sort_keys=True, separators=(",", ":"), default=str)

    def new(self, requests: Mapping[str, Any], task_id: str) -> dict[str, Any]:
        """The questions of ``requests`` not asked before (refusing a key reused for another question)."""
        fresh: dict[str, Any] = {}
        for key, request in requests.items():
            seen = self.fingerprints.get(key)
            if seen is None:
                fresh[key] = request
            elif seen != self._fingerprint(request):
                raise ProtocolError(
                    f"task {task_id}: the server reused input request key {key!r} for another question after "
                    "it was answered (keys must be unique over a task's lifetime); refusing to answer it"
                )
        return fresh

    def mark(self, requests: Mapping[str, Any]) -> None:
        for key, request in requests.items():
            self.fingerprints[key] = self._fingerprint(request)


class TaskRunner:
    """Follows one task of one session (see the module docstring); used by ``call_tool`` and ``ToolTask``.

    ``call`` carries the timeout of each poll; ``tool`` names the tool in messages (``None`` for a task
    resumed from its id alone).
    """

    def __init__(
        self, session: Session, task: Task, call: Call, tool: str | None, asked: AskedKeys | None = None
    ) -> None:
        self.session = session
        self.task = task
        self.call = call
        self.tool = tool
        self.asked = asked if asked is not None else AskedKeys()
        self._what = f"task {task.task_id}" + (f" of tool {tool!r}" if tool else "")

    async def poll(self) -> Task:
        """One ``tasks/get``: the task's state now (``TaskLostError`` if the server no longer has it)."""
        task_id = self.task.task_id
        try:
            raw = await self.session.request("tasks/get", {"taskId": task_id}, self.call)
        except ServerError as exc:
            if exc.code != _INVALID_PARAMS:
                raise  # not about the task (the method is unknown, the server failed): as it is
            raise TaskLostError(
                f"{self._what}: {self.session.label} no longer knows this task ({exc}); it may have expired "
                "after its TTL, and its result cannot be fetched any more",
                task_id,
            ) from exc
        task = read_task(raw, f"tasks/get {task_id}")
        if task.task_id != task_id:
            raise ProtocolError(f"tasks/get {task_id}: the server answered about task {task.task_id}")
        self.task = task
        return task

    async def states(self) -> AsyncGenerator[Task]:
        """Every state the task goes through, from the one in hand to a terminal one.

        Answers the task's questions on the way (through the router) and sends them with
        ``tasks/update``; a state is yielded when its status or message changes.
        """
        task = self.task
        yield task
        last = (task.status, task.status_message)
        waiter = self.session.task_waiter(task.task_id)
        try:
            while not task.done:
                if task.status == "input_required" and task.input_requests:
                    await self.answer(task)
                    delay = POLL_FLOOR  # the server has answers to work on: look again soon
                else:
                    delay = poll_delay(task)
                pushed = await waiter.wait(delay)
                task = pushed if pushed is not None else await self.poll()
                self.task = task
                now = (task.status, task.status_message)
                if now != last or task.done:
                    last = now
                    yield task
        finally:
            waiter.close()

    async def answer(self, task: Task) -> None:
        """Ask the new questions of an ``input_required`` state, then send the answers (``tasks/update``)."""
        requests = task.input_requests or {}
        fresh = self.asked.new(requests, task.task_id)
        if not fresh:
            return  # all already answered: the server has not processed them yet
        era = self.session.require_open()
        questions = self.session.questions

        async def one(
            key: str, method: str, params: dict[str, Any], index: int, count: int
        ) -> dict[str, Any]:
            return await questions.answer(
                era, key, method, params, index, count, task_id=task.task_id, call=self.call
            )

        answers = await _input_required.answer_all(fresh, one, self._what, questions.check)
        self.asked.mark(fresh)
        await self.session.request(
            "tasks/update", {"taskId": task.task_id, "inputResponses": answers}, self.call
        )

    async def follow(self) -> dict[str, Any]:
        """Follow the task to its end and return the tool's result (raises for failed and cancelled)."""
        progress = self.call.progress
        count = 0
        async with aclosing(self.states()) as states:
            async for task in states:
                count += 1
                if progress is not None and task.status_message:
                    with self.session.notifications.progress.naming():
                        outcome = progress.callback(float(count), None, task.status_message)
                        if inspect.isawaitable(outcome):
                            await outcome
        return self.outcome()

    def outcome(self) -> dict[str, Any]:
        """The result of a terminal task, or its failure raised."""
        task = self.task
        if task.status == "completed":
            if task.result is None:
                raise ProtocolError(f"{self._what}: the server says it completed but sent no result")
            return task.result
        if task.status == "failed":
            error = task.error
            if isinstance(error, dict) and isinstance(error.get("code"), int):
                raise _jsonrpc.error_from(error)
            said = task.status_message or f"{self._what} failed (the server gave no error)"
            raise ServerError(-32603, said)
        if task.status == "cancelled":
            said = f": {task.status_message}" if task.status_message else ""
            raise TaskCancelledError(f"{self._what} was cancelled{said}", task.task_id, task.status_message)
        raise ProtocolError(f"{self._what} is {task.status!r}, not finished")

    async def cancel(self) -> None:
        """Ask the server to cancel the task (``tasks/cancel``); cooperative, so it may still finish."""
        await self.session.request("tasks/cancel", {"taskId": self.task.task_id}, self.call)

    async def cancel_quietly(self, reason: str) -> None:
        """``cancel`` from a cancelled or failed call: shielded, bounded, never raising."""
        with anyio.CancelScope(shield=True), anyio.move_on_after(_CANCEL_SECONDS):
            try:
                await self.cancel()
                logger.info("%s: sent tasks/cancel (%s)", self._what, reason)
            except MCPClientError as exc:
                logger.info("%s: tasks/cancel failed: %s", self._what, exc)


class TaskWaiter:
    """Sleeps until the next poll is due, or until a ``notifications/tasks`` brings the task's state."""

    def __init__(self, registry: dict[str, list[TaskWaiter]], task_id: str) -> None:
        self._registry = registry
        self._task_id = task_id
        self._pushed: Task | None = None
        self._event = anyio.Event()
        registry.setdefault(task_id, []).append(self)

    def push(self, task: Task) -> None:
        self._pushed = task
        self._event.set()

    async def wait(self, delay: float) -> Task | None:
        """Wait ``delay`` seconds; the state a notification brought meanwhile, if one did."""
        if self._pushed is None:
            with anyio.move_on_after(delay):
                await self._event.wait()
        pushed, self._pushed = self._pushed, None
        if self._event.is_set():
            self._event = anyio.Event()
        return pushed

    def close(self) -> None:
        waiters = self._registry.get(self._task_id)
        if waiters and self in waiters:
            waiters.remove(self)
            if not waiters:
                del self._registry[self._task_id]
