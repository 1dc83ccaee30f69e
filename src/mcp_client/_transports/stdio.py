"""stdio transport: a server subprocess speaking newline-delimited JSON on its stdin and stdout.

stderr is the server's log, not protocol: the transport keeps its last lines so that when the server
dies, the pending requests fail with ``ServerExitedError`` saying why. On close it follows the spec's
shutdown order: close stdin, wait, SIGTERM, wait, SIGKILL; then it closes its ends of the pipes itself,
because a grandchild (``npx``, a shell wrapper) may hold the other ends open long after the server
exited, and waiting for their end of file would leak them.

A line on stdout may be at most ``max_message_bytes`` long (its newline aside). Server requests run in at most
``MAX_SERVER_REQUESTS_IN_FLIGHT`` tasks beyond one per request of ours in flight (each call may have its
question open); past that, a request is dropped unanswered and logged (see ``_connection.transport``): a
server that floods requests and stops reading our answers costs a bounded number of tasks, while its stdout is
still read, so neither side waits on the other for ever. Notifications are handled one at a time, in the order
the server wrote them, and a response written after a notification reaches its caller only once that
notification has been handled (a progress report restarts its request's clock before the answer is seen).

``StdioTransport`` holds what does not depend on the event loop (the command, the stderr tail, the
error messages, where server messages go); the pipes themselves are driven by one of two modules,
chosen when the transport opens: ``stdio_asyncio`` on asyncio (a subprocess protocol that answers
a caller straight from the data callback, as cheap per call as a hand-written asyncio client), and
``stdio_anyio`` everywhere else (trio), through anyio's process streams and a reader task.
"""

from __future__ import annotations

import logging
import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field

import sniffio

from mcp_client._connection.reconnect import never_sent
from mcp_client._connection.transport import DEFAULT_MAX_MESSAGE_BYTES, Message, ServerMessageSink, Spawn
from mcp_client._errors import MCPConnectionError
from mcp_client._transports.stdio_pipes import PipeEvents, Pipes

logger = logging.getLogger("mcp_client.stdio")

_STARTUP_GRACE_SECONDS = 10.0
"""A subprocess's first answer may wait for its cold start (an interpreter, ``npx``): allow this much."""


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


class StdioTransport:
    """A connection to one stdio server subprocess (see the module docstring)."""

    def __init__(
        self, params: StdioServerParameters, *, max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    ) -> None:
        self.params = params
        self.max_message_bytes = max_message_bytes
        self._pipes: Pipes | None = None
        self._events = PipeEvents(params.command_line, max_message_bytes)
        self._binds_waits = False
        self._opened_with: tuple[Spawn, ServerMessageSink] | None = None

    @property
    def kind(self) -> str:
        return "stdio"

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
        return self._events.stderr_tail

    async def open(self, spawn: Spawn, on_message: ServerMessageSink) -> None:
        self._opened_with = (spawn, on_message)
        self._events.connect(spawn, on_message)
        argv = [self.params.command, *self.params.args]
        env = None if self.params.env is None else {**os.environ, **self.params.env}
        try:
            if sniffio.current_async_library() == "asyncio":
                from mcp_client._transports.stdio_asyncio import start

                self._binds_waits = True
            else:
                from mcp_client._transports.stdio_anyio import start
            self._pipes = await start(self._events, spawn, argv, env, self.params.cwd)
        except OSError as exc:
            raise MCPConnectionError(
                f"could not start the server command {self.label!r}: {exc.strerror or exc}"
            ) from exc

    async def request(
        self,
        message: Message,
        headers: Mapping[str, str],
        *,
        resumable: bool = True,
        protocol_version: str | None = None,
    ) -> Message:
        pipes = self._pipes
        if pipes is None:
            raise never_sent(self._events.not_open())
        if self._events.exited is not None:
            # Known gone before this request was written: it never reached the server, and may be
            # sent again once the server is started again (see _reconnect).
            raise never_sent(self._events.exited)
        return await pipes.request(message)

    async def send(
        self, message: Message, headers: Mapping[str, str], *, protocol_version: str | None = None
    ) -> None:
        pipes = self._pipes
        if pipes is None:
            raise self._events.not_open()
        await pipes.send(message)

    async def restart(self) -> None:
        """Start the server again, with the same command, environment and directory (after it exited).

        The old process is shut down first (in the spec's order, should it still run). Raises
        ``MCPConnectionError`` if the command cannot be started; the era is the client's to negotiate.
        """
        opened_with = self._opened_with
        if opened_with is None:
            raise self._events.not_open()
        pipes, self._pipes = self._pipes, None
        if pipes is not None:
            await pipes.aclose()
        self._events.exited = None
        await self.open(*opened_with)

    async def aclose(self) -> None:
        if self._pipes is not None:
            await self._pipes.aclose()
