"""The JSON-RPC a view speaks, checked before anything acts on it: what a message is, and the answers.

A view is untrusted code: whatever it posts reaches ``AppBridge.handle`` as it was sent. A message that is
not a JSON-RPC 2.0 object is answered here with ``-32600`` (invalid request) or ``-32602`` (params that
are not an object), and never raises, so a broken or hostile view cannot crash its host.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
REFUSED = -32000
"""An implementation-defined error, the code the MCP Apps spec gives a host's refusals (link, message)."""

RequestId = str | int


class ViewError(Exception):
    """Raised by a handler to answer the view's request with a JSON-RPC error."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class MalformedMessage(Exception):
    """A message that is no JSON-RPC 2.0 message; ``answer`` is the error to send back (``None`` for a
    notification, which gets no answer)."""

    def __init__(self, reason: str, answer: dict[str, Any] | None) -> None:
        super().__init__(reason)
        self.answer = answer


@dataclass(frozen=True)
class ViewMessage:
    """One well-formed message from a view: a request (``id`` and ``method``), a notification (``method``
    only) or a response to the host's own request (``id`` and ``result`` or ``error``)."""

    kind: Literal["request", "notification", "response"]
    id: RequestId | None = None
    method: str = ""
    params: dict[str, Any] = field(default_factory=dict[str, Any])
    result: Any = None
    error: Any = None


def error_answer(request_id: RequestId | None, code: int, message: str) -> dict[str, Any]:
    """A JSON-RPC error response."""
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def result_answer(request_id: RequestId, result: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-RPC success response."""
    return {"jsonrpc": "2.0", "id": request_id, "result": dict(result)}


def _is_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def parse_view_message(message: object) -> ViewMessage:
    """The view's message as a ``ViewMessage``, or ``MalformedMessage`` carrying the answer it gets."""
    if not isinstance(message, Mapping):
        given = type(message).__name__
        raise MalformedMessage(
            f"not a JSON object ({given})",
            error_answer(None, INVALID_REQUEST, f"a JSON-RPC message is a JSON object, not {given}"),
        )
    raw: Mapping[str, Any] = message  # pyright: ignore[reportUnknownVariableType]
    raw_id = raw.get("id")
    request_id: RequestId | None = raw_id if _is_id(raw_id) else None
    if raw.get("jsonrpc") != "2.0":
        raise MalformedMessage(
            "no jsonrpc 2.0",
            error_answer(request_id, INVALID_REQUEST, 'a JSON-RPC message has "jsonrpc": "2.0"'),
        )
    if "id" in raw and request_id is None:
        raise MalformedMessage(
            "a bad id",
            error_answer(None, INVALID_REQUEST, "a request's id is a string or an integer"),
        )
    method = raw.get("method")
    if "method" not in raw:
        if request_id is not None and ("result" in raw or "error" in raw):
            return ViewMessage("response", request_id, result=raw.get("result"), error=raw.get("error"))
        raise MalformedMessage(
            "no method",
            error_answer(request_id, INVALID_REQUEST, "a request or notification has a method (a string)"),
        )
    if not isinstance(method, str) or not method:
        answer = error_answer(request_id, INVALID_REQUEST, "a method is a non-empty string")
        raise MalformedMessage("a bad method", answer if request_id is not None else None)
    params = raw.get("params", {})
    if params is None:
        params = {}
    if not isinstance(params, Mapping):
        answer = error_answer(request_id, INVALID_PARAMS, f"the params of {method} are a JSON object")
        reason = f"params of {method} not an object"
        raise MalformedMessage(reason, answer if request_id is not None else None)
    kind: Literal["request", "notification"] = "request" if request_id is not None else "notification"
    return ViewMessage(kind, request_id, method, dict(params))  # pyright: ignore[reportUnknownArgumentType]
