"""One tool call waiting for a person's yes or no: the approval a ``QuestionBroker`` holds beside questions.

An approval is the app's own question to its user (``mcp_client.ApprovalRequest``: may the model run
this tool with these arguments?), not a server's. The broker keeps it as a ``PendingApproval`` in the
same list as the servers' questions (``broker.pending()``; ``.kind`` tells them apart: ``"approval"``
here, ``"question"`` on a ``PendingQuestion``), so a web app, a chat or a worker that restarted shows
and answers both from one place: ``await broker.answer(id, ApprovalResult(decision="allow"))``.

In a store it is a question entry whose record says ``"kind": "approval"``: what the UI shows
(``to_json()``), the request as JSON, who asked; the answer is the ``ApprovalResult`` as JSON. Nothing
else: no client, no token, no URL password.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal, cast

from mcp_client import ApprovalRequest, ApprovalResult, ClientRequestContext
from ui_adapters.broker._pending_item import PendingItem, apply_stored, json_time
from ui_adapters.broker.stores.base import redact_server
from ui_adapters.text import sanitize

__all__ = ["ApprovalStatus", "PendingApproval"]

ApprovalStatus = Literal["pending", "allowed", "denied", "timed-out", "withdrawn"]
"""Where an approval stands: ``allowed`` / ``denied`` (a person chose), ``timed-out`` (nobody answered
within the broker's timeout: the call is denied), ``withdrawn`` (the call went away first)."""


class PendingApproval(PendingItem[ApprovalResult, ApprovalStatus]):
    """A tool call waiting for a person's decision; what ``broker.pending()`` lists for an approval.

    ``kind`` is ``"approval"``; ``request`` the ``ApprovalRequest`` (server, tool, arguments, the
    server's annotations, title and description, the policy rule that asked); ``context`` who asked;
    ``id`` 24 random URL-safe characters; ``created_at`` / ``expires_at`` aware UTC datetimes.
    ``result`` is the ``ApprovalResult`` once decided. ``call_id`` is ``None`` when the call waits for
    the decision, or the id of the paused call that resumes once it is decided (``broker.call_tool``,
    ``pause_with=broker``).
    """

    kind: Literal["approval"] = "approval"

    def __init__(
        self,
        context: ClientRequestContext,
        request: ApprovalRequest,
        *,
        timeout: float | None = None,
        approval_id: str | None = None,
        created_at: datetime | None = None,
        call_id: str | None = None,
    ) -> None:
        super().__init__(
            context, timeout=timeout, item_id=approval_id, created_at=created_at, call_id=call_id
        )
        self.request: ApprovalRequest = request

    def __repr__(self) -> str:
        return f"<PendingApproval {self.id} {self.request.tool!r} on {self.request.server!r}: {self.status}>"

    def to_json(self) -> dict[str, Any]:
        """A UI-ready description that ``json.dumps`` accepts as is.

        Keys: ``id``, ``kind`` (``"approval"``), ``status``, ``created_at``, ``expires_at``, ``call_id``
        (the paused call's id, or ``None``), ``server`` (the server's URL or command), ``server_name``,
        and ``approval``:
        ``{"server", "tool", "arguments", "annotations", "title", "description", "reason"}``.

        ``title``, ``description``, ``annotations`` and the argument values are the server's and the
        model's words: control and bidi characters are removed from the strings shown, but they stay
        untrusted: insert them as text (``textContent``), quoted as the server's, never as the app's.
        """
        request = self.request
        return {
            "id": self.id,
            "kind": self.kind,
            "status": self._status,
            "created_at": json_time(self.created_at),
            "expires_at": json_time(self.expires_at) if self.expires_at is not None else None,
            "call_id": self.call_id,
            "server": self.server,
            "server_name": sanitize(self.server_name, single_line=True),
            "approval": {
                "server": sanitize(request.server, single_line=True),
                "tool": sanitize(request.tool, single_line=True),
                "arguments": json_data(request.arguments),
                "annotations": json_data(request.annotations) if request.annotations is not None else None,
                "title": sanitize(request.title, single_line=True) if request.title else None,
                "description": sanitize(request.description) if request.description else None,
                "reason": sanitize(request.reason, single_line=True),
            },
        }

    def check_answer(self, result: object) -> ApprovalResult:
        """``result`` as an ``ApprovalResult``: one already, or a mapping of its fields (JSON posted by a
        page: ``{"decision": "allow", "remember": "session", "note": "..."}``). ``TypeError`` for an
        elicitation answer (an ``ElicitResult`` belongs to a question), ``ValueError`` for a bad field."""
        if isinstance(result, ApprovalResult):
            return result
        if isinstance(result, Mapping):
            fields = cast(Mapping[str, Any], result)
            unknown = sorted(set(fields) - {"decision", "remember", "note"})
            if unknown:
                raise ValueError(
                    f"an approval's answer has decision, remember and note; not {', '.join(unknown)}"
                )
            note = fields.get("note")
            if note is not None and not isinstance(note, str):
                raise ValueError(f"an approval's note is a string or None, not {type(note).__name__}")
            return ApprovalResult(
                decision=fields.get("decision"),  # pyright: ignore[reportArgumentType] (checked by ApprovalResult)
                remember=fields.get("remember", "once"),
                note=note or None,
            )
        raise TypeError(
            f"the pending item {self.id!r} is an approval: answer it with ApprovalResult(decision='allow' "
            f"or 'deny'), not {type(result).__name__}"
        )

    def _status_of(self, result: ApprovalResult) -> ApprovalStatus:
        return "allowed" if result.decision == "allow" else "denied"


def json_data(value: object) -> Any:
    """``value`` as plain JSON (any mapping an object, anything JSON cannot hold its ``repr``): what a
    store and a page get (the client hands the arguments as a read-only mapping)."""
    return json.loads(json.dumps(value, default=_plain))


def _plain(value: object) -> object:
    if isinstance(value, Mapping):
        return dict(cast(Mapping[str, Any], value))
    if isinstance(value, tuple | set | frozenset):
        return list(cast(tuple[Any, ...], value))
    return repr(value)


def no_answer_within(timeout: float | None) -> str:
    """The note of an approval nobody answered within ``timeout`` seconds (``asked=False``)."""
    return f"nobody answered within {timeout:g}s" if timeout is not None else "nobody answered"


def result_to_json(result: ApprovalResult | None) -> dict[str, Any] | None:
    """A person's answer as stored and shown to pages: the fields a page may post back (``asked`` is
    left out: an answer given through the broker was given by someone)."""
    if result is None:
        return None
    return {"decision": result.decision, "remember": result.remember, "note": result.note}


def result_from_json(data: Mapping[str, Any], *, asked: bool = True) -> ApprovalResult:
    """The stored answer; ``asked=False`` for an approval that timed out (nobody decided)."""
    return ApprovalResult(
        decision=data["decision"], remember=data.get("remember", "once"), note=data.get("note"), asked=asked
    )


def approval_record(
    approval: PendingApproval, timeout: float | None, context: dict[str, Any]
) -> dict[str, Any]:
    """The store's record of ``approval`` (``context`` is ``context_record`` of who asked)."""
    view = approval.to_json()
    view["server"] = redact_server(view["server"])
    cleaned = dataclasses.replace(approval.context, server=view["server"])
    view["server_name"] = sanitize(cleaned.server_name, single_line=True)
    request = approval.request
    return {
        "id": approval.id,
        "kind": "approval",
        "call_id": approval.call_id,
        "created_at": approval.created_at.isoformat(),
        "timeout": timeout,
        "view": view,
        "approval": {
            "server": redact_server(request.server),
            "tool": request.tool,
            "arguments": json_data(request.arguments),
            "annotations": json_data(request.annotations) if request.annotations is not None else None,
            "title": request.title,
            "description": request.description,
            "reason": request.reason,
        },
        "context": context,
    }


def approval_from_record(record: Mapping[str, Any], context: ClientRequestContext) -> PendingApproval:
    stored = record["approval"]
    request = ApprovalRequest(
        server=str(stored["server"]),
        tool=str(stored["tool"]),
        arguments=dict(stored.get("arguments") or {}),
        annotations=stored.get("annotations"),
        title=stored.get("title"),
        description=stored.get("description"),
        reason=str(stored.get("reason") or ""),
    )
    return PendingApproval(
        context,
        request,
        timeout=record.get("timeout"),
        approval_id=str(record["id"]),
        created_at=datetime.fromisoformat(record["created_at"]),
        call_id=record.get("call_id"),
    )


def apply_approval_entry(approval: PendingApproval, entry: Mapping[str, Any] | None) -> None:
    """Give ``approval`` the outcome the store has for it (an expired entry: withdrawn)."""
    timed_out = entry is not None and entry.get("status") == "timed-out"
    apply_stored(
        approval,
        entry,
        lambda data: result_from_json(data, asked=not timed_out),
        ApprovalResult(decision="deny", note="nobody answered", asked=False)
        if timed_out
        else ApprovalResult(decision="deny"),
    )
