"""Request deadlines, each stoppable on its own while a person answers that request's question.

``timeout`` bounds each request, but a legacy server may hold a request open while it asks the user
a question (a pushed ``elicitation/create``), and a person may take minutes to answer. Every pending
request runs inside its own ``RequestClock`` (``RequestDeadlines.clock()``), registered by request id
while it waits, so that the session can pause exactly the request a question belongs to. When its last
question is answered the request gets a fresh ``timeout``. Other requests keep their clocks running.

A clock also tells whoever asks (``on_end``) when its request is over, so that a question still open
for a request nobody waits for any more can be ended.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import TracebackType
from typing import Any

import anyio


class RequestDeadlines:
    def __init__(self, timeout: float | None) -> None:
        self.timeout = math.inf if timeout is None else timeout
        self.active: dict[Any, RequestClock] = {}
        """The clocks of the requests waiting for an answer, by request id."""

    def fresh_deadline(self) -> float:
        return math.inf if math.isinf(self.timeout) else anyio.current_time() + self.timeout

    def clock(self, request_id: Any, call: object = None, grace: float = 0.0) -> RequestClock:
        """A cancel scope for one request: ``timeout`` from now (at least ``grace``), stoppable.

        ``call`` is the caller's record of the call the request belongs to (see ``_session``).
        (A plain class, not ``@contextmanager``: it is entered once per request, on the hot path.)
        """
        return RequestClock(self, request_id, call, grace)


class RequestClock:
    __slots__ = ("_deadlines", "_ended", "_pauses", "_request_id", "_scope", "call", "on_end")

    def __init__(self, deadlines: RequestDeadlines, request_id: Any, call: object, grace: float) -> None:
        self._deadlines = deadlines
        self._request_id = request_id
        self._pauses = 0
        self._ended = False
        self.call = call
        self.on_end: list[Callable[[], None]] | None = None
        """Called once when the request is over (answered, failed, timed out or cancelled)."""
        deadline = deadlines.fresh_deadline()
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
        self._ended = True
        if self.on_end:
            for callback in self.on_end:
                callback()
        return bool(self._scope.__exit__(exc_type, exc, tb))

    def pause(self) -> None:
        """Stop this request's clock until as many ``resume()`` calls (nesting is fine)."""
        self._pauses += 1
        if not self._ended:
            self._scope.deadline = math.inf

    def resume(self) -> None:
        """Undo one ``pause()``; after the last one the request gets a fresh ``timeout``."""
        self._pauses -= 1
        if not self._pauses and not self._ended:
            self._scope.deadline = self._deadlines.fresh_deadline()
