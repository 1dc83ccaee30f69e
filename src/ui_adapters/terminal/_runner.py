"""Run one prompt_toolkit application off the event loop thread, and stop it cleanly when cancelled.

prompt_toolkit needs an asyncio loop of its own, and a trio program has none; even on asyncio, anyio
re-delivers a cancellation to every ``await`` of prompt_toolkit's own clean-up code. So each prompt runs
in a worker thread on a private asyncio loop (``anyio.to_thread``). When the calling task is cancelled,
the application is told to exit from inside its own loop, and the caller waits for the thread to
finish: the terminal is out of raw mode and the prompt erased before the cancellation goes on.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

import anyio
import anyio.lowlevel
from prompt_toolkit.application import Application

from ui_adapters.terminal._outcomes import UserCancelled

__all__ = ["run_application"]

T = TypeVar("T")

PreRun = Callable[[], None]


class _Aborted(Exception):
    """Makes the application return when its caller was cancelled; never escapes this module."""


class _Driver(Generic[T]):
    """The thread-safe handle between the caller's task and the worker thread running the app."""

    def __init__(self, app: Application[Any], main: Callable[[PreRun], Coroutine[Any, Any, T]]) -> None:
        self._app = app
        self._main = main
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._aborted = False
        self._started = False

    def run(self) -> T:
        """Worker thread: run the app to completion on a fresh asyncio loop."""
        return asyncio.run(self._drive())

    async def _drive(self) -> T:
        with self._lock:
            if self._aborted:
                raise _Aborted
            self._loop = asyncio.get_running_loop()
        try:
            return await self._main(self._pre_run)
        finally:
            with self._lock:
                self._loop = None

    def _pre_run(self) -> None:
        # Runs on the app's loop once its future exists, so an abort that came in earlier lands here.
        self._started = True
        if self._aborted:
            self._exit_app()
            return
        asyncio.get_running_loop().call_later(self._app.ttimeoutlen or 0.5, self._flush_pending_keys)

    def _flush_pending_keys(self) -> None:
        # A lone Esc typed right after the Enter that ended the previous prompt was read by that prompt
        # and waits in the shared input's parser; prompt_toolkit only flushes it when more input comes.
        future = self._app.future
        if future is None or future.done():
            return
        keys = self._app.input.flush_keys()
        if keys:
            self._app.key_processor.feed_multiple(keys)
            self._app.key_processor.process_keys()

    def abort(self) -> None:
        """Any thread: make the app exit as soon as possible (no-op once it has finished)."""
        with self._lock:
            self._aborted = True
            if self._loop is not None:
                self._loop.call_soon_threadsafe(self._exit_app)

    def _exit_app(self) -> None:
        future = self._app.future
        if self._started and future is not None and not future.done():
            self._app.exit(exception=_Aborted())


async def run_application(
    app: Application[T], main: Callable[[PreRun], Coroutine[Any, Any, T]] | None = None
) -> T:
    """Run ``app`` (via ``main(pre_run)``, default ``app.run_async(pre_run=...)``) in a worker thread.

    ``main`` must pass ``pre_run`` on to prompt_toolkit (``run_async`` / ``prompt_async`` take it). What
    the app returns or raises is returned or raised here. If the calling task is cancelled meanwhile,
    the app is exited and its thread joined (the terminal is restored) before the cancellation
    propagates.
    """

    async def default_main(pre_run: PreRun) -> T:
        result: T = await app.run_async(pre_run=pre_run, handle_sigint=False)
        return result

    driver = _Driver[T](app, main or default_main)
    outcome: list[T] = []
    failure: list[BaseException] = []

    async def abort_when_cancelled() -> None:
        try:
            await anyio.sleep_forever()
        finally:
            driver.abort()

    async with anyio.create_task_group() as group:
        group.start_soon(abort_when_cancelled)
        try:
            outcome.append(await anyio.to_thread.run_sync(driver.run))
        except _Aborted:
            pass  # only happens when we are being cancelled: the checkpoint below raises it
        except (EOFError, KeyboardInterrupt):
            failure.append(UserCancelled())  # input closed, or prompt_toolkit's own Ctrl-C
        except Exception as error:  # raised after the task group, so it is not wrapped in a group
            failure.append(error)
        finally:
            group.cancel_scope.cancel()
    await anyio.lowlevel.checkpoint()
    if failure:
        raise failure[0]
    if not outcome:  # pragma: no cover - the app was aborted, yet nobody cancelled us
        raise UserCancelled
    return outcome[0]
