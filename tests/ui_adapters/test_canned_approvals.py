"""canned_approvals: the first matching pattern decides; a call nothing matches fails, naming itself."""

from __future__ import annotations

import pytest

from mcp_client import ApprovalRequest, ApprovalResult
from tests.ui_adapters._approval_helpers import CONTEXT, DELETE, READ
from ui_adapters import CannedApprovals, UnansweredApprovalError, canned_approvals

pytestmark = pytest.mark.anyio


async def test_the_first_matching_pattern_decides_and_every_request_is_recorded() -> None:
    approvals = canned_approvals({"delete_*": "deny", "*": "allow"})
    denied = await approvals(CONTEXT, DELETE)
    allowed = await approvals(CONTEXT, READ)
    assert denied == ApprovalResult(decision="deny")
    assert allowed == ApprovalResult(decision="allow", remember="once")
    assert approvals.asked == [DELETE, READ]
    assert approvals.answers == [denied, allowed]


async def test_order_is_the_order_given_not_the_most_specific() -> None:
    approvals = canned_approvals({"*": "allow", "delete_*": "deny"})
    assert (await approvals(CONTEXT, DELETE)).decision == "allow"


async def test_a_pattern_may_name_the_server_too() -> None:
    approvals = canned_approvals({"other.*": "allow", "files.delete_*": "deny"})
    assert (await approvals(CONTEXT, DELETE)).decision == "deny"
    with pytest.raises(UnansweredApprovalError):
        await approvals(CONTEXT, ApprovalRequest(server="files", tool="files_delete"))


async def test_an_approval_result_is_returned_as_given() -> None:
    remembered = ApprovalResult(decision="allow", remember="session", note="tests")
    approvals = canned_approvals({"delete_folder": remembered})
    assert await approvals(CONTEXT, DELETE) is remembered


async def test_a_call_no_pattern_matches_is_an_assertion_error_naming_the_call() -> None:
    approvals = canned_approvals({"search_*": "allow"})
    with pytest.raises(AssertionError) as caught:
        await approvals(CONTEXT, DELETE)
    message = str(caught.value)
    assert "'delete_folder'" in message and "'files'" in message and "'/srv'" in message
    assert "'files.delete_folder'" in message and "'search_*'" in message
    assert isinstance(caught.value, UnansweredApprovalError) and caught.value.request is DELETE
    assert approvals.asked == [DELETE]  # recorded even though unanswered
    assert approvals.answers == []


async def test_no_patterns_at_all_still_names_the_call() -> None:
    approvals = canned_approvals({})
    assert isinstance(approvals, CannedApprovals)
    with pytest.raises(UnansweredApprovalError, match=r"'delete_folder'.*\(patterns: \(none\)\)"):
        await approvals(CONTEXT, DELETE)


@pytest.mark.parametrize("answer", ["yes", "accept", "Allow", 1, None])
def test_an_answer_other_than_allow_deny_or_a_result_is_refused_at_once(answer: object) -> None:
    with pytest.raises(ValueError, match=r'give "allow", "deny" or an ApprovalResult'):
        canned_approvals({"*": answer})  # type: ignore[dict-item]


def test_a_pattern_must_be_text() -> None:
    with pytest.raises(TypeError, match="non-empty fnmatch string"):
        canned_approvals({"": "allow"})


async def test_assert_all_answered_names_the_first_call_left_unanswered() -> None:
    approvals = canned_approvals({"read_*": "allow"})
    approvals.assert_all_answered()  # nothing asked yet: nothing to say
    await approvals(CONTEXT, READ)
    with pytest.raises(UnansweredApprovalError):
        await approvals(CONTEXT, DELETE)
    assert approvals.unanswered == [DELETE]
    first = r"^1 tool call\(s\) had no canned approval; .*'delete_folder'"
    with pytest.raises(UnansweredApprovalError, match=first):
        approvals.assert_all_answered()
