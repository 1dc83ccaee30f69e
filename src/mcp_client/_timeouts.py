"""Request deadlines that stop while a person is answering a question and restart on progress.

``timeout`` bounds each request (a call may choose its own), but an elicitation callback may keep a
person busy for minutes while a legacy server holds the request open. Every pending request runs inside
``RequestDeadlines.scope()``; while any callback runs inside ``paused()`` no deadline fires, and when
the last callback returns each pending request gets a fresh timeout of its own length. A progress
notification for a request gives it a fresh timeout too (``restart``): a tool that reports progress may
run for as long as it keeps reporting.
"""

from __future__ import annotations

import math
from types import TracebackType

import anyio


class RequestDeadlines:
    def __init__(self, timeout: float | None) -> None:
        self.timeout = math.inf if timeout is None else timeout
        self._scopes: dict[anyio.CancelScope, float] = {}
        self._paused = 0

    def _deadline(self, timeout: float) -> float:
        return math.inf if self._paused or math.isinf(timeout) else anyio.current_time() + timeout

    def scope(self, timeout: float | None = None) -> _RequestScope:
        """A cancel scope whose deadline is ``timeout`` (default: the client's) from now.

        The clock stops while callbacks run. (A plain class, not ``@contextmanager``: it is entered once
        per request, on the hot path.)
        """
        return _RequestScope(self, self.timeout if timeout is None else timeout)

    def paused(self) -> _Paused:
        """Stop every request's clock for the duration (nesting and concurrency are fine)."""
        return _Paused(self)

    def restart(self, scope: anyio.CancelScope) -> None:
        """Give a pending request a fresh timeout from now (unless the clocks are paused)."""
        timeout = self._scopes.get(scope)
        if timeout is not None and not self._paused:
            scope.deadline = self._deadline(timeout)


class _RequestScope:
    __slots__ = ("_deadlines", "_scope", "_timeout")

    def __init__(self, deadlines: RequestDeadlines, timeout: float) -> None:
        self._deadlines = deadlines
        self._timeout = timeout
        self._scope = anyio.CancelScope(deadline=deadlines._deadline(timeout))

    def __enter__(self) -> anyio.CancelScope:
        scope = self._scope.__enter__()
        self._deadlines._scopes[scope] = self._timeout
        return scope

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool:
        self._deadlines._scopes.pop(self._scope, None)
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
            for scope, timeout in deadlines._scopes.items():
                scope.deadline = deadlines._deadline(timeout)
