"""Messages a server sends on its own: requests to answer and notifications to act on.

Legacy servers push questions (``elicitation/create`` ...) mid-call; the router finds their handler
and the answer goes back as a JSON-RPC response. When the answer cannot be given (bad schema, bad
content, the callback failed or refused, the kind was not declared) the server gets a JSON-RPC error so
its tool stops, and the error is handed to the question's owners (``_session.questions``) so that the call it
belongs to raises it instead of the server's echo, as a 2026-07-28 call would. A server's
``notifications/cancelled`` cancels the callback still running for that request, or, if the request's
task has not started yet (the cancel came right behind it), stops it before it starts. The 2026-07-28
era sends no requests; its notifications (progress, log, change notices) come through here too, and
go on to ``_session.notifications``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Protocol

import anyio

from mcp_client._connection.transport import Message, RequestId
from mcp_client._errors import CapabilityNotDeclaredError, MCPClientError, MCPConnectionError, MCPError
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._protocol.eras import UNSETTLED, Era
from mcp_client._session.elicitation import ElicitationCompleteCallback, UrlCompletions
from mcp_client._session.notifications import Notifications
from mcp_client._session.questions import Questions
from mcp_client._session.router import Router

logger = logging.getLogger("mcp_client.server")

MAX_PENDING_SERVER_REQUESTS = 32
"""Questions one server may have open beyond one per request of ours in flight; past that, refused.

A question belongs to our calls: with two hundred calls in flight, each asking, two hundred questions
are open, and none is refused. What no call of ours explains (a server pushing questions nobody asked
for, with nothing or little in flight) gets this many, answered with a JSON-RPC error past them.
"""

_MAX_EARLY_CANCELS = 64


class Send(Protocol):
    """The transport's ``send``: how our answers go back."""

    async def __call__(
        self, message: Message, headers: Mapping[str, str], *, protocol_version: str | None = None
    ) -> None: ...


class ServerMessageHandler:
    """The transport's sink: answers the server's requests and passes its notifications on.

    Built by the ``Session``, called by the transport (``ServerMessageSink``) for every message that
    is not the answer to one of our requests. It finds the handler in the ``Router``, opens the
    question with its owners in ``Questions``, answers through ``send`` with the headers of ``era``
    (which the session sets as soon as negotiation settles one) and hands notifications to
    ``Notifications``.
    """

    def __init__(
        self,
        router: Router,
        send: Send,
        questions: Questions,
        completions: UrlCompletions,
        complete_callback: ElicitationCompleteCallback | None,
        notifications: Notifications,
        label: str,
    ) -> None:
        self._label = label
        self._router = router
        self._notifications = notifications
        self._send = send
        self._questions = questions
        self.era: Era | None = None
        """The era of the connection, once negotiation settled it."""
        self._completions = completions
        self._complete_callback = complete_callback
        self._in_flight: dict[Any, anyio.CancelScope] = {}
        self._cancelled_early: dict[Any, None] = {}  # cancels for requests not started (yet)

    async def __call__(self, message: dict[str, Any], related_request: RequestId | None = None) -> None:
        if _jsonrpc.is_request(message):
            await self._on_request(message, related_request)
        else:
            await self._on_notification(message)

    async def _reply(self, message: dict[str, Any]) -> None:
        era = self.era
        try:
            if era is None:
                await self._send(message, {})
            else:
                await self._send(message, era.response_headers(), protocol_version=era.protocol_version)
        except MCPConnectionError as exc:
            # The connection ended (closed by us, or the server exited) while the answer waited to be
            # written: nobody is left to read it, and nothing the user can do about it.
            logger.info(
                "%s: the answer to its request %r was not delivered: %s", self._label, message.get("id"), exc
            )

    async def _on_request(self, message: dict[str, Any], related: RequestId | None) -> None:
        request_id = message["id"]
        method = message["method"]
        if method == "ping":
            await self._reply(_jsonrpc.result_response(request_id, {}))
            return
        handler = self._router.handler(method)
        if handler is None:
            await self._reply(
                _jsonrpc.error_response(request_id, _jsonrpc.METHOD_NOT_FOUND, "Method not found")
            )
            return
        if self._cancelled_early.pop(request_id, False) is None:
            logger.info("the server cancelled its request %r before it started", request_id)
            return  # a cancelled request gets no answer
        if len(self._in_flight) >= MAX_PENDING_SERVER_REQUESTS + self._questions.requests_in_flight:
            await self._reply(
                _jsonrpc.error_response(
                    request_id, _jsonrpc.INVALID_REQUEST, "Too many pending requests from this server"
                )
            )
            return
        era = self.era or UNSETTLED
        reply: dict[str, Any] | None = None
        with anyio.CancelScope() as scope, self._questions.pushed(related, scope) as owners:
            self._in_flight[request_id] = scope
            try:
                context = self._questions.push_context(era, request_id, owners.call)
                answer = await self._router.run(handler, message.get("params"), context, era)
                reply = _jsonrpc.result_response(request_id, answer)
            except MCPError as exc:
                # A refusal: the callback's own MCPError goes to the server as it is (an undeclared kind
                # as the short "... not supported"); the call, if it fails, raises the refusal itself.
                owners.fail(exc)
                if isinstance(exc, CapabilityNotDeclaredError):
                    reply = _jsonrpc.error_response(request_id, exc.code, exc.wire_message)
                else:
                    reply = _jsonrpc.error_response(request_id, exc.code, exc.message, exc.data)
            except MCPClientError as exc:
                owners.fail(exc)
                code, reason = handler.refusal(exc)
                reply = _jsonrpc.error_response(request_id, code, reason)
            finally:
                self._in_flight.pop(request_id, None)
        if reply is None:
            logger.info("%s request %r ended unanswered (cancelled, or its call is over)", method, request_id)
            return
        # Outside the question's scope: once the answer is being sent, neither the call's end nor the
        # server's cancel of the question stops it (the server often writes the call's result before
        # it acknowledges our answer's POST, and cancelling that exchange closed its connection). The
        # transport bounds the send by its own timeout; the transports cancel no handler themselves.
        await self._reply(reply)

    async def _on_notification(self, message: dict[str, Any]) -> None:
        method = message["method"]
        params = message.get("params")
        params = params if isinstance(params, dict) else {}
        if method == "notifications/cancelled":
            request_id = params.get("requestId")
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
            if not self._completions.take(elicitation_id):
                logger.debug("ignoring a completion for unknown elicitation id %r", elicitation_id)
            elif self._complete_callback is not None:
                try:
                    result = self._complete_callback(elicitation_id)  # pyright: ignore[reportArgumentType]
                    if result is not None:
                        await result
                except Exception:
                    logger.exception("the elicitation_complete_callback raised")
        else:
            await self._notifications.dispatch(method, params)  # progress, logs, change notices, others
