"""What a waiting approval or question becomes when the store says another worker settled it
(``broker/_pending_item.py``'s ``apply_stored``, through ``apply_approval_entry`` and ``apply_entry``):
its status and outcome as the app reads them (``item.status``, ``item.result``, ``to_json()``), and
what the waiting call wakes up with. In this process, no server: fast for ``bash scripts/mutants``."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from mcp_client import ApprovalResult
from mcp_client.types import ElicitRequestFormParams, ElicitResult
from tests.ui_adapters._approval_helpers import CONTEXT, DELETE
from ui_adapters.broker._question_record import apply_entry
from ui_adapters.broker.approval import PendingApproval, apply_approval_entry
from ui_adapters.broker.pending import PendingQuestion

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("entry", "status", "result"),
    [
        (  # nobody answered: not a person's refusal (asked=False)
            {"status": "timed-out", "result": None},
            "timed-out",
            ApprovalResult(decision="deny", note="nobody answered", asked=False),
        ),
        (
            {"status": "denied", "result": {"decision": "deny", "note": "not prod"}},
            "denied",
            ApprovalResult(decision="deny", note="not prod"),
        ),
        (
            {"status": "allowed", "result": {"decision": "allow", "remember": "session"}},
            "allowed",
            ApprovalResult(decision="allow", remember="session"),
        ),
        ({"status": "withdrawn", "result": None}, "withdrawn", None),
        (None, "withdrawn", None),  # the entry expired
    ],
)
async def test_an_approval_takes_the_status_and_outcome_the_store_has(
    entry: dict[str, Any] | None, status: str, result: ApprovalResult | None
) -> None:
    approval = PendingApproval(CONTEXT, DELETE, timeout=60)
    apply_approval_entry(approval, entry)
    assert (approval.status, approval.result, approval.is_pending) == (status, result, False)
    assert approval.to_json()["status"] == status
    with anyio.fail_after(5):
        assert await approval.wait() == result  # the waiting call wakes up with it


async def test_a_pending_entry_leaves_the_item_waiting_and_the_first_outcome_wins() -> None:
    approval = PendingApproval(CONTEXT, DELETE)
    apply_approval_entry(approval, {"status": "pending", "result": None})
    assert (approval.status, approval.result, approval.is_pending) == ("pending", None, True)
    assert approval.settle(ApprovalResult(decision="allow")) and approval.status == "allowed"
    apply_approval_entry(approval, {"status": "timed-out", "result": None})  # later: refused
    assert not approval.settle(ApprovalResult(decision="deny"))
    approval.withdraw()
    assert (approval.status, approval.result) == ("allowed", ApprovalResult(decision="allow"))


async def test_a_question_timed_out_elsewhere_is_cancelled_with_that_status() -> None:
    params = ElicitRequestFormParams(
        message="Name?", requested_schema={"type": "object", "properties": {"name": {"type": "string"}}}
    )
    question = PendingQuestion(CONTEXT, params, timeout=60)
    assert len(question.id) == 24 and question.expires_at is not None
    assert (question.expires_at - question.created_at).total_seconds() == 60
    apply_entry(question, {"status": "timed-out", "result": None})
    assert (question.status, question.result) == ("timed-out", ElicitResult(action="cancel"))
    answered = PendingQuestion(CONTEXT, params, timeout=None)
    assert answered.expires_at is None and answered.to_json()["expires_at"] is None
    apply_entry(answered, {"status": "answered", "result": {"action": "accept", "content": {"name": "Lin"}}})
    assert (answered.status, answered.result) == (
        "answered",
        ElicitResult(action="accept", content={"name": "Lin"}),
    )
    assert answered.to_json()["created_at"].endswith("Z") and len(answered.to_json()["created_at"]) == 24
