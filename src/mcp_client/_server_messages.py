"""Messages a server sends on its own: requests to answer and notifications to act on.

Legacy servers push ``elicitation/create`` mid-call; the answer goes back as a JSON-RPC response. When
the answer cannot be given (bad schema, bad content, the callback failed) the server gets a JSON-RPC
error so its tool stops, and the local error is queued in ``local_failures`` so the call that fails
next raises it instead of the server's echo. A server's ``notifications/cancelled`` cancels the
callback still running for that request, or, if the request's task has not started yet (the cancel
came right behind it), stops it before it starts. The 2026-07-28 era sends no requests; its notifications
(progress, log) come through here too.
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import anyio

from mcp_client import _jsonrpc
from mcp_client._context import ClientRequestContext
from mcp_client._elicitation import ElicitationCompleteCallback, ElicitationResponder
from mcp_client._errors import (
    ElicitationCallbackError,
    ElicitationError,
    InvalidElicitationContentError,
    MCPError,
)

logger = logging.getLogger("mcp_client.server")

MAX_PENDING_SERVER_REQUESTS = 32
"""More elicitations than this at once from one server are refused with a JSON-RPC error."""

MAX_AWAITED_COMPLETIONS = 1024
"""URL elicitation ids remembered while their completion notification is awaited (oldest dropped)."""

_MAX_EARLY_CANCELS = 64

Reply = Callable[[dict[str, Any]], Awaitable[None]]
ContextFactory = Callable[[Any], ClientRequestContext]


class ServerMessageHandler:
    def __init__(
        self,
        responder: ElicitationResponder,
        reply: Reply,
        context_for: ContextFactory,
        complete_callback: ElicitationCompleteCallback | None,
    ) -> None:
        self._responder = responder
        self._reply = reply
        self._context_for = context_for
        self._complete_callback = complete_callback
        self._in_flight: dict[Any, anyio.CancelScope] = {}
        self.local_failures: collections.deque[BaseException] = collections.deque(maxlen=64)
        self._awaited: dict[str, None] = {}  # insertion-ordered set of URL elicitation ids
        self._cancelled_early: dict[Any, None] = {}  # cancels for requests not started (yet)

    def expect_completion(self, elicitation_id: object) -> None:
        """Remember a URL elicitation id, so its completion notification is passed on (once)."""
        if not isinstance(elicitation_id, str):
            return
        self._awaited[elicitation_id] = None
        while len(self._awaited) > MAX_AWAITED_COMPLETIONS:
            del self._awaited[next(iter(self._awaited))]

    async def __call__(self, message: dict[str, Any]) -> None:
        if _jsonrpc.is_request(message):
            await self._on_request(message)
        else:
            await self._on_notification(message)

    async def _on_request(self, message: dict[str, Any]) -> None:
        request_id = message["id"]
        method = message["method"]
        if method == "ping":
            await self._reply(_jsonrpc.result_response(request_id, {}))
            return
        if method != "elicitation/create":
            await self._reply(
                _jsonrpc.error_response(request_id, _jsonrpc.METHOD_NOT_FOUND, "Method not found")
            )
            return
        if self._cancelled_early.pop(request_id, False) is None:
            logger.info("the server cancelled its request %r before it started", request_id)
            return  # a cancelled request gets no answer
        if len(self._in_flight) >= MAX_PENDING_SERVER_REQUESTS:
            await self._reply(
                _jsonrpc.error_response(request_id, _jsonrpc.INVALID_REQUEST, "Too many pending elicitations")
            )
            return
        params = message.get("params")
        if isinstance(params, dict) and params.get("mode") == "url":
            self.expect_completion(params.get("elicitationId"))
        with anyio.CancelScope() as scope:
            self._in_flight[request_id] = scope
            try:
                answer = await self._responder.answer(message.get("params"), self._context_for(request_id))
            except MCPError as exc:
                await self._reply(_jsonrpc.error_response(request_id, exc.code, exc.message, exc.data))
                return
            except ElicitationError as exc:
                self.local_failures.append(exc)
                code = (
                    _jsonrpc.INTERNAL_ERROR
                    if isinstance(exc, ElicitationCallbackError)
                    else _jsonrpc.INVALID_PARAMS
                )
                await self._reply(_jsonrpc.error_response(request_id, code, _public_reason(exc)))
                return
            finally:
                self._in_flight.pop(request_id, None)
            await self._reply(_jsonrpc.result_response(request_id, answer))
        if scope.cancelled_caught:
            logger.info("the server cancelled its elicitation request %r", request_id)

    async def _on_notification(self, message: dict[str, Any]) -> None:
        method = message["method"]
        params = message.get("params")
        params = params if isinstance(params, dict) else {}
        if method == "notifications/cancelled":
            request_id = params.get("requestId")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
            scope = self._in_flight.get(request_id)
            if scope is not None:
                scope.cancel()
            elif _jsonrpc._is_id(request_id):
                self._cancelled_early[request_id] = None
                while len(self._cancelled_early) > _MAX_EARLY_CANCELS:
                    del self._cancelled_early[next(iter(self._cancelled_early))]
        elif method == "notifications/elicitation/complete":
            elicitation_id = params.get("elicitationId")
            # The spec: ignore ids we never saw, and ids already completed.
            if not isinstance(elicitation_id, str) or self._awaited.pop(elicitation_id, False) is False:
                logger.debug("ignoring a completion for unknown elicitation id %r", elicitation_id)
            elif self._complete_callback is not None:
                try:
                    result = self._complete_callback(elicitation_id)
                    if result is not None:
                        await result
                except Exception:
                    logger.exception("the elicitation_complete_callback raised")
        elif method == "notifications/message":
            logger.info("server log: %s", params.get("data"))  # pyright: ignore[reportUnknownMemberType]


def _public_reason(exc: ElicitationError) -> str:
    """What the server is told: why, without the user's data or local details."""
    if isinstance(exc, ElicitationCallbackError):
        return "The client's elicitation handler failed"
    if isinstance(exc, InvalidElicitationContentError):
        return (
            f"The client refused to send an answer that breaks the schema (field {exc.field!r}: {exc.rule})"
        )
    return str(exc)
