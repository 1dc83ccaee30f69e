"""A call released while its questions wait (2026-07-28), kept as plain JSON until it is resumed.

In the 2026-07-28 era a server that needs input returns its questions (an ``InputRequiredResult``)
instead of holding the call open, so nothing has to wait in memory: ``QuestionBroker.call_tool(client,
...)`` releases the call at once and keeps what is needed to finish it in a ``PausedCall``: which server,
which method, name and arguments, the server's ``request_state`` and one ``PendingQuestion`` per input
key. ``to_json()`` / ``PausedCall.from_json()`` carry all of it (answers given so far included) across a
restart of the app; ``QuestionBroker.resume`` sends the answers with any ``Client`` of the same server.

A call the client's ``tool_policy`` asks about, made through a broker that is the client's
``approval_callback``, pauses too, before anything is sent: its ``approval`` (a ``PendingApproval``) is
pending instead of questions, and resuming it makes the call if it was allowed (or gives the refusal).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal, cast

from mcp_client import ApprovalRequest, Client, ClientRequestContext, ElicitationError
from mcp_client.types import ElicitRequest, ElicitResult, Implementation, InputRequiredResult
from ui_adapters.broker._question_record import context_from_record, context_record
from ui_adapters.broker.approval import (
    PendingApproval,
    apply_approval_entry,
    approval_from_record,
    approval_record,
    result_to_json,
)
from ui_adapters.broker.pending import PendingQuestion, QuestionStatus

__all__ = ["PausedCall", "PausedCallNotReadyError"]

Method = Literal["tools/call", "prompts/get", "resources/read"]
_METHODS: tuple[Method, ...] = ("tools/call", "prompts/get", "resources/read")
_FORMAT = 1


class PausedCallNotReadyError(ElicitationError):
    """A paused call was resumed while some of its questions still wait for an answer."""


class PausedCall:
    """A released 2026-07-28 call and its questions; see the module docstring.

    ``id`` is random (24 URL-safe characters); ``method`` is ``"tools/call"``, ``"prompts/get"`` or
    ``"resources/read"``, ``name`` the tool or prompt name or the resource URI, ``arguments`` what the
    call was made with. ``questions`` maps each input key to its ``PendingQuestion`` (whose ``call_id``
    is this call's ``id``). ``approval`` is the ``PendingApproval`` of a call paused before it was sent
    because the client's policy asks about it (``None`` otherwise: then it has questions). ``ready`` is
    true once none of them is pending.
    """

    __slots__ = (
        "approval",
        "arguments",
        "id",
        "method",
        "name",
        "protocol_version",
        "questions",
        "request_state",
        "server",
        "server_info",
    )

    def __init__(
        self,
        *,
        server: str,
        method: Method,
        name: str,
        arguments: Mapping[str, Any] | None,
        request_state: str | None,
        protocol_version: str,
        server_info: Implementation | None = None,
        call_id: str | None = None,
    ) -> None:
        self.id: str = call_id or secrets.token_urlsafe(18)
        self.server: str = server
        self.method: Method = method
        self.name: str = name
        self.arguments: dict[str, Any] | None = dict(arguments) if arguments is not None else None
        self.request_state: str | None = request_state
        self.protocol_version: str = protocol_version
        self.server_info: Implementation | None = server_info
        self.questions: dict[str, PendingQuestion] = {}
        self.approval: PendingApproval | None = None

    def __repr__(self) -> str:
        waiting = sum(question.is_pending for question in self.questions.values())
        if self.approval is not None:
            return f"<PausedCall {self.id} {self.method} {self.name!r}: approval {self.approval.status}>"
        return (
            f"<PausedCall {self.id} {self.method} {self.name!r}: {waiting} of {len(self.questions)} waiting>"
        )

    @classmethod
    def from_result(
        cls,
        client: Client,
        result: InputRequiredResult,
        *,
        method: Method,
        name: str,
        arguments: Mapping[str, Any] | None,
        call_id: str | None = None,
    ) -> PausedCall:
        """The paused call for ``result``, which ``client`` got for ``method`` ``name`` with ``arguments``.

        Raises ``ElicitationError`` for a question this client cannot answer (not an elicitation), and
        ``InvalidElicitationSchemaError`` for a form outside the spec's subset.
        """
        call = cls(
            server=client.server,
            method=method,
            name=name,
            arguments=arguments,
            request_state=result.request_state,
            protocol_version=client.protocol_version or "2026-07-28",
            server_info=client.server_info,
            call_id=call_id,
        )
        requests = result.input_requests or {}
        for index, (key, request) in enumerate(requests.items(), start=1):
            if not isinstance(request, ElicitRequest):
                raise ElicitationError(
                    f"{client.server} asked {request.method!r} under {key!r} while pausing {method} "
                    f"{name!r}; only elicitation questions can be held for later"
                )
            call._add(key, request, index, len(requests))
        return call

    @classmethod
    def for_approval(
        cls,
        client: Client,
        request: ApprovalRequest,
        context: ClientRequestContext,
        *,
        name: str,
        arguments: Mapping[str, Any] | None,
    ) -> PausedCall:
        """The call of tool ``name`` held, unsent, until ``request`` (the client's policy asks) is decided."""
        call = cls(
            server=client.server,
            method="tools/call",
            name=name,
            arguments=arguments,
            request_state=None,
            protocol_version=client.protocol_version or "2026-07-28",
            server_info=client.server_info,
        )
        call.approval = PendingApproval(context, request, call_id=call.id)
        return call

    @property
    def ready(self) -> bool:
        """True when every question (or the approval) has an outcome, so the call can be resumed."""
        if self.approval is not None and self.approval.is_pending:
            return False
        return not any(question.is_pending for question in self.questions.values())

    def input_responses(self) -> dict[str, ElicitResult]:
        """The answers to send, keyed like the server's ``inputRequests`` (a withdrawn one as cancel)."""
        return {
            key: question.result or ElicitResult(action="cancel") for key, question in self.questions.items()
        }

    def to_json(self) -> dict[str, Any]:
        """Everything needed to restore and resume this call, as plain JSON (``json.dumps`` accepts it)."""
        return {
            "format": _FORMAT,
            "id": self.id,
            "server": self.server,
            "server_info": self.server_info.model_dump_wire() if self.server_info is not None else None,
            "protocol_version": self.protocol_version,
            "method": self.method,
            "name": self.name,
            "arguments": self.arguments,
            "request_state": self.request_state,
            "questions": [
                {
                    "key": key,
                    "id": question.id,
                    "created_at": question.created_at.isoformat(),
                    "request": ElicitRequest(params=question.params).model_dump_wire(),
                    "status": question.status,
                    "result": question.result.model_dump_wire() if question.result is not None else None,
                }
                for key, question in self.questions.items()
            ],
            "approval": _approval_json(self.approval) if self.approval is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PausedCall:
        """The call ``to_json`` described, its questions and answers as they were. ``ValueError`` if
        ``data`` is not such a description."""
        try:
            if data.get("format") != _FORMAT or data["method"] not in _METHODS:
                raise ValueError("not a PausedCall description (wrong format or method)")
            info = data.get("server_info")
            call = cls(
                server=str(data["server"]),
                method=data["method"],
                name=str(data["name"]),
                arguments=data.get("arguments"),
                request_state=data.get("request_state"),
                protocol_version=str(data["protocol_version"]),
                server_info=Implementation.model_validate(info) if info is not None else None,
                call_id=str(data["id"]),
            )
            stored = list(data["questions"])
            for index, item in enumerate(stored, start=1):
                question = call._add(
                    str(item["key"]),
                    ElicitRequest.model_validate(item["request"]),
                    index,
                    len(stored),
                    question_id=str(item["id"]),
                    created_at=datetime.fromisoformat(item["created_at"]),
                )
                if item.get("result") is not None:
                    question.settle(
                        ElicitResult.model_validate(item["result"]), cast(QuestionStatus, item["status"])
                    )
                elif item.get("status") == "withdrawn":
                    question.withdraw()
            approval = data.get("approval")
            if approval is not None:
                call.approval = approval_from_record(approval, context_from_record(approval["context"]))
                if approval.get("status", "pending") != "pending":
                    apply_approval_entry(call.approval, approval)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a PausedCall description: {exc!r}") from exc
        return call

    def _add(
        self,
        key: str,
        request: ElicitRequest,
        index: int,
        count: int,
        *,
        question_id: str | None = None,
        created_at: datetime | None = None,
    ) -> PendingQuestion:
        context = ClientRequestContext(
            server=self.server,
            server_info=self.server_info,
            protocol_version=self.protocol_version,
            era="modern",
            input_key=key,
            question_index=index,
            question_count=count,
        )
        question = PendingQuestion(
            context, request.params, call_id=self.id, question_id=question_id, created_at=created_at
        )
        self.questions[key] = question
        return question


def _approval_json(approval: PendingApproval) -> dict[str, Any]:
    """The approval as the store keeps it, with where it stands (for ``from_json``)."""
    record = approval_record(approval, None, context_record(approval.context))
    record["status"] = approval.status
    record["result"] = result_to_json(approval.result)
    return record
