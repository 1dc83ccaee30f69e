"""The sampling handler: the server asks the app's model to answer (``sampling/createMessage``).

Pushed by a legacy server or returned in ``inputRequests``, the params reach
``sampling_callback(context, params) -> CreateMessageResult`` as a ``CreateMessageRequestParams``. The
callback is also the capability declaration: ``sampling`` is declared, with ``sampling_capabilities``
as given (``{"tools": {}}`` lets the server offer tools), only when there is a callback.

To refuse, the callback raises ``MCPError``: a legacy server gets its code and message, a 2026-07-28
call raises it (that era has no way to send an error back). Anything else the callback raises, or an
answer that is not a ``CreateMessageResult``, is a ``CallbackError`` on our side; the server is told
only that the client's handler failed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pydantic import ValidationError

from mcp_client._errors import CallbackError, LocalRefusalError, MCPClientError, ProtocolError
from mcp_client._protocol.eras import Era
from mcp_client._protocol.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS
from mcp_client._session.context import ClientRequestContext
from mcp_client._session.router import Question
from mcp_client.types import CreateMessageRequestParams, CreateMessageResult, CreateMessageResultWithTools

SamplingCallback = Callable[
    [ClientRequestContext, CreateMessageRequestParams],
    Awaitable[CreateMessageResult | CreateMessageResultWithTools],
]
"""``async def callback(context, params) -> CreateMessageResult``: the app's model answers the server."""


def parse_request(raw: object) -> CreateMessageRequestParams:
    """The typed params of a ``sampling/createMessage``; ``ProtocolError`` if the server sent nonsense."""
    try:
        return CreateMessageRequestParams.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise ProtocolError(
            f"the server sent a sampling request the client cannot read: {where}: {first['msg']}"
        ) from exc


class SamplingHandler:
    """Reads one ``sampling/createMessage`` and shapes the answer; the router runs the callback.
    Built by ``_options.router_for``."""

    method = "sampling/createMessage"
    kind = "sampling"
    callback_name = "sampling_callback"
    unsupported = "Sampling not supported"
    callback_label = "sampling"
    result_types = (CreateMessageResult, CreateMessageResultWithTools)
    result_name = "a CreateMessageResult"

    def __init__(self, callback: SamplingCallback | None, capabilities: Mapping[str, Any] | None) -> None:
        self.callback = callback
        self._capabilities = dict(capabilities) if capabilities is not None else {}

    @property
    def capability(self) -> dict[str, Any] | None:
        return dict(self._capabilities) if self.callback is not None else None

    def refusal(self, error: MCPClientError) -> tuple[int, str]:
        if isinstance(error, CallbackError):
            return INTERNAL_ERROR, "The client's sampling handler failed"
        return INVALID_PARAMS, "The client could not read the sampling request"

    def result_model(
        self, result: dict[str, Any]
    ) -> type[CreateMessageResult | CreateMessageResultWithTools]:
        with_tools = isinstance(result.get("content"), list)
        return CreateMessageResultWithTools if with_tools else CreateMessageResult

    def callback_error(self, message: str) -> CallbackError:
        return CallbackError(message, kind="sampling")

    def read(self, params: object, context: ClientRequestContext, era: Era) -> Question:
        request = parse_request(params)
        if (request.tools or request.tool_choice is not None) and "tools" not in self._capabilities:
            # The spec: a client that did not declare sampling.tools MUST return an error.
            raise LocalRefusalError(
                INVALID_PARAMS, "This client does not support tools in sampling (no sampling.tools)"
            )
        return Question((context, request), f"request from {context.server_name}")

    def answered(
        self, question: Question, result: CreateMessageResult | CreateMessageResultWithTools
    ) -> dict[str, Any]:
        return result.model_dump_wire()
