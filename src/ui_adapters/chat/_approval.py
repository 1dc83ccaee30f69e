"""``ChatApproval``: the app asks in a chat whether a tool call may run, a small state machine with no I/O.

Built by ``ChatForm.for_approval(request, context)`` and driven like a ``ChatForm``: post
``next_message()``, pass what the user typed (or a tapped quick reply's value) to ``reply(text)``,
repeat until ``done``; ``result()`` is then the ``ApprovalResult``. ``to_json()`` /
``ChatApproval.restore()`` carry the conversation across workers between two messages, as
``ChatForm``'s do.

The first message says the app asks (not the server) and lists the call (``ui_adapters._approval_text``:
server, tool, arguments folded and cleaned, the server's title and description in quotes after words
saying they are the server's). Quick replies: Allow once / Allow for this session / Always allow / Deny.
Free text: ``yes``, ``y``, ``ok``, ``allow`` allow once; ``session``; ``always``; ``no``, ``n``,
``deny``, ``cancel`` deny. Words after the answer are the note: ``no, because it's prod`` denies with
the note ``because it's prod``. Anything else is asked again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from mcp_client import ApprovalRequest, ApprovalResult, ClientRequestContext
from ui_adapters._approval_text import APP_ASKS, CHOICES, outcome_text, server_text, summary_lines
from ui_adapters.broker.approval import json_data
from ui_adapters.broker.stores import redact_server
from ui_adapters.chat._message import ChatMessage
from ui_adapters.chat._saved import (
    APPROVAL_FORMAT,
    FORM_FORMAT,
    context_from_saved,
    mapping,
    saved_context,
    text_or_none,
    whole,
)
from ui_adapters.text import sanitize

__all__ = ["ChatApproval"]

_MAX_NOTE: Final = 2000
_WORDS: Final[dict[str, int]] = {
    "allow for this session": 1, "for this session": 1, "this session": 1, "session": 1,
    "always allow": 2, "always": 2,
    "allow once": 0, "once": 0, "allow": 0, "approve": 0, "yes": 0, "y": 0, "okay": 0, "ok": 0,
    "sure": 0, "go ahead": 0,
    "deny": 3, "no": 3, "n": 3, "nope": 3, "refuse": 3, "don't": 3, "do not": 3, "cancel": 3, "stop": 3,
}  # fmt: skip
# The longest phrase first, and only as a whole word: "no" is not the start of "nothing".
_ANSWER = re.compile(
    r"\s*/?(?P<word>"
    + "|".join(re.escape(word) for word in sorted(_WORDS, key=len, reverse=True))
    + r")(?=$|[\s,.:;!?\-–—])[\s,.:;!?\-–—]*(?P<note>.*)",
    re.IGNORECASE | re.DOTALL,
)
_QUICK_REPLIES: Final = tuple(
    (label, value) for (label, _), value in zip(CHOICES, ("allow", "session", "always", "deny"), strict=True)
)
_HOW = 'Reply "yes" (allow once), "session", "always", or "no"; a reason may follow ("no, because ...").'


class ChatApproval:
    """One tool call's approval as a conversation (see the module docstring)."""

    def __init__(self, request: ApprovalRequest, context: ClientRequestContext | None = None) -> None:
        """``request`` as the ``approval_callback`` received it; ``context`` is kept for the app."""
        self.request = request
        self.context = context
        self._result: ApprovalResult | None = None
        self._error: str | None = None
        self._replies = 0

    @property
    def done(self) -> bool:
        """True once the user answered: ``result()`` is then ready."""
        return self._result is not None

    @property
    def server_name(self) -> str:
        """The server the call goes to, cleaned, on one line."""
        return server_text(self.request)

    def result(self) -> ApprovalResult:
        """The decision to return from an ``approval_callback``; ``RuntimeError`` before ``done``."""
        if self._result is None:
            raise RuntimeError("the conversation has not ended yet: keep calling reply() until done")
        return self._result

    def next_message(self) -> ChatMessage:
        """What to post now (the same message again until a reply comes)."""
        if self._result is not None:
            return ChatMessage(text=outcome_text(self._result), server_name=self.server_name, step="done")
        lines: list[str] = []
        if self._error is not None:
            lines.append(f"Sorry: {self._error}.")
        if self._replies == 0:
            lines.append(APP_ASKS)
            lines.extend(f"{label}: {text}" for label, text in summary_lines(self.request))
        lines.append(f"Allow this tool call? {_HOW}")
        return ChatMessage(
            text="\n".join(lines),
            server_name=self.server_name,
            step="approval",
            choices=_QUICK_REPLIES,
            error=self._error,
        )

    def reply(self, text: str) -> ChatMessage:
        """Take what the user typed (or a quick reply's value); returns the next message to post.

        ``RuntimeError`` once the conversation is ``done``.
        """
        if self._result is not None:
            raise RuntimeError("the conversation has ended: read result()")
        self._replies += 1
        match = _ANSWER.fullmatch(text)
        if match is None:
            self._error = 'reply "yes", "session", "always" or "no"'
            return self.next_message()
        self._error = None
        chosen = CHOICES[_WORDS[match["word"].casefold()]][1]
        self._result = ApprovalResult(chosen.decision, chosen.remember, _note(match["note"]))
        return self.next_message()

    # --------------------------------------------------------------------------------------- storage
    def to_json(self) -> dict[str, Any]:
        """The conversation as JSON-ready data, for a store between two messages (``restore``).

        ``view`` is the call as a page shows it (``PendingApproval.to_json()``'s ``approval``: server,
        tool, arguments, annotations, title, description, reason; strings cleaned), ``request`` the
        ``ApprovalRequest`` as JSON (so any worker asks about the same call), ``context`` who asked
        (the server URL without ``user:password@``; never a token), ``state`` where the conversation
        stands (replies so far, the last refusal, the answer once given). A server named by its URL
        loses its ``user:password@`` in ``view`` and ``request`` too.
        """
        request = self.request
        server = redact_server(request.server)
        arguments = json_data(request.arguments)
        annotations = json_data(request.annotations) if request.annotations is not None else None
        result = self._result
        return {
            "format": APPROVAL_FORMAT,
            "view": {
                "server_name": sanitize(server, single_line=True),
                "approval": {
                    "server": sanitize(server, single_line=True),
                    "tool": sanitize(request.tool, single_line=True),
                    "arguments": arguments,
                    "annotations": annotations,
                    "title": sanitize(request.title, single_line=True) if request.title else None,
                    "description": sanitize(request.description) if request.description else None,
                    "reason": sanitize(request.reason, single_line=True),
                },
            },
            "request": {
                "server": server,
                "tool": request.tool,
                "arguments": arguments,
                "annotations": annotations,
                "title": request.title,
                "description": request.description,
                "reason": request.reason,
            },
            "context": saved_context(self.context),
            "state": {
                "replies": self._replies,
                "error": self._error,
                "result": (
                    {"decision": result.decision, "remember": result.remember, "note": result.note}
                    if result is not None
                    else None
                ),
            },
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> ChatApproval:
        """The conversation ``to_json()`` described, where it stood.

        A restored conversation is checked like a new one: ``ValueError`` if ``data`` is not a saved
        approval conversation, or stands where none can (a request that is not one, an answer that is
        not an ``ApprovalResult``, an answer or a refusal before any reply, both at once). The server's
        text is cleaned again when shown, a saved refusal of control characters, a saved note as a
        typed one is (one line, at most 2000 characters).
        """
        if not isinstance(data, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(f"not a saved ChatApproval conversation (expected format {APPROVAL_FORMAT!r})")
        if data.get("format") == FORM_FORMAT:
            raise ValueError("a saved ChatForm conversation: restore it with ChatForm.restore()")
        if data.get("format") != APPROVAL_FORMAT:
            raise ValueError(f"not a saved ChatApproval conversation (expected format {APPROVAL_FORMAT!r})")
        try:
            approval = cls(_request_from_saved(data["request"]), context_from_saved(data.get("context")))
            approval._load_state(data["state"])
        except (KeyError, TypeError) as error:
            raise ValueError(f"a saved ChatApproval conversation is incomplete: {error}") from None
        return approval

    def _load_state(self, state: object) -> None:
        """Take the saved ``state`` if the conversation could have got there, else ``ValueError``."""
        state = mapping(state, "state")
        replies = whole(state["replies"], "replies")
        error = text_or_none(state.get("error"), "error")
        saved = state.get("result")
        result = _result_from_saved(saved) if saved is not None else None
        if replies == 0 and (result is not None or error is not None):
            raise ValueError("the saved conversation has an answer or a refusal before any reply")
        if result is not None and error is not None:
            raise ValueError("the saved conversation has both an answer and a refusal of a reply")
        self._replies, self._result = replies, result
        self._error = (sanitize(error, max_length=300, single_line=True) if error else "") or None


def _note(typed: str) -> str | None:
    """A note as the user typed it after the answer: on one line, at most ``_MAX_NOTE`` characters."""
    return " ".join(typed.split())[:_MAX_NOTE] or None


def _request_from_saved(stored: object) -> ApprovalRequest:
    """The ``ApprovalRequest`` ``to_json()`` saved; ``ValueError`` for a field of the wrong kind."""
    record = mapping(stored, "request")
    fields: dict[str, str] = {}
    for key in ("server", "tool", "reason"):
        value = record[key]
        if not isinstance(value, str):
            raise ValueError(f"the saved request's {key} must be text, not {value!r}")
        fields[key] = value
    annotations = record.get("annotations")
    return ApprovalRequest(
        arguments=MappingProxyType(dict(mapping(record["arguments"], "request's arguments"))),
        annotations=(
            MappingProxyType(dict(mapping(annotations, "request's annotations")))
            if annotations is not None
            else None
        ),
        title=text_or_none(record.get("title"), "request's title"),
        description=text_or_none(record.get("description"), "request's description"),
        **fields,
    )


def _result_from_saved(stored: object) -> ApprovalResult:
    """The answer ``to_json()`` saved; ``ValueError`` for one no reply could have given."""
    record = mapping(stored, "result")
    unknown = sorted(set(record) - {"decision", "remember", "note"})
    if unknown:
        raise ValueError(f"the saved result has decision, remember and note; not {', '.join(unknown)}")
    note = text_or_none(record.get("note"), "result's note")
    return ApprovalResult(  # ValueError for a decision or a remember it does not have
        decision=record["decision"],
        remember=record["remember"],
        note=_note(note) if note is not None else None,
    )
