"""``ChatForm``: one elicitation question as a conversation, a small state machine with no I/O.

A chat app asks ``next_message()`` what to post, passes whatever the user typed (or the value of a
tapped quick reply) to ``reply(text)``, and repeats until ``done``; ``result()`` is then the
``ElicitResult`` to return. Nothing is accepted before the last step, which shows every value as it
will be sent. ``to_json()`` / ``ChatForm.restore()`` carry a conversation across workers between two
messages, in the broker's JSON shape (the question's ``view``, the wire ``request``, who asked) plus
where the conversation stands.

Replies that steer rather than answer (whole message, any case, a leading ``/`` allowed): ``back``,
``skip`` (an optional field), ``default`` (keep the default), ``decline``, ``cancel``; in the last step
``send`` or a field's number. In a choice field an option named like a command is the option; with a
leading ``/`` it is always the command.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, cast

from mcp_client import ApprovalRequest, ClientRequestContext, InvalidElicitationContentError
from mcp_client.schema import AnswerValue, FieldKind, FormSchema
from mcp_client.types import (
    ElicitationAction,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
)
from ui_adapters._form_json import describe_form
from ui_adapters._url_safety import inspect_url, visible_url
from ui_adapters.broker.stores import redact_server
from ui_adapters.chat._approval import ChatApproval
from ui_adapters.chat._message import ChatMessage, ChatStep, field_prompt, review_prompt
from ui_adapters.chat._reading import read_answer, read_yes_no
from ui_adapters.chat._saved import (
    APPROVAL_FORMAT,
    FORM_FORMAT,
    context_from_saved,
    mapping,
    saved_context,
    whole,
)
from ui_adapters.text import sanitize

__all__ = ["ChatForm"]

_MAX_MESSAGE = 4000
_CANCEL = frozenset({"cancel", "stop", "quit", "abort", "never mind", "nevermind"})
_DECLINE = frozenset({"decline", "refuse", "no thanks", "i decline"})
_SEND = frozenset({"send", "submit", "confirm", "ok", "okay", "yes", "y", "done", "go"})
_COMMANDS = frozenset({"back", "skip", "default", "keep", *_CANCEL, *_DECLINE})

Clock = Callable[[], datetime]


def _local_now() -> datetime:
    return datetime.now().astimezone()


class ChatForm:
    """A form or link question asked one message at a time (see the module docstring)."""

    def __init__(
        self,
        params: ElicitRequestParams,
        context: ClientRequestContext | None = None,
        *,
        now: Clock | None = None,
    ) -> None:
        """``params`` as the callback received them; ``context`` names the server (``None``: "the
        server"). ``now`` is the clock relative dates ("tomorrow") are read against; a date-time typed
        without a zone takes the clock's zone (the local one by default)."""
        self.params = params
        self.context = context
        self._now = now or _local_now
        self._form: FormSchema | None = params.form if isinstance(params, ElicitRequestFormParams) else None
        self._values: dict[str, AnswerValue] = {}
        self._index = 0
        self._editing = False
        self._error: str | None = None
        self._replies = 0
        self._action: ElicitationAction | None = None
        self._step: ChatStep = self._first_step()

    @staticmethod
    def for_approval(request: ApprovalRequest, context: ClientRequestContext | None = None) -> ChatApproval:
        """The app's own question "may this tool call run?" as a conversation, driven like a form
        (``next_message()``, ``reply(text)``, ``done``), whose ``result()`` is an ``ApprovalResult``.

        Quick replies Allow once / Allow for this session / Always allow / Deny; free text "yes", "ok",
        "no", and "no, because it's prod" (denied, with the note "because it's prod"). See
        ``ChatApproval``.
        """
        return ChatApproval(request, context)

    # ------------------------------------------------------------------------------------------ state
    @property
    def done(self) -> bool:
        """True once the user sent, declined or cancelled: ``result()`` is then ready."""
        return self._action is not None

    @property
    def server_name(self) -> str:
        name = self.context.server_name if self.context is not None else "the server"
        return sanitize(name, max_length=80, single_line=True) or "the server"

    @property
    def _asker(self) -> str:
        """``bistro · book_table`` when the question says which tool call asks, else the server's name."""
        tool = self.context.tool_name if self.context is not None else None
        tool = sanitize(tool or "", max_length=80, single_line=True)
        return f"{self.server_name} · {tool}" if tool else self.server_name

    def result(self) -> ElicitResult:
        """The answer to return from an ``elicitation_callback``; ``RuntimeError`` before ``done``."""
        if self._action is None:
            raise RuntimeError("the conversation has not ended yet: keep calling reply() until done")
        if self._action != "accept":
            return ElicitResult(action=self._action)
        if self._form is None:
            return ElicitResult(action="accept")
        return ElicitResult(action="accept", content=dict(self._content()))

    # --------------------------------------------------------------------------------------- messages
    def next_message(self) -> ChatMessage:
        """What to post now: the current step, with why the last reply was refused if it was.

        Calling it again without a reply gives the same message.
        """
        lines: list[str] = []
        if self._error is not None:
            lines.append(f"Sorry: {self._error}.")
        if self._replies == 0 and self._step != "done":
            lines.append(f"{self._asker} asks: {sanitize(self.params.message, max_length=_MAX_MESSAGE)}")
            if self._step == "field":
                lines.append('(Reply "back" to go to the previous question, "cancel" to stop.)')
        builder = {
            "field": self._field_message,
            "review": self._review_message,
            "confirm": self._confirm_message,
            "url": self._url_message,
            "done": self._done_message,
        }[self._step]
        return builder(lines)

    def _message(self, lines: list[str], body: list[str], **fields: Any) -> ChatMessage:
        text = "\n".join([*lines, f"{self.server_name} · {body[0]}", *body[1:]])
        return ChatMessage(text=text, server_name=self.server_name, error=self._error, **fields)

    def _field_message(self, lines: list[str]) -> ChatMessage:
        form = self._require_form()
        form_field = form.fields[self._index]
        body, choices = field_prompt(
            form_field, position=self._index + 1, count=len(form.fields), editing=self._editing
        )
        return self._message(lines, body, step="field", choices=choices, field=form_field.name)

    def _review_message(self, lines: list[str]) -> ChatMessage:
        body, choices = review_prompt(self._require_form().fields, self._content(validate=False))
        return self._message(lines, body, step="review", choices=choices)

    def _confirm_message(self, lines: list[str]) -> ChatMessage:
        body = ['Reply "yes" to accept, "no" to decline, or "cancel".']
        choices = (("Accept", "yes"), ("Decline", "no"), ("Cancel", "cancel"))
        return self._message(lines, body, step="confirm", choices=choices)

    def _url_message(self, lines: list[str]) -> ChatMessage:
        url = cast(ElicitRequestURLParams, self.params).url
        inspection = inspect_url(url)
        host = inspection.unicode_host or inspection.host or None
        body = [f"Link: {visible_url(url)}"]
        if host:
            body.append(f"It opens {host}.")
        body.extend(f"Warning: {warning.message}" for warning in inspection.warnings)
        if inspection.refusal is not None:
            body.append(f"This link must not be opened: {inspection.refusal}")
            body.append('Reply "decline" or "cancel".')
            choices: tuple[tuple[str, str], ...] = (("Decline", "decline"), ("Cancel", "cancel"))
        else:
            body.append('Open it? Reply "yes" to go on, "no" to decline, or "cancel".')
            choices = (("Open the link", "yes"), ("No", "no"), ("Cancel", "cancel"))
        return self._message(
            lines,
            body,
            step="url",
            choices=choices,
            url=url,
            url_host=host,
            url_warnings=tuple(warning.message for warning in inspection.warnings),
            url_refusal=inspection.refusal,
        )

    def _done_message(self, lines: list[str]) -> ChatMessage:
        if self._action == "accept" and isinstance(self.params, ElicitRequestURLParams):
            url = self.params.url
            return self._message(
                lines, [f"Open this link to continue: {visible_url(url)}"], step="done", url=url
            )
        text = {"accept": "Sent.", "decline": "Declined: nothing was sent.", "cancel": "Cancelled."}
        return self._message(lines, [text[self._action or "cancel"]], step="done")

    # ---------------------------------------------------------------------------------------- replies
    def reply(self, text: str) -> ChatMessage:
        """Take what the user typed (or a quick reply's value); returns the next message to post.

        A reply that cannot be read leaves the conversation where it was, with the reason in the next
        message. ``RuntimeError`` once the conversation is ``done``.
        """
        if self._action is not None:
            raise RuntimeError("the conversation has ended: read result()")
        self._error = None
        self._replies += 1
        word = _word(text)
        command = word.lstrip("/") if word.startswith("/") or self._is_command(word) else None
        if command in _CANCEL:
            self._action = "cancel"
        elif command in _DECLINE:
            self._action = "decline"
        elif self._step == "field":
            self._reply_field(text, command)
        elif self._step == "review":
            self._reply_review(word, command)
        else:  # confirm / url: a yes/no
            self._reply_yes_no(word)
        if self._action is not None:
            self._step = "done"
        return self.next_message()

    def _is_command(self, word: str) -> bool:
        if word not in _COMMANDS:
            return False
        if self._step != "field":
            return True
        form_field = self._require_form().fields[self._index]
        if form_field.kind is FieldKind.BOOLEAN:  # "no thanks" answers a yes/no question, not the whole form
            return not _is_yes_no(word)
        return not any(word in (_word(option.value), _word(option.label)) for option in form_field.options)

    def _reply_field(self, text: str, command: str | None) -> None:
        form = self._require_form()
        form_field = form.fields[self._index]
        if command == "back":
            self._back()
            return
        if command in ("default", "keep"):
            if form_field.default is None:
                self._error = "this question has no default"
                return
            value: AnswerValue | None = form_field.default
        elif command == "skip":
            if form_field.required:
                self._error = "this question is required: it cannot be skipped"
                return
            value = None
        elif command is not None:
            self._error = f'"{command}" does not apply here'
            return
        elif not text.strip():
            self._error = "type an answer"
            return
        else:
            try:
                value = read_answer(form_field, text, now=self._now(), zone=self._zone())
            except ValueError as error:
                self._error = sanitize(str(error), max_length=200, single_line=True)
                return
        if value is None:
            self._values.pop(form_field.name, None)
        else:
            self._values[form_field.name] = value
        self._advance()

    def _reply_review(self, word: str, command: str | None) -> None:
        form = self._require_form()
        if command == "back":
            self._index = len(form.fields) - 1
            self._step = "field"
            return
        if word.isdigit() and 1 <= int(word) <= len(form.fields):
            self._index = int(word) - 1
            self._editing = True
            self._step = "field"
            return
        if command is None and word in _SEND:
            try:
                self._content()
            except (ValueError, InvalidElicitationContentError) as error:
                self._error = sanitize(str(error), max_length=300, single_line=True)
                return
            self._action = "accept"
            return
        self._error = f'reply "send", a number from 1 to {len(form.fields)}, "decline" or "cancel"'

    def _reply_yes_no(self, word: str) -> None:
        refused = self._step == "url" and inspect_url(cast(ElicitRequestURLParams, self.params).url).refusal
        try:
            accepted = read_yes_no(word)
        except ValueError:
            self._error = 'reply "decline" or "cancel"' if refused else 'reply "yes", "no" or "cancel"'
            return
        if accepted and refused:
            self._error = "this link must not be opened"
            return
        self._action = "accept" if accepted else "decline"

    def _advance(self) -> None:
        form = self._require_form()
        if self._editing or self._index + 1 >= len(form.fields):
            self._editing = False
            self._step = "review"
        else:
            self._index += 1

    def _back(self) -> None:
        if self._editing:
            self._editing = False
            self._step = "review"
        elif self._index == 0:
            self._error = "this is the first question"
        else:
            self._index -= 1

    # ------------------------------------------------------------------------------------------ values
    def _content(self, *, validate: bool = True) -> Mapping[str, AnswerValue]:
        form = self._require_form()
        filled = form.fill_defaults(self._values)
        return form.validate_content(filled) if validate else filled

    def _require_form(self) -> FormSchema:
        assert self._form is not None
        return self._form

    def _first_step(self) -> ChatStep:
        if self._form is None:
            return "url"
        return "confirm" if self._form.is_confirmation else "field"

    def _zone(self) -> Any:
        return self._now().tzinfo

    # --------------------------------------------------------------------------------------- storage
    def to_json(self) -> dict[str, Any]:
        """The conversation as JSON-ready data, for a store between two messages (``restore``).

        ``view`` is the question as the broker describes it (``PendingQuestion.to_json()``'s keys for
        the question itself), ``request`` the wire ``elicitation/create`` (so any worker rebuilds the
        same form), ``context`` who asked (the server URL without ``user:password@``; never a token),
        ``state`` where the conversation stands and the answers so far.
        """
        context = self.context
        view: dict[str, Any] = {
            "server": redact_server(context.server) if context is not None else None,
            "server_name": self.server_name,
            "mode": self.params.mode,
            "message": sanitize(self.params.message),
            "form": describe_form(self._form) if self._form is not None else None,
            "url": self.params.url if isinstance(self.params, ElicitRequestURLParams) else None,
        }
        return {
            "format": FORM_FORMAT,
            "view": view,
            "request": ElicitRequest(params=self.params).model_dump_wire(),
            "context": saved_context(context),
            "state": {
                "step": self._step,
                "index": self._index,
                "editing": self._editing,
                "values": {name: list(v) if isinstance(v, list) else v for name, v in self._values.items()},
                "error": self._error,
                "replies": self._replies,
                "action": self._action,
            },
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any], *, now: Clock | None = None) -> ChatForm:
        """The conversation ``to_json()`` described, where it stood.

        A restored conversation is checked like a new one: ``ValueError`` if ``data`` is not a saved
        conversation, or stands where this question cannot be (a step or an action it does not have,
        answers that do not fit the question, an accepted answer that could not be sent, an accepted link
        that must never be opened). A saved refusal is cleaned of control characters again.
        """
        if isinstance(data, Mapping) and data.get("format") == APPROVAL_FORMAT:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError("a saved ChatApproval conversation: restore it with ChatApproval.restore()")
        if not isinstance(data, Mapping) or data.get("format") != FORM_FORMAT:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(f"not a saved ChatForm conversation (expected format {FORM_FORMAT!r})")
        try:
            params = ElicitRequest.model_validate(data["request"]).params
            form = cls(params, context_from_saved(data.get("context")), now=now)
            form._load_state(data["state"])
        except (KeyError, TypeError) as error:
            raise ValueError(f"a saved ChatForm conversation is incomplete: {error}") from None
        return form

    def _load_state(self, state: object) -> None:
        """Take the saved ``state`` if this question could have got there, else ``ValueError``."""
        state = mapping(state, "state")
        step = state["step"]
        steps = _STEPS_OF[self._first_step()]
        if step not in steps:
            raise ValueError(f"unknown step {step!r} for this question (one of: {', '.join(steps)})")
        action = state.get("action")
        if action not in (None, "accept", "decline", "cancel"):
            raise ValueError(f'unknown action {action!r} (one of: "accept", "decline", "cancel", null)')
        if (step == "done") != (action is not None):
            raise ValueError(f"the step {step!r} does not go with the action {action!r}")
        index = whole(state["index"], "index")
        if not 0 <= index < max(len(self._form.fields) if self._form is not None else 0, 1):
            raise ValueError("the saved position is outside the form")
        editing = state["editing"]
        if not isinstance(editing, bool):
            raise ValueError(f"the saved editing flag must be true or false, not {editing!r}")
        replies = whole(state.get("replies", 1), "replies")
        error = state.get("error")
        if error is not None and not isinstance(error, str):
            raise ValueError(f"the saved error must be text or null, not {error!r}")
        values = dict(mapping(state["values"], "values"))
        fields = {f.name: f for f in self._form.fields} if self._form is not None else {}
        for name, value in values.items():
            form_field = fields.get(name)
            if form_field is None or form_field.check(value) is not None:
                raise ValueError(f"the saved answer for {name!r} does not fit the question")
        self._step, self._action, self._index, self._editing = step, action, index, editing
        self._replies, self._values = replies, values
        self._error = (sanitize(error, max_length=300, single_line=True) if error else "") or None
        if action == "accept":
            self._check_accepted()

    def _check_accepted(self) -> None:
        """A saved ``accept`` must be one this form would have taken."""
        if isinstance(self.params, ElicitRequestURLParams):
            refusal = inspect_url(self.params.url).refusal
            if refusal is not None:
                raise ValueError(f"the saved answer accepts a link that must never be opened: {refusal}")
        elif self._form is not None:
            try:
                self._content()
            except InvalidElicitationContentError as error:
                raise ValueError(f"the saved answer was accepted but could not be sent: {error}") from None


_STEPS_OF: dict[ChatStep, tuple[ChatStep, ...]] = {
    "field": ("field", "review", "done"),
    "confirm": ("confirm", "done"),
    "url": ("url", "done"),
}


def _is_yes_no(word: str) -> bool:
    try:
        read_yes_no(word)
    except ValueError:
        return False
    return True


def _word(text: str) -> str:
    return " ".join(text.casefold().split()).strip(" .!?")
