"""The session under a ``Client``: the one request path, and everything a request needs on its way.

A ``Session`` owns the transport, the background tasks (a task group), the era settled by the
``Negotiator``, the request ids and the deadlines. Every request, the negotiation's included, gets
what ``roundtrip`` gives it (``_send`` writes the same steps out for the app's requests): a fresh id
and its own ``RequestClock``, registered by id while it waits, so that a question the server pushes
mid-request can be traced to the call that is waiting for it (``_session.questions``). Calls run the
multi-round-trip loop (``_session.input_required``) and raise what failed on our side while answering their
questions rather than the server's echo of it.

What the app did not ask for costs a request nothing (issue 32): no span unless it configured an
OpenTelemetry tracer provider (``_telemetry.tracing_on``), no extension lookup for a result without a
``resultType`` of its own, no closures for a loop that never runs, and no coroutine between ``_send``
and the transport.

Recoveries are the era's decision (``Era.recovery``) and the session's work: restart a legacy session
the server forgot, adopt the modern version the server asks for, refresh the tools' header knowledge,
send a request again whose reply stream was lost.
"""

from __future__ import annotations

import inspect
import itertools
import logging
from collections.abc import Awaitable, Callable, Mapping
from contextlib import ExitStack
from typing import Any, Literal, TypeVar

import anyio
import anyio.abc
from pydantic import BaseModel

from mcp_client._connection import telemetry as _telemetry
from mcp_client._connection.reconnect import Supervisor, lost_server, may_repeat, safe_tools_of
from mcp_client._connection.transport import Message, RequestId, Transport
from mcp_client._errors import (
    ClientStateError,
    MCPClientError,
    MCPError,
    MCPTimeoutError,
    SessionExpiredError,
    TaskLostError,
    UnsupportedInEraError,
    UrlElicitationRequiredError,
)
from mcp_client._protocol import jsonrpc as _jsonrpc
from mcp_client._protocol.eras import Era, Readopt, Recovery, Resend, RestartSession
from mcp_client._protocol.extensions import TASKS, Extensions, legacy_tasks, missing_extension
from mcp_client._protocol.negotiation import Negotiator
from mcp_client._protocol.server_description import ServerDescription
from mcp_client._protocol.version_choice import Adopt
from mcp_client._schema.output_schema import OutputSchemas
from mcp_client._session import input_required as _input_required
from mcp_client._session import results as _results
from mcp_client._session.back_channel import no_back_channel
from mcp_client._session.call_options import CallOptions, dress
from mcp_client._session.elicitation import ElicitationCompleteCallback, UrlCompletions
from mcp_client._session.list_cache import ListCache, ListListing
from mcp_client._session.listen import Listening
from mcp_client._session.notifications import Notifications
from mcp_client._session.questions import Call, Questions
from mcp_client._session.router import Router
from mcp_client._session.server_messages import ServerMessageHandler
from mcp_client._session.timeouts import RequestDeadlines
from mcp_client._tasks.tasks import TaskRunner, TaskWaiter, read_task
from mcp_client._tasks.tool_task import ToolTask, resume_data
from mcp_client.types import (
    CallToolResult,
    InputRequiredResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    SubscriptionFilter,
    Task,
)

logger = logging.getLogger("mcp_client")

ListChangedCallback = Callable[[Any], object]
"""``list_changed_callback(fresh_list)``: a ``ListToolsResult`` / ``ListPromptsResult`` /
``ListResourcesResult`` / ``ListResourceTemplatesResult`` fetched after the server said it changed."""
_LISTS: dict[str, tuple[type[BaseModel], str]] = {
    "tools/list": (ListToolsResult, "tools"),
    "prompts/list": (ListPromptsResult, "prompts"),
    "resources/list": (ListResourcesResult, "resources"),
    "resources/templates/list": (ListResourceTemplatesResult, "resourceTemplates"),
}

_CANCEL_NOTIFY_SECONDS = 2.0


_M = TypeVar("_M", bound=BaseModel)


class Session:
    """One connection to one server, under one ``Client``; the ``Client`` façade delegates to it.

    Owns the transport, the task group of background work, the era, request ids and deadlines, the
    server's description and the output schemas. Calls the ``Negotiator`` (which sends through this
    session's ``roundtrip``), the era (dress, recover) and the transport; the transport calls back
    only into the ``ServerMessageHandler`` it was opened with.
    """

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
        extensions: Extensions | None = None,
    ) -> None:
        self.transport = transport
        self.extensions = extensions if extensions is not None else Extensions()
        self.notifications = notifications
        self.output_schemas = OutputSchemas(transport.label)
        self.list_cache = ListCache()
        """List results kept as the server's cache hints allow (SEP-2549)."""
        self._log_level = log_level
        self._level_request: tuple[str, dict[str, Any]] | None = None
        self.label = transport.label
        self.description = ServerDescription()
        self.deadlines = RequestDeadlines(timeout)
        self.era: Era | None = None
        self._max_rounds = max_rounds
        self._declares_roots = "roots" in router.capabilities
        self._completions = completions
        self._ids = itertools.count(1)
        self._cold = transport.startup_grace > 0  # the first answer may wait for the server to start
        self._with_headers = transport.sends_headers
        self._otel = _telemetry.tracing_available()
        """opentelemetry-api is installed: each request asks whether the app configured tracing."""
        self._state: Literal["new", "open", "closed"] = "new"
        self._task_group: anyio.abc.TaskGroup | None = None
        self._mode = "auto"
        self.supervisor: Supervisor | None = None
        """Brings a lost server back (``Client(reconnect=...)``); ``None``: a lost server stays lost."""
        self.safe_tools: frozenset[str] = frozenset()
        """The tools that said ``readOnlyHint`` or ``idempotentHint`` when last listed: a call of one
        of them may be sent again when its connection dies under it. Forgotten when the server is
        brought back or starts a new session: only hints the current server gave are trusted."""
        self.listed_tools: list[Any] | None = None
        """The last complete tool listing (raw wire dicts), for the approval gate to read each tool's
        annotations from; ``None`` after a tools ``list_changed`` notice, a reconnect or a new session."""
        self.negotiator = Negotiator(
            self,
            transport,
            self.description,
            self.extensions.capabilities(router.capabilities),
            client_info,
            self.deadlines.timeout,
        )
        self._questions = Questions(router, self.deadlines, self.label, self.description)
        self._inbound = ServerMessageHandler(
            router,
            transport.send,
            self._questions,
            completions,
            complete_callback,
            notifications,
            self.label,
        )

    # ------------------------------------------------------------------------- lifecycle

    async def open(self, mode: str, prior: Adopt | None = None) -> None:
        if self._state != "new":
            raise ClientStateError("a Client can be entered only once; create a new Client to reconnect")
        self._state = "open"
        self._mode = mode
        task_group = anyio.create_task_group()
        await task_group.__aenter__()
        self._task_group = task_group
        self.spawn(self.deadlines.watch)  # enforces every request's deadline (see _timeouts)
        try:
            await self.transport.open(self.spawn, self._inbound)
            # A transport that hands its waits to the request clocks needs no cancel scope per request.
            self.deadlines.binding = self.transport.binds_waits
            await self.negotiator.connect(mode, prior)
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

    @property
    def questions(self) -> Questions:
        """Who answers the server's questions (the router, with the right context)."""
        return self._questions

    def task_waiter(self, task_id: str) -> TaskWaiter:
        """A wait between two polls of ``task_id`` that a ``notifications/tasks`` for it cuts short."""
        return TaskWaiter(self.notifications.task_waiters, task_id)

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

    def use(self, era: Era) -> None:
        """Speak ``era`` from now on (the negotiator calls it as soon as the era is settled)."""
        self.era = era
        self._inbound.era = era
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

    # --------------------------------------------------------------- the one request path

    async def roundtrip(
        self,
        method: str,
        params: dict[str, Any] | None,
        headers: Mapping[str, str],
        *,
        grace: float = 0.0,
        call: Call | None = None,
        request_id: RequestId | None = None,
        resumable: bool = True,
        protocol_version: str | None = None,
    ) -> Message | None:
        """Send one request; the server's reply (``result`` or ``error``), or ``None`` past its deadline.

        Every request goes this way, the negotiation's too: a fresh id unless given, and a request
        clock (not a plain ``move_on_after``: it stops while a person answers the request's question or
        logs in). ``grace`` is the least time the answer may take (a cold start); ``resumable`` and
        ``protocol_version`` are what the transport is told about the request (see ``Transport``).
        """
        if request_id is None:
            request_id = next(self._ids)
        message = _jsonrpc.request(request_id, method, params)
        clock = self.deadlines.clock(request_id, call, grace, call.timeout if call is not None else None)
        if call is not None and call.progress is not None:
            call.progress.clock = clock  # its progress reports restart this request's clock
        reply: Message | None = None
        with clock:
            reply = await self.transport.request(
                message, headers, resumable=resumable, protocol_version=protocol_version
            )
            self._cold = False
        return reply

    async def notify(
        self, message: Message, headers: Mapping[str, str], *, protocol_version: str | None = None
    ) -> None:
        await self.transport.send(message, headers, protocol_version=protocol_version)

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
                if self.supervisor is None or not lost_server(exc):
                    raise
                await self.supervisor.recover(exc, method, params, self.safe_tools)
                return await self._send(self.require_open(), method, params, call, request_id)
            if isinstance(recovery, Resend) and not may_repeat(method, params, self.safe_tools):
                raise  # the server may have run it: sent again only when that can do no harm
            era = await self._recover(recovery)
            return await self._send(era, method, params, call, request_id)

    async def reconnect(self) -> None:
        """Bring the lost server back (the ``Supervisor``'s ``restart``): a stdio server's process started
        again, and the era negotiated again as ``mode`` says; raises what failed."""
        restart: Callable[[], Awaitable[None]] | None = getattr(self.transport, "restart", None)
        if restart is not None:
            await restart()
        self.list_cache.forget()  # the new server may serve other lists
        self.output_schemas.forget()
        self.safe_tools = frozenset()  # and other hints: only the current server's are trusted
        self.listed_tools = None
        era = await self.negotiator.connect(self._mode, None)
        if self._mode not in ("auto", "legacy"):
            # An adopted version costs no traffic: make sure the new server answers before relying on it.
            await self._send(era, era.ping_method, None, None)
        await self._ask_log_level()

    async def _recover(self, recovery: Recovery) -> Era:
        if isinstance(recovery, Resend):
            logger.info("%s dropped a reply stream before answering; sending the request again", self.label)
            return self.require_open()
        if isinstance(recovery, RestartSession | Readopt):
            self.list_cache.forget()  # a new session may serve other lists
            self.safe_tools = frozenset()  # and other hints (a redeployed server forgets our session)
            self.listed_tools = None
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
        grace = self.negotiator.connect_timeout if self._cold else 0.0
        if self._otel and _telemetry.tracing_on():
            reply = await self._traced(era, method, wire_params, headers, grace, call, request_id)
        else:
            # ``roundtrip`` and ``_roundtrip`` written out: every request of the app comes this way, and
            # each coroutine in between is paid again at every resumption (issue 32).
            message = _jsonrpc.request(request_id, method, wire_params)
            clock = self.deadlines.clock(request_id, call, grace, call.timeout if call is not None else None)
            if call is not None and call.progress is not None:
                call.progress.clock = clock  # its progress reports restart this request's clock
            reply = None
            try:
                with clock:
                    reply = await self.transport.request(
                        message, headers, resumable=era.resumes_streams, protocol_version=era.protocol_version
                    )
                    self._cold = False
            except anyio.get_cancelled_exc_class():
                await self._cancel_on_server(era, request_id, "The client cancelled the request")
                raise
        if reply is None:  # the deadline fired
            await self._cancel_on_server(era, request_id, "The client timed out")
            timeout = (
                call.timeout if call is not None and call.timeout is not None else self.deadlines.timeout
            )
            raise MCPTimeoutError(
                f"{method} to {self.label} got no answer within {timeout:g}s; "
                "raise Client(timeout=...) or the call's read_timeout_seconds "
                "if the server is slow (time spent answering its questions does not count, "
                "and each progress report starts the clock again)"
            )
        error = reply.get("error")
        if isinstance(error, dict):
            raise _jsonrpc.error_from(error)
        result = reply["result"]
        if self.description.info is None:
            self.description.absorb_info(era.server_info_in(result))
        return result

    async def _traced(
        self,
        era: Era,
        method: str,
        wire_params: dict[str, Any] | None,
        headers: Mapping[str, str],
        grace: float,
        call: Call | None,
        request_id: RequestId,
    ) -> dict[str, Any] | None:
        """``_roundtrip`` in a span of its own, the span's trace context in the params' ``_meta``."""
        traced = wire_params if wire_params is not None else {}
        with _telemetry.request_span(
            method,
            traced,
            request_id=request_id,
            protocol_version=era.protocol_version,
            session_id=self.transport.session_id,
            transport=self.transport.kind,
        ) as span:
            wire_params = traced or wire_params  # the trace context, even on a request with no params
            reply = await self._roundtrip(era, method, wire_params, headers, grace, call, request_id)
            error = reply.get("error") if reply is not None else None
            if isinstance(error, dict):
                _telemetry.failed(span, error.get("code"), str(error.get("message", "")))
        return reply

    async def _roundtrip(
        self,
        era: Era,
        method: str,
        wire_params: dict[str, Any] | None,
        headers: Mapping[str, str],
        grace: float,
        call: Call | None,
        request_id: RequestId,
    ) -> dict[str, Any] | None:
        """One request out and its reply back (``None``: the deadline fired); tells the server when the
        caller gave up."""
        try:
            return await self.roundtrip(
                method,
                wire_params,
                headers,
                grace=grace,
                call=call,
                request_id=request_id,
                resumable=era.resumes_streams,
                protocol_version=era.protocol_version,
            )
        except anyio.get_cancelled_exc_class():
            await self._cancel_on_server(era, request_id, "The client cancelled the request")
            raise

    async def _cancel_on_server(self, era: Era, request_id: Any, reason: str) -> None:
        notice = era.cancel_notification(request_id, reason, self.transport.cancels_by_closing)
        if notice is None:
            return
        with anyio.CancelScope(shield=True), anyio.move_on_after(_CANCEL_NOTIFY_SECONDS):
            try:
                await self.transport.send(*notice, protocol_version=era.protocol_version)
            except MCPClientError:
                pass  # the server is gone: nothing left to cancel

    async def notify_server(self, method: str, params: dict[str, Any] | None = None) -> bool:
        """Send a client notification in the current era; ``False`` if the era has no such notification."""
        era = self.require_open()
        notice = era.notification(method, params)
        if notice is None:
            return False
        await self.transport.send(*notice, protocol_version=era.protocol_version)
        return True

    # ------------------------------------------------------------------ results for Client

    async def _listing(self, method: str, key: str, refresh: bool) -> list[Any]:
        """Every item of a paginated list, from the list cache while the server's hints allow."""

        async def load() -> ListListing:
            pages: list[dict[str, Any]] = []
            items = await _results.list_all(self.request, method, key, self.label, pages)
            return ListListing.of_pages(items, pages)

        return await self.list_cache.fetch(method, load, refresh=refresh)

    def list_changed(self, notice: str, callback: ListChangedCallback | None) -> None:
        """A ``*/list_changed`` notice: forget the stale lists and, with a ``callback``, fetch them anew
        in the background and hand each fresh list to it (``Client(list_changed_callback=...)``); one
        refetch per list in flight and one queued at most, however many notices (``Refetches``)."""
        stale = self.list_cache.heard(notice)
        if notice == "notifications/tools/list_changed":
            self.listed_tools = None  # the approval gate lists them again before judging a call
        if callback is None or self._state != "open":
            return
        refetches = self.list_cache.refetches
        for method in stale:
            if refetches.wanted(method):
                self.spawn(lambda method=method: self._refetch(method, callback))

    async def _refetch(self, method: str, callback: ListChangedCallback) -> None:
        refetches = self.list_cache.refetches
        try:
            await self._refetch_once(method, callback)
            while refetches.again(method):
                await self._refetch_once(method, callback)
        finally:
            refetches.ended(method)

    async def _refetch_once(self, method: str, callback: ListChangedCallback) -> None:
        model, key = _LISTS[method]
        try:
            if method == "tools/list":
                fresh: BaseModel = await self.tool_list(refresh=True)
            else:
                fresh = await self.list_all(model, method, key, refresh=True)
        except MCPClientError as exc:
            logger.warning("%s: could not fetch the changed %s: %s", self.label, method, exc)
            return
        answer = callback(fresh)
        if inspect.isawaitable(answer):
            await answer

    async def list_tools(self, refresh: bool = False) -> list[Any]:
        """Every tool of the server, after the era has learned what it needs from them."""
        tools = await self._listing("tools/list", "tools", refresh)
        self.output_schemas.absorb(tools)
        self.safe_tools = safe_tools_of(tools)
        self.listed_tools = tools
        return self.require_open().absorb_tools(tools)

    async def tool_list(self, refresh: bool = False) -> ListToolsResult:
        """``list_tools`` as the model ``Client.list_tools`` returns."""
        self.require_open()
        tools = await self.list_tools(refresh)
        return _results.parse(ListToolsResult, {"tools": tools}, "tools/list", self.label)

    async def list_all(self, model: type[_M], method: str, key: str, refresh: bool = False) -> _M:
        """Every item of a paginated list (``key`` of ``method``), as ``model``."""
        self.require_open()
        items = await self._listing(method, key, refresh)
        return _results.parse(model, {key: items}, method, self.label)

    async def check_tool_result(self, name: str, result: dict[str, Any]) -> None:
        """Check a tool's structured result against its output schema (listing the tools once if needed)."""
        schemas = self.output_schemas
        if not schemas.known:
            if self.transport.backlogged:
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

    async def request_parsed(self, model: type[_M], method: str, params: dict[str, Any] | None) -> _M:
        """One request whose result is read as ``model``."""
        self.require_open()
        return _results.parse(model, await self.request(method, params), method, self.label)

    async def send_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        """Any request, its raw result (``Client.send_request``)."""
        self.require_open()
        return await self.request(method, params)

    async def ping(self) -> None:
        await self.request(self.require_open().ping_method, None)

    async def subscription_request(self, method: str, uri: str) -> None:
        """``resources/subscribe`` or ``resources/unsubscribe``, where the era has them."""
        if not self.require_open().has_resource_subscriptions:
            raise UnsupportedInEraError(
                f"{method} is not part of protocol {self.description.protocol_version}: use "
                "`async with client.listen(resource_subscriptions=[uri]) as subscription:` instead"
            )
        await self.request(method, {"uri": uri})

    def listen(self, wanted: SubscriptionFilter) -> Listening:
        """The ``async with`` of ``Client.listen``, in this session's era."""
        era = self.require_open()
        return Listening(self, self.notifications, era, wanted, self.deadlines.timeout, self.label)

    async def roots_changed(self) -> None:
        """Tell the server the roots changed (``Client.send_roots_list_changed``)."""
        self.require_open()
        if not self._declares_roots:
            raise ClientStateError(
                "this Client declared no roots; pass list_roots_callback=... to Client to declare them"
            )
        await self.notify_server("notifications/roots/list_changed")

    # ---------------------------------------------------- calls that may ask questions

    async def call_tool(
        self, name: str, params: dict[str, Any], options: CallOptions | None
    ) -> CallToolResult | InputRequiredResult:
        """``tools/call``: the loop, then the result checked against the tool's output schema."""
        self.require_open()
        what = f"tools/call {name!r}"
        result = await self.call("tools/call", params, what, options)
        if options is not None and options.allow_input_required and _input_required.is_input_required(result):
            return _results.parse(InputRequiredResult, result, what, self.label)
        await self.check_tool_result(name, result)
        return _results.parse(CallToolResult, result, what, self.label)

    async def start_tool_task(self, name: str, params: dict[str, Any], options: CallOptions) -> ToolTask:
        """``tools/call`` with ``as_task``: a ``ToolTask`` on the server's task (or on its direct answer)."""
        self.require_open()
        what = f"tools/call {name!r}"
        result = await self.call("tools/call", params, what, options)
        if self.extensions.claim("tools/call", result, self.label) is None:
            return ToolTask(self, tool=name, immediate=result)
        call = Call.of("tools/call", params, options.timeout)
        runner = TaskRunner(self, read_task(result, what), call, name)
        return ToolTask(self, tool=name, runner=runner)

    async def resume_task(self, saved: str | Mapping[str, Any]) -> ToolTask:
        """A ``ToolTask`` for a task started earlier, perhaps by another process (``Client.task``)."""
        self.require_open()
        if TASKS not in self.extensions:
            raise ClientStateError(
                "this Client did not declare the tasks extension; pass tasks=True to Client to follow tasks"
            )
        task_id, tool, asked = resume_data(saved)
        call = Call(tool_name=tool)
        runner = TaskRunner(self, Task(task_id=task_id, status="working"), call, tool, asked)
        await runner.poll()
        return ToolTask(self, tool=tool, runner=runner)

    async def call_parsed(
        self, model: type[_M], method: str, params: dict[str, Any], what: str, options: CallOptions | None
    ) -> _M | InputRequiredResult:
        """A call that may ask questions, its result read as ``model`` (or the paused call's result)."""
        self.require_open()
        result = await self.call(method, params, what, options)
        if options is not None and options.allow_input_required and _input_required.is_input_required(result):
            return _results.parse(InputRequiredResult, result, what, self.label)
        return _results.parse(model, result, what, self.label)

    def call(
        self, method: str, params: dict[str, Any], what: str, options: CallOptions | None = None
    ) -> Awaitable[dict[str, Any]]:
        """One request that may need input: the multi-round-trip loop, and legacy local failures.

        Not a coroutine itself: a call without options awaits ``_call`` with one coroutine less."""
        if options is None:
            return self._call(method, params, what, Call.of(method, params), False)
        return self._call_with(method, params, what, options)

    async def _call_with(
        self, method: str, params: dict[str, Any], what: str, options: CallOptions
    ) -> dict[str, Any]:
        """``call`` with its options: the progress route open while it runs, the params dressed."""
        with ExitStack() as stack:
            route = None
            if options.progress_callback is not None:
                route = stack.enter_context(self.notifications.progress.open(options.progress_callback))
            era = self.require_open()
            params = dress(params, options, route, what, era.resumable, self.description.protocol_version)
            call = Call.of(method, params, options.timeout, route)
            return await self._call(method, params, what, call, options.allow_input_required, options.as_task)

    async def follow_task(
        self, created: dict[str, Any], call: Call, what: str, tool: object
    ) -> dict[str, Any]:
        """A call the server turned into a task: follow it to its result, as if answered directly.

        Abandoning it (cancelled, timed out, a question failed on our side) sends ``tasks/cancel``.
        """
        runner = TaskRunner(self, read_task(created, what), call, tool if isinstance(tool, str) else None)
        try:
            return await runner.follow()
        except TaskLostError:
            raise
        except BaseException as exc:
            if not runner.task.done:
                cancelled = isinstance(exc, anyio.get_cancelled_exc_class())
                why = "the call was cancelled" if cancelled else f"the call failed: {exc}"
                await runner.cancel_quietly(why)
            raise

    async def _call(
        self,
        method: str,
        params: dict[str, Any],
        what: str,
        call: Call,
        allow_input_required: bool,
        keep_task: bool = False,
    ) -> dict[str, Any]:
        try:
            result = await self.request(method, params, call)
            if _input_required.is_input_required(result) and not allow_input_required:
                # Defined here, not on every call: most calls never ask (the loop is
                # ``_session.input_required``).

                async def send(round_params: dict[str, Any]) -> dict[str, Any]:
                    return await self.request(method, round_params, call)

                async def answer(
                    key: str, method: str, params: dict[str, Any], index: int, count: int
                ) -> dict[str, Any]:
                    # Asked between two requests of the call: no request waits, so no clock needs pausing.
                    return await self._questions.answer(
                        self.require_open(), key, method, params, index, count, call=call
                    )

                result = await _input_required.run(
                    send,
                    params,
                    answer,
                    max_rounds=self._max_rounds,
                    what=what,
                    first=result,
                    check=self._questions.check,
                )
        except MCPError as exc:
            if isinstance(exc, UrlElicitationRequiredError):
                for elicitation in exc.elicitations:
                    self._completions.expect(elicitation.elicitation_id)
            failure = call.take_failure()
            if failure is not None:
                # Not `from exc`: the local error keeps its own __cause__; the echo becomes __context__.
                raise failure  # noqa: B904
            hinted = missing_extension(exc, self.extensions)
            legacy = self.era is not None and self.era.name == "legacy"
            if hinted is exc:
                info = self.description.info
                modern = self.era is not None and self.era.name == "modern"
                name = info.name if info is not None else None
                hinted = no_back_channel(exc, modern=modern, server=self.label, server_name=name)
            if hinted is exc and legacy and method == "tools/call":
                hinted = legacy_tasks(exc, self.description.capabilities.model_extra or {})
            if hinted is not exc:
                raise hinted  # noqa: B904 (its __cause__ is the server's error)
            raise
        # Only a result with a resultType of its own can belong to an extension (``Extensions.claim``).
        result_type = result.get("resultType")
        if (
            result_type is not None
            and result_type != "complete"
            and self.extensions.claim(method, result, self.label) is not None
            and not keep_task
        ):
            result = await self.follow_task(result, call, what, params.get("name"))
        if result.get("isError") is True:
            failure = call.take_failure()
            if failure is not None:
                raise failure
        return result
