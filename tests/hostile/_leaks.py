"""Leak checks: the same number of open file descriptors and asyncio tasks after a client as before.

Closing a transport may finish a moment after ``async with`` returns (a subprocess's pipes, a socket's
close callback), so the counts are compared after a bounded settle loop, never after a fixed sleep.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import anyio
import sniffio

_SETTLE_SECONDS = 5.0


def open_fds() -> set[str]:
    """What every open file descriptor of this process points at, by number."""
    found: set[str] = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            found.add(f"{fd}->{os.readlink(f'/proc/self/fd/{fd}')}")
        except OSError:
            continue  # the descriptor listdir itself used, already closed
    return found


def _task_count() -> int:
    if sniffio.current_async_library() != "asyncio":
        return 0
    return len(asyncio.all_tasks())


@asynccontextmanager
async def no_leaks() -> AsyncIterator[None]:
    """Fail if the block leaves file descriptors open or asyncio tasks running."""
    fds_before = open_fds()
    tasks_before = _task_count()
    yield
    await wait_until(
        lambda: len(open_fds()) <= len(fds_before) and _task_count() <= tasks_before, _SETTLE_SECONDS
    )
    leaked = sorted(open_fds() - fds_before)
    assert len(open_fds()) <= len(fds_before), f"file descriptors left open: {leaked}"
    assert _task_count() <= tasks_before, f"tasks left running: {asyncio.all_tasks()}"


async def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass; return whether it holds."""
    with anyio.move_on_after(seconds):
        while True:
            if condition():
                return True
            await anyio.sleep(0.02)
    return condition()
