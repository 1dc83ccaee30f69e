"""``textual_callback``: an ``elicitation_callback`` that asks inside a running Textual app.

The Client must run on the app's own event loop (in an async worker: ``app.run_worker(coroutine)``, or
any task of the app): the callback pushes an ``ElicitationScreen`` and waits for it to be dismissed. A
Client in a thread worker runs its own loop, where Textual's screens cannot be used: its questions are
refused with an error saying so (the call raises it) rather than touching the app from the wrong
thread. Questions are asked one at a time. A question whose call goes away while it is shown is
withdrawn: the screen closes and the app shows a notification saying why (``ElicitationScreen.withdraw``).

The Client cancels this callback when the call that asked ends (anyio cancels the question's scope; on
Textual's asyncio loop that is a ``CancelledError`` at whatever the callback awaits). Everything the
callback awaits, from pushing the screen to its dismissal, is therefore inside the ``try`` that
withdraws the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
from textual.app import App

from mcp_client import ClientRequestContext, ElicitationCallback
from mcp_client.types import ElicitRequestParams, ElicitResult
from ui_adapters.textual._modal import on_app_thread, shown_until_answered
from ui_adapters.textual._screen import ElicitationScreen

__all__ = ["textual_callback"]


def textual_callback(app: App[Any], *, open_url: Callable[[str], None] | None = None) -> ElicitationCallback:
    """An ``elicitation_callback`` showing each question as a modal ``ElicitationScreen`` in ``app``."""
    turn = anyio.Lock()

    async def callback(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        on_app_thread(app, "textual_callback")
        async with turn:
            screen = ElicitationScreen(params, context, open_url=open_url)
            return await shown_until_answered(app, screen, ElicitResult(action="cancel"))

    return callback
