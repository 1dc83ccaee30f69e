"""What the CLI answers when a server asks for sampling or roots.

The CLI has no model: a sampling request gets a clear refusal, ``NO_MODEL``, which the server hears and
the user sees (the call fails with that same sentence) instead of an opaque "Method not found". Roots
are the folders given with ``--root PATH`` (repeatable), sent as ``file://`` URIs; without any, the
CLI declares no roots, and a server that needs them gets a hint to pass ``--root``.

A legacy server asks for roots on its own, after ``notifications/initialized``, and applies the answer
whenever it arrives: the reference filesystem server (``@modelcontextprotocol/server-filesystem``) denies
every path until it has them, so a call sent right after connecting races its ``roots/list``. With
``--root``, ``RootsAnswer`` therefore lets ``call`` wait (bounded: ``ROOTS_WAIT_SECONDS``) until that
question has been answered before the tool runs. A server that asks with each request (2026-07-28) gets
its answer inside the call and needs no wait.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import anyio

from mcp_client import ClientRequestContext, ListRootsCallback, MCPError
from mcp_client.types import CreateMessageRequestParams, CreateMessageResult, ListRootsResult, Root
from ui_adapters.cli._exit import UsageError

__all__ = ["NO_MODEL", "ROOTS_HINT", "ROOTS_WAIT_SECONDS", "RootsAnswer", "refuse_sampling", "root_for"]

NO_MODEL = "mcp-client has no model to answer sampling requests"
# How long ``call --root`` waits for a legacy server's own ``roots/list`` before the tool runs: servers
# that ask do so at once after ``initialized`` (milliseconds); one that never asks costs this much.
ROOTS_WAIT_SECONDS = 2.0
# After the question: time for the server to apply the answer. The filesystem server resolves each root
# on disk before it replaces its allowed folders, and a call 7 ms after our answer was still refused
# (19 times in 20); there is no message that says "applied", so the CLI gives it this long.
_ROOTS_SETTLE_SECONDS = 0.5
ROOTS_HINT = "This server wants to know which folders it may work in: pass --root PATH (repeatable)."
_NOT_SUPPORTED = -32600


async def refuse_sampling(
    context: ClientRequestContext, params: CreateMessageRequestParams
) -> CreateMessageResult:
    """The CLI's sampling callback: always the same refusal, ``NO_MODEL``."""
    raise MCPError(_NOT_SUPPORTED, NO_MODEL)


def root_for(path: str) -> Root:
    """The root for one ``--root PATH``: an existing file or folder, as an absolute ``file://`` URI."""
    resolved = Path(path).expanduser().resolve()
    if not resolved.exists():
        raise UsageError(f"--root {path}: no such file or folder")
    return Root(uri=resolved.as_uri(), name=resolved.name or str(resolved))


class RootsAnswer:
    """The ``--root`` folders as a ``list_roots_callback``, which notes when the server has asked.

    ``callback`` is ``None`` when no root was given (the CLI then declares no roots).
    """

    def __init__(self, roots: Sequence[Root]) -> None:
        self._answer = ListRootsResult(roots=list(roots)) if roots else None
        self._answered = anyio.Event()
        self._asked_at = 0.0

    @property
    def callback(self) -> ListRootsCallback | None:
        return self._list_roots if self._answer is not None else None

    async def _list_roots(self, context: ClientRequestContext) -> ListRootsResult:
        assert self._answer is not None
        if not self._answered.is_set():
            self._asked_at = anyio.current_time()
            self._answered.set()
        return self._answer

    async def wait_until_asked(self) -> bool:
        """Wait (at most ``ROOTS_WAIT_SECONDS``) until the server asked for the roots; False if it never did.

        Returns at once when no root was given or the server already asked.
        """
        if self._answer is None:
            return False
        with anyio.move_on_after(ROOTS_WAIT_SECONDS):
            await self._answered.wait()
        if not self._answered.is_set():
            return False
        await anyio.sleep(max(0.0, self._asked_at + _ROOTS_SETTLE_SECONDS - anyio.current_time()))
        return True
