"""Approvals asked outside the call: for an app (or a library) that asks its user its own way and makes
the call later, perhaps on another worker, once the person has answered.

``Client.call_tool`` asks its ``approval_callback`` and waits. A ``QuestionBroker`` that pauses calls,
or a framework's deferred approval, instead asks first and calls later: ``pending_approval`` says
whether a call needs asking (and what to show), ``settle_approval`` takes the person's answer as the
client's own gate would (remembered, logged, ``ToolCallDenied`` unless allowed), and the call then runs
inside ``approved_by_app(settled=True)`` so the gate neither asks again (its ``deny`` patterns still
hold) nor logs the decision a second time.
``refusal_result`` is the tool result a model reads for a refused call (what ``ToolBridge`` gives).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mcp_client._approvals.gate import approved_by_app, gate_of, is_approved_by_app
from mcp_client._approvals.request import NOBODY_DECIDED
from mcp_client._errors import ToolCallDenied

if TYPE_CHECKING:
    from mcp_client._approvals.request import ApprovalCallback, ApprovalRequest, ApprovalResult
    from mcp_client._client import Client
    from mcp_client._session.context import ClientRequestContext
    from mcp_client.types import CallToolResult

__all__ = [
    "approval_callback_of",
    "approved_by_app",
    "is_refusal",
    "pending_approval",
    "refusal_result",
    "settle_approval",
]


def approval_callback_of(client: Client) -> ApprovalCallback | None:
    """The ``approval_callback`` ``client`` asks (``None``: its calls are not gated, or nobody is asked)."""
    gate = gate_of(client)
    return gate.callback if gate is not None else None


async def pending_approval(
    client: Client, name: str, arguments: Mapping[str, Any] | None = None
) -> tuple[ApprovalRequest, ClientRequestContext] | None:
    """What a call of ``name`` would ask the person now, with its context; ``None`` when it asks nothing
    (no policy, a pattern or a remembered answer decides, or inside ``approved_by_app()``).
    ``ClientStateError`` if the gated ``client`` is not connected or is closed, as from ``call_tool``."""
    gate = gate_of(client)
    if gate is None or is_approved_by_app() or await gate.needs_asking(name) is None:
        return None
    request = await gate.request(name, arguments or {})
    return request, gate.context(request)


async def settle_approval(
    client: Client,
    name: str,
    arguments: Mapping[str, Any] | None,
    request: ApprovalRequest,
    result: ApprovalResult,
) -> None:
    """Take the person's ``result`` for ``request`` as the client's gate takes its callback's: remembered
    as it says, logged on ``mcp_client.approvals`` (the one audit line of this decision: make the call
    inside ``approved_by_app(settled=True)``); ``ToolCallDenied`` unless it allows."""
    gate = gate_of(client)
    if gate is not None:
        await gate.answered(name, arguments or {}, request, result)
        return
    if result.decision != "allow":
        why = "the user refused it" if result.asked else NOBODY_DECIDED
        said = f": {result.note}" if result.note and not result.asked else ""
        raise ToolCallDenied(
            f"the call of tool {request.tool!r} on {request.server} was denied and not sent to the "
            f"server: {why}{said}",
            tool=request.tool,
            server=request.server,
            reason=request.reason,
            note=result.note,
            by_user=result.asked,
            unanswered=not result.asked,
        )


def refusal_result(tool: str, denied: ToolCallDenied) -> CallToolResult:
    """The error result a model reads for a refused call of ``tool`` (as ``ToolBridge.run_*`` gives)."""
    from mcp_client.llm._view import denied_result

    return denied_result(tool, denied)


def is_refusal(result: CallToolResult) -> bool:
    """Whether ``result`` is a ``refusal_result`` (a call the client did not run), not the tool's own."""
    from mcp_client.llm._view import is_denied

    return is_denied(result)
