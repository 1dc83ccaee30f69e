"""Answers written in advance, for tests and scripted runs: no person, no terminal.

``CannedAnswers`` is an elicitation callback that answers from what it was given, records every
question it got (so a test can assert on what the server asked) and fails loudly on a question it
has no answer for, instead of guessing. Enable the pytest fixture with
``pytest_plugins = ["ui_adapters.pytest_plugin"]``.

An answer, wherever one is expected, may be an ``ElicitResult`` (sent as is), an action name
(``"accept"``, ``"decline"``, ``"cancel"``), a mapping (accept a form with that content, the schema's
defaults filling the rest), or a callable ``(context, params) -> ElicitResult`` (sync or async).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeAlias, cast

from mcp_client import ClientRequestContext
from mcp_client.types import (
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
)

__all__ = ["CannedAnswer", "CannedAnswers", "CannedQuestion", "UnansweredQuestionError"]

CannedAnswer: TypeAlias = (
    ElicitResult
    | str
    | Mapping[str, Any]
    | Callable[[ClientRequestContext, ElicitRequestParams], ElicitResult | Awaitable[ElicitResult]]
)
"""One prepared answer; see the module docstring for what each form means."""

_ACTIONS: Final = ("accept", "decline", "cancel")


@dataclass(frozen=True, slots=True)
class CannedQuestion:
    """One question ``CannedAnswers`` received, with the answer it gave (``None`` if it had none)."""

    context: ClientRequestContext
    params: ElicitRequestParams
    answer: ElicitResult | None

    @property
    def message(self) -> str:
        return self.params.message

    @property
    def mode(self) -> str:
        return self.params.mode

    @property
    def field_names(self) -> tuple[str, ...]:
        """The form's property names in the server's order (empty for URL questions)."""
        if isinstance(self.params, ElicitRequestFormParams):
            return tuple(field.name for field in self.params.form.fields)
        return ()


class UnansweredQuestionError(AssertionError):
    """A question arrived that the canned answers do not cover; the message says which and why.

    An ``AssertionError`` so that test runners report it as a failed expectation. The client wraps it
    in ``ElicitationCallbackError``; the pytest fixture also fails the test at teardown.
    """

    def __init__(self, message: str, *, question: CannedQuestion) -> None:
        super().__init__(message)
        self.question = question


class CannedAnswers:
    """An elicitation callback answering from ``by_message``, then ``fields``, then ``script``.

    * ``by_message``: ``{regex: answer}``; the first pattern found (``re.search``) in the question's
      message gives the answer (form or URL questions).
    * ``fields``: ``{field name: value}``; answers ``accept`` to a form question that has at least one
      of these fields, with those values and the schema's defaults for the rest, as long as every
      required field gets a value.
    * ``script``: answers used in order, one per question not matched above.
    * ``defaults=True`` (or ``CannedAnswers.accept_defaults()``): anything left is accepted, a form with
      its schema's defaults, a URL question as consent.

    Anything else raises ``UnansweredQuestionError`` naming the message and the form's fields.
    ``questions`` records every question (with the answer given), ``unanswered`` those that failed,
    ``completed_ids`` the legacy URL completions heard through ``on_elicitation_complete``.
    ``modes`` sets the ``elicitation_modes`` the client declares (both by default).
    """

    def __init__(
        self,
        *,
        fields: Mapping[str, Any] | None = None,
        by_message: Mapping[str | re.Pattern[str], CannedAnswer] | None = None,
        script: Iterable[CannedAnswer] | None = None,
        defaults: bool = False,
        modes: Iterable[str] = ("form", "url"),
    ) -> None:
        self._fields = dict(fields or {})
        self._by_message = [
            (re.compile(p) if isinstance(p, str) else p, a) for p, a in (by_message or {}).items()
        ]
        self._script = list(script or ())
        self._script_used = 0
        self._defaults = defaults
        self.elicitation_modes: frozenset[str] = frozenset(modes)
        self.questions: list[CannedQuestion] = []
        self.unanswered: list[CannedQuestion] = []
        self.completed_ids: list[str] = []
        for answer in [a for _, a in self._by_message] + self._script:
            _check_answer(answer)

    @classmethod
    def accept_defaults(cls, **kwargs: Any) -> CannedAnswers:
        """Accept every question: forms with their schema's defaults, URL questions as consent.

        Other keyword arguments (``fields``, ``by_message``, ``script``) take precedence.
        """
        return cls(defaults=True, **kwargs)

    @property
    def script_remaining(self) -> int:
        """How many scripted answers have not been used yet."""
        return len(self._script) - self._script_used

    @property
    def messages(self) -> list[str]:
        """The messages of every question received, in order."""
        return [q.message for q in self.questions]

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        answer, reasons = self._find(params)
        if answer is None:
            question = CannedQuestion(context, params, None)
            self.questions.append(question)
            self.unanswered.append(question)
            raise UnansweredQuestionError(self._describe_miss(context, params, reasons), question=question)
        result = await _materialize(answer, context, params)
        self.questions.append(CannedQuestion(context, params, result))
        return result

    async def on_elicitation_complete(self, elicitation_id: str) -> None:
        """Record a legacy ``notifications/elicitation/complete`` (see ``completed_ids``)."""
        self.completed_ids.append(elicitation_id)

    elicitation_complete_callback = on_elicitation_complete

    def assert_all_answered(self) -> None:
        """Raise ``UnansweredQuestionError`` if any question went without an answer.

        Useful when the client turned the callback's exception into an error the test did not check.
        """
        if self.unanswered:
            first = self.unanswered[0]
            raise UnansweredQuestionError(
                f"{len(self.unanswered)} question(s) had no canned answer; first: {first.message!r}",
                question=first,
            )

    # ------------------------------------------------------------------------------------------ lookup

    def _find(self, params: ElicitRequestParams) -> tuple[CannedAnswer | None, list[str]]:
        reasons: list[str] = []
        for pattern, answer in self._by_message:
            if pattern.search(params.message):
                return answer, reasons
        if self._by_message:
            patterns = ", ".join(repr(p.pattern) for p, _ in self._by_message)
            reasons.append(f"no by_message pattern matches (patterns: {patterns})")

        if isinstance(params, ElicitRequestFormParams) and self._fields:
            content, why_not = self._from_fields(params)
            if content is not None:
                return ElicitResult(action="accept", content=content), reasons
            reasons.append(why_not)

        if self._script_used < len(self._script):
            answer = self._script[self._script_used]
            self._script_used += 1
            return answer, reasons
        if self._script:
            reasons.append(f"the script is used up (all {len(self._script)} answers given)")

        if self._defaults:
            if isinstance(params, ElicitRequestURLParams):
                return "accept", reasons
            content, why_not = _default_content(params)
            if content is not None:
                return ElicitResult(action="accept", content=content), reasons
            reasons.append(why_not)
        if not (self._by_message or self._fields or self._script or self._defaults):
            reasons.append("no answers were given at all")
        return None, reasons

    def _from_fields(self, params: ElicitRequestFormParams) -> tuple[dict[str, Any] | None, str]:
        schema = params.form
        names = [f.name for f in schema.fields]
        given = {name: self._fields[name] for name in names if name in self._fields}
        if not given:
            known = ", ".join(sorted(self._fields))
            return None, f"none of the canned fields ({known}) is in this form"
        content = schema.fill_defaults(given)
        missing = [f.name for f in schema.fields if f.required and content.get(f.name) is None]
        if missing:
            return None, f"required field(s) {', '.join(missing)} have neither a canned value nor a default"
        return content, ""

    def _describe_miss(
        self, context: ClientRequestContext, params: ElicitRequestParams, reasons: list[str]
    ) -> str:
        lines = [f"CannedAnswers has no answer for this question from {context.server_name}:"]
        lines.append(f"  message: {params.message!r}")
        if isinstance(params, ElicitRequestFormParams):
            lines.append(f"  form fields: {_describe_fields(params) or '(none: a confirmation)'}")
        else:
            lines.append(f"  URL question: {params.url!r}")
        lines.extend(f"  - {reason}" for reason in reasons)
        lines.append(
            "Add an answer: fields={...}, by_message={r'<regex>': ...}, a script entry, "
            "or use CannedAnswers.accept_defaults()."
        )
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- helpers


def _check_answer(answer: object) -> None:
    if isinstance(answer, str) and answer not in _ACTIONS:
        raise ValueError(
            f"a canned answer given as text must be one of {', '.join(_ACTIONS)}; got {answer!r}"
        )
    if not isinstance(answer, ElicitResult | str | Mapping) and not callable(answer):
        raise TypeError(
            f"a canned answer must be an ElicitResult, an action name, a mapping of field values or a "
            f"callable; got {type(answer).__name__}"
        )


async def _materialize(
    answer: CannedAnswer, context: ClientRequestContext, params: ElicitRequestParams
) -> ElicitResult:
    if isinstance(answer, ElicitResult):
        return answer
    if isinstance(answer, str):
        return ElicitResult.model_validate({"action": answer})
    if isinstance(answer, Mapping):
        if not isinstance(params, ElicitRequestFormParams):
            raise TypeError(
                f"field values were canned for a URL question ({params.message!r}); "
                "answer URL questions with an action or an ElicitResult"
            )
        content = params.form.fill_defaults(cast(Mapping[str, Any], answer))
        return ElicitResult(action="accept", content=content)
    outcome = answer(context, params)
    if inspect.isawaitable(outcome):
        outcome = await outcome
    return outcome


def _default_content(params: ElicitRequestFormParams) -> tuple[dict[str, Any] | None, str]:
    schema = params.form
    content: dict[str, Any] = dict(schema.default_content())
    missing = [f.name for f in schema.fields if f.required and f.name not in content]
    if missing:
        return None, f"accept_defaults: required field(s) {', '.join(missing)} have no default"
    return content, ""


def _describe_fields(params: ElicitRequestFormParams) -> str:
    parts: list[str] = []
    for field in params.form.fields:
        parts.append(f"{field.name} ({field.kind.value}{', required' if field.required else ''})")
    return ", ".join(parts)
