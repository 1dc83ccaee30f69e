"""Request deadlines that stop while a person is answering a question.

``timeout`` bounds each request, but an elicitation callback may keep a person busy for minutes while a
legacy server holds the request open, and an OAuth login may send the person to a browser in the
middle of a request. Every pending request runs inside ``RequestDeadlines.scope()``; while any callback
runs inside ``paused()`` no deadline fires, and when the last callback returns each pending request gets
a fresh timeout.

Code far below the client (an ``httpx.Auth`` running inside the HTTP transport) cannot be handed the
deadlines: it finds them in a context variable that each request scope sets for the task sending the
request, and stops the clock with ``waiting_on_a_person()``.
"""

from __future__ import annotations

import math
from contextvars import ContextVar, Token
from types import TracebackType

import anyio

_current: ContextVar[RequestDeadlines | None] = ContextVar("mcp_client_request_deadlines", default=None)


class RequestDeadlines:
    def __init__(self, timeout: float | None) -> None:
        self.timeout = math.inf if timeout is None else timeout
        self._scopes: dict[anyio.CancelScope, float] = {}
        self._paused = 0

    def _deadline(self, timeout: float) -> float:
        return math.inf if self._paused or math.isinf(timeout) else anyio.current_time() + timeout

    def scope(self, timeout: float | None = None) -> _RequestScope:
        """A cancel scope whose deadline is ``timeout`` (default: the client's) from now, stopped while
        callbacks run.

        (A plain class, not ``@contextmanager``: it is entered once per request, on the hot path.)
        """
        return _RequestScope(self, self.timeout if timeout is None else timeout)

    def paused(self) -> _Paused:
        """Stop every request's clock for the duration (nesting and concurrency are fine)."""
        return _Paused(self)


class _RequestScope:
    __slots__ = ("_deadlines", "_scope", "_timeout", "_token")

    def __init__(self, deadlines: RequestDeadlines, timeout: float) -> None:
        self._deadlines = deadlines
        self._timeout = timeout
        self._scope = anyio.CancelScope(deadline=deadlines._deadline(timeout))
        self._token: Token[RequestDeadlines | None] | None = None

    def __enter__(self) -> anyio.CancelScope:
        scope = self._scope.__enter__()
        self._deadlines._scopes[scope] = self._timeout
        self._token = _current.set(self._deadlines)
        return scope

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool:
        if self._token is not None:
            _current.reset(self._token)
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


class _NoClock:
    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None


def waiting_on_a_person() -> _Paused | _NoClock:
    """Stop the clocks of the client whose request this task is sending, for the duration.

    For code that runs inside a request but waits on a person (the browser step of an OAuth login);
    a no-op outside any ``Client`` request (an ``httpx.Auth`` used with a plain ``httpx`` client).
    """
    deadlines = _current.get()
    return _NoClock() if deadlines is None else deadlines.paused()
