"""One elicitation callback made of two: form questions to one adapter, URL questions to another.

The client takes a single ``elicitation_callback`` and declares the modes that callback can answer.
``ElicitationRouter`` lets an app pick a form UI and a URL UI separately, declares exactly the modes
it has an adapter for, and builds the default terminal adapters only when a question of their mode
first arrives (so a client that never sees a URL question never imports or builds the URL UI).
"""

from __future__ import annotations

import enum
import inspect
from typing import TYPE_CHECKING, Final, Literal

import anyio

from mcp_client import ClientRequestContext, ElicitationCallback
from mcp_client.types import ElicitRequestParams, ElicitResult

if TYPE_CHECKING:
    from ui_adapters.url import UrlAdapter

__all__ = ["DEFAULT", "ElicitationRouter", "terminal_callback"]


class _Default(enum.Enum):
    DEFAULT = "default"


DEFAULT: Final = _Default.DEFAULT
"""Placeholder for "the terminal adapter for this mode, built on first use"."""

_Slot = ElicitationCallback | None | Literal[_Default.DEFAULT]


class ElicitationRouter:
    """Send form questions to ``form`` and URL questions to ``url``.

    Each slot takes any elicitation callback, ``DEFAULT`` (the terminal adapter: ``TerminalFormAdapter``
    for forms, ``UrlAdapter`` for links, built lazily) or ``None`` (this mode is not offered). The
    router's ``elicitation_modes`` names the filled slots, so the client declares just those; a
    question of an undeclared mode (a server ignoring the declaration) is declined.

    Questions are answered one at a time, so two adapters never draw on the terminal at once. Pass
    ``router.elicitation_complete_callback`` to the client: it forwards legacy completion notices to
    the URL adapter.
    """

    def __init__(self, *, form: _Slot = DEFAULT, url: _Slot = DEFAULT) -> None:
        self._slots: dict[str, _Slot] = {"form": form, "url": url}
        self._lock: anyio.Lock | None = None

    @property
    def elicitation_modes(self) -> frozenset[str]:
        """The modes this router answers: each filled slot whose adapter handles that mode."""
        return frozenset(mode for mode, slot in self._slots.items() if _handles(slot, mode))

    @property
    def form_adapter(self) -> ElicitationCallback | None:
        """The adapter answering form questions (the default one is built on first access)."""
        return self._adapter("form")

    @property
    def url_adapter(self) -> ElicitationCallback | None:
        """The adapter answering URL questions; with the default, a ``UrlAdapter`` (e.g. for
        ``wait_for_completion`` after a ``-32042`` error)."""
        return self._adapter("url")

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        mode = params.mode
        adapter = self._adapter(mode) if mode in self.elicitation_modes else None
        if adapter is None:
            return ElicitResult(action="decline")
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:
            return await adapter(context, params)

    async def on_elicitation_complete(self, elicitation_id: str) -> None:
        """Forward a legacy ``notifications/elicitation/complete`` to the URL adapter, if it listens.

        A default URL adapter that was never built has no pending link, so the notice is ignored.
        """
        slot = self._slots["url"]
        if slot is None or slot is DEFAULT:
            return
        listener = getattr(slot, "on_elicitation_complete", None) or getattr(
            slot, "elicitation_complete_callback", None
        )
        if listener is None:
            return
        outcome = listener(elicitation_id)
        if inspect.isawaitable(outcome):
            await outcome

    elicitation_complete_callback = on_elicitation_complete

    def _adapter(self, mode: str) -> ElicitationCallback | None:
        slot = self._slots.get(mode)
        if slot is DEFAULT:
            slot = self._slots[mode] = _default_adapter(mode)
        return slot


def terminal_callback() -> ElicitationRouter:
    """The ready-made terminal UI: forms with ``TerminalFormAdapter``, links with ``UrlAdapter``.

    Usage::

        ui = terminal_callback()
        async with Client(url, elicitation_callback=ui,
                          elicitation_complete_callback=ui.elicitation_complete_callback) as client:
            ...
    """
    return ElicitationRouter()


def _handles(slot: _Slot, mode: str) -> bool:
    if slot is None:
        return False
    if slot is DEFAULT:
        return True
    modes = getattr(slot, "elicitation_modes", None)
    return modes is None or mode in modes


def _default_adapter(mode: str) -> ElicitationCallback:
    if mode == "form":
        from ui_adapters.terminal import TerminalFormAdapter

        return TerminalFormAdapter()
    return _default_url_adapter()


def _default_url_adapter() -> UrlAdapter:
    from ui_adapters.url import UrlAdapter

    return UrlAdapter()
