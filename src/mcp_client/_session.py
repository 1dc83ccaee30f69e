"""The session under a ``Client``: request ids, per-request deadlines, send, cancel, per-call failures.

One ``Session`` owns the transport, the background tasks (a task group), the era settled by the
``Negotiator`` and the push path (``ServerMessageHandler``). Every request gets a fresh id and its own
``RequestClock``, registered by id while it waits, so that a question the server pushes mid-request
can be traced to the call that is waiting for it. A *call* (``Call``: one ``call_tool``, with all its
multi-round-trip rounds and recoveries) keeps what failed on our side while answering its questions,
so that the call raises that clearer error, and no other call does.

Recoveries are the era's decision (``Era.recovery``) and the session's work: restart a legacy session
the server forgot, adopt the modern version the server asks for, refresh the tools' header knowledge.

A call may bring ``CallOptions``: its own timeout, a progress callback (a ``progressToken`` goes out in
``_meta`` and each progress report restarts the call's clock), extra ``_meta``, answers and state to
resume a paused call with, and whether to hand back an ``input_required`` result instead of running
the loop. A call without options pays for none of it.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Awaitable, Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Literal

import anyio
import anyio.abc

from mcp_client import _input_required, _jsonrpc, _results
from mcp_client._context import ClientRequestContext
from mcp_client._elicitation import ElicitationCompleteCallback, UrlCompletions
from mcp_client._eras import Era, Readopt, Recovery, Resend, RestartSession
from mcp_client._errors import (
    ClientStateError,
    MCPClientError,
    MCPConnectionError,
    MCPError,
    MCPTimeoutError,
    ProtocolError,
    SessionExpiredError,
    UnsupportedInEraError,
    UrlElicitationRequiredError,
)
from mcp_client._negotiation import Negotiator
from mcp_client._notifications import Notifications, ProgressCallback, ProgressRoute
from mcp_client._output_schema import OutputSchemas
from mcp_client._router import Router
from mcp_client._server_description import ServerDescription
from mcp_client._server_messages import ServerMessageHandler
from mcp_client._timeouts import RequestDeadlines
from mcp_client._transport import Message, RequestId, Transport
from mcp_client._versions import LATEST_LEGACY, LATEST_MODERN

logger = logging.getLogger("mcp_client")

_CANCEL_NOTIFY_SECONDS = 2.0


@dataclass(frozen=True, slots=True)
class CallOptions:
    """What one ``call_tool`` / ``get_prompt`` / ``read_resource`` asks beyond its name and arguments."""

    timeout: float | None = None
    progress_callback: ProgressCallback | None = None
    meta: Mapping[str, Any] | None = None
    input_responses: Mapping[str, Any] | None = None
    request_state: str | None = None
    allow_input_required: bool = False


class Call:
    """One call a user made (with all its rounds): the local failures of the questions it owns.

    A failure is held in a one-item box that several calls may share (a question whose call the
    transport could not name belongs to every call then in flight); the first of them to fail takes it.
    ``timeout`` (if not the client's) and ``progress`` (its progress token) apply to each of its requests.
    """

    __slots__ = ("_failures", "progress", "timeout")

    def __init__(self, timeout: float | None = None, progress: ProgressRoute | None = None) -> None:
        self._failures: list[list[BaseException]] = []
        self.timeout = timeout
        self.progress = progress

    def add_failure(self, box: list[BaseException]) -> None:
        self._failures.append(box)

    def take_failure(self) -> BaseException | None:
        while self._failures:
            box = self._failures.pop(0)
            if box:
                return box.pop()
        return None


class _PushedQuestion:
    """A question a legacy server pushed, open while it is answered (see ``Session.question``).

    Its owners are the requests it belongs to: the one the transport names, else every request in
    flight when it came (a stdio server does not say). While it is open, the owners' clocks are paused
    (and only theirs); when every owner is over, nobody waits for the answer any more and the callback
    is cancelled. A question whose named request is already over is cancelled at once.
    """

    __slots__ = ("_calls", "_clocks", "_open_owners", "_orphan", "_scope")

    def __init__(self, session: Session, related: RequestId | None, scope: anyio.CancelScope) -> None:
        active = session.deadlines.active
        if related is not None:
            clock = active.get(related)
            self._clocks = [clock] if clock is not None else []
            self._orphan = clock is None
        else:
            self._clocks = list(active.values())
            self._orphan = False
        self._calls = [c.call for c in self._clocks if isinstance(c.call, Call)]
        self._open_owners = len(self._clocks)
        self._scope = scope

    def __enter__(self) -> _PushedQuestion:
        if self._orphan:
            self._scope.cancel()
        for clock in self._clocks:
            clock.pause()
            if clock.on_end is None:
                clock.on_end = []
            clock.on_end.append(self._owner_ended)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        for clock in self._clocks:
            clock.resume()
            if clock.on_end and self._owner_ended in clock.on_end:
                clock.on_end.remove(self._owner_ended)

    def _owner_ended(self) -> None:
        self._open_owners -= 1
        if not self._open_owners:
            self._scope.cancel()  # the call it belonged to is over: nobody waits for the answer

    def fail(self, error: BaseException) -> None:
        if not self._calls:
            logger.warning("answering a server's question failed on our side: %s", error)
        box = [error]
        for call in self._calls:
            call.add_failure(box)


class Session:
    def __init__(
        self,
        transport: Transport,
        router: Router,
        *,
        client_info: Mapping[str, Any],
        timeout: float | None,
        max_rounds: int,
        completions: UrlCompletions,
        complete_callback: ElicitationCompleteCallback | None,
        notifications: Notifications,
        log_level: str | None = None,
    ) -> None:
        self.transport = transport
        self.notifications = notifications
        self.output_schemas = OutputSchemas(transport.label)
        self._log_level = log_level
        self._level_request: tuple[str, dict[str, Any]] | None = None
        self.label = transport.label
        self.description = ServerDescription()
        self.deadlines = RequestDeadlines(timeout)
        self.era: Era | None = None
        self._router = router
        self._timeout = timeout
        self._max_rounds = max_rounds
        self._completions = completions
        self._ids = itertools.count(1)
        self._cold = transport.startup_grace > 0  # the first answer may wait for the server to start
        self._with_headers = transport.sends_headers
        self._state: Literal["new", "open", "closed"] = "new"
        self._task_group: anyio.abc.TaskGroup | None = None
        self.negotiator = Negotiator(
            self, transport, self.description, router.capabilities, client_info, self.deadlines.timeout
        )
        self._inbound = ServerMessageHandler(
            router,
            self.reply_to_server,
            self._push_context,
            self.question,
            completions,
            complete_callback,
            notifications,
        )

    # ------------------------------------------------------------------------- lifecycle

    async def open(self, mode: str) -> None:
        if self._state != "new":
            raise ClientStateError("a Client can be entered only once; create a new Client to reconnect")
        self._state = "open"
        task_group = anyio.create_task_group()
        await task_group.__aenter__()
        self._task_group = task_group
        self.spawn(self.deadlines.watch)  # enforces every request's deadline (see _timeouts)
        try:
            await self.transport.open(self.spawn, self._inbound)
            # A transport that hands its waits to the request clocks needs no cancel scope per request.
            self.deadlines.binding = bool(getattr(self.transport, "binds_waits", False))
            await self.negotiator.connect(mode)
            await self._ask_log_level()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._state == "closed":
            return
        self._state = "closed"
        try:
            with anyio.CancelScope(shield=True):
                await self.transport.aclose()
        finally:
            task_group, self._task_group = self._task_group, None
            if task_group is not None:
                # Background work is owned here and already guarded; the caller's exception (if any)
                # propagates as it is, never wrapped in an ExceptionGroup.
                task_group.cancel_scope.cancel()
                await task_group.__aexit__(None, None, None)

    def spawn(self, fn: Callable[[], Awaitable[None]]) -> None:
        """Start background work owned by this session; a failure there is logged, never lost silently."""
        task_group = self._task_group
        if task_group is None:
            return

        async def guarded() -> None:
            try:
                await fn()
            except Exception:
                logger.exception("background task for %s failed", self.label)

        task_group.start_soon(guarded)

    def require_open(self) -> Era:
        if self._state != "open" or self.era is None:
            raise ClientStateError(
                "the Client is not connected; use it inside `async with Client(...) as client:`"
                if self._state != "closed"
                else "the Client is closed; create a new Client to reconnect"
            )
        return self.era

    # ------------------------------------------------------------- the negotiator's wire

    def use(self, era: Era) -> None:
        self.era = era
        if self._log_level is not None:
            # Modern: the envelope carries it from now on. Legacy: a request, sent once connected.
            self._level_request = era.log_level_request(self._log_level)

    async def _ask_log_level(self) -> None:
        """Send the legacy ``logging/setLevel`` the app asked for, if the server has logging."""
        pending, self._level_request = self._level_request, None
        if pending is None:
            return
        if self.description.capabilities.logging is None:
            logger.info("%s declares no logging capability; not sending %s", self.label, pending[0])
            return
        try:
            await self.request(*pending)
        except MCPError as exc:
            logger.warning("%s refused %s: %s", self.label, pending[0], exc)

    async def set_log_level(self, level: str) -> None:
        """Ask for log messages at ``level`` and up, now and after any reconnection."""
        era = self.require_open()
        self._log_level = level
        pending = era.log_level_request(level)
        if pending is not None:
            await self.request(*pending)

    async def exchange(
        self, method: str, params: dict[str, Any] | None, headers: Mapping[str, str], limit: float
    ) -> Message | None:
        request_id = next(self._ids)
        message = _jsonrpc.request(request_id, method, params)
        reply: Message | None = None
        # A request clock, not a plain move_on_after: it stops while a person logs in (OAuth on a 401).
        with self.deadlines.clock(request_id, grace=limit):
            reply = await self.transport.request(message, headers)
            self._cold = False
        return reply

    async def notify(self, message: Message, headers: Mapping[str, str]) -> None:
        await self.transport.send(message, headers)

    # -------------------------------------------------------------------------- requests

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None,
        call: Call | None = None,
        *,
        request_id: RequestId | None = None,
    ) -> dict[str, Any]:
        """Send one request in the current era and return its result; JSON-RPC errors raise ``MCPError``."""
        era = self.require_open()
        try:
            return await self._send(era, method, params, call, request_id)
        except MCPClientError as exc:
            recovery = era.recovery(exc, method)
            if recovery is None:
                raise
            era = await self._recover(recovery)
            return await self._send(era, method, params, call, request_id)

    async def _recover(self, recovery: Recovery) -> Era:
        if isinstance(recovery, Resend):
            logger.info("%s dropped a reply stream before answering; sending the request again", self.label)
            return self.require_open()
        if isinstance(recovery, RestartSession):
            logger.info("%s forgot our session; starting a new one", self.label)
            try:
                era = await self.negotiator.handshake()
            except MCPClientError as exc:
                raise SessionExpiredError(
                    f"{self.label} forgot our session and a new one could not be started: {exc}"
                ) from exc
            await self._ask_log_level()
            return era
        if isinstance(recovery, Readopt):
            return self.negotiator.adopt(recovery.version, None)
        await self.list_tools()
        return self.require_open()

    async def list_tools(self) -> list[Any]:
        """Every tool of the server, after the era has learned what it needs from them."""
        tools = await _results.list_all(self.request, "tools/list", "tools", self.label)
        self.output_schemas.absorb(tools)
        return self.require_open().absorb_tools(tools)

    async def check_tool_result(self, name: str, result: dict[str, Any]) -> None:
        """Check a tool's structured result against its output schema (listing the tools once if needed)."""
        schemas = self.output_schemas
        if not schemas.known:
            if getattr(self.transport, "backlogged", False):
                # The server is not reading (see StdioTransport.backlogged): the listing would wait
                # until its deadline for an answer that will not come. Try again on the next call.
                logger.warning(
                    "%s is not reading what the client writes (its stdin is full); not listing its "
                    "tools to check this result against an output schema",
                    self.label,
                )
                return
            try:
                await self.list_tools()
            except MCPClientError as exc:
                # Not again on every call: until the server says its tools changed, nothing is checked.
                logger.warning(
                    "%s: could not list tools to check results (%s); not checking them", self.label, exc
                )
                schemas.absorb([])
                return
        schemas.check(name, result)

    async def _send(
        self,
        era: Era,
        method: str,
        params: dict[str, Any] | None,
        call: Call | None,
        request_id: RequestId | None = None,
    ) -> dict[str, Any]:
        if request_id is None:
            request_id = next(self._ids)
        wire_params, headers = era.prepare(method, params, with_headers=self._with_headers)
        message = _jsonrpc.request(request_id, method, wire_params)
        reply: Message | None = None
        try:
            grace = self.negotiator.connect_timeout if self._cold else 0.0
            clock = self.deadlines.clock(request_id, call, grace, call.timeout if call is not None else None)
            if call is not None and call.progress is not None:
                call.progress.clock = clock  # its progress reports restart this request's clock
            with clock:
                reply = await self.transport.request(message, headers)
                self._cold = False
        except anyio.get_cancelled_exc_class():
            await self._cancel_on_server(era, request_id, "The client cancelled the request")
            raise
        if reply is None:  # pyright: ignore[reportUnnecessaryComparison]  (the deadline fired)
            await self._cancel_on_server(era, request_id, "The client timed out")
            raise MCPTimeoutError(
                f"{method} to {self.label} got no answer within {clock.timeout:g}s; "
                "raise Client(timeout=...) or the call's read_timeout_seconds "
                "if the server is slow (time spent answering its questions does not count, "
                "and each progress report starts the clock again)"
            )
        error = reply.get("error")
        if isinstance(error, dict):
            raise _jsonrpc.error_from(error)  # pyright: ignore[reportUnknownArgumentType]
        result = reply["result"]
        if self.description.info is None:
            self.description.absorb_info(era.server_info_in(result))
        return result

    async def _cancel_on_server(self, era: Era, request_id: Any, reason: str) -> None:
        notice = era.cancel_notification(request_id, reason, self.transport.cancels_by_closing)
        if notice is None:
            return
        with anyio.CancelScope(shield=True), anyio.move_on_after(_CANCEL_NOTIFY_SECONDS):
            try:
                await self.transport.send(*notice)
            except MCPClientError:
                pass  # the server is gone: nothing left to cancel

    async def notify_server(self, method: str, params: dict[str, Any] | None = None) -> bool:
        """Send a client notification in the current era; ``False`` if the era has no such notification."""
        notice = self.require_open().notification(method, params)
        if notice is None:
            return False
        await self.transport.send(*notice)
        return True

    async def reply_to_server(self, message: dict[str, Any]) -> None:
        era = self.era
        headers = era.notification_headers("") if era is not None else {}
        try:
            await self.transport.send(message, headers)
        except MCPConnectionError as exc:
            # The connection ended (closed by us, or the server exited) while the answer waited to be
            # written: nobody is left to read it, and nothing the user can do about it.
            logger.info(
                "%s: the answer to its request %r was not delivered: %s", self.label, message.get("id"), exc
            )

    # ---------------------------------------------------- calls that may ask questions

    async def call(
        self, method: str, params: dict[str, Any], what: str, options: CallOptions | None = None
    ) -> dict[str, Any]:
        """One request that may need input: the multi-round-trip loop, and legacy local failures."""
        if options is None:
            return await self._call(method, params, what, Call(), False)
        with ExitStack() as stack:
            route = None
            if options.progress_callback is not None:
                route = stack.enter_context(self.notifications.progress.open(options.progress_callback))
            params = self._dress(params, options, route, what)
            call = Call(options.timeout, route)
            return await self._call(method, params, what, call, options.allow_input_required)

    def _dress(
        self, params: dict[str, Any], options: CallOptions, route: ProgressRoute | None, what: str
    ) -> dict[str, Any]:
        """The call's params with its ``_meta``, progress token and resumption fields."""
        params = dict(params)
        meta = dict(options.meta) if options.meta else {}
        if route is not None:
            meta["progressToken"] = route.token  # ours wins: the callback must hear this call's progress
        if meta:
            params["_meta"] = meta
        if options.input_responses is not None or options.request_state is not None:
            if not self.require_open().resumable:
                version = self.description.protocol_version
                raise UnsupportedInEraError(
                    f"{what}: there is nothing to resume in the legacy era ({version}): the server "
                    "holds the call open while it asks, and the elicitation callback answers; "
                    "input_responses and request_state work only with a 2026-07-28 server"
                )
            if options.input_responses is not None:
                params["inputResponses"] = {
                    key: _wire_answer(answer) for key, answer in options.input_responses.items()
                }
            if options.request_state is not None:
                params["requestState"] = options.request_state
        return params

    async def _call(
        self, method: str, params: dict[str, Any], what: str, call: Call, allow_input_required: bool
    ) -> dict[str, Any]:
        async def send(round_params: dict[str, Any]) -> dict[str, Any]:
            return await self.request(method, round_params, call)

        try:
            result = await self.request(method, params, call)
            if _input_required.is_input_required(result) and not allow_input_required:
                result = await _input_required.run(
                    send,
                    params,
                    self._answer_input,
                    max_rounds=self._max_rounds,
                    what=what,
                    first=result,
                    check=self._check_input,
                )
        except MCPError as exc:
            if isinstance(exc, UrlElicitationRequiredError):
                for elicitation in exc.elicitations:
                    self._completions.expect(elicitation.elicitation_id)
            failure = call.take_failure()
            if failure is not None:
                # Not `from exc`: the local error keeps its own __cause__; the echo becomes __context__.
                raise failure  # noqa: B904
            raise
        if result.get("isError") is True:
            failure = call.take_failure()
            if failure is not None:
                raise failure
        return result

    def question(self, related: RequestId | None, scope: anyio.CancelScope) -> _PushedQuestion:
        """Open a pushed question: it belongs to the request ``related``, else to every one in flight.

        Only its owners' deadlines stop while it is answered; ``scope`` (around its answer) is cancelled
        when every owner is over.
        """
        return _PushedQuestion(self, related, scope)

    def _check_input(self, key: str, method: str) -> None:
        """Before any question of a round is answered: refuse unknown and undeclared kinds."""
        handler = self._router.handler(method)
        if handler is None:
            raise ProtocolError(
                f"the server's input request {key!r} is {method!r}, which this client does not answer"
            )
        self._router.require_declared(handler)

    async def _answer_input(
        self, key: str, method: str, params: dict[str, Any], index: int, count: int
    ) -> dict[str, Any]:
        context = ClientRequestContext(
            server=self.label,
            server_info=self.description.info,
            protocol_version=self.description.protocol_version or LATEST_MODERN,
            era="modern",
            input_key=key,
            question_index=index,
            question_count=count,
        )
        # Asked between two requests of the call: no request is waiting, so no clock needs pausing.
        return await self._router.answer(method, params, context)

    def _push_context(self, request_id: Any) -> ClientRequestContext:
        return ClientRequestContext(
            server=self.label,
            server_info=self.description.info,
            protocol_version=self.description.protocol_version or LATEST_LEGACY,
            era="legacy",
            request_id=request_id,
        )


def _wire_answer(answer: object) -> object:
    """An answer to a server's question as it goes on the wire (a model is dumped, a mapping copied)."""
    dump = getattr(answer, "model_dump_wire", None)
    if callable(dump):
        return dump()
    if isinstance(answer, Mapping):
        return dict(answer)  # pyright: ignore[reportUnknownArgumentType]
    return answer
