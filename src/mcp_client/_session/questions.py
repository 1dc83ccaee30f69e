"""Who owns a server's question, whose clock it stops, and in what context a callback hears it.

A *call* (``Call``: one ``call_tool``, with all its multi-round-trip rounds and recoveries) keeps what
failed on our side while answering its questions, so that the call raises that clearer error, and no
other call does.

A legacy server pushes its questions mid-request. ``Questions.pushed`` opens one for the duration of
its answer (``PushedQuestion``): it belongs to the request the transport names, else to every request
in flight (a stdio server does not say). Only its owners' clocks stop while it is answered, and when
every owner is over nobody waits for the answer any more, so the callback is cancelled.

A 2026-07-28 server returns its questions in ``inputRequests``; the multi-round-trip loop
(``_session.input_required``) asks ``Questions.check`` before any question of a round is shown to anyone and
answers each with ``Questions.answer``. No request is waiting then, so no clock stops.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from types import MappingProxyType, TracebackType
from typing import Any

import anyio

from mcp_client._connection.transport import RequestId
from mcp_client._errors import ProtocolError
from mcp_client._protocol.eras import Era
from mcp_client._protocol.server_description import ServerDescription
from mcp_client._session.context import ClientRequestContext
from mcp_client._session.notifications import ProgressRoute
from mcp_client._session.router import Router
from mcp_client._session.timeouts import RequestDeadlines

logger = logging.getLogger("mcp_client")


class Call:
    """One call a user made (with all its rounds): the local failures of the questions it owns.

    A failure is held in a one-item box that several calls may share (a question whose call the
    transport could not name belongs to every call then in flight); the first of them to fail takes it.
    ``timeout`` (if not the client's) and ``progress`` (its progress token) apply to each of its requests.
    ``tool_name`` and ``arguments`` are the tool it calls (``None`` for a prompt, a resource, a poll): the
    context of each question it asks carries them, so a UI can say which call asks.
    """

    __slots__ = ("_failures", "arguments", "progress", "timeout", "tool_name")

    def __init__(
        self,
        timeout: float | None = None,
        progress: ProgressRoute | None = None,
        *,
        tool_name: str | None = None,
        arguments: Mapping[str, Any] | None = None,
    ) -> None:
        self._failures: list[list[BaseException]] = []
        self.timeout: float | None = timeout
        self.progress: ProgressRoute | None = progress
        self.tool_name: str | None = tool_name
        self.arguments: Mapping[str, Any] | None = (
            MappingProxyType(dict(arguments)) if arguments is not None else None
        )

    @classmethod
    def of(
        cls,
        method: str,
        params: Mapping[str, Any],
        timeout: float | None = None,
        progress: ProgressRoute | None = None,
    ) -> Call:
        """The call of one request ``method`` with ``params``: a ``tools/call`` names its tool."""
        if method != "tools/call" or not isinstance(params.get("name"), str):
            return cls(timeout, progress)
        arguments = params.get("arguments")
        return cls(
            timeout,
            progress,
            tool_name=params["name"],
            arguments=arguments if isinstance(arguments, Mapping) else None,
        )

    def add_failure(self, box: list[BaseException]) -> None:
        self._failures.append(box)

    def take_failure(self) -> BaseException | None:
        while self._failures:
            box = self._failures.pop(0)
            if box:
                return box.pop()
        return None


class PushedQuestion:
    """A question a legacy server pushed, open while it is answered (see the module docstring).

    Its owners are the requests it belongs to. While it is open, the owners' clocks are paused (and
    only theirs); when every owner is over, ``scope`` (around the answer) is cancelled. A question
    whose named request is already over is cancelled at once.
    """

    __slots__ = ("_calls", "_clocks", "_named", "_open_owners", "_orphan", "_scope")

    def __init__(
        self, deadlines: RequestDeadlines, related: RequestId | None, scope: anyio.CancelScope
    ) -> None:
        active = deadlines.active
        if related is not None:
            clock = active.get(related)
            self._clocks = [clock] if clock is not None else []
            self._orphan = clock is None
        else:
            self._clocks = list(active.values())
            self._orphan = False
        self._calls = [c.call for c in self._clocks if isinstance(c.call, Call)]
        self._named = related is not None
        self._open_owners = len(self._clocks)
        self._scope = scope

    def __enter__(self) -> PushedQuestion:
        if self._orphan:
            self._scope.cancel()
        for clock in self._clocks:
            clock.pause()
            if clock.on_end is None:
                clock.on_end = []
            clock.on_end.append(self._owner_ended)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        for clock in self._clocks:
            clock.resume()
            if clock.on_end and self._owner_ended in clock.on_end:
                clock.on_end.remove(self._owner_ended)

    @property
    def call(self) -> Call | None:
        """The call the server said this question belongs to; ``None`` when it did not say (stdio)."""
        return self._calls[0] if self._named and len(self._calls) == 1 else None

    def _owner_ended(self) -> None:
        self._open_owners -= 1
        if not self._open_owners:
            self._scope.cancel()  # the call it belonged to is over: nobody waits for the answer

    def fail(self, error: BaseException) -> None:
        """A local failure while answering: the owning calls raise it instead of the server's echo."""
        if not self._calls:
            logger.warning("answering a server's question failed on our side: %s", error)
        box = [error]
        for call in self._calls:
            call.add_failure(box)


class Questions:
    """The questions of one connection: their owners, and the context each callback gets.

    Owned by the ``Session`` (which shares its deadlines and the server's description); used by the
    ``ServerMessageHandler`` for pushed questions and by the session's multi-round-trip loop for
    returned ones. It answers through the ``Router``.
    """

    __slots__ = ("_deadlines", "_description", "_label", "_router")

    def __init__(
        self, router: Router, deadlines: RequestDeadlines, label: str, description: ServerDescription
    ) -> None:
        self._router = router
        self._deadlines = deadlines
        self._label = label
        self._description = description

    def pushed(self, related: RequestId | None, scope: anyio.CancelScope) -> PushedQuestion:
        """Open a pushed question: it belongs to the request ``related``, else to every one in flight."""
        return PushedQuestion(self._deadlines, related, scope)

    @property
    def requests_in_flight(self) -> int:
        """Our requests waiting for an answer now: each may explain one question the server pushes."""
        return len(self._deadlines.active)

    def push_context(self, era: Era, request_id: Any, call: Call | None = None) -> ClientRequestContext:
        """The context of a question the server pushed as its request ``request_id``, for ``call`` (the
        call the server said it belongs to, if it said)."""
        return ClientRequestContext(
            server=self._label,
            server_info=self._description.info,
            protocol_version=era.protocol_version,
            era=era.name,
            request_id=request_id,
            tool_name=call.tool_name if call is not None else None,
            arguments=call.arguments if call is not None else None,
        )

    def check(self, key: str, method: str) -> None:
        """Before any question of a round is answered: refuse unknown and undeclared kinds."""
        handler = self._router.handler(method)
        if handler is None:
            raise ProtocolError(
                f"the server's input request {key!r} is {method!r}, which this client does not answer"
            )
        self._router.require_declared(handler)

    async def answer(
        self,
        era: Era,
        key: str,
        method: str,
        params: dict[str, Any],
        index: int,
        count: int,
        task_id: str | None = None,
        call: Call | None = None,
    ) -> dict[str, Any]:
        """Answer question ``key`` (``index`` of ``count``) a server returned in ``inputRequests``.

        ``task_id`` names the tool task that asks, for questions a task's ``tasks/get`` carried; ``call``
        is the call whose result (or task) carried the question.
        """
        context = ClientRequestContext(
            server=self._label,
            server_info=self._description.info,
            protocol_version=era.protocol_version,
            era=era.name,
            input_key=key,
            question_index=index,
            question_count=count,
            task_id=task_id,
            tool_name=call.tool_name if call is not None else None,
            arguments=call.arguments if call is not None else None,
        )
        return await self._router.answer(method, params, context, era)
