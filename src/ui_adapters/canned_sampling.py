"""Sampling answers written in advance, for tests and scripted runs: no model, no person.

``CannedSampling`` is a ``sampling_callback`` that answers from what it was given, records every
request (so a test can assert on what the server wanted the model to see) and fails loudly on a request
it has no answer for, instead of guessing. It sits beside ``CannedAnswers`` (elicitation); the pytest
plugin offers both (``canned_answers``, ``canned_sampling``).

An answer may be text (the model's reply), a ``CreateMessageResult`` (or ``...WithTools``, sent as is),
an ``MCPError`` (a refusal: raised, so the server or the call sees it), or a callable
``(context, params) -> CreateMessageResult`` (sync or async).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

from mcp_client import ClientRequestContext, MCPError
from mcp_client.types import (
    CreateMessageRequestParams,
    CreateMessageResult,
    CreateMessageResultWithTools,
    TextContent,
)

__all__ = ["CannedSampling", "CannedSamplingAnswer", "CannedSamplingRequest", "UnansweredSamplingError"]

SamplingAnswer: TypeAlias = CreateMessageResult | CreateMessageResultWithTools
CannedSamplingAnswer: TypeAlias = (
    str
    | SamplingAnswer
    | MCPError
    | Callable[[ClientRequestContext, CreateMessageRequestParams], SamplingAnswer | Awaitable[SamplingAnswer]]
)
"""One prepared answer; see the module docstring for what each form means."""


def prompt_text(params: CreateMessageRequestParams) -> str:
    """The text of the last user message: what a person would call "the prompt"."""
    for message in reversed(params.messages):
        if message.role == "user":
            texts = [block.text for block in message.content_as_list if isinstance(block, TextContent)]
            if texts:
                return "\n".join(texts)
    return ""


@dataclass(frozen=True, slots=True)
class CannedSamplingRequest:
    """One request ``CannedSampling`` received, with the answer it gave (``None``: refused or unanswered)."""

    context: ClientRequestContext
    params: CreateMessageRequestParams
    answer: SamplingAnswer | None

    @property
    def prompt(self) -> str:
        """The text of the request's last user message."""
        return prompt_text(self.params)

    @property
    def system_prompt(self) -> str | None:
        return self.params.system_prompt


class UnansweredSamplingError(AssertionError):
    """A sampling request arrived that the canned answers do not cover; the message says which.

    An ``AssertionError`` so that test runners report it as a failed expectation; the client wraps it
    in ``CallbackError`` (kind ``"sampling"``), and the pytest fixture also fails the test at teardown.
    """

    def __init__(self, message: str, *, request: CannedSamplingRequest) -> None:
        super().__init__(message)
        self.request = request


class CannedSampling:
    """A sampling callback answering from ``by_prompt``, then ``script``, then ``default``.

    * ``by_prompt``: ``{regex: answer}``; the first pattern found (``re.search``) in the prompt (the
      last user message's text) gives the answer.
    * ``script``: answers used in order, one per request not matched above.
    * ``default``: the answer for anything left.

    Text answers become ``CreateMessageResult(role="assistant", content=TextContent(text), model=model,
    stop_reason="endTurn")``. ``requests`` records every request, ``unanswered`` those that failed.
    """

    def __init__(
        self,
        *,
        by_prompt: Mapping[str | re.Pattern[str], CannedSamplingAnswer] | None = None,
        script: Iterable[CannedSamplingAnswer] | None = None,
        default: CannedSamplingAnswer | None = None,
        model: str = "canned-model",
    ) -> None:
        self._by_prompt = [
            (re.compile(p) if isinstance(p, str) else p, a) for p, a in (by_prompt or {}).items()
        ]
        self._script = list(script or ())
        self._script_used = 0
        self._default = default
        self.model = model
        self.requests: list[CannedSamplingRequest] = []
        self.unanswered: list[CannedSamplingRequest] = []
        for answer in (
            [a for _, a in self._by_prompt] + self._script + ([default] if default is not None else [])
        ):
            _check_answer(answer)

    @property
    def prompts(self) -> list[str]:
        """The prompt of every request received, in order."""
        return [request.prompt for request in self.requests]

    async def __call__(
        self, context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> SamplingAnswer:
        answer = self._find(prompt_text(params))
        if answer is None:
            request = CannedSamplingRequest(context, params, None)
            self.requests.append(request)
            self.unanswered.append(request)
            raise UnansweredSamplingError(self._describe_miss(context, params), request=request)
        if isinstance(answer, MCPError):
            self.requests.append(CannedSamplingRequest(context, params, None))
            raise answer
        result = await self._materialize(answer, context, params)
        self.requests.append(CannedSamplingRequest(context, params, result))
        return result

    def assert_all_answered(self) -> None:
        """Raise ``UnansweredSamplingError`` if any request went without an answer."""
        if self.unanswered:
            first = self.unanswered[0]
            raise UnansweredSamplingError(
                f"{len(self.unanswered)} sampling request(s) had no canned answer; "
                f"first prompt: {first.prompt!r}",
                request=first,
            )

    def _find(self, prompt: str) -> CannedSamplingAnswer | None:
        for pattern, answer in self._by_prompt:
            if pattern.search(prompt):
                return answer
        if self._script_used < len(self._script):
            self._script_used += 1
            return self._script[self._script_used - 1]
        return self._default

    async def _materialize(
        self, answer: CannedSamplingAnswer, context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> SamplingAnswer:
        if isinstance(answer, str):
            return CreateMessageResult(
                content=TextContent(text=answer), model=self.model, stop_reason="endTurn"
            )
        if isinstance(answer, CreateMessageResult | CreateMessageResultWithTools):
            return answer
        assert not isinstance(answer, MCPError)
        outcome = answer(context, params)
        if inspect.isawaitable(outcome):
            outcome = await outcome
        return outcome

    def _describe_miss(self, context: ClientRequestContext, params: CreateMessageRequestParams) -> str:
        lines = [f"CannedSampling has no answer for this sampling request from {context.server_name}:"]
        lines.append(f"  prompt: {prompt_text(params)!r}")
        if params.system_prompt:
            lines.append(f"  system prompt: {params.system_prompt!r}")
        if self._by_prompt:
            lines.append(
                f"  - no by_prompt pattern matches ({', '.join(repr(p.pattern) for p, _ in self._by_prompt)})"
            )
        if self._script:
            lines.append(f"  - the script is used up (all {len(self._script)} answers given)")
        lines.append("Add an answer: by_prompt={r'<regex>': ...}, a script entry, or default=...")
        return "\n".join(lines)


def _check_answer(answer: object) -> None:
    if not isinstance(
        answer, str | CreateMessageResult | CreateMessageResultWithTools | MCPError
    ) and not callable(answer):
        raise TypeError(
            "a canned sampling answer must be text, a CreateMessageResult, an MCPError (a refusal) or a "
            f"callable; got {type(answer).__name__}"
        )
