"""The stdio transport's pipes on asyncio: a subprocess protocol that answers callers from its data callback.

Why not anyio's process streams, as on trio: each layer between the pipe and the caller costs on every
call. Here the server's stdout arrives in ``pipe_data_received``, which splits it into lines, decodes
each, and resolves the waiting caller's future right there: the caller resumes on the next iteration of
the event loop, as a hand-written asyncio client's ``readline`` would, with no reader task, no
``anyio.Event`` and no stream wrappers in between. A request is written to the stdin pipe transport in
one synchronous ``write`` (a whole line, so lines never interleave and need no lock), and waits only
when the pipe's buffer is past its high-water mark (``pause_writing``/``resume_writing``).

Order. What is not a response (notifications, server requests) and stdout's end go through a queue to
one dispatcher task, which awaits each notification's handler in turn, hands each server request to
its own task, and fails the pending requests when stdout ends. A response skips the queue only while
the queue is idle (empty, and the dispatcher not busy with a message); otherwise it joins the queue, so
a notification the server wrote before a response is handled before that response's caller resumes.
When the queue holds more than ``_QUEUE_HIGH`` messages (a notification handler that takes its time),
reading stdout pauses until the dispatcher is down to ``_QUEUE_LOW``: the server then blocks on a full
pipe instead of the client buffering without bound, as the reader task does on trio.

Cancellation. A caller waits on a bare future under its anyio cancel scopes; cancelling the scope cancels the
future, and the caller removes its entry from the pending table on the way out. The request's own deadline
needs no scope: the future (or the drain waiter, while the pipe is full) is bound to the request's clock,
which cancels it at the deadline (``_session.timeouts``, ``binding``). A reply that arrives afterwards finds
no entry and is dropped (quietly, for an id whose caller gave up).
"""

from __future__ import annotations

import asyncio
import collections
import os
from collections.abc import Callable
from subprocess import PIPE
from typing import Any, cast

import anyio

from mcp_client._connection.transport import Message, Spawn
from mcp_client._errors import MCPConnectionError, ProtocolError
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._session.timeouts import current_clock
from mcp_client._transports.stdio_pipes import (
    STDERR_LINE_BYTES,
    PipeEvents,
    shut_down,
)

DIRECT_STDOUT = os.name == "posix"
"""Read stdout through a pipe of our own rather than the subprocess transport's (POSIX only).

The subprocess transport hands each chunk it reads to its protocol with ``call_soon``: one more event
loop iteration per reply. A pipe connected with ``connect_read_pipe`` calls ``data_received`` from the
read itself. (Windows' proactor loop cannot connect an ``os.pipe``: there, stdout is the transport's.)
"""
_QUEUE_HIGH = 64
_QUEUE_LOW = 16
_EXIT_WAIT_SECONDS = 1.0
"""How long a failing request waits for the server to exit, so that its error can say how it exited."""
_STDERR_WAIT_SECONDS = 0.5
"""How long an error waits for the last lines of stderr after the server exited."""


async def start(
    owner: PipeEvents,
    spawn: Spawn,
    argv: list[str],
    env: dict[str, str] | None,
    cwd: str | os.PathLike[str] | None,
) -> AsyncioPipes:
    """Start the server (``OSError`` if it cannot be) and the dispatcher task."""
    loop = asyncio.get_running_loop()
    pipes = AsyncioPipes(owner, loop)
    if not DIRECT_STDOUT:
        await loop.subprocess_exec(
            lambda: pipes, *argv, stdin=PIPE, stdout=PIPE, stderr=PIPE, env=env, cwd=cwd
        )
        spawn(pipes.dispatch)
        return pipes
    read_fd, write_fd = os.pipe()
    try:
        try:
            transport, _ = await loop.subprocess_exec(
                lambda: pipes, *argv, stdin=PIPE, stdout=write_fd, stderr=PIPE, env=env, cwd=cwd
            )
        finally:
            os.close(write_fd)  # the server's now: its end of file is stdout's end
    except BaseException:
        os.close(read_fd)
        raise
    try:
        await loop.connect_read_pipe(lambda: _Stdout(pipes), os.fdopen(read_fd, "rb", buffering=0))
    except BaseException:
        transport.close()  # kills the server
        raise
    spawn(pipes.dispatch)
    return pipes


class _Stdout(asyncio.Protocol):
    """stdout's own read pipe (see ``DIRECT_STDOUT``): its data reaches the pipes without a detour."""

    def __init__(self, pipes: AsyncioPipes) -> None:
        self._pipes = pipes

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._pipes.stdout_connected(cast(asyncio.ReadTransport, transport))

    def data_received(self, data: bytes) -> None:
        self._pipes.stdout_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self._pipes.stdout_lost()


class AsyncioPipes(asyncio.SubprocessProtocol):
    """The subprocess, its pipes and the dispatcher (see the module docstring)."""

    def __init__(self, owner: PipeEvents, loop: asyncio.AbstractEventLoop) -> None:
        self._owner = owner
        self._max_bytes = owner.max_message_bytes
        self._loop = loop
        self._pending: dict[Any, asyncio.Future[Message]] = {}
        owner.in_flight = self._pending.__len__  # our requests in flight: each may explain a question
        self._transport: asyncio.SubprocessTransport | None = None
        self._stdin: asyncio.WriteTransport | None = None
        self._stdout: asyncio.ReadTransport | None = None
        self._partial = bytearray()  # the start of a stdout line whose newline has not come yet
        self._stderr_partial = bytearray()
        self._queue: collections.deque[Message | None] = collections.deque()  # None: stdout ended
        self._idle = False  # the dispatcher waits on an empty queue
        self._wakeup: asyncio.Future[None] | None = None
        self._reading_paused = False
        self._write_paused = False
        self._drain_waiters: list[asyncio.Future[None]] = []
        self._exited: asyncio.Future[None] = loop.create_future()
        self._stderr_done: asyncio.Future[None] = loop.create_future()
        self._closed_error: BaseException | None = None
        self._closing = False
        self._ignore_stdout = False
        self._dispatch_scope = anyio.CancelScope()

    # ------------------------------------------------------------------------ the caller's side

    async def request(self, message: Message) -> Message:
        future: asyncio.Future[Message] = self._loop.create_future()
        request_id = message["id"]
        self._pending[request_id] = future
        clock = current_clock()  # its deadline cancels what we wait on (see _timeouts)
        try:
            if self._write(message):
                await self._drain()
            if clock is not None:
                clock.bind(future)
            return await future
        except asyncio.CancelledError:
            self._owner.abandoned(request_id)
            raise
        finally:
            self._pending.pop(request_id, None)

    async def send(self, message: Message) -> None:
        if self._write(message):
            await self._drain()

    def _write(self, message: Message) -> bool:
        """Write one line; whether the caller must then wait (a full pipe buffer, or a broken pipe)."""
        if self._closed_error is not None:
            raise self._closed_error
        stdin = self._stdin
        if stdin is None or self._closing:
            raise self._owner.not_open()
        if stdin.is_closing():
            return True  # the server closed its stdin: ``_drain`` says how it ended
        stdin.write(_jsonrpc.encode(message) + b"\n")
        return self._write_paused

    async def _drain(self) -> None:
        while True:
            stdin = self._stdin
            if stdin is None or self._closing:
                raise self._owner.not_open()
            if stdin.is_closing():
                raise await self._exited_error()
            if not self._write_paused:
                return
            waiter: asyncio.Future[None] = self._loop.create_future()
            self._drain_waiters.append(waiter)
            clock = current_clock()
            if clock is not None:
                clock.bind(waiter)  # a server that stops reading must not outlast the deadline
            try:
                await waiter
            finally:
                self._drain_waiters.remove(waiter)

    @property
    def backlogged(self) -> bool:
        # asyncio writes at once while the pipe has room and buffers only what the pipe refused.
        stdin = self._stdin
        return stdin is not None and (self._write_paused or stdin.get_write_buffer_size() > 0)

    async def aclose(self) -> None:
        if self._closing:
            return
        self._closing = True
        self._ignore_stdout = True  # nothing read from now on reaches anyone
        self._dispatch_scope.cancel()
        transport = self._transport
        if transport is None:
            return
        try:
            with anyio.CancelScope(shield=True):

                async def close_stdin() -> None:
                    if self._stdin is not None and not self._stdin.is_closing():
                        self._stdin.close()

                await shut_down(
                    close_stdin,
                    lambda seconds: _wait(self._exited, seconds),
                    lambda: _signal(transport.terminate),
                    lambda: _signal(transport.kill),
                )
                await _wait(self._stderr_done, _STDERR_WAIT_SECONDS)  # the last lines, for errors to come
        except BaseException:
            # Cut short by a cancellation no anyio shield stops: asyncio's own ``Task.cancel`` (an app's
            # worker cancelled as the app exits, the event loop cancelling what is left as it closes).
            # The server must not outlive us: killed now, and its end awaited a moment if we may.
            _signal(transport.kill)
            await asyncio.wait([self._exited], timeout=_EXIT_WAIT_SECONDS)
            raise
        finally:
            # Our ends of the pipes, now, though a grandchild may still hold the others open; and the
            # subprocess transport, whatever cut the shutdown short (else: "unclosed transport").
            if self._stdout is not None and not self._stdout.is_closing():
                self._stdout.close()
            for fd in (0, 1, 2):
                pipe = transport.get_pipe_transport(fd)
                if pipe is not None and not pipe.is_closing():
                    pipe.close()
            transport.close()
            self._wake_drainers()
            self._fail_pending(self._owner.closed_by_us())

    # ------------------------------------------------------------------- the protocol callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = process = cast(asyncio.SubprocessTransport, transport)
        self._stdin = cast(asyncio.WriteTransport, process.get_pipe_transport(0))
        stdout = process.get_pipe_transport(1)  # None with DIRECT_STDOUT
        if stdout is not None:
            self.stdout_connected(cast(asyncio.ReadTransport, stdout))

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        assert isinstance(data, bytes)
        if fd == 1:
            self.stdout_received(data)
        else:
            self._stderr_received(data)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self.stdout_lost()
        elif fd == 2:
            if self._stderr_partial:
                self._owner.stderr_line(bytes(self._stderr_partial))
                self._stderr_partial.clear()
            _resolve(self._stderr_done)
        else:
            self._wake_drainers()

    def process_exited(self) -> None:
        _resolve(self._exited)

    def pause_writing(self) -> None:
        self._write_paused = True

    def resume_writing(self) -> None:
        self._write_paused = False
        self._wake_drainers()

    # ----------------------------------------------------------------------------- reading stdout

    def stdout_connected(self, transport: asyncio.ReadTransport) -> None:
        self._stdout = transport

    def stdout_lost(self) -> None:
        self._enqueue(None)  # after whatever is queued: it fails the requests still pending

    def stdout_received(self, data: bytes) -> None:
        if self._ignore_stdout:
            return
        end = data.find(b"\n")
        if end < 0:
            self._partial += data
            if len(self._partial) > self._max_bytes:
                self._too_long()
            return
        start = 0
        if self._partial:
            self._partial += data[:end]
            line = bytes(self._partial)
            self._partial.clear()
            self._line_received(line)
            start = end + 1
            end = data.find(b"\n", start)
        while end >= 0 and not self._ignore_stdout:
            self._line_received(data[start:end])
            start = end + 1
            end = data.find(b"\n", start)
        if start < len(data) and not self._ignore_stdout:
            self._partial += data[start:]
            if len(self._partial) > self._max_bytes:
                self._too_long()

    def _line_received(self, line: bytes) -> None:
        if len(line) > self._max_bytes:
            self._too_long()
            return
        try:
            message = _jsonrpc.decode(line)
        except ProtocolError as exc:
            if line.strip():
                self._malformed(line, exc)
            return
        if self._idle and "method" not in message:
            self._answer(message)  # nothing queued before it: straight to its caller
        else:
            self._enqueue(message)

    def _answer(self, response: Message) -> None:
        future = self._pending.get(response.get("id"))
        if future is None:
            self._owner.unmatched(response)
        elif not future.done():  # else: a duplicate (the first answer wins), or its caller gave up
            future.set_result(response)

    def _too_long(self) -> None:
        """An over-long line: the stream cannot be resynchronised, so later requests fail at once too."""
        self._ignore_stdout = True
        self._partial.clear()
        self._closed_error = self._owner.too_long()
        self._fail_pending(self._closed_error)

    def _malformed(self, line: bytes, exc: ProtocolError) -> None:
        request_id = self._owner.malformed(line, exc, self._is_waiting)
        if request_id is not None:
            self._pending[request_id].set_exception(self._owner.malformed_answer(request_id, exc))

    def _is_waiting(self, request_id: Any) -> bool:
        future = self._pending.get(request_id)
        return future is not None and not future.done()

    def _stderr_received(self, data: bytes) -> None:
        buffer = self._stderr_partial
        buffer += data
        start = 0
        while True:
            end = buffer.find(b"\n", start)
            if end < 0:
                if len(buffer) - start < STDERR_LINE_BYTES:
                    break
                end = start + STDERR_LINE_BYTES  # no newline in sight: a piece of a line
            self._owner.stderr_line(bytes(buffer[start:end]))
            start = end + 1 if end < len(buffer) and buffer[end] == 0x0A else end
        del buffer[:start]

    # ------------------------------------------------------------------------------ the dispatcher

    def _enqueue(self, item: Message | None) -> None:
        self._queue.append(item)
        self._idle = False
        wakeup = self._wakeup
        if wakeup is not None:
            self._wakeup = None
            _resolve(wakeup)
        if len(self._queue) > _QUEUE_HIGH and not self._reading_paused and self._stdout is not None:
            self._reading_paused = True
            self._stdout.pause_reading()

    async def dispatch(self) -> None:
        """Handle the queue in order (see the module docstring); ends with stdout or the transport."""
        queue = self._queue
        with self._dispatch_scope:
            while True:
                if not queue:
                    self._idle = True
                    self._wakeup = wakeup = self._loop.create_future()
                    await wakeup
                    continue
                item = queue.popleft()
                if self._reading_paused and len(queue) <= _QUEUE_LOW and self._stdout is not None:
                    self._reading_paused = False
                    self._stdout.resume_reading()
                if item is None:  # stdout ended
                    await self._stdout_ended()
                    return
                if "method" in item:
                    await self._owner.server_message(item)
                else:
                    self._answer(item)

    async def _stdout_ended(self) -> None:
        if self._closing or self._closed_error is not None:
            return
        error: MCPConnectionError = MCPConnectionError(f"{self._owner.label!r} closed its stdout")
        with anyio.CancelScope(shield=True):
            error = await self._exited_error()
        self._closed_error = error
        self._fail_pending(error)

    # ---------------------------------------------------------------------------------- endings

    async def _exited_error(self) -> MCPConnectionError:
        await _wait(self._exited, _EXIT_WAIT_SECONDS)
        await _wait(self._stderr_done, _STDERR_WAIT_SECONDS)  # let the last stderr lines arrive
        transport = self._transport
        return self._owner.exit_error(None if transport is None else transport.get_returncode())

    def _fail_pending(self, error: BaseException) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_exception(error)

    def _wake_drainers(self) -> None:
        for waiter in self._drain_waiters:
            _resolve(waiter)


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


async def _wait(future: asyncio.Future[None], seconds: float) -> bool:
    """Wait up to ``seconds`` for ``future`` (left uncancelled for other waiters); whether it is done."""
    if not future.done():
        with anyio.move_on_after(seconds):
            await asyncio.shield(future)
    return future.done()


def _signal(send: Callable[[], None]) -> None:
    try:
        send()
    except ProcessLookupError:
        pass  # it exited in the meantime
