"""Request deadlines, each stoppable on its own while a person answers that request's question.

``timeout`` bounds each request (a call may choose its own, ``read_timeout_seconds``), but a legacy
server may hold a request open while it asks the user a question (a pushed ``elicitation/create``),
and a person may take minutes to answer. Every pending request runs inside its own ``RequestClock``
(``RequestDeadlines.clock()``), registered by request id while it waits, so that the session can pause
exactly the request a question belongs to. When its last question is answered the request gets a
fresh timeout of its own length. Other requests keep their clocks running. A progress notification
for a request starts its clock again too (``RequestClock.restart``): a tool that reports progress may
run for as long as it keeps reporting.

A clock also tells whoever asks (``on_end``) when its request is over, so that a question still open
for a request nobody waits for any more can be ended.

An OAuth login may send the person to a browser in the middle of a request; every request of the
client waits for that login, so ``paused()`` stops all of its clocks (and those started meanwhile).
Code far below the client (an ``httpx2.Auth`` running inside the HTTP transport) cannot be handed the
deadlines: it finds them in a context variable that each ``RequestClock`` sets for the task sending
the request, and stops the clocks with ``waiting_on_a_person()``.

Who enforces the deadlines: one watchdog task per session (``RequestDeadlines.watch``), not a timer per
request. Each request still runs in a cancel scope of its own, but without a deadline: on asyncio,
anyio's scope with a deadline schedules and cancels an event-loop timer and reads the clock twice, and
that was more than half of what the client itself spent on a call (8 of 15 µs, bench/README.md). The
watchdog sleeps until the earliest deadline and cancels the scopes that are past theirs. Requests
sent one after another with the same timeout end later than the one the watchdog sleeps for, so a
request wakes it only when its deadline comes first (the first request after a quiet spell, a call
with a shorter ``read_timeout_seconds``). Without a watchdog (before it started, or a
``RequestDeadlines`` used on its own) a clock puts its deadline on its scope, as before.

A transport that waits for each reply on a future of its own (stdio on asyncio) needs no cancel scope
at all: the session sets ``RequestDeadlines.binding``, the transport hands the future it waits on to
the request's clock (``current_clock().bind``), and at the deadline the watchdog cancels that future.
The clock turns the ``CancelledError`` it caused into the timeout, and leaves any other cancellation
(the task itself being cancelled) alone. An anyio scope per request costs more in place than its
instructions say (bench/README.md): on that path it was a fifth of the client's distance to the floor.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextvars import ContextVar, Token
from types import TracebackType
from typing import TYPE_CHECKING, Any

import anyio

if TYPE_CHECKING:
    import asyncio

_current: ContextVar[RequestDeadlines | None] = ContextVar("mcp_client_request_deadlines", default=None)
_current_clock: ContextVar[RequestClock | None] = ContextVar("mcp_client_request_clock", default=None)


def current_clock() -> RequestClock | None:
    """The clock of the request this task is sending, when it runs without a scope (see ``binding``)."""
    return _current_clock.get()


class RequestDeadlines:
    """The deadlines of one session's requests: the clock of each waiting request, by id, and the watchdog.

    Owned by the ``Session`` (which runs ``watch`` in its task group and makes a ``clock`` per
    request); ``_session.questions`` pauses the clocks of a pushed question's owners, and an OAuth login
    pauses them all (``waiting_on_a_person``).
    """

    def __init__(self, timeout: float | None) -> None:
        self.timeout: float = math.inf if timeout is None else timeout
        self.active: dict[Any, RequestClock] = {}
        """The clocks of the requests waiting for an answer, by request id."""
        self._paused = 0  # paused() blocks in force: every clock stopped
        self._now: Callable[[], float] = anyio.current_time
        self._new_scope: Callable[[], anyio.CancelScope] = anyio.CancelScope
        self._watching = False
        self._next_check = math.inf  # when the watchdog looks next
        self._wake: anyio.Event | None = None
        self.binding = False
        """The transport binds each request's wait to its clock: no cancel scope per request."""

    def _deadline(self, timeout: float) -> float:
        return math.inf if self._paused or math.isinf(timeout) else self._now() + timeout

    def clock(
        self, request_id: Any, call: object = None, grace: float = 0.0, timeout: float | None = None
    ) -> RequestClock:
        """A cancel scope for one request: ``timeout`` (default: the client's) from now, at least ``grace``.

        ``call`` is the caller's record of the call the request belongs to (see ``_session.session``).
        (A plain class, not ``@contextmanager``: it is entered once per request, on the hot path.)
        """
        return RequestClock(self, request_id, call, grace, self.timeout if timeout is None else timeout)

    def paused(self) -> _Paused:
        """Stop every request's clock for the duration, including requests started meanwhile."""
        return _Paused(self)

    async def watch(self) -> None:
        """Cancel each request past its deadline, for as long as this runs (the session's lifetime)."""
        self._now = _fast_clock()
        # The running backend's own scope class: built directly, without anyio's backend lookup per
        # request (1.5 instead of 2.8 µs a scope on asyncio).
        self._new_scope = type(anyio.CancelScope())
        self._watching = True
        try:
            while True:
                now = self._now()
                earliest = math.inf
                for clock in list(self.active.values()):
                    deadline = clock.deadline
                    if deadline <= now:
                        clock.expire()
                    elif deadline < earliest:
                        earliest = deadline
                self._next_check = earliest
                wake = self._wake = anyio.Event()
                with anyio.CancelScope(deadline=earliest):
                    await wake.wait()
        finally:
            self._watching = False
            self._wake = None
            for clock in self.active.values():
                clock._direct()  # no watchdog any more: the scopes keep time

    def _scheduled(self, deadline: float) -> bool:
        """Whether the watchdog will look at ``deadline`` in time; wake it if not. False: no watchdog."""
        if not self._watching:
            return False
        if deadline < self._next_check and self._wake is not None:
            self._next_check = deadline
            self._wake.set()
        return True


class RequestClock:
    """One request's deadline, entered around its wait: a cancel scope, or a future the transport binds.

    Made by ``RequestDeadlines.clock`` for the session's request path; paused and resumed by the
    questions it owns, restarted by progress reports, expired by the watchdog.
    """

    __slots__ = (
        "_clock_token", "_deadline", "_deadlines", "_ended", "_expired", "_own_timer", "_pauses",
        "_request_id", "_scope", "_token", "_waiter", "call", "on_end", "timeout",
    )  # fmt: skip

    def __init__(
        self, deadlines: RequestDeadlines, request_id: Any, call: object, grace: float, timeout: float
    ) -> None:
        self._deadlines = deadlines
        self._request_id = request_id
        self._pauses = 0
        self._ended = False
        self.call: object = call
        self.timeout: float = timeout
        self.on_end: list[Callable[[], None]] | None = None
        """Called once when the request is over (answered, failed, timed out or cancelled)."""
        deadline = deadlines._deadline(timeout)
        if grace:
            deadline = max(deadline, deadlines._now() + grace)
        self._deadline = deadline
        self._scope: anyio.CancelScope | None = None  # None: the transport binds its wait instead
        self._own_timer = False  # True: the scope keeps the deadline itself (no watchdog at the start)
        self._expired = False
        self._waiter: asyncio.Future[Any] | None = None
        self._token: Token[RequestDeadlines | None] | None = None
        self._clock_token: Token[RequestClock | None] | None = None

    def __enter__(self) -> RequestClock:
        deadlines = self._deadlines
        if deadlines.binding and deadlines._watching:
            deadlines.active[self._request_id] = self
            deadlines._scheduled(self._deadline)
            self._clock_token = _current_clock.set(self)
        else:
            scope = self._scope = deadlines._new_scope()
            scope.__enter__()
            deadlines.active[self._request_id] = self
            if not deadlines._scheduled(self._deadline):
                self._own_timer = True
                scope.deadline = self._deadline
        self._token = _current.set(deadlines)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool:
        if self._token is not None:
            _current.reset(self._token)
        self._deadlines.active.pop(self._request_id, None)
        self._ended = True
        self._waiter = None
        if self.on_end:
            for callback in self.on_end:
                callback()
        if self._scope is not None:
            return bool(self._scope.__exit__(exc_type, exc, tb))
        if self._clock_token is not None:
            _current_clock.reset(self._clock_token)
        # Swallow only the cancellation this clock caused: the task itself is not being cancelled.
        return self._expired and exc_type is not None and _cancelled_by_its_wait(exc_type)

    @property
    def deadline(self) -> float:
        """When the request times out (``inf`` while its clock is stopped)."""
        return self._deadline

    @deadline.setter
    def deadline(self, deadline: float) -> None:
        self._set(deadline)

    def expire(self) -> None:
        """The deadline passed (the watchdog says): cancel the request; the session reports the timeout."""
        if self._ended:
            return
        self._expired = True
        if self._scope is not None:
            self._scope.cancel()
        elif self._waiter is not None and not self._waiter.done():
            self._waiter.cancel()

    def bind(self, waiter: asyncio.Future[Any]) -> None:
        """What the request waits on now (a scopeless clock): cancelled at the deadline."""
        self._waiter = waiter
        if self._expired and not waiter.done():
            waiter.cancel()

    def pause(self) -> None:
        """Stop this request's clock until as many ``resume()`` calls (nesting is fine)."""
        self._pauses += 1
        if not self._ended:
            self._set(math.inf)

    def resume(self) -> None:
        """Undo one ``pause()``; after the last one the request gets a fresh ``timeout``."""
        self._pauses -= 1
        if not self._pauses:
            self._refresh()

    def restart(self) -> None:
        """A fresh ``timeout`` from now (the server showed it is working), unless the clock is stopped."""
        if not self._pauses:
            self._refresh()

    def _refresh(self) -> None:
        if not self._ended:
            self._set(math.inf if self._pauses else self._deadlines._deadline(self.timeout))

    def _set(self, deadline: float) -> None:
        self._deadline = deadline
        scope = self._scope
        if scope is None:
            self._deadlines._scheduled(deadline)
        elif self._own_timer or not self._deadlines._scheduled(deadline):
            self._own_timer = True
            scope.deadline = deadline

    def _direct(self) -> None:
        """The watchdog stopped: the scope keeps its own deadline from now on."""
        if not self._ended and self._scope is not None:
            self._own_timer = True
            self._scope.deadline = self._deadline


def _cancelled_by_its_wait(exc_type: type[BaseException]) -> bool:
    """A ``CancelledError`` that did not come from cancelling the task (asyncio: nothing pending)."""
    import asyncio

    if not issubclass(exc_type, asyncio.CancelledError):
        return False
    task = asyncio.current_task()
    return task is not None and not task.cancelling()


def _fast_clock() -> Callable[[], float]:
    """The running event loop's clock, read without anyio's backend lookup (``anyio.current_time``)."""
    import sniffio

    if sniffio.current_async_library() == "asyncio":
        import asyncio

        return asyncio.get_running_loop().time
    return anyio.current_time


class _Paused:
    __slots__ = ("_deadlines",)

    def __init__(self, deadlines: RequestDeadlines) -> None:
        self._deadlines = deadlines

    def __enter__(self) -> None:
        deadlines = self._deadlines
        deadlines._paused += 1
        for clock in deadlines.active.values():
            clock._refresh()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        deadlines = self._deadlines
        deadlines._paused -= 1
        for clock in deadlines.active.values():
            clock._refresh()


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
    a no-op outside any ``Client`` request (an ``httpx2.Auth`` used with a plain ``httpx2`` client).
    """
    deadlines = _current.get()
    return _NoClock() if deadlines is None else deadlines.paused()
