"""``textual_callback``: an ``elicitation_callback`` that asks inside a running Textual app.

The Client must run on the app's own event loop (in a worker: ``app.run_worker(...)``, or any task of
the app): the callback pushes an ``ElicitationScreen`` and waits for it to be dismissed. Questions are
asked one at a time. A question whose call goes away while it is shown is withdrawn: the screen closes
and the app shows a notification saying why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
from textual.app import App

from mcp_client import ClientRequestContext, ElicitationCallback
from mcp_client.types import ElicitRequestParams, ElicitResult
from ui_adapters.textual._screen import ElicitationScreen

__all__ = ["textual_callback"]


def textual_callback(app: App[Any], *, open_url: Callable[[str], None] | None = None) -> ElicitationCallback:
    """An ``elicitation_callback`` showing each question as a modal ``ElicitationScreen`` in ``app``."""
    turn = anyio.Lock()

    async def callback(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        async with turn:
            answered = anyio.Event()
            outcome: list[ElicitResult] = []

            def dismissed(result: ElicitResult | None) -> None:
                outcome.append(result or ElicitResult(action="cancel"))
                answered.set()

            screen = ElicitationScreen(params, context, open_url=open_url)
            await app.push_screen(screen, callback=dismissed)
            try:
                await answered.wait()
            except anyio.get_cancelled_exc_class():
                if screen.is_attached and not answered.is_set():
                    screen.dismiss(None)
                    app.notify(
                        f"{screen.server_name} withdrew its question: the call that asked has ended.",
                        severity="warning",
                    )
                raise
            return outcome[0]

    return callback
