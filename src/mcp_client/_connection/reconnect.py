"""Reconnecting to a server that went away: the ``Reconnect`` policy, and the ``Supervisor`` that applies it.

A long-lived app holds its clients for days; under it a stdio server crashes or is killed, an HTTP
server is redeployed. ``Client(reconnect=Reconnect(...))`` (on by default) makes the next request
start the server again (stdio: the same command, environment and directory) or reach it again
(HTTP), negotiate the era again and go on. Two rules keep that safe:

* a request is repeated only when the server never received it (the process was already gone, the
  connection was refused) or when repeating it cannot do harm: every list, read and lookup the
  protocol defines, and a ``tools/call`` whose tool says ``readOnlyHint`` or ``idempotentHint``.
  Any other call that was in flight when the connection died fails with the connection's error, and
  the *next* request reconnects;
* attempts back off exponentially with jitter (``Reconnect.delay``), and after ``attempts`` failures in
  a row the request fails naming them; a later request tries again only once ``max_delay`` has passed,
  so a server that crashes at start is never restarted in a tight loop.

The session calls ``Supervisor.recover`` only on its failure path (a connection error), so a client
whose server never fails pays nothing per request. A successful reconnect forgets the list cache and
the output schemas (the new server may serve other tools), logs a WARNING on ``mcp_client.session``
and calls ``Client.on_reconnect``.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

import anyio

from mcp_client._connection import telemetry as _telemetry
from mcp_client._errors import MCPClientError, MCPConnectionError, ServerError, ServerExitedError

__all__ = [
    "RECONNECTING_KINDS",
    "Reconnect",
    "ServerHealth",
    "Supervisor",
    "lost_server",
    "may_repeat",
    "never_sent",
    "policy_of",
    "safe_tools_of",
]

logger = logging.getLogger("mcp_client.session")

_NEVER_SENT = "_mcp_never_sent"
"""The attribute that marks an error raised before its request left (see ``never_sent``)."""

RECONNECTING_KINDS = frozenset({"stdio", "http", "sse"})
"""The transports (``Transport.kind``) a client reconnects: stdio restarts its process; HTTP reaches
the URL again. A server in this process, or the app's own transport, is the app's to bring back."""

SAFE_METHODS = frozenset(
    {
        "ping",
        "server/discover",
        "initialize",
        "tools/list",
        "prompts/list",
        "prompts/get",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "resources/subscribe",
        "resources/unsubscribe",
        "completion/complete",
        "logging/setLevel",
        "tasks/get",
        "tasks/result",
        "tasks/list",
        "tasks/cancel",
        "skills/list",
        "skills/get",
    }
)
"""Requests the protocol defines without side effects (or idempotent ones): safe to send twice."""


@dataclass(frozen=True)
class Reconnect:
    """How a ``Client`` gets its server back after losing it: ``Client(server, reconnect=Reconnect())``.

    ``attempts`` restarts (stdio) or reconnections (HTTP) are tried in a row before the request that
    needed the server fails; between two of them the client waits ``first_delay`` seconds, then twice
    that, and so on up to ``max_delay``, each wait jittered (between half and all of it) so that many
    clients do not come back in step. After a request gave up, the next one tries again once
    ``max_delay`` has passed, and fails at once before then. ``reconnect=False`` turns it off: a lost
    server then fails every later request, as a closed connection does.
    """

    attempts: int = 5
    first_delay: float = 0.5
    max_delay: float = 30.0

    def __post_init__(self) -> None:
        if isinstance(self.attempts, bool) or not isinstance(self.attempts, int) or self.attempts < 1:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(
                f"Reconnect(attempts=...) must be a whole number of at least 1; got {self.attempts!r}"
            )
        for name in ("first_delay", "max_delay"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or value < 0
            ):
                raise ValueError(
                    f"Reconnect({name}=...) must be a finite number of seconds >= 0; got {value!r}"
                )
        if self.max_delay < self.first_delay:
            raise ValueError(
                f"Reconnect(max_delay={self.max_delay!r}) is shorter than first_delay={self.first_delay!r}"
            )

    def ceiling(self, failures: int) -> float:
        """The longest wait before the next attempt after ``failures`` failed ones in a row."""
        if failures <= 0:
            return 0.0
        return min(self.max_delay, self.first_delay * 2.0 ** min(failures - 1, 60))

    def delay(self, failures: int) -> float:
        """The jittered wait before the next attempt: between half of ``ceiling(failures)`` and all of it."""
        ceiling = self.ceiling(failures)
        return ceiling / 2 + random.random() * ceiling / 2


def policy_of(reconnect: Reconnect | bool) -> Reconnect | None:
    """``Client(reconnect=...)`` read: ``True`` is the default policy, ``False`` none."""
    if reconnect is True:
        return Reconnect()
    if reconnect is False:
        return None
    if not isinstance(reconnect, Reconnect):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"reconnect must be a Reconnect, True or False; got {reconnect!r}")
    return reconnect


GATEWAY_STATUSES = frozenset({502, 503, 504})
"""What a proxy answers while the server behind it is redeployed: the server may be back soon."""


def lost_server(error: MCPClientError) -> bool:
    """Whether ``error`` says the server went away (rather than answered): a lost or refused connection,
    a stdio server that exited, or a gateway's 502/503/504 (``data["httpStatus"]``, see the HTTP
    transport)."""
    if isinstance(error, MCPConnectionError):
        return True
    if not isinstance(error, ServerError):
        return False
    data: object = error.data
    return isinstance(data, dict) and data.get("httpStatus") in GATEWAY_STATUSES  # pyright: ignore[reportUnknownMemberType]


def never_sent(error: MCPConnectionError) -> MCPConnectionError:
    """A copy of ``error`` that says its request never left the client (the server was already gone)."""
    if isinstance(error, ServerExitedError):
        copy: MCPConnectionError = ServerExitedError(
            str(error), returncode=error.returncode, stderr_tail=error.stderr_tail
        )
    else:
        copy = MCPConnectionError(str(error))
    setattr(copy, _NEVER_SENT, True)
    return copy


def _was_never_sent(error: BaseException) -> bool:
    if getattr(error, _NEVER_SENT, False):
        return True
    import httpx2  # already loaded by the HTTP transport that raised it

    # A refused connection (nothing listening while the server is redeployed): nothing was received.
    return isinstance(error.__cause__, httpx2.ConnectError | httpx2.ConnectTimeout)


def may_repeat(method: str, params: dict[str, Any] | None, safe_tools: frozenset[str]) -> bool:
    """Whether ``method`` may be sent again after its connection died under it: a request the protocol
    defines without side effects (``SAFE_METHODS``), or a ``tools/call`` of a tool that said
    ``readOnlyHint`` or ``idempotentHint`` when the client last listed the tools (``safe_tools``)."""
    if method in SAFE_METHODS:
        return True
    return method == "tools/call" and params is not None and params.get("name") in safe_tools


def safe_tools_of(tools: list[Any]) -> frozenset[str]:
    """The names of the tools whose ``annotations`` say ``readOnlyHint`` or ``idempotentHint``."""
    names: set[str] = set()
    for tool in tools:
        if not isinstance(tool, dict):
            continue
        annotations: object = tool.get("annotations")  # pyright: ignore[reportUnknownMemberType]
        name: object = tool.get("name")  # pyright: ignore[reportUnknownMemberType]
        if isinstance(annotations, dict) and isinstance(name, str):
            hints: dict[str, object] = annotations  # pyright: ignore[reportUnknownVariableType]
            if hints.get("readOnlyHint") is True or hints.get("idempotentHint") is True:
                names.add(name)
    return frozenset(names)


@dataclass(frozen=True)
class ServerHealth:
    """Where a server's connection stands, for a status page (``await ClientGroup.health()``).

    ``state`` is ``"connected"``, ``"reconnecting"`` (``attempt`` attempts failed in a row so far, the
    next in about ``next_delay`` seconds; ``reason`` is the last failure) or ``"failed"`` (given up
    for now, or never reconnected; ``reason`` says why).
    """

    state: Literal["connected", "reconnecting", "failed"]
    attempt: int = 0
    next_delay: float | None = None
    reason: str | None = None


class Supervisor:
    """Carries out ``Reconnect`` for one session: one reconnect at a time, the failures counted.

    ``restart()`` brings the connection back (the session's: the transport restarted, the era
    negotiated again) and raises what failed; ``reconnected()`` forgets what the old server served and
    tells the app.
    """

    def __init__(
        self,
        policy: Reconnect,
        label: str,
        restart: Callable[[], Awaitable[None]],
        reconnected: Callable[[], Awaitable[None]],
        *,
        restarts_process: bool,
    ) -> None:
        self.policy = policy
        self._label = label
        self._restart = restart
        self._reconnected = reconnected
        self._restarts_process = restarts_process
        self._lock = anyio.Lock()
        self.generation = 0
        """How many times the connection was brought back: a request that failed in an older one
        needs no reconnect of its own."""
        self.failures = 0
        self._resume_at = 0.0
        self._gave_up: MCPConnectionError | None = None
        self._last_error: BaseException | None = None
        self._retry_at: float | None = None
        """When the next attempt may start (monotonic), once one failed: a moment, not a wait, so that a
        reconnect whose request was cancelled (a bounded health ping) resumes the same schedule."""
        self._restarting_in: int | None = None

    @property
    def state(self) -> ServerHealth:
        if self._gave_up is not None:
            return ServerHealth("failed", self.failures, None, str(self._gave_up))
        if self.failures or self._lock.locked():  # attempts failed, or the first one is under way
            reason = str(self._last_error) if self._last_error is not None else None
            retry_at = self._retry_at
            next_delay = None if retry_at is None else max(0.0, retry_at - time.monotonic())
            return ServerHealth("reconnecting", self.failures, next_delay, reason)
        return ServerHealth("connected")

    @property
    def under_way(self) -> bool:
        """Whether a reconnect is running now. ``state`` may say ``"reconnecting"`` without one: attempts
        failed and the request that made them was cancelled; the next request goes on with them."""
        return self._lock.locked()

    async def recover(
        self,
        error: MCPClientError,
        method: str,
        params: dict[str, Any] | None,
        safe_tools: frozenset[str],
    ) -> None:
        """Called when ``method`` failed with ``error``: return once the connection is back and the
        request may be sent again; raise (``error`` itself, or why the server could not be brought
        back) when it must not be sent again, or the server cannot be brought back."""
        generation = self.generation
        if self._restarting_in is not None and self._restarting_in == anyio.get_current_task().id:
            raise error  # a request of the restart itself (the legacy log level): the restart failed
        if not _was_never_sent(error) and not may_repeat(method, params, safe_tools):
            logger.info(
                "%s: %s was in flight when the connection died; not sending it again", self._label, method
            )
            raise _without_mark(error)
        async with self._lock:
            if self.generation == generation:
                await self._bring_back(error)

    async def _bring_back(self, error: MCPClientError) -> None:
        if self._gave_up is not None:
            if time.monotonic() < self._resume_at:
                raise self._gave_up
            self._gave_up = None
            self.failures, self._retry_at = 0, None
        self._last_error = error
        cause = _first_line(error)
        with _telemetry.reconnect_span(self._label, cause, restarts_process=self._restarts_process) as span:
            # Counted across requests: a reconnect cancelled with its request (a health ping's bound, an
            # app's deadline) is taken up by the next request where it stopped, at the same moment.
            while self.failures < self.policy.attempts:
                if self._retry_at is not None:
                    await anyio.sleep(max(0.0, self._retry_at - time.monotonic()))
                self._restarting_in = anyio.get_current_task().id
                try:
                    await self._restart()
                except MCPClientError as exc:
                    self.failures += 1
                    self._last_error = exc
                    self._retry_at = time.monotonic() + self.policy.delay(self.failures)
                    logger.info("%s: attempt %d to reconnect failed: %s", self._label, self.failures, exc)
                    _telemetry.event(
                        span,
                        "mcp.client.reconnect_attempt_failed",
                        {"mcp.reconnect.attempt": self.failures, "error.type": type(exc).__name__},
                    )
                    continue
                finally:
                    self._restarting_in = None
                attempts, self.failures, self._retry_at = self.failures + 1, 0, None
                self.generation += 1
                what = "started again" if self._restarts_process else "reached again"
                logger.warning(
                    "%s went away (%s) and was %s (attempt %d); its state is new",
                    self._label,
                    cause,
                    what,
                    attempts,
                )
                _telemetry.event(span, "mcp.client.reconnected", {"mcp.reconnect.attempt": attempts})
                await self._reconnected()
                return
            self._gave_up = self._exhausted()
            self._resume_at = time.monotonic() + self.policy.max_delay
            raise self._gave_up

    def _exhausted(self) -> MCPConnectionError:
        last = self._last_error
        verb = "restart" if self._restarts_process else "reconnect to"
        message = f"could not {verb} the server {self._label!r}: {self.failures} attempts failed in a row"
        message += f"; the last: {last}" if last is not None else ""
        message += f". The next request tries again after {self.policy.max_delay:g}s."
        if isinstance(last, ServerExitedError) or self._restarts_process:
            returncode = last.returncode if isinstance(last, ServerExitedError) else None
            tail = last.stderr_tail if isinstance(last, ServerExitedError) else ""
            exhausted: MCPConnectionError = ServerExitedError(
                message, returncode=returncode, stderr_tail=tail
            )
        else:
            exhausted = MCPConnectionError(message)
        exhausted.__cause__ = last
        return exhausted


def _first_line(error: BaseException) -> str:
    return str(error).partition("\n")[0].rstrip(":; ")


def _without_mark(error: MCPClientError) -> MCPClientError:
    if getattr(error, _NEVER_SENT, False):
        delattr(error, _NEVER_SENT)
    return error
