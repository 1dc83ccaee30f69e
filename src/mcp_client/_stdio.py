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
"""

from __future__ import annotations

import collections
import logging
import os
import shlex
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc
from anyio.streams.buffered import BufferedByteReceiveStream
from pydantic_core import from_json

from mcp_client import _jsonrpc

if TYPE_CHECKING:
    import asyncio
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
_SHUTDOWN_GRACE_SECONDS = 2.0
_KILL_WAIT_SECONDS = 5.0
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


class _Pending:
    __slots__ = ("event", "reply")

    def __init__(self) -> None:
        self.event = anyio.Event()
        self.reply: Message | BaseException | None = None


class StdioTransport:
    """A connection to one stdio server subprocess (see the module docstring)."""

    def __init__(
        self, params: StdioServerParameters, *, max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    ) -> None:
        self.params = params
        self._max_bytes = max_message_bytes
        self._process: anyio.abc.Process | None = None
        self._pending: dict[Any, _Pending] = {}
        self._write_lock = anyio.Lock(fast_acquire=True)  # no extra trip through the event loop
        self._pipe_writer: asyncio.StreamWriter | None = None
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=_STDERR_TAIL_LINES)
        self._closed_error: BaseException | None = None
        self._readers_done = anyio.Event()
        self._on_message: MessageHandler | None = None
        self._spawn: Spawn | None = None
        self._stdout_scope = anyio.CancelScope()
        self._stderr_scope = anyio.CancelScope()
        self._server_requests = ServerRequestSlots()
        self._dropping = False

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
    def startup_grace(self) -> float:
        return _STARTUP_GRACE_SECONDS

    @property
    def may_ignore_unknown_requests(self) -> bool:
        return True  # a legacy stdio server may say nothing at all to a method it does not know

    @property
    def session_id(self) -> str | None:
        return None

    @property
    def stderr_tail(self) -> str:
        """The last lines the server wrote to stderr."""
        return "\n".join(self._stderr_tail)

    async def open(self, spawn: Spawn, on_message: MessageHandler) -> None:
        self._spawn = spawn
        self._on_message = on_message
        env = None if self.params.env is None else {**os.environ, **self.params.env}
        try:
            self._process = await anyio.open_process(
                [self.params.command, *self.params.args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                cwd=self.params.cwd,
            )
        except OSError as exc:
            raise MCPConnectionError(
                f"could not start the server command {self.label!r}: {exc.strerror or exc}"
            ) from exc
        self._pipe_writer = _asyncio_writer(self._process)
        spawn(self._read_stdout)
        spawn(self._read_stderr)

    async def request(self, message: Message, headers: Mapping[str, str]) -> Message:
        pending = _Pending()
        request_id = message["id"]
        self._pending[request_id] = pending
        try:
            await self._write(message)
            await pending.event.wait()
        finally:
            self._pending.pop(request_id, None)
        reply = pending.reply
        if isinstance(reply, BaseException):
            raise reply
        assert reply is not None
        return reply

    async def send(self, message: Message, headers: Mapping[str, str]) -> None:
        await self._write(message)

    async def aclose(self) -> None:
        self._stdout_scope.cancel()
        process = self._process
        if process is None:
            return
        self._process = None
        with anyio.CancelScope(shield=True):
            try:
                await process.stdin.aclose() if process.stdin else None
            except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                pass
            if not await _exited(process, _SHUTDOWN_GRACE_SECONDS):
                _signal(process, process.terminate)
                if not await _exited(process, _SHUTDOWN_GRACE_SECONDS):
                    _signal(process, process.kill)
                    await _exited(process, _KILL_WAIT_SECONDS)
            with anyio.move_on_after(0.5):
                await self._readers_done.wait()  # the last stderr lines, for errors still to come
            self._stderr_scope.cancel()
            if process.stdout is not None:
                with anyio.move_on_after(0.5):
                    await _discard_rest(process.stdout)
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    await stream.aclose()
            _close_pipes(process)
        self._fail_pending(MCPConnectionError(f"the client closed the connection to {self.label!r}"))

    # --------------------------------------------------------------------------- internals

    async def _write(self, message: Message) -> None:
        if self._closed_error is not None:
            raise self._closed_error
        process = self._process
        if process is None or process.stdin is None:
            raise MCPConnectionError(f"the stdio transport to {self.label!r} is not open")
        line = _jsonrpc.encode(message) + b"\n"
        writer = self._pipe_writer
        if writer is not None and not writer.transport.is_closing():
            # asyncio: the line goes to the pipe whole (or into the transport's buffer) in one
            # synchronous write, so lines cannot interleave and need no lock; drain only when the
            # buffer is past its high-water mark. anyio's send would also yield to the event loop
            # after every write: one more loop iteration per call than a plain asyncio writer.
            writer.write(line)
            if writer.transport.get_write_buffer_size() == 0:
                return
            try:
                await writer.drain()
            except (OSError, RuntimeError) as exc:
                error = await self._exited_error()
                raise error from exc
            return
        try:
            async with self._write_lock:
                await process.stdin.send(line)
        except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError) as exc:
            error = await self._exited_error()
            raise error from exc

    async def _read_stdout(self) -> None:
        process = self._process
        assert process is not None and process.stdout is not None
        reader = BufferedByteReceiveStream(process.stdout)
        with self._stdout_scope:
            try:
                while True:
                    try:
                        line = await reader.receive_until(b"\n", self._max_bytes + 1)
                    except anyio.DelimiterNotFound:
                        line = None
                    if line is None or len(line) > self._max_bytes:
                        # Later requests fail with the same reason, at once: the stream cannot be resynced.
                        self._closed_error = ProtocolError(
                            f"{self.label!r} wrote a line longer than {self._max_bytes} bytes on stdout; "
                            "the stream cannot be trusted any more"
                        )
                        self._fail_pending(self._closed_error)
                        return
                    if not line.strip():
                        continue
                    try:
                        message = _jsonrpc.decode(line)
                    except ProtocolError as exc:
                        self._malformed(line, exc)
                        continue
                    await self._route(message)
            except (
                anyio.EndOfStream,
                anyio.IncompleteRead,
                anyio.ClosedResourceError,
                anyio.BrokenResourceError,
            ):
                pass
            finally:
                if self._process is not None and self._closed_error is None:  # the server went away
                    error: MCPConnectionError = MCPConnectionError(f"{self.label!r} closed its stdout")
                    with anyio.CancelScope(shield=True):
                        error = await self._exited_error()
                    self._closed_error = error
                    self._fail_pending(error)

    def _malformed(self, line: bytes, exc: ProtocolError) -> None:
        """Skip a line that is not JSON-RPC, unless it answers a pending request: that one fails now.

        Waiting out the timeout for a reply that already came, broken, would hide what happened.
        """
        try:
            raw = from_json(line)
        except ValueError:
            raw = None
        request_id = raw.get("id") if isinstance(raw, dict) and "method" not in raw else None
        pending = self._pending.get(request_id) if _jsonrpc._is_id(request_id) else None
        if pending is None or pending.reply is not None:
            logger.warning("%s: ignoring a line that is not JSON-RPC: %s", self.label, exc)
            return
        pending.reply = ProtocolError(
            f"{self.label!r} answered request {request_id!r} with a malformed response: {exc}"
        )
        pending.event.set()

    async def _route(self, message: Message) -> None:
        if _jsonrpc.is_response(message):
            pending = self._pending.get(message.get("id"))
            if pending is None:
                logger.warning(
                    "%s: ignoring a response for unknown request id %r", self.label, message.get("id")
                )
                return
            if pending.reply is None:
                pending.reply = message
                pending.event.set()
            return
        if self._on_message is None:
            return
        if _jsonrpc.is_request(message) and self._spawn is not None:
            on_message = self._on_message
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
            await self._on_message(message)

    async def _read_stderr(self) -> None:
        process = self._process
        assert process is not None and process.stderr is not None
        reader = BufferedByteReceiveStream(process.stderr)
        with self._stderr_scope:
            try:
                while True:
                    try:
                        line = await reader.receive_until(b"\n", 64 * 1024)
                    except anyio.DelimiterNotFound:
                        line = await reader.receive(64 * 1024)
                    text = line.decode("utf-8", "replace").rstrip()
                    self._stderr_tail.append(text[:2000])
                    logger.debug("%s stderr: %s", self.label, text)
            except (
                anyio.EndOfStream,
                anyio.IncompleteRead,
                anyio.ClosedResourceError,
                anyio.BrokenResourceError,
            ):
                pass
            finally:
                self._readers_done.set()

    async def _exited_error(self) -> MCPConnectionError:
        process = self._process
        returncode = None
        if process is not None:
            await _exited(process, 1.0)
            returncode = process.returncode
        with anyio.move_on_after(0.5):
            await self._readers_done.wait()  # let the last stderr lines arrive
        tail = self.stderr_tail
        status = "is gone" if returncode is None else f"exited with code {returncode}"
        message = f"the server {self.label!r} {status}"
        message += f"; the last lines of its stderr:\n{tail}" if tail else " (it wrote nothing to stderr)"
        return ServerExitedError(message, returncode=returncode, stderr_tail=tail)

    def _fail_pending(self, error: BaseException) -> None:
        for pending in list(self._pending.values()):
            if pending.reply is None:
                pending.reply = error
                pending.event.set()


def _asyncio_writer(process: anyio.abc.Process) -> asyncio.StreamWriter | None:
    """The asyncio ``StreamWriter`` under anyio's stdin stream, on asyncio; ``None`` elsewhere (trio).

    (``asyncio`` is looked up, not imported: under trio it need not be loaded at all.)
    """
    asyncio_module = sys.modules.get("asyncio")
    writer = getattr(process.stdin, "_stream", None)
    if asyncio_module is None or not isinstance(writer, asyncio_module.StreamWriter):
        return None
    return writer  # pyright: ignore[reportUnknownVariableType]


async def _discard_rest(stream: anyio.abc.ByteReceiveStream) -> None:
    """Read an exited server's stdout to its end.

    A reader that stopped early (an over-long line) leaves the pipe paused with data in it; until its
    end of file is read, asyncio never releases the subprocess transport, which then leaks.
    """
    try:
        while await stream.receive(65536):
            pass
    except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
        pass


async def _exited(process: anyio.abc.Process, seconds: float) -> bool:
    """Wait up to ``seconds`` for the process to exit; return whether it did.

    Watches ``returncode`` rather than awaiting ``wait()``: on asyncio, ``wait()`` may also wait for
    the pipes to close, which a grandchild holding them can put off for ever.
    """
    delay = 0.001
    with anyio.move_on_after(seconds):
        while process.returncode is None:
            await anyio.sleep(delay)
            delay = min(delay * 2, 0.05)
    return process.returncode is not None


def _signal(process: anyio.abc.Process, send: Callable[[], None]) -> None:
    try:
        send()
    except ProcessLookupError:
        pass  # it exited in the meantime


def _close_pipes(process: anyio.abc.Process) -> None:
    """Close our ends of the server's pipes now, whoever else holds the other ends.

    On asyncio, closing anyio's stream wrappers leaves the pipe transports (and their file descriptors)
    open until end of file, which never comes while a grandchild of ours still holds the pipes. (On
    trio, closing the streams already closed the descriptors; this finds nothing to do.)
    """
    inner = getattr(process, "_process", None)
    transport = getattr(process, "_transport", None) or getattr(inner, "_transport", None)
    get_pipe = getattr(transport, "get_pipe_transport", None)
    if not callable(get_pipe):
        return
    for fd in (0, 1, 2):
        pipe: Any = get_pipe(fd)
        if pipe is not None and not pipe.is_closing():
            pipe.close()
