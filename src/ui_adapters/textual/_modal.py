"""What every ready Textual callback does around its modal screen: refuse a call from another thread,
push the screen, wait for its answer, and withdraw it when the call that asked is cancelled.

``textual_callback`` (a server's question), ``textual_approval`` (the app's approval) and
``textual_app_offer`` (a tool's view) share it, and their screens share ``plain``.
"""

from __future__ import annotations

import threading
from typing import Any, TypeVar

import anyio
from rich.text import Text
from textual.app import App
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["on_app_thread", "plain", "shown_until_answered"]

_T = TypeVar("_T")


def on_app_thread(app: App[Any], who: str) -> None:
    """Refuse (``RuntimeError``, naming ``who`` and the fix) a call made on another thread than ``app``'s."""
    if threading.get_ident() != app._thread_id:  # pyright: ignore[reportPrivateUsage]
        raise RuntimeError(
            f"{who}: the Client runs in another thread than the app (a thread worker?), "
            "where Textual's screens cannot be used; run it in an async worker: app.run_worker(coroutine)"
        )


async def shown_until_answered(app: App[Any], screen: ModalScreen[Any], unanswered: _T) -> _T:
    """Push ``screen`` and return what it dismisses with (``unanswered`` when it is dismissed with
    ``None``). Cancelled before an answer, a screen that can be withdrawn (``withdraw()``) is, so a call
    that is over never leaves a dialog behind (the cancellation may come while the screen is still
    being mounted, not only while it waits)."""
    answered = anyio.Event()
    outcome: list[_T] = []

    def dismissed(result: Any) -> None:
        outcome.append(unanswered if result is None else result)
        answered.set()

    try:
        await app.push_screen(screen, callback=dismissed)
        await answered.wait()
    except anyio.get_cancelled_exc_class():
        withdraw = getattr(screen, "withdraw", None)
        if not answered.is_set() and callable(withdraw):
            withdraw()
        raise
    return outcome[0]


def plain(text: str, *, id: str | None = None, classes: str | None = None) -> Static:
    """A ``Static`` of plain text: everything in it may be the server's, so nothing is markup."""
    return Static(Text(text), id=id, classes=classes, markup=False)
