"""The stdio transport's pipes through anyio's process streams: the path for trio (and any loop but asyncio).

A reader task reads stdout line by line and hands each response to its waiting caller through an
``anyio.Event``; notifications are awaited inline, so they are handled in order and before any response
written after them. A second task keeps stderr's last lines. See ``_stdio`` for the behaviour both
kinds of pipes share, and ``stdio_asyncio`` for the asyncio one.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from typing import Any

import anyio
import anyio.abc
from anyio.streams.buffered import BufferedByteReceiveStream

from mcp_client._connection.transport import Message, Spawn
from mcp_client._errors import MCPConnectionError, ProtocolError
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._transports.stdio_pipes import (
    STDERR_LINE_BYTES,
    PipeEvents,
    shut_down,
)

_STREAM_ENDED = (
    anyio.EndOfStream,
    anyio.IncompleteRead,
    anyio.ClosedResourceError,
    anyio.BrokenResourceError,
)


async def start(
    owner: PipeEvents,
    spawn: Spawn,
    argv: list[str],
    env: dict[str, str] | None,
    cwd: str | os.PathLike[str] | None,
) -> AnyioPipes:
    """Start the server (``OSError`` if it cannot be) and its reader tasks."""
    process = await anyio.open_process(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd
    )
    pipes = AnyioPipes(owner, process)
    spawn(pipes.read_stdout)
    spawn(pipes.read_stderr)
    return pipes


class _Pending:
    __slots__ = ("event", "reply")

    def __init__(self) -> None:
        self.event = anyio.Event()
        self.reply: Message | BaseException | None = None


class AnyioPipes:
    """The subprocess and its reader tasks (see the module docstring)."""

    def __init__(self, owner: PipeEvents, process: anyio.abc.Process) -> None:
        self._owner = owner
        self._label = owner.label
        self._max_bytes = owner.max_message_bytes
        self._process: anyio.abc.Process | None = process
        self._pending: dict[Any, _Pending] = {}
        owner.in_flight = self._pending.__len__  # our requests in flight: each may explain a question
        self._write_lock = anyio.Lock(fast_acquire=True)
        self._closed_error: BaseException | None = None
        self._readers_done = anyio.Event()
        self._stdout_scope = anyio.CancelScope()
        self._stderr_scope = anyio.CancelScope()

    async def request(self, message: Message) -> Message:
        pending = _Pending()
        request_id = message["id"]
        self._pending[request_id] = pending
        try:
            await self.send(message)
            await pending.event.wait()
        except anyio.get_cancelled_exc_class():
            self._owner.abandoned(request_id)
            raise
        finally:
            self._pending.pop(request_id, None)
        reply = pending.reply
        if isinstance(reply, BaseException):
            raise reply
        assert reply is not None
        return reply

    async def send(self, message: Message) -> None:
        if self._closed_error is not None:
            raise self._closed_error
        process = self._process
        if process is None or process.stdin is None:
            raise self._owner.not_open()
        line = _jsonrpc.encode(message) + b"\n"
        try:
            async with self._write_lock:
                await process.stdin.send(line)
        except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError) as exc:
            error = await self._exited_error()
            raise error from exc

    @property
    def backlogged(self) -> bool:
        # Writes queue behind one that has not finished: the pipe is full (a write to a pipe with room
        # returns at once, leaving nobody to queue behind it).
        return self._write_lock.statistics().tasks_waiting > 0

    async def aclose(self) -> None:
        self._stdout_scope.cancel()
        process = self._process
        if process is None:
            return
        self._process = None
        with anyio.CancelScope(shield=True):

            async def close_stdin() -> None:
                try:
                    await process.stdin.aclose() if process.stdin else None
                except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                    pass

            await shut_down(
                close_stdin,
                lambda seconds: _exited(process, seconds),
                lambda: _signal(process, process.terminate),
                lambda: _signal(process, process.kill),
            )
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
        self._fail_pending(self._owner.closed_by_us())

    async def read_stdout(self) -> None:
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
                        self._closed_error = self._owner.too_long()
                        self._fail_pending(self._closed_error)
                        return
                    try:
                        message = _jsonrpc.decode(line)
                    except ProtocolError as exc:
                        if line.strip():
                            self._malformed(line, exc)
                        continue
                    if "method" in message:
                        await self._owner.server_message(message)
                        continue
                    pending = self._pending.get(message.get("id"))
                    if pending is None:
                        self._owner.unmatched(message)
                    elif pending.reply is None:
                        pending.reply = message
                        pending.event.set()
            except _STREAM_ENDED:
                pass
            finally:
                if self._process is not None and self._closed_error is None:  # the server went away
                    error: MCPConnectionError = MCPConnectionError(f"{self._label!r} closed its stdout")
                    with anyio.CancelScope(shield=True):
                        error = await self._exited_error()
                    self._closed_error = error
                    self._fail_pending(error)

    async def read_stderr(self) -> None:
        process = self._process
        assert process is not None and process.stderr is not None
        reader = BufferedByteReceiveStream(process.stderr)
        with self._stderr_scope:
            try:
                while True:
                    try:
                        line = await reader.receive_until(b"\n", STDERR_LINE_BYTES)
                    except anyio.DelimiterNotFound:
                        line = await reader.receive(STDERR_LINE_BYTES)
                    self._owner.stderr_line(line)
            except _STREAM_ENDED:
                pass
            finally:
                self._readers_done.set()

    def _malformed(self, line: bytes, exc: ProtocolError) -> None:
        request_id = self._owner.malformed(line, exc, self._is_waiting)
        if request_id is not None:
            pending = self._pending[request_id]
            pending.reply = self._owner.malformed_answer(request_id, exc)
            pending.event.set()

    def _is_waiting(self, request_id: Any) -> bool:
        pending = self._pending.get(request_id)
        return pending is not None and pending.reply is None

    async def _exited_error(self) -> MCPConnectionError:
        process = self._process
        returncode = None
        if process is not None:
            await _exited(process, 1.0)
            returncode = process.returncode
        with anyio.move_on_after(0.5):
            await self._readers_done.wait()  # let the last stderr lines arrive
        return self._owner.exit_error(returncode)

    def _fail_pending(self, error: BaseException) -> None:
        for pending in list(self._pending.values()):
            if pending.reply is None:
                pending.reply = error
                pending.event.set()


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
