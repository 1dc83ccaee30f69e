"""The elicitation handler: answering one ``elicitation/create`` question, the same way in both eras.

The router hands over the raw ``params`` of an ``elicitation/create`` (pushed by a legacy server or
returned in ``inputRequests``) and gets back the wire ``ElicitResult``, or an exception:

* the schema is outside the spec's subset -> ``InvalidElicitationSchemaError`` (the callback never sees it);
* the callback raised -> ``ElicitationCallbackError`` (an ``MCPError`` it raised passes through as is);
* an ``accept`` whose content does not fit -> ``InvalidElicitationContentError`` (nothing is sent).

Schema defaults are filled into an ``accept`` before it is validated (SEP-1034). Legacy URL-mode
questions are remembered in ``UrlCompletions`` so that their completion notification is passed on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from pydantic import ValidationError

from mcp_client._errors import (
    ElicitationCallbackError,
    InvalidElicitationContentError,
    InvalidElicitationSchemaError,
    LocalRefusalError,
    MCPClientError,
)
from mcp_client._protocol.eras import Era
from mcp_client._protocol.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS
from mcp_client._schema.cache import parse_form_schema_once
from mcp_client._session.context import ClientRequestContext
from mcp_client._session.router import Question
from mcp_client.schema import FormSchema
from mcp_client.types import (
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
)

ElicitationCallback = Callable[[ClientRequestContext, ElicitRequestParams], Awaitable[ElicitResult]]
"""``async def callback(context, params) -> ElicitResult``: the one place every question goes."""

ElicitationCompleteCallback = Callable[[str], Awaitable[None] | None]
"""Called with the ``elicitation_id`` of a legacy ``notifications/elicitation/complete``."""

ALL_MODES = frozenset({"form", "url"})

MAX_AWAITED_COMPLETIONS = 1024
"""URL elicitation ids remembered while their completion notification is awaited (oldest dropped)."""


def declared_modes(callback: object, override: Iterable[str] | None) -> frozenset[str]:
    """The modes to declare: the Client option, else the callback's ``elicitation_modes``, else both."""
    if callback is None:
        return frozenset()
    modes = override if override is not None else getattr(callback, "elicitation_modes", None)
    if modes is None:
        return ALL_MODES
    chosen = frozenset(str(m) for m in modes)
    unknown = chosen - ALL_MODES
    if unknown:
        raise ValueError(f"unknown elicitation modes {sorted(unknown)}; use 'form' and/or 'url'")
    return chosen


def capabilities_for(modes: Iterable[str]) -> dict[str, Any]:
    """The client capabilities for the elicitation modes a callback handles (none: no elicitation)."""
    wanted = set(modes)
    declared: dict[str, Any] = {mode: {} for mode in ("form", "url") if mode in wanted}
    return {"elicitation": declared} if declared else {}


class UrlCompletions:
    """Legacy URL elicitation ids whose ``notifications/elicitation/complete`` is awaited (a bounded set).

    The spec: a completion for an id we never saw, or saw complete already, is ignored.
    """

    def __init__(self) -> None:
        self._awaited: dict[str, None] = {}  # insertion-ordered set

    def expect(self, elicitation_id: object) -> None:
        if not isinstance(elicitation_id, str):
            return
        self._awaited[elicitation_id] = None
        while len(self._awaited) > MAX_AWAITED_COMPLETIONS:
            del self._awaited[next(iter(self._awaited))]

    def take(self, elicitation_id: object) -> bool:
        """True (once) if ``elicitation_id`` was awaited."""
        return isinstance(elicitation_id, str) and self._awaited.pop(elicitation_id, False) is None


def parse_request(raw: object) -> tuple[ElicitRequestParams, FormSchema | None]:
    """The typed params of an ``elicitation/create`` and, for a form, its normalized schema."""
    if not isinstance(raw, dict):
        raise InvalidElicitationSchemaError("the server sent an elicitation request without params")
    mode = raw.get("mode", "form")
    message = raw.get("message")
    if not isinstance(message, str):
        raise InvalidElicitationSchemaError("the server sent an elicitation request without a message")
    if mode == "form":
        schema = parse_form_schema_once(raw.get("requestedSchema"))
        return ElicitRequestFormParams.from_form(message, schema), schema
    if mode == "url":
        try:
            return ElicitRequestURLParams.model_validate(raw), None
        except ValidationError as exc:
            raise InvalidElicitationSchemaError(
                "the server sent a URL elicitation without a usable url or elicitationId: "
                f"{exc.errors()[0]['msg']}"
            ) from exc
    raise InvalidElicitationSchemaError(f"the server sent an elicitation of unknown mode {mode!r}")


class ElicitationHandler:
    """Reads one ``elicitation/create`` and shapes the answer (see the module docstring); the router
    runs the callback. Built by ``_options.router_for``."""

    method = "elicitation/create"
    kind = "elicitation"
    callback_name = "elicitation_callback"
    unsupported = "Elicitation not supported"
    callback_label = "elicitation"
    result_types = (ElicitResult,)
    result_name = "an ElicitResult"

    def __init__(
        self,
        callback: ElicitationCallback | None,
        modes: frozenset[str],
        completions: UrlCompletions | None = None,
    ) -> None:
        self.callback = callback
        self.modes = modes
        self.completions = completions if completions is not None else UrlCompletions()

    @property
    def capability(self) -> dict[str, Any] | None:
        return capabilities_for(self.modes).get("elicitation")

    def refusal(self, error: MCPClientError) -> tuple[int, str]:
        """What the server is told: why, without the user's data or local details."""
        if isinstance(error, ElicitationCallbackError):
            return INTERNAL_ERROR, "The client's elicitation handler failed"
        if isinstance(error, InvalidElicitationContentError):
            return INVALID_PARAMS, (
                f"The client refused to send an answer that breaks the schema (field {error.field!r}: "
                f"{error.rule})"
            )
        return INVALID_PARAMS, str(error)

    def result_model(self, result: dict[str, Any]) -> type[ElicitResult]:
        return ElicitResult

    def callback_error(self, message: str) -> ElicitationCallbackError:
        return ElicitationCallbackError(message)

    def read(self, params: object, context: ClientRequestContext, era: Era) -> Question:
        if era.announces_url_completion and isinstance(params, dict) and params.get("mode") == "url":
            self.completions.expect(params.get("elicitationId"))
        question, schema = parse_request(params)
        if question.mode not in self.modes:
            raise LocalRefusalError(
                INVALID_PARAMS, f"This client does not support {question.mode} elicitation"
            )
        about = f"question from {context.server_name}: {question.message!r}"
        return Question((context, question), about, schema)

    def answered(self, question: Question, result: ElicitResult) -> dict[str, Any]:
        if result.action != "accept":
            return {"action": result.action}
        schema: FormSchema | None = question.detail
        if schema is None:
            return {"action": "accept"}  # URL mode: accept only means the user agreed to open it
        content = schema.validate_content(schema.fill_defaults(result.content))
        return {"action": "accept", "content": content}
