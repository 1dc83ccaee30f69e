"""Where a ``QuestionBroker`` keeps its questions, paused calls and task handles: the store seam.

One process needs no store: ``QuestionBroker()`` keeps everything in memory, as before. An app with
several worker processes (or one that restarts) gives the broker a store that every worker shares:

::

    QuestionBroker(store=SqliteStore("questions.db"))           # one machine: a file (stores.sqlite)
    QuestionBroker(store=RedisStore("redis://127.0.0.1:6379"))  # many workers or machines (stores.redis)

A store holds plain JSON only, in two kinds of entries:

* **questions**: one entry per ``PendingQuestion`` (what the UI shows, the question as the server sent
  it, who asked, the answer once given). Its ``status`` moves from ``pending`` to a final one exactly
  once (``settle_question`` is a compare-and-set), which is what makes an answer posted twice, or to two
  workers at once, count once. A question whose call waits in a worker's memory (legacy era) names that
  worker as ``owner``; workers renew a lease (``heartbeat``), and ``sweep`` marks the pending questions
  of a worker whose lease ran out ``withdrawn``.
* **records**: ``(kind, id) -> payload``, an opaque JSON object. The broker stores paused calls under
  ``kind="paused-call"`` (``PausedCall.to_json()``); tasks (2026-07-28 task handles) and any other
  handle an app must find again after a restart fit the same shape (``kind="task"``). ``take_record``
  removes and returns an entry atomically, so exactly one worker resumes a call. ``claim_record``
  makes one worker the holder of a record for as long as that worker's lease lives: the broker's
  tasks are followed by their holder, and taken over (once) by another worker when the holder dies.

A store is also an ``ApprovalStore`` (``mcp_client``'s seam for approvals remembered "always",
``Client(..., approval_store=SqliteStore(path))``): ``get_approval(key)`` / ``set_approval(key,
decision)``, one ``"allow"`` or ``"deny"`` per key (the client's key names the server, the tool and the
policy, never the arguments). These entries never expire: ``purge()`` deletes them with the rest.
(Those two methods are not part of ``QuestionStore``: a store of an app's own needs them only to be
an ``approval_store`` too.)

Nothing else goes in: no headers, no tokens, no client objects (the server's URL is stored without
user:password). Entries expire: settled questions after ``keep_for`` seconds, pending ones after
their timeout (or ``keep_for``), records after ``keep_for``; ``purge()`` deletes everything.

An entry a store cannot read (a question or record whose JSON is broken: a bad write, a hand edit, a
newer release's shape) is skipped, as if it were not there, and logged once (``ui_adapters.broker``,
WARNING, naming it): one bad entry never hides the others from every worker.

``MemoryStore`` (``stores.memory``) is this seam in one process's memory (for tests, or several
brokers in one process).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from typing import Any, Literal, Protocol, runtime_checkable

__all__ = [
    "DEFAULT_KEEP_FOR",
    "DEFAULT_LEASE",
    "QuestionStore",
    "UnreadableEntries",
    "approval_decision",
    "checked_decision",
    "redact_server",
]

_log = logging.getLogger("ui_adapters.broker")
_URL_START = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")
"""A scheme and ``//``: the server is a URL with an authority (not a command line, not a name)."""

DEFAULT_KEEP_FOR = 24 * 3600.0
"""Seconds a settled question or a record stays in a store before it expires (one day)."""
DEFAULT_LEASE = 10.0
"""Seconds a worker's lease lasts without a heartbeat; its legacy questions are withdrawn after it."""

FINAL_STATUSES = frozenset({"answered", "declined", "cancelled", "timed-out", "withdrawn"})


@runtime_checkable
class QuestionStore(Protocol):
    """What a broker needs from a shared store (all methods are async; entries are JSON objects).

    A question entry is ``{"id", "status", "owner", "call_id", "record", "result"}``: ``record`` what
    ``question_record`` built, ``result`` the wire ``ElicitResult`` once settled (else ``None``).
    """

    async def open(self) -> None:
        """Connect / create tables; called when the broker is entered (``async with broker``)."""
        ...

    async def close(self) -> None: ...

    async def add_question(self, record: Mapping[str, Any], *, owner: str | None, expires_in: float) -> None:
        """Store a new pending question (``record["id"]``), kept at most ``expires_in`` seconds."""
        ...

    async def get_question(self, question_id: str) -> dict[str, Any] | None:
        """The entry for this id (any status), or ``None`` if it is unknown or expired."""
        ...

    async def pending_questions(self) -> list[dict[str, Any]]:
        """Every pending question entry, oldest first."""
        ...

    async def settle_question(self, question_id: str, status: str, result: Mapping[str, Any] | None) -> bool:
        """Move a pending question to ``status`` with ``result``, atomically; False if it was not pending.

        If the question has an ``owner`` whose lease has ended, it is moved to ``withdrawn`` instead
        (no result), and the answer is refused (False; True only when ``status`` was ``withdrawn``).
        """
        ...

    async def put_record(self, kind: str, record_id: str, payload: Mapping[str, Any]) -> None: ...

    async def get_record(self, kind: str, record_id: str) -> dict[str, Any] | None: ...

    async def list_records(self, kind: str) -> list[dict[str, Any]]: ...

    async def take_record(self, kind: str, record_id: str) -> dict[str, Any] | None:
        """Remove the record and return it; ``None`` if it is not there (someone else took it).

        Its claim (``claim_record``) ends with it.
        """
        ...

    async def claim_record(self, kind: str, record_id: str, worker: str) -> bool:
        """Make ``worker`` the holder of ``(kind, record_id)``, atomically; True if it now is.

        True when nobody holds it, ``worker`` holds it already (a renewal), or its holder's lease has
        ended (the holder died: one other worker takes over); False while another live worker holds
        it. Of two workers claiming at once, exactly one gets True. A claim may be made before its
        record is put (so no other worker can take over in between); it ends with ``take_record``.
        """
        ...

    async def heartbeat(self, worker: str, lease: float) -> None:
        """``worker`` is alive for ``lease`` more seconds."""
        ...

    async def release(self, worker: str) -> None:
        """``worker`` stops cleanly: its lease ends now."""
        ...

    async def sweep(self) -> int:
        """Withdraw pending questions of workers whose lease ended, drop expired entries; count withdrawn."""
        ...

    async def wait_for_change(self, within: float) -> None:
        """Return when another worker may have changed something, or after ``within`` seconds."""
        ...

    async def purge(self) -> None:
        """Delete every entry of this store (this app's namespace only), remembered approvals included."""
        ...


def approval_decision(value: object) -> Literal["allow", "deny"] | None:
    """A stored decision as what ``get_approval`` returns: anything else (a hand edit) counts as none."""
    return "allow" if value == "allow" else "deny" if value == "deny" else None


def checked_decision(decision: object) -> Literal["allow", "deny"]:
    """``decision`` if it is ``"allow"`` or ``"deny"``; a ``ValueError`` naming the value otherwise."""
    checked = approval_decision(decision)
    if checked is not None:
        return checked
    raise ValueError(f"set_approval(..., decision={decision!r}): a decision is 'allow' or 'deny'")


def redact_server(server: str) -> str:
    """``server`` without ``user:password@`` (a URL may carry credentials; a store never does).

    Only the userinfo goes (it ends at the authority's last ``@``); scheme, host, port, path, query and
    fragment stay as given. The same rule as ``Client.server``, which already shows a URL this way: a
    mirror of ``mcp_client``'s own (private) helper, held to the same answers by the tests.
    """
    start = _URL_START.match(server)
    if start is None:
        return server
    head = start.end()
    end = len(server)
    for mark in "/?#":
        found = server.find(mark, head)
        if found != -1:
            end = min(end, found)
    at = server.rfind("@", head, end)
    if at == -1:
        return server
    return server[:head] + server[at + 1 :]


class UnreadableEntries:
    """The entries of one store (or broker) that could not be read: each is logged once, then skipped.

    A store reads the same pending questions every time a worker looks (many times a second): a bad
    entry logged at each look would flood the log, and one that raised would stop every look.
    """

    _MAX = 10_000
    """Entries remembered; past it, the oldest are forgotten (and logged again if met again)."""

    def __init__(self, owner: object) -> None:
        self._owner = owner
        self._logged: dict[tuple[str, str], None] = {}

    def skip(self, kind: str, entry_id: object, problem: object) -> None:
        """Log (once) that the ``kind`` entry ``entry_id`` cannot be read because of ``problem``."""
        key = (kind, str(entry_id))
        if key in self._logged:
            return
        self._logged[key] = None
        while len(self._logged) > self._MAX:
            del self._logged[next(iter(self._logged))]
        _log.warning(
            "%r: the %s %r in the store cannot be read (%s); it is skipped. Delete that entry, or empty "
            "the store with purge()",
            self._owner,
            kind,
            str(entry_id),
            problem,
        )

    def json_object(self, kind: str, entry_id: object, text: str | bytes | None) -> dict[str, Any] | None:
        """``text`` as the JSON object it should be, or ``None`` (logged once) when it is not one."""
        if text is None:
            return None
        try:
            value: object = json.loads(text)
        except ValueError as exc:  # json.JSONDecodeError and UnicodeDecodeError are ValueErrors
            self.skip(kind, entry_id, f"not JSON: {exc}")
            return None
        if not isinstance(value, dict):
            self.skip(kind, entry_id, f"a JSON {type(value).__name__}, not an object")
            return None
        return value  # pyright: ignore[reportUnknownVariableType]
