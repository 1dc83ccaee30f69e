"""The floor under the stdio transport and both of its backends: what they share, written once.

``StdioTransport`` (``stdio``) holds the command and chooses a backend when it opens: ``stdio_asyncio``
on asyncio, ``stdio_anyio`` elsewhere. Both backends drive the pipes (``Pipes``) and report what they
see to a ``PipeEvents``: the stderr tail, the errors and their messages, the late answers of
abandoned requests, and where server messages go. They never import the transport, and the spec's
shutdown order (close stdin, wait, SIGTERM, wait, SIGKILL) is written once, in ``shut_down``.
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from pydantic_core import from_json

from mcp_client._connection.transport import (
    MAX_SERVER_REQUESTS_IN_FLIGHT,
    Message,
    ServerMessageSink,
    ServerRequestSlots,
    Spawn,
)
from mcp_client._errors import MCPConnectionError, ProtocolError, ServerExitedError
from mcp_client._protocol import jsonrpc as _jsonrpc

logger = logging.getLogger("mcp_client.stdio")

STDERR_TAIL_LINES = 40
STDERR_LINE_BYTES = 64 * 1024
"""A stderr "line" longer than this is cut into pieces of this size (stderr is a log, not protocol)."""
SHUTDOWN_GRACE_SECONDS = 2.0
KILL_WAIT_SECONDS = 5.0
ABANDONED_IDS = 64
"""Ids of requests whose callers gave up, remembered so that their late answers are dropped quietly."""


class Pipes(Protocol):
    """The running subprocess, as ``stdio_asyncio`` and ``stdio_anyio`` drive it."""

    async def request(self, message: Message) -> Message: ...

    async def send(self, message: Message) -> None: ...

    async def aclose(self) -> None: ...

    @property
    def backlogged(self) -> bool: ...


class PipeEvents:
    """What the backends report to, for one server: owned by ``StdioTransport``, called by the pipes."""

    def __init__(self, label: str, max_message_bytes: int) -> None:
        self.label = label
        self.max_message_bytes = max_message_bytes
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL_LINES)
        self._on_message: ServerMessageSink | None = None
        self._spawn: Spawn | None = None
        self.in_flight: Callable[[], int] = _none
        """How many of our requests wait for an answer (the pipes say): each may explain a question."""
        self._server_requests = ServerRequestSlots(in_flight=lambda: self.in_flight())
        self._dropping = False
        self._abandoned: collections.deque[Any] = collections.deque(maxlen=ABANDONED_IDS)
        self.exited: ServerExitedError | None = None
        """How the server process ended, once a backend saw it end (cleared when it starts again)."""

    def connect(self, spawn: Spawn, on_message: ServerMessageSink) -> None:
        """Where server messages go from now on (``Transport.open``)."""
        self._spawn = spawn
        self._on_message = on_message

    @property
    def stderr_tail(self) -> str:
        """The last lines the server wrote to stderr."""
        return "\n".join(self._stderr_tail)

    def not_open(self) -> MCPConnectionError:
        return MCPConnectionError(f"the stdio transport to {self.label!r} is not open")

    def closed_by_us(self) -> MCPConnectionError:
        return MCPConnectionError(f"the client closed the connection to {self.label!r}")

    def too_long(self) -> ProtocolError:
        return ProtocolError(
            f"{self.label!r} wrote a line longer than {self.max_message_bytes} bytes on stdout; "
            "the stream cannot be trusted any more"
        )

    def exit_error(self, returncode: int | None) -> ServerExitedError:
        tail = self.stderr_tail
        status = "is gone" if returncode is None else f"exited with code {returncode}"
        message = f"the server {self.label!r} {status}"
        message += f"; the last lines of its stderr:\n{tail}" if tail else " (it wrote nothing to stderr)"
        self.exited = ServerExitedError(message, returncode=returncode, stderr_tail=tail)
        return self.exited

    def stderr_line(self, line: bytes) -> None:
        text = line.decode("utf-8", "replace").rstrip()
        self._stderr_tail.append(text[:2000])
        logger.debug("%s stderr: %s", self.label, text)

    def abandoned(self, request_id: Any) -> None:
        """The caller of ``request_id`` gave up (cancelled, timed out): its answer may still come."""
        self._abandoned.append(request_id)

    def unmatched(self, message: Message) -> None:
        """A response no caller waits for: a late answer to an abandoned request, or a stray one."""
        request_id = message.get("id")
        if request_id in self._abandoned:
            logger.debug("%s: dropping the late answer to abandoned request %r", self.label, request_id)
        else:
            logger.warning("%s: ignoring a response for unknown request id %r", self.label, request_id)

    def malformed(self, line: bytes, exc: ProtocolError, is_waiting: Any) -> Any:
        """The id a malformed line answers, if ``is_waiting(id)``; else log that the line is skipped.

        A broken answer to a pending request fails that request at once: waiting out the timeout for a
        reply that already came would hide what happened.
        """
        try:
            raw = from_json(line)
        except ValueError:
            raw = None
        request_id = raw.get("id") if isinstance(raw, dict) and "method" not in raw else None
        if _jsonrpc._is_id(request_id) and is_waiting(request_id):
            return request_id
        logger.warning("%s: ignoring a line that is not JSON-RPC: %s", self.label, exc)
        return None

    def malformed_answer(self, request_id: Any, exc: ProtocolError) -> ProtocolError:
        return ProtocolError(
            f"{self.label!r} answered request {request_id!r} with a malformed response: {exc}"
        )

    async def server_message(self, message: Message) -> None:
        """A server request (run in a task of its own) or notification (handled before this returns)."""
        on_message = self._on_message
        if on_message is None:
            return
        if "id" in message and self._spawn is not None:
            if self._server_requests.try_spawn(self._spawn, lambda: on_message(message)):
                self._dropping = False
            elif not self._dropping:  # once per burst: a flood would flood the log too
                self._dropping = True
                logger.warning(
                    "%s: dropping server requests unanswered (from %r): %d are still unfinished, "
                    "more than the %d it may ask beyond one per request of ours in flight; "
                    "is the server still reading its stdin?",
                    self.label,
                    message.get("id"),
                    self._server_requests.running,
                    MAX_SERVER_REQUESTS_IN_FLIGHT,
                )
        else:
            await on_message(message)


def _none() -> int:
    return 0


async def shut_down(
    close_stdin: Callable[[], Awaitable[None]],
    wait_exit: Callable[[float], Awaitable[bool]],
    terminate: Callable[[], None],
    kill: Callable[[], None],
) -> None:
    """The spec's shutdown order: close stdin, wait, SIGTERM, wait, SIGKILL (and wait for the end).

    ``wait_exit(seconds)`` waits at most that long and says whether the process exited.
    """
    await close_stdin()
    if await wait_exit(SHUTDOWN_GRACE_SECONDS):
        return
    terminate()
    if await wait_exit(SHUTDOWN_GRACE_SECONDS):
        return
    kill()
    await wait_exit(KILL_WAIT_SECONDS)
