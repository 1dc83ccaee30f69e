"""What a question and an approval waiting for a person share: the id, who asked, the clock, the outcome.

``PendingQuestion`` (a server's question) and ``PendingApproval`` (the app's own yes or no) differ in
what they ask and how an answer is checked, not in how they wait: the first outcome wins (``settle``),
later ones are refused, a call that went away withdraws the item (``withdraw``), and whoever waits
(``wait``) wakes up with the outcome, or ``None``. That plumbing is written once, here.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, TypeVar, cast

import anyio

from mcp_client import ClientRequestContext

__all__ = ["PendingItem", "apply_stored", "json_time"]

ResultT = TypeVar("ResultT")
StatusT = TypeVar("StatusT", bound=str)

_ID_BYTES = 18  # 24 URL-safe characters: unguessable, so an id can appear in a URL


class PendingItem(Generic[ResultT, StatusT]):
    """An item waiting for a person: a ``ResultT`` once settled, its status a ``StatusT``.

    ``id`` is 24 random URL-safe characters (or the stored one); ``server`` is the URL or command line
    of the server (``context.server``); ``created_at`` and ``expires_at`` (``None`` without a timeout)
    are aware UTC datetimes. A subclass says which status a result means (``_status_of``).
    """

    __slots__ = (
        "_done",
        "_result",
        "_status",
        "call_id",
        "context",
        "created_at",
        "expires_at",
        "id",
        "server",
    )

    def __init__(
        self,
        context: ClientRequestContext,
        *,
        timeout: float | None,
        item_id: str | None,
        created_at: datetime | None,
        call_id: str | None,
    ) -> None:
        self.id: str = item_id or secrets.token_urlsafe(_ID_BYTES)
        self.call_id: str | None = call_id
        """The ``PausedCall`` this item belongs to, or ``None`` while its call waits for it."""
        self.context: ClientRequestContext = context
        self.server: str = context.server
        self.created_at: datetime = created_at or datetime.now(UTC)
        self.expires_at: datetime | None = (
            self.created_at + timedelta(seconds=timeout) if timeout is not None else None
        )
        self._status: StatusT = cast(StatusT, "pending")
        self._result: ResultT | None = None
        self._done = anyio.Event()

    @property
    def server_name(self) -> str:
        """The best name to show for the server (its own title or name, else ``server``)."""
        return self.context.server_name

    @property
    def status(self) -> StatusT:
        """Where the item stands: ``"pending"`` until it is settled or withdrawn."""
        return self._status

    @property
    def is_pending(self) -> bool:
        """True until the item is settled or withdrawn."""
        return self._status == "pending"

    @property
    def result(self) -> ResultT | None:
        """The outcome (``None`` while the item is pending, or if it was withdrawn)."""
        return self._result

    def settle(self, result: ResultT, status: StatusT | None = None) -> bool:
        """Make ``result`` the final outcome and wake whoever waits; False if it was settled already.

        ``status`` defaults to the one that matches ``result`` (a question's action: ``answered``,
        ``declined``, ``cancelled``; an approval's decision: ``allowed``, ``denied``).
        """
        if self._status != "pending":
            return False
        self._result = result
        self._status = status or self._status_of(result)
        self._done.set()
        return True

    def withdraw(self) -> None:
        """Mark the item gone without an outcome (the call that asked went away)."""
        if self._status == "pending":
            self._status = cast(StatusT, "withdrawn")
            self._done.set()

    async def wait(self) -> ResultT | None:
        """Wait until the item is settled or withdrawn; the outcome (``None`` if withdrawn)."""
        await self._done.wait()
        return self._result

    def _status_of(self, result: ResultT) -> StatusT:
        """The status ``result`` means when ``settle`` is given none."""
        raise NotImplementedError


def apply_stored(
    item: PendingItem[ResultT, StatusT],
    entry: Mapping[str, Any] | None,
    result_of: Callable[[Any], ResultT],
    refusal: ResultT,
) -> None:
    """Give ``item`` the outcome a store has for it: the stored result (``result_of`` reads it), or
    ``refusal`` for a status that has none; an entry that expired (``None``) withdraws it."""
    if entry is None:
        item.withdraw()
        return
    status = entry["status"]
    if status == "pending":
        return
    result = entry.get("result")
    if result is not None:
        item.settle(result_of(result), cast(StatusT, status))
    elif status == "withdrawn":
        item.withdraw()
    else:
        item.settle(refusal, cast(StatusT, status))


def json_time(moment: datetime) -> str:
    """``moment`` as ``to_json`` shows it: ISO 8601 to the millisecond, UTC as ``Z``."""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
