"""Ready answers that need no person: always decline, always cancel, stop asking a pestering server.

These are elicitation callbacks like any other (``(context, params) -> ElicitResult``). They have no
``elicitation_modes`` attribute, so a client given one directly declares both modes and answers
every question; ``StopAskingPolicy`` declares what the callback it wraps declares.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from mcp_client import ClientRequestContext, ElicitationCallback
from mcp_client.types import ElicitRequestParams, ElicitResult

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

__all__ = ["AskToStop", "StopAskingPolicy", "always_cancel", "always_decline", "terminal_ask_to_stop"]

AskToStop = Callable[[ClientRequestContext, ElicitRequestParams], Awaitable[bool]]
"""Asked after the user declined a question: True means "stop asking this server for this session"."""

_ALL_MODES = frozenset({"form", "url"})


async def always_decline(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    """Decline every question: the server learns the user said no, and may carry on without the answer."""
    return ElicitResult(action="decline")


async def always_cancel(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    """Cancel every question: the server learns the user dismissed it without choosing."""
    return ElicitResult(action="cancel")


class StopAskingPolicy:
    """Wrap a callback so that a server the user silenced gets ``decline`` without asking again.

    A server is silenced for the life of this object (one session, typically) by ``stop(server)``,
    or when the wrapped callback declines and ``ask_to_stop`` (e.g. ``terminal_ask_to_stop()``)
    returns True. Servers are told apart by ``context.server``, the URL or command the client was
    given, which a server cannot choose (unlike the name it reports).
    """

    def __init__(self, inner: ElicitationCallback, *, ask_to_stop: AskToStop | None = None) -> None:
        self._inner = inner
        self._ask_to_stop = ask_to_stop
        self._stopped: set[str] = set()

    @property
    def elicitation_modes(self) -> frozenset[str]:
        """The wrapped callback's modes (both when it does not say)."""
        modes = getattr(self._inner, "elicitation_modes", None)
        return _ALL_MODES if modes is None else frozenset(str(m) for m in modes)

    @property
    def stopped_servers(self) -> frozenset[str]:
        """The servers that currently get ``decline`` without asking."""
        return frozenset(self._stopped)

    def stop(self, server: str) -> None:
        """Decline every later question from ``server`` (its ``context.server``) without asking."""
        self._stopped.add(server)

    def resume(self, server: str) -> None:
        """Ask the user about ``server``'s questions again."""
        self._stopped.discard(server)

    def is_stopped(self, server: str) -> bool:
        """True when questions from ``server`` are declined without asking."""
        return server in self._stopped

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        if context.server in self._stopped:
            return ElicitResult(action="decline")
        result = await self._inner(context, params)
        if result.action == "decline" and self._ask_to_stop is not None:
            if await self._ask_to_stop(context, params):
                self.stop(context.server)
        return result

    async def on_elicitation_complete(self, elicitation_id: str) -> None:
        """Forward a legacy completion notice to the wrapped callback, if it listens for them."""
        listener = getattr(self._inner, "on_elicitation_complete", None) or getattr(
            self._inner, "elicitation_complete_callback", None
        )
        if listener is not None:
            outcome = listener(elicitation_id)
            if inspect.isawaitable(outcome):
                await outcome

    elicitation_complete_callback = on_elicitation_complete


def terminal_ask_to_stop(*, input: Input | None = None, output: Output | None = None) -> AskToStop:
    """An ``ask_to_stop`` that asks in the terminal, default No ("Stop asking <server>...? [y/N]").

    ``input``/``output`` are prompt_toolkit's, for tests. Ctrl-C or end of input counts as No.
    """

    async def ask(context: ClientRequestContext, params: ElicitRequestParams) -> bool:
        from ui_adapters._terminal_prompt import ask_yes_no
        from ui_adapters.text import sanitize

        name = sanitize(context.server_name, max_length=200, single_line=True) or "this server"
        return await ask_yes_no(
            f"Stop asking questions from {name} for the rest of this session? [y/N] ",
            input=input,
            output=output,
        )

    return ask
