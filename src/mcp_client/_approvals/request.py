"""What an ``approval_callback`` is asked (``ApprovalRequest``) and what it answers (``ApprovalResult``).

An approval is the app's own question to its user, not a server's: the UIs that show it say the app
asks, and every string in the request that came from the server (title, description, arguments) is data
to show, never words of the app.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from mcp_client._session.context import ClientRequestContext

Decision = Literal["allow", "deny"]
Remember = Literal["once", "session", "always"]

NOBODY_DECIDED = "nobody decided"
"""Why a call was refused when the callback answered ``asked=False`` (the refusal reads
"...not sent to the server: nobody decided: <note>"): true whether nobody could be asked or nobody
answered in time."""

CALLBACK_FAILED = "the approval callback failed"
"""The ``reason`` of the ``ToolCallDenied`` for a call whose ``approval_callback`` raised or answered
something that is not an ``ApprovalResult``: the app could not get an approval (nobody refused it)."""


@dataclass(frozen=True)
class ApprovalRequest:
    """One tool call waiting for a person's yes or no.

    ``server`` names the server (its name in a ``ClientGroup``, else what it calls itself, else its URL
    or command); ``tool`` the tool as the app calls it; ``arguments`` the call's arguments;
    ``annotations``, ``title`` and ``description`` what the server lists for the tool (its claims);
    ``reason`` the policy rule that asked.
    """

    server: str
    tool: str
    arguments: Mapping[str, Any] = field(default_factory=dict[str, Any], hash=False)
    annotations: Mapping[str, Any] | None = field(default=None, hash=False)
    title: str | None = None
    description: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class ApprovalResult:
    """A person's decision: ``"allow"`` or ``"deny"``; ``remember`` says for how long (``"once"``, this
    call; ``"session"``, this ``Client``; ``"always"``, kept in the client's ``ApprovalStore``);
    ``note`` is what the person said (told to the model on a denial).

    ``asked=False``: no person decided: nobody could be asked (no terminal, no page open) or nobody
    answered in time, so the app decided by itself. ``note`` then says why (and how to let the call
    run), and the refusal says "nobody decided: <note>", not that the user refused
    (``ToolCallDenied.by_user`` is false, ``.unanswered`` true). Nothing to remember: ``remember`` stays
    ``"once"``.
    """

    decision: Decision
    remember: Remember = "once"
    note: str | None = None
    asked: bool = True

    def __post_init__(self) -> None:
        if self.decision not in ("allow", "deny"):
            raise ValueError(f"ApprovalResult(decision={self.decision!r}): decision is 'allow' or 'deny'")
        if self.remember not in ("once", "session", "always"):
            raise ValueError(
                f"ApprovalResult(remember={self.remember!r}): remember is 'once', 'session' or 'always'"
            )
        if not self.asked and self.remember != "once":
            raise ValueError(
                f"ApprovalResult(asked=False, remember={self.remember!r}): no person decided, so there "
                "is no answer to remember; leave remember='once'"
            )


ApprovalCallback = Callable[["ClientRequestContext", ApprovalRequest], Awaitable[ApprovalResult]]
"""``async def approve(context, request) -> ApprovalResult``: asks a person about one tool call."""
