"""``ChatApproval``: the app asks in a chat whether a tool call may run, a small state machine with no I/O.

Built by ``ChatForm.for_approval(request, context)`` and driven like a ``ChatForm``: post
``next_message()``, pass what the user typed (or a tapped quick reply's value) to ``reply(text)``,
repeat until ``done``; ``result()`` is then the ``ApprovalResult``.

The first message says the app asks (not the server) and lists the call (``ui_adapters._approval_text``:
server, tool, arguments folded and cleaned, the server's title and description in quotes after words
saying they are the server's). Quick replies: Allow once / Allow for this session / Always allow / Deny.
Free text: ``yes``, ``y``, ``ok``, ``allow`` allow once; ``session``; ``always``; ``no``, ``n``,
``deny``, ``cancel`` deny. Words after the answer are the note: ``no, because it's prod`` denies with
the note ``because it's prod``. Anything else is asked again.
"""

from __future__ import annotations

import re
from typing import Final

from mcp_client import ApprovalRequest, ApprovalResult, ClientRequestContext
from ui_adapters._approval_text import APP_ASKS, CHOICES, outcome_text, server_text, summary_lines
from ui_adapters.chat._message import ChatMessage

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
        note = " ".join(match["note"].split())[:_MAX_NOTE] or None
        self._result = ApprovalResult(decision=chosen.decision, remember=chosen.remember, note=note)
        return self.next_message()
