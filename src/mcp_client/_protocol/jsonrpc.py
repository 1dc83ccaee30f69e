"""JSON-RPC 2.0 framing, sans-IO: turning messages into bytes and bytes into checked messages.

A message is a plain ``dict`` on its way through the client; pydantic models are built only for what
the caller gets back. ``decode`` rejects anything that is not one JSON-RPC message, so the transports
never hand malformed input to the rest of the client.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from mcp_client._errors import ProtocolError, ServerError, UrlElicitationRequiredError

Message = dict[str, Any]
RequestId = int | str

URL_ELICITATION_REQUIRED = -32042
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
HEADER_MISMATCH = -32020
UNSUPPORTED_PROTOCOL_VERSION = -32022

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode

if TYPE_CHECKING:
    from pydantic_core import from_json, to_json
else:

    def to_json(*args, **kwargs):
        _bind_codec()
        return to_json(*args, **kwargs)

    def from_json(*args, **kwargs):
        _bind_codec()
        return from_json(*args, **kwargs)


def _bind_codec() -> None:
    """Replace the two stand-ins above with pydantic_core's functions, on the first message.

    ``import pydantic_core`` costs a sixth of ``import httpx``; ``from mcp_client import Client`` does not
    pay it (see ``_protocol.wire``), the first message does (``Session.open`` loads pydantic by then anyway).
    """
    global from_json, to_json
    import pydantic_core

    from_json, to_json = pydantic_core.from_json, pydantic_core.to_json


def _serialization_errors() -> tuple[type[Exception], ...]:
    from pydantic_core import PydanticSerializationError

    return (PydanticSerializationError, ValueError, TypeError)


def encode(message: Message) -> bytes:
    """Compact UTF-8 JSON with no newline inside, as both the HTTP and the stdio transport send it.

    ``pydantic_core.to_json`` (Rust, already installed with pydantic) is about 5x faster than the
    standard encoder on a request; the standard one still handles what it refuses, and any message
    with a NaN or an infinity in it, so that those raise ``ValueError`` as before (they are not JSON).
    """
    try:
        data = to_json(message, inf_nan_mode="constants")
    except _serialization_errors():
        return _dumps(message).encode("utf-8")
    if b"NaN" in data or b"Infinity" in data:  # perhaps only inside a string: the slow path decides
        return _dumps(message).encode("utf-8")
    return data


def decode(data: bytes | str) -> Message:
    """Parse one JSON-RPC message; ``ProtocolError`` if it is not JSON or not a JSON-RPC 2.0 object."""
    try:
        message = from_json(data, allow_inf_nan=False)  # NaN and Infinity are not JSON
    except (ValueError, TypeError) as exc:  # TypeError: a str that cannot be UTF-8 (lone surrogates)
        preview = data[:120] if isinstance(data, str) else data[:120].decode("utf-8", "replace")
        raise ProtocolError(f"the server sent something that is not JSON: {preview!r}") from exc
    if not isinstance(message, dict):
        raise ProtocolError(f"the server sent a JSON {type(message).__name__}, not a JSON-RPC message object")
    check(message)
    return message


def check(message: Message) -> None:
    """Raise ``ProtocolError`` unless ``message`` is a well-formed request, notification or response."""
    if message.get("jsonrpc") != "2.0":
        raise ProtocolError("the server sent a message without jsonrpc: '2.0'")
    if "method" in message:
        if not isinstance(message["method"], str):
            raise ProtocolError("the server sent a message whose method is not a string")
        if "id" in message and not _is_id(message["id"]):
            raise ProtocolError("the server sent a request whose id is neither a string nor an integer")
        return
    has_result, has_error = "result" in message, "error" in message
    if has_result == has_error:
        raise ProtocolError("the server sent a response with both or neither of 'result' and 'error'")
    if has_error:
        error = message["error"]
        if not isinstance(error, dict) or not isinstance(error.get("code"), int):
            raise ProtocolError("the server sent an error response without an integer error code")
    elif not isinstance(message["result"], dict):
        raise ProtocolError("the server sent a result that is not a JSON object")
    if "id" not in message or not (_is_id(message["id"]) or message["id"] is None):
        raise ProtocolError("the server sent a response without a usable id")


def _is_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def is_response(message: Message) -> bool:
    return "method" not in message


def is_request(message: Message) -> bool:
    return "method" in message and "id" in message


def request(request_id: RequestId, method: str, params: dict[str, Any] | None) -> Message:
    message: Message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: dict[str, Any] | None = None) -> Message:
    message: Message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def result_response(request_id: RequestId, result: dict[str, Any]) -> Message:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def error_response(request_id: RequestId, code: int, message: str, data: Any = None) -> Message:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def error_from(error: dict[str, Any]) -> ServerError:
    """The exception for a JSON-RPC ``error`` member; ``-32042`` becomes ``UrlElicitationRequiredError``."""
    code = error["code"]
    message = error.get("message")
    text = message if isinstance(message, str) else "(no message)"
    data = error.get("data")
    if code == URL_ELICITATION_REQUIRED:
        from mcp_client.types import ElicitRequestURLParams

        raw: object = data.get("elicitations") if isinstance(data, dict) else None
        items: list[Any] = raw if isinstance(raw, list) else []
        elicitations: list[ElicitRequestURLParams] = []
        for item in items:
            try:
                elicitations.append(ElicitRequestURLParams.model_validate(item))
            except ValueError:
                continue  # an entry that is not a URL elicitation is the server's bug; keep the rest
        return UrlElicitationRequiredError(code, text, data, elicitations)
    return ServerError(code, text, data)
