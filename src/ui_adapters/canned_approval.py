"""Approvals decided in advance, for tests and scripted runs: ``canned_approvals({"delete_*": "deny"})``.

::

    approvals = canned_approvals({"delete_*": "deny", "*": "allow"})
    async with Client(server, approval_callback=approvals, tool_policy=ToolPolicy(ask="always")) as c:
        ...
    assert [request.tool for request in approvals.asked] == ["search", "delete_folder"]

The first ``fnmatch`` pattern (in the order given) that matches the tool's name, or ``server.tool``,
decides. A call no pattern matches fails loudly (``UnansweredApprovalError``, an ``AssertionError``)
naming the server, the tool and the arguments, instead of guessing a yes or a no.

(The module is ``canned_approval``, singular: a module named ``canned_approvals`` would hide the
function of that name in ``ui_adapters``.)
"""

from __future__ import annotations

from collections.abc import Mapping
from fnmatch import fnmatchcase
from typing import TypeAlias

from mcp_client import ApprovalRequest, ApprovalResult, ClientRequestContext

__all__ = ["CannedApproval", "CannedApprovals", "UnansweredApprovalError", "canned_approvals"]

CannedApproval: TypeAlias = ApprovalResult | str
"""``"allow"`` (once), ``"deny"``, or an ``ApprovalResult`` returned as is."""

_WORDS = ("allow", "deny")


class UnansweredApprovalError(AssertionError):
    """A tool call was to be approved and no canned pattern matches it; the message names the call.

    An ``AssertionError`` so that test runners report it as a failed expectation; ``request`` is the
    ``ApprovalRequest`` that went unanswered.
    """

    def __init__(self, message: str, *, request: ApprovalRequest) -> None:
        super().__init__(message)
        self.request = request


class CannedApprovals:
    """An ``approval_callback`` answering from ``{pattern: answer}`` (see the module docstring).

    ``asked`` records every ``ApprovalRequest`` it was handed, in order, answered or not; ``answers``
    the ``ApprovalResult`` given to each answered one, in the same order; ``unanswered`` those no
    pattern matched. The client denies a call whose callback raised (it fails closed), so a test that
    expects every call answered should end with ``assert_all_answered()``.
    """

    def __init__(self, answers: Mapping[str, CannedApproval]) -> None:
        if not isinstance(answers, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f"canned_approvals takes a mapping {{pattern: answer}}, got {type(answers).__name__}"
            )
        self._rules: list[tuple[str, ApprovalResult]] = [
            (_pattern(pattern), _result(pattern, answer)) for pattern, answer in answers.items()
        ]
        self.asked: list[ApprovalRequest] = []
        self.answers: list[ApprovalResult] = []
        self.unanswered: list[ApprovalRequest] = []

    async def __call__(self, context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        self.asked.append(request)
        names = (request.tool, f"{request.server}.{request.tool}")
        for pattern, result in self._rules:
            if any(fnmatchcase(name, pattern) for name in names):
                self.answers.append(result)
                return result
        self.unanswered.append(request)
        raise UnansweredApprovalError(self._describe_miss(request), request=request)

    def assert_all_answered(self) -> None:
        """Raise ``UnansweredApprovalError`` (naming the first) if any call went without an answer."""
        if self.unanswered:
            first = self.unanswered[0]
            raise UnansweredApprovalError(
                f"{len(self.unanswered)} tool call(s) had no canned approval; first: "
                + self._describe_miss(first),
                request=first,
            )

    def _describe_miss(self, request: ApprovalRequest) -> str:
        patterns = ", ".join(repr(pattern) for pattern, _ in self._rules) or "(none)"
        return (
            f"canned_approvals has no answer for the call of {request.tool!r} on {request.server!r} "
            f"with arguments {dict(request.arguments)!r}: no pattern matches {request.tool!r} or "
            f"{request.server + '.' + request.tool!r} (patterns: {patterns}). "
            'Add a pattern for it, or "*" for every other call.'
        )


def canned_approvals(answers: Mapping[str, CannedApproval]) -> CannedApprovals:
    """An ``approval_callback`` for tests: ``{fnmatch pattern: "allow" | "deny" | ApprovalResult}``,
    the first matching pattern deciding (see ``CannedApprovals``)."""
    return CannedApprovals(answers)


def _pattern(pattern: object) -> str:
    if not isinstance(pattern, str) or not pattern:
        raise TypeError(f"canned_approvals: a pattern is a non-empty fnmatch string, got {pattern!r}")
    return pattern


def _result(pattern: str, answer: object) -> ApprovalResult:
    if isinstance(answer, ApprovalResult):
        return answer
    if isinstance(answer, str) and answer in _WORDS:
        return ApprovalResult(decision="allow" if answer == "allow" else "deny")
    raise ValueError(
        f"canned_approvals: the answer for {pattern!r} is {answer!r}; "
        'give "allow", "deny" or an ApprovalResult (e.g. ApprovalResult("allow", remember="session"))'
    )
