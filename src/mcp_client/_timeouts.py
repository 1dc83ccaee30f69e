"""Request deadlines that stop while a person is answering a question.

``timeout`` bounds each request, but an elicitation callback may keep a person busy for minutes while a
legacy server holds the request open. Every pending request runs inside its own ``RequestClock``
(``RequestDeadlines.clock()``), registered by request id while it waits; while any callback runs inside
``paused()`` no deadline fires, and when the last callback returns each pending request gets a fresh
``timeout``.
"""

from __future__ import annotations

import math
from types import TracebackType
from typing import Any

import anyio


class RequestDeadlines:
    def __init__(self, timeout: float | None) -> None:
        self.timeout = math.inf if timeout is None else timeout
        self.active: dict[Any, RequestClock] = {}
        """The clocks of the requests waiting for an answer, by request id."""
        self._paused = 0

    def _deadline(self) -> float:
        return math.inf if self._paused or math.isinf(self.timeout) else anyio.current_time() + self.timeout

    def clock(self, request_id: Any, call: object = None, grace: float = 0.0) -> RequestClock:
        """A cancel scope for one request: ``timeout`` from now (at least ``grace``), stoppable.

        ``call`` is the caller's record of the call the request belongs to (see ``_session``).
        (A plain class, not ``@contextmanager``: it is entered once per request, on the hot path.)
        """
        return RequestClock(self, request_id, call, grace)

    def paused(self) -> _Paused:
        """Stop every request's clock for the duration (nesting and concurrency are fine)."""
        return _Paused(self)


class RequestClock:
    __slots__ = ("_deadlines", "_request_id", "_scope", "call")

    def __init__(self, deadlines: RequestDeadlines, request_id: Any, call: object, grace: float) -> None:
        self._deadlines = deadlines
        self._request_id = request_id
        self.call = call
        deadline = deadlines._deadline()
        if grace:
            deadline = max(deadline, anyio.current_time() + grace)
        self._scope = anyio.CancelScope(deadline=deadline)

    def __enter__(self) -> anyio.CancelScope:
        scope = self._scope.__enter__()
        self._deadlines.active[self._request_id] = self
        return scope

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool:
        self._deadlines.active.pop(self._request_id, None)
        return bool(self._scope.__exit__(exc_type, exc, tb))

    def _set(self, deadline: float) -> None:
        self._scope.deadline = deadline


class _Paused:
    __slots__ = ("_deadlines",)

    def __init__(self, deadlines: RequestDeadlines) -> None:
        self._deadlines = deadlines

    def __enter__(self) -> None:
        deadlines = self._deadlines
        deadlines._paused += 1
        for clock in deadlines.active.values():
            clock._set(math.inf)

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        deadlines = self._deadlines
        deadlines._paused -= 1
        if not deadlines._paused:
            deadline = deadlines._deadline()
            for clock in deadlines.active.values():
                clock._set(deadline)
