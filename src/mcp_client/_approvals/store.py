"""Where ``remember="always"`` approvals are kept: the ``ApprovalStore`` protocol and its memory default.

A decision kept "always" outlives the ``Client`` that heard it: the next client of the same server, under
the same policy, is not asked again. The key names the server (what it calls itself and where it is
reached: its URL or command line), the tool (the server's own name for it) and the policy (a digest of
its fields, so a changed policy asks again); never the arguments, which differ from call to call. The
key is a digest: a URL may carry secrets a store has no business holding in clear.

``MemoryApprovalStore`` is the default, one per process: "always" then lasts until the process exits.
The broker's stores (memory, SQLite, Redis, in ``ui_adapters.broker``) implement the same two methods,
so an approval kept there is shared by every worker.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:
    from mcp_client._approvals.policy import ToolPolicy

__all__ = ["ApprovalStore", "MemoryApprovalStore", "approval_key", "default_store", "policy_digest"]

StoredDecision = Literal["allow", "deny"]


@runtime_checkable
class ApprovalStore(Protocol):
    """Keeps approvals given with ``remember="always"``, by key (``approval_key``).

    ``get_approval(key)`` returns ``"allow"``, ``"deny"`` or ``None`` (never decided);
    ``set_approval(key, decision)`` keeps one. Both are awaited on the call's path, before the tool runs.
    """

    async def get_approval(self, key: str) -> Literal["allow", "deny"] | None: ...

    async def set_approval(self, key: str, decision: Literal["allow", "deny"]) -> None: ...


class MemoryApprovalStore:
    """An ``ApprovalStore`` in a dict: decisions last as long as the object (the default one: the
    process). Share one between clients to share their "always" decisions."""

    def __init__(self) -> None:
        self._decisions: dict[str, StoredDecision] = {}

    async def get_approval(self, key: str) -> Literal["allow", "deny"] | None:
        return self._decisions.get(key)

    async def set_approval(self, key: str, decision: Literal["allow", "deny"]) -> None:
        if decision not in ("allow", "deny"):
            raise ValueError(f"an approval is 'allow' or 'deny', not {decision!r}")
        self._decisions[key] = decision

    def __len__(self) -> int:
        return len(self._decisions)


_default: MemoryApprovalStore | None = None


def default_store() -> MemoryApprovalStore:
    """The process's ``MemoryApprovalStore``, for clients given no ``approval_store``."""
    global _default
    if _default is None:
        _default = MemoryApprovalStore()
    return _default


def policy_digest(policy: ToolPolicy) -> str:
    """A stable digest of the policy's fields: the same rules give the same digest in every process."""
    fields = {"allow": list(policy.allow), "deny": list(policy.deny), "ask": policy.ask}
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]


def approval_key(server: str, tool: str, policy: ToolPolicy) -> str:
    """The store key of a decision about ``tool`` (the server's own name) on ``server`` (its identity:
    its own name and its URL or command line) under ``policy``; never the call's arguments."""
    digest = hashlib.sha256(json.dumps([server, tool, policy_digest(policy)]).encode()).hexdigest()
    return f"mcp-approval:{digest}"
