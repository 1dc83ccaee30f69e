"""One question waiting for a person: what was asked, by whom, and the answer once it is given.

A ``PendingQuestion`` is what ``QuestionBroker`` hands to an app and what ``BrowserFormAdapter`` serves
as a page. It carries the question in the shapes a UI needs (the normalized ``FormSchema``, or the URL),
a JSON description for front ends (``to_json``), and the one place an answer becomes final
(``settle``): the first outcome wins, later ones are refused, and whoever waits (the elicitation
callback, hence the tool call) wakes up with it.

Answers are checked with the same form model the client uses before it sends (``check_answer``), so
an app learns about a bad answer while the person can still fix it, not from a failed tool call.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

from mcp_client import ClientRequestContext, ElicitationError, InvalidElicitationContentError
from mcp_client.schema import FormSchema
from mcp_client.types import (
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
)
from ui_adapters._form_json import describe_form
from ui_adapters._url_safety import inspect_url
from ui_adapters.broker._pending_item import PendingItem, json_time
from ui_adapters.text import sanitize

__all__ = ["PendingQuestion", "QuestionNotPendingError", "QuestionStatus"]

QuestionStatus = Literal["pending", "answered", "declined", "cancelled", "timed-out", "withdrawn"]
"""Where a question stands. ``answered`` / ``declined`` / ``cancelled``: the app (or the person) chose;
``timed-out``: nobody answered in time (sent as cancel); ``withdrawn``: the call that asked went away
first (cancelled, or its client closed), so no answer can be sent any more."""


class QuestionNotPendingError(ElicitationError, LookupError):
    """No pending question has this id: it never existed, or it was answered, timed out or withdrawn.

    Also raised for a paused call or a stored task that another worker holds or that ended already.
    Defined here, beside the question, and exported by ``ui_adapters`` and ``ui_adapters.broker``.
    """


class PendingQuestion(PendingItem[ElicitResult, QuestionStatus]):
    """A question from a server, waiting for an answer.

    ``id`` is 24 random URL-safe characters (unguessable, so it can appear in a URL); ``server`` is the
    URL or command line of the server that asks (``ClientRequestContext.server``), ``server_name`` the
    name it gave itself. ``mode`` is ``"form"`` or ``"url"``; a form question has ``form`` (the
    normalized ``FormSchema``: fields, kinds, labels, constraints, defaults, options), a URL question has
    ``url`` (and ``elicitation_id``). ``created_at`` and ``expires_at`` (``None`` without a timeout) are
    aware UTC datetimes. ``context`` and ``params`` are what the elicitation callback received.
    ``call_id`` names the ``PausedCall`` of a question whose call was released (2026-07-28), else it is
    ``None`` (the call waits). ``question_id`` and ``created_at`` restore a stored question.
    """

    kind: Literal["question"] = "question"
    """``"question"``: a server asks (``broker.pending()`` also lists approvals, ``kind == "approval"``)."""

    __slots__ = ("elicitation_id", "form", "message", "mode", "params", "url")

    def __init__(
        self,
        context: ClientRequestContext,
        params: ElicitRequestParams,
        *,
        timeout: float | None = None,
        call_id: str | None = None,
        question_id: str | None = None,
        created_at: datetime | None = None,
    ) -> None:
        super().__init__(
            context, timeout=timeout, item_id=question_id, created_at=created_at, call_id=call_id
        )
        self.params: ElicitRequestParams = params
        self.message: str = params.message
        self.mode: Literal["form", "url"] = params.mode
        self.url: str | None = params.url if isinstance(params, ElicitRequestURLParams) else None
        self.elicitation_id: str | None = (
            params.elicitation_id if isinstance(params, ElicitRequestURLParams) else None
        )
        # The form the client already parsed (never the raw JSON Schema).
        self.form: FormSchema | None = params.form if isinstance(params, ElicitRequestFormParams) else None

    def __repr__(self) -> str:
        return f"<PendingQuestion {self.id} {self.mode} from {self.server_name!r}: {self.status}>"

    def to_json(self) -> dict[str, Any]:
        """A UI-ready description of the question that ``json.dumps`` accepts as is.

        Keys: ``id``, ``kind`` (``"question"``), ``server``, ``server_name``, ``mode``, ``message``,
        ``status``, ``created_at`` and
        ``expires_at`` (ISO 8601 UTC or ``None``), ``question_index`` / ``question_count`` (the place of
        this question in a 2026-07-28 round), ``call_id`` (its ``PausedCall``, or ``None``), ``task_id``
        (the tool task that asks, or ``None``), ``tool_name`` (the tool whose call asks, or ``None``:
        ``ClientRequestContext.tool_name``), ``form``
        (``None`` for a URL question, else ``{"confirmation", "fields"}``, each field with ``name``,
        ``kind`` (a ``FieldKind`` value),
        ``label``, ``help``, ``required``, ``default``, ``min_length``, ``max_length``, ``minimum``,
        ``maximum``, ``min_items``, ``max_items`` and ``options`` (``[{"value", "label"}]``)), and for a
        URL question ``url``, ``url_host`` (the host a browser would really contact), ``url_warnings``
        (sentences about what could mislead) and ``url_refusal`` (why the link must not be opened, or
        ``None``).

        Server text (message, labels, help, names) is cleaned of control and bidi characters but is
        still untrusted: insert it as text (``textContent``), never as HTML.
        """
        description: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "server": self.server,
            "server_name": sanitize(self.server_name, single_line=True),
            "mode": self.mode,
            "message": sanitize(self.message),
            "status": self._status,
            "created_at": json_time(self.created_at),
            "expires_at": json_time(self.expires_at) if self.expires_at is not None else None,
            "question_index": self.context.question_index,
            "question_count": self.context.question_count,
            "call_id": self.call_id,
            "task_id": self.context.task_id,
            "tool_name": (
                sanitize(self.context.tool_name, single_line=True) if self.context.tool_name else None
            ),
            "form": describe_form(self.form) if self.form is not None else None,
            "url": self.url,
        }
        if self.url is not None:
            inspection = inspect_url(self.url)
            description["url_host"] = inspection.unicode_host or inspection.host or None
            description["url_warnings"] = [warning.message for warning in inspection.warnings]
            description["url_refusal"] = inspection.refusal
        return description

    def check_answer(self, result: ElicitResult | Mapping[str, Any]) -> ElicitResult:
        """The answer as it will be sent: ``result`` checked against this question, defaults filled in.

        ``result`` is an ``ElicitResult`` or a plain mapping of field values (an ``accept``). An accept
        to a form question is completed with the schema's defaults and validated with the form model;
        a URL question takes no field values. Raises ``InvalidElicitationContentError`` naming the
        field and the rule; ``TypeError`` for anything that is not an answer.
        """
        if isinstance(result, Mapping):
            result = ElicitResult(action="accept", content=dict(result))
        elif not isinstance(result, ElicitResult):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f"an answer is an ElicitResult or a dict of field values, not {type(result).__name__}"
            )
        if result.action != "accept":
            return ElicitResult(action=result.action)
        if self.form is None:
            if result.content:
                raise InvalidElicitationContentError(
                    "A URL question is answered with accept, decline or cancel only; it takes no field "
                    f"values (got {', '.join(repr(key) for key in result.content)}).",
                    rule="additionalProperties",
                )
            return ElicitResult(action="accept")
        content = self.form.validate_content(self.form.fill_defaults(result.content))
        return ElicitResult(action="accept", content=dict(content))

    def _status_of(self, result: ElicitResult) -> QuestionStatus:
        return _STATUS_OF[result.action]


_STATUS_OF: dict[str, QuestionStatus] = {"accept": "answered", "decline": "declined", "cancel": "cancelled"}
