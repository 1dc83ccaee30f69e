"""Request deadlines that stop while a person is answering a question.

``timeout`` bounds each request, but an elicitation callback may keep a person busy for minutes while a
legacy server holds the request open. Every pending request runs inside ``RequestDeadlines.scope()``;
while any callback runs inside ``paused()`` no deadline fires, and when the last callback returns each
pending request gets a fresh ``timeout``.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from contextlib import contextmanager

import anyio


class RequestDeadlines:
    def __init__(self, timeout: float | None) -> None:
        self.timeout = math.inf if timeout is None else timeout
        self._scopes: set[anyio.CancelScope] = set()
        self._paused = 0

    def _deadline(self) -> float:
        return math.inf if self._paused or math.isinf(self.timeout) else anyio.current_time() + self.timeout

    @contextmanager
    def scope(self) -> Generator[anyio.CancelScope]:
        """A cancel scope whose deadline is ``timeout`` from now, stopped while callbacks run."""
        with anyio.CancelScope(deadline=self._deadline()) as scope:
            self._scopes.add(scope)
            try:
                yield scope
            finally:
                self._scopes.discard(scope)

    @contextmanager
    def paused(self) -> Generator[None]:
        """Stop every request's clock for the duration (nesting and concurrency are fine)."""
        self._paused += 1
        for scope in self._scopes:
            scope.deadline = math.inf
        try:
            yield
        finally:
            self._paused -= 1
            if not self._paused:
                deadline = self._deadline()
                for scope in self._scopes:
                    scope.deadline = deadline
