"""Request deadlines that stop while a person is answering a question.

``timeout`` bounds each request, but an elicitation callback may keep a person busy for minutes while a
legacy server holds the request open. Every pending request runs inside ``RequestDeadlines.scope()``;
while any callback runs inside ``paused()`` no deadline fires, and when the last callback returns each
pending request gets a fresh ``timeout``.
"""

from __future__ import annotations

import math
from types import TracebackType

import anyio


class RequestDeadlines:
    def __init__(self, timeout: float | None) -> None:
        self.timeout = math.inf if timeout is None else timeout
        self._scopes: set[anyio.CancelScope] = set()
        self._paused = 0

    def _deadline(self) -> float:
        return math.inf if self._paused or math.isinf(self.timeout) else anyio.current_time() + self.timeout

    def scope(self) -> _RequestScope:
        """A cancel scope whose deadline is ``timeout`` from now, stopped while callbacks run.

        (A plain class, not ``@contextmanager``: it is entered once per request, on the hot path.)
        """
        return _RequestScope(self)

    def paused(self) -> _Paused:
        """Stop every request's clock for the duration (nesting and concurrency are fine)."""
        return _Paused(self)


class _RequestScope:
    __slots__ = ("_deadlines", "_scope")

    def __init__(self, deadlines: RequestDeadlines) -> None:
        self._deadlines = deadlines
        self._scope = anyio.CancelScope(deadline=deadlines._deadline())

    def __enter__(self) -> anyio.CancelScope:
        scope = self._scope.__enter__()
        self._deadlines._scopes.add(scope)
        return scope

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool:
        self._deadlines._scopes.discard(self._scope)
        return bool(self._scope.__exit__(exc_type, exc, tb))


class _Paused:
    __slots__ = ("_deadlines",)

    def __init__(self, deadlines: RequestDeadlines) -> None:
        self._deadlines = deadlines

    def __enter__(self) -> None:
        deadlines = self._deadlines
        deadlines._paused += 1
        for scope in deadlines._scopes:
            scope.deadline = math.inf

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        deadlines = self._deadlines
        deadlines._paused -= 1
        if not deadlines._paused:
            deadline = deadlines._deadline()
            for scope in deadlines._scopes:
                scope.deadline = deadline
