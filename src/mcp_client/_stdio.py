"""stdio transport: a server subprocess speaking newline-delimited JSON on its stdin and stdout.

stderr is the server's log, not protocol: the transport keeps its last lines so that when the server
dies, the pending requests fail with ``ServerExitedError`` saying why. On close it follows the spec's
shutdown order: close stdin, wait, SIGTERM, wait, SIGKILL; then it closes its ends of the pipes itself,
because a grandchild (``npx``, a shell wrapper) may hold the other ends open long after the server
exited, and waiting for their end of file would leak them.

A line on stdout may be at most ``max_message_bytes`` long (its newline aside). Server requests run in
at most ``MAX_SERVER_REQUESTS_IN_FLIGHT`` tasks; past that, a request is dropped unanswered and logged
(see ``_transport``): a server that floods requests and stops reading our answers costs a bounded
number of tasks, while its stdout is still read, so neither side waits on the other for ever.
Notifications are handled one at a time, in the order the server wrote them, and a response written
after a notification reaches its caller only once that notification has been handled (a progress
report restarts its request's clock before the answer is seen).

``StdioTransport`` holds what does not depend on the event loop (the command, the stderr tail, the
error messages, where server messages go); the pipes themselves are driven by one of two modules,
chosen when the transport opens: ``_stdio_asyncio`` on asyncio (a subprocess protocol that answers
a caller straight from the data callback, as cheap per call as a hand-written asyncio client), and
``_stdio_anyio`` everywhere else (trio), through anyio's process streams and a reader task.
"""

from __future__ import annotations

import collections
import logging
import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import sniffio
from pydantic_core import from_json

from mcp_client import _jsonrpc
from mcp_client._errors import MCPConnectionError, ProtocolError, ServerExitedError
from mcp_client._transport import (
    DEFAULT_MAX_MESSAGE_BYTES,
    MAX_SERVER_REQUESTS_IN_FLIGHT,
    Message,
    MessageHandler,
    ServerRequestSlots,
    Spawn,
)

logger = logging.getLogger("mcp_client.stdio")

_STDERR_TAIL_LINES = 40
STDERR_LINE_BYTES = 64 * 1024
"""A stderr "line" longer than this is cut into pieces of this size (stderr is a log, not protocol)."""
SHUTDOWN_GRACE_SECONDS = 2.0
KILL_WAIT_SECONDS = 5.0
_STARTUP_GRACE_SECONDS = 10.0
"""A subprocess's first answer may wait for its cold start (an interpreter, ``npx``): allow this much."""
_ABANDONED_IDS = 64
"""Ids of requests whose callers gave up, remembered so that their late answers are dropped quietly."""


@dataclass(frozen=True)
class StdioServerParameters:
    """How to start a stdio server: ``command`` with ``args``, in ``cwd``.

    ``env`` adds to (and overrides) the client's own environment; ``None`` passes it unchanged.
    """

    command: str
    args: list[str] = field(default_factory=list[str])
    env: dict[str, str] | None = None
    cwd: str | os.PathLike[str] | None = None

    @property
    def command_line(self) -> str:
        """The command as one shell-quoted line, for messages."""
        return shlex.join([self.command, *self.args])


class Pipes(Protocol):
    """The running subprocess, as ``_stdio_asyncio`` and ``_stdio_anyio`` drive it."""

    async def request(self, message: Message) -> Message: ...

    async def send(self, message: Message) -> None: ...

    async def aclose(self) -> None: ...

    @property
    def backlogged(self) -> bool: ...


class StdioTransport:
    """A connection to one stdio server subprocess (see the module docstring)."""

    def __init__(
        self, params: StdioServerParameters, *, max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    ) -> None:
        self.params = params
        self.max_message_bytes = max_message_bytes
        self._pipes: Pipes | None = None
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=_STDERR_TAIL_LINES)
        self._on_message: MessageHandler | None = None
        self._spawn: Spawn | None = None
        self._server_requests = ServerRequestSlots()
        self._dropping = False
        self._abandoned: collections.deque[Any] = collections.deque(maxlen=_ABANDONED_IDS)
        self._binds_waits = False

    kind = "stdio"

    @property
    def label(self) -> str:
        return self.params.command_line

    @property
    def cancels_by_closing(self) -> bool:
        return False

    @property
    def sends_headers(self) -> bool:
        return False  # a pipe has no headers: the era need not build them

    @property
    def binds_waits(self) -> bool:
        """Whether each request's wait is a future its clock can cancel (asyncio): no scope needed."""
        return self._binds_waits

    @property
    def startup_grace(self) -> float:
        return _STARTUP_GRACE_SECONDS

    @property
    def may_ignore_unknown_requests(self) -> bool:
        return True  # a legacy stdio server may say nothing at all to a method it does not know

    @property
    def session_id(self) -> str | None:
        return None

    @property
    def backlogged(self) -> bool:
        """Whether the server has stopped reading us: what we wrote waits on a full stdin pipe.

        A request sent now would wait behind it, maybe for ever (a server that floods questions and
        never reads our answers). The client asks this before a request of its own making that the
        user did not ask for (the tool listing that checks a result's output schema), so that the
        user's result is not held until a deadline by a server that will not read the request.
        """
        return self._pipes is not None and self._pipes.backlogged

    @property
    def stderr_tail(self) -> str:
        """The last lines the server wrote to stderr."""
        return "\n".join(self._stderr_tail)

    async def open(self, spawn: Spawn, on_message: MessageHandler) -> None:
        self._spawn = spawn
        self._on_message = on_message
        argv = [self.params.command, *self.params.args]
        env = None if self.params.env is None else {**os.environ, **self.params.env}
        try:
            if sniffio.current_async_library() == "asyncio":
                from mcp_client._stdio_asyncio import start

                self._binds_waits = True
            else:
                from mcp_client._stdio_anyio import start
            self._pipes = await start(self, spawn, argv, env, self.params.cwd)
        except OSError as exc:
            raise MCPConnectionError(
                f"could not start the server command {self.label!r}: {exc.strerror or exc}"
            ) from exc

    async def request(self, message: Message, headers: Mapping[str, str]) -> Message:
        pipes = self._pipes
        if pipes is None:
            raise self.not_open()
        return await pipes.request(message)

    async def send(self, message: Message, headers: Mapping[str, str]) -> None:
        pipes = self._pipes
        if pipes is None:
            raise self.not_open()
        await pipes.send(message)

    async def aclose(self) -> None:
        if self._pipes is not None:
            await self._pipes.aclose()

    # ------------------------------------------------------------- shared by both kinds of pipes

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
        return ServerExitedError(message, returncode=returncode, stderr_tail=tail)

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
        if _jsonrpc._is_id(request_id) and is_waiting(request_id):  # pyright: ignore[reportPrivateUsage]
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
                    "%s: dropping server requests unanswered (from %r): %d are still unfinished; "
                    "is the server still reading its stdin?",
                    self.label,
                    message.get("id"),
                    MAX_SERVER_REQUESTS_IN_FLIGHT,
                )
        else:
            await on_message(message)
