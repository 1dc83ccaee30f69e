"""The approval values as an app meets them, no server: ``MemoryApprovalStore`` (one decision per key,
nothing but allow or deny), ``ApprovalResult`` (refuses what it cannot mean, "once" unless it says
otherwise) and ``ApprovalRequest`` (hashable whatever its arguments). Fast enough for ``scripts/mutants``
on ``_approvals/store.py`` and ``_approvals/request.py``."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from mcp_client import ApprovalRequest, ApprovalResult, ApprovalStore, MemoryApprovalStore

pytestmark = pytest.mark.anyio


async def test_a_memory_store_keeps_one_decision_per_key() -> None:
    store = MemoryApprovalStore()
    assert isinstance(store, ApprovalStore)
    assert await store.get_approval("k") is None and len(store) == 0
    await store.set_approval("k", "allow")
    await store.set_approval("other", "deny")
    assert (await store.get_approval("k"), await store.get_approval("other"), len(store)) == (
        "allow",
        "deny",
        2,
    )
    await store.set_approval("k", "deny")  # the later answer wins
    assert (await store.get_approval("k"), len(store)) == ("deny", 2)
    assert await MemoryApprovalStore().get_approval("k") is None  # each store is its own


@pytest.mark.parametrize("decision", ["yes", "ALLOW", "", None, True])
async def test_a_memory_store_refuses_a_decision_that_is_not_allow_or_deny(decision: Any) -> None:
    store = MemoryApprovalStore()
    with pytest.raises(ValueError) as refused:
        await store.set_approval("k", decision)
    assert str(refused.value) == f"an approval is 'allow' or 'deny', not {decision!r}"
    assert len(store) == 0 and await store.get_approval("k") is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"decision": "yes"}, "ApprovalResult(decision='yes'): decision is 'allow' or 'deny'"),
        ({"decision": "Allow"}, "ApprovalResult(decision='Allow'): decision is 'allow' or 'deny'"),
        (
            {"decision": "allow", "remember": "forever"},
            "ApprovalResult(remember='forever'): remember is 'once', 'session' or 'always'",
        ),
        (
            {"decision": "deny", "remember": None},
            "ApprovalResult(remember=None): remember is 'once', 'session' or 'always'",
        ),
        (
            {"decision": "deny", "remember": "session", "asked": False},
            "ApprovalResult(asked=False, remember='session'): no person decided, so there is no answer "
            "to remember; leave remember='once'",
        ),
    ],
)
def test_an_approval_result_refuses_what_it_cannot_mean(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as refused:
        ApprovalResult(**options)
    assert str(refused.value) == message


def test_an_approval_result_holds_for_this_call_unless_it_says_otherwise() -> None:
    assert ApprovalResult("allow") == ApprovalResult("allow", remember="once", note=None)
    for decision in ("allow", "deny"):
        for remember in ("once", "session", "always"):
            result = ApprovalResult(decision, remember=remember, note="n")  # type: ignore[arg-type]
            assert (result.decision, result.remember, result.note) == (decision, remember, "n")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ApprovalResult("deny").decision = "allow"  # type: ignore[misc]


def test_an_approval_request_is_hashable_whatever_its_arguments() -> None:
    """Arguments and annotations are mappings (unhashable): they are compared, never hashed, so a
    request can be a dict key or in a set (a UI keeping the requests it shows)."""
    request = ApprovalRequest(
        "notes", "write", arguments={"text": ["a"]}, annotations={"readOnlyHint": False}
    )
    same_call_elsewhere = ApprovalRequest("notes", "write", arguments={"text": ["b"]})
    assert hash(request) == hash(same_call_elsewhere)
    assert request != same_call_elsewhere
    assert {request: "shown"}[request] == "shown"
    bare = ApprovalRequest("notes", "write")
    assert (bare.arguments, bare.annotations, bare.title, bare.description, bare.reason) == (
        {},
        None,
        None,
        None,
        "",
    )
    assert bare.arguments is not ApprovalRequest("notes", "write").arguments  # not one shared dict
    with pytest.raises(dataclasses.FrozenInstanceError):
        bare.tool = "drop"  # type: ignore[misc]
