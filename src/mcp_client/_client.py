"""``Client``: the one object an app uses to talk to an MCP server, in either protocol era.

It owns a transport (HTTP or stdio), negotiates the era at connect time (``_negotiation``), and then
sends every request through the era strategy (``_eras``). ``call_tool``, ``get_prompt`` and
``read_resource`` run the multi-round-trip loop (``_input_required``); legacy server pushes go through
``_server_messages``; both end in the same ``elicitation_callback`` (``_elicitation``).
"""

from __future__ import annotations

import itertools
import logging
import math
from collections.abc import Awaitable, Callable, Iterable, Mapping
from types import TracebackType
from typing import Any, Literal, Self, TypeVar

import anyio
import anyio.abc
import httpx
from pydantic import BaseModel, ValidationError

from mcp_client import _input_required, _jsonrpc, _negotiation
from mcp_client._context import ClientRequestContext
from mcp_client._elicitation import (
    ElicitationCallback,
    ElicitationCompleteCallback,
    ElicitationResponder,
    declared_modes,
)
from mcp_client._eras import SERVER_INFO_META, Era, LegacyEra, ModernEra, capabilities_for
from mcp_client._errors import (
    ClientStateError,
    MCPClientError,
    MCPConnectionError,
    MCPError,
    MCPTimeoutError,
    ProtocolError,
    SessionExpiredError,
    UnsupportedProtocolVersionError,
    UrlElicitationRequiredError,
)
from mcp_client._http import StreamableHTTPTransport
from mcp_client._server_messages import ServerMessageHandler
from mcp_client._stdio import StdioServerParameters, StdioTransport
from mcp_client._timeouts import RequestDeadlines
from mcp_client._transport import DEFAULT_MAX_MESSAGE_BYTES, Transport
from mcp_client._versions import LATEST_LEGACY, LATEST_MODERN, MODERN_VERSIONS, MODES
from mcp_client.types import (
    CallToolResult,
    GetPromptResult,
    Implementation,
    ListPromptsResult,
    ListResourcesResult,
    ListToolsResult,
    ReadResourceResult,
    ServerCapabilities,
)

__all__ = ["Client"]

logger = logging.getLogger("mcp_client")

_M = TypeVar("_M", bound=BaseModel)
_PROBE_TIMEOUT = 10.0
_MAX_PAGES = 1000
_CANCEL_NOTIFY_SECONDS = 2.0
_DEFAULT_CLIENT_INFO = Implementation(name="mcp-client", version="0.1.0")


class Client:
    """An async MCP client; use it as ``async with Client(server, ...) as client:``.

    ``server`` is an ``http(s)://`` URL (streamable HTTP), a ``StdioServerParameters`` (a subprocess
    over stdio), or a ``Transport`` object. ``mode`` is ``"legacy"`` (initialize handshake), ``"auto"``
    (probe ``server/discover``, fall back to the handshake) or a modern version such as ``"2026-07-28"``
    (adopt it with no traffic).

    Every elicitation question, pushed by a legacy server or returned by a modern one, goes to
    ``elicitation_callback(context, params) -> ElicitResult``. The callback is also the capability
    declaration: without one the client declares no elicitation. The modes declared are
    ``elicitation_modes`` if given, else the callback's ``elicitation_modes`` attribute, else both.
    ``elicitation_complete_callback(elicitation_id)`` hears legacy URL-mode completions.

    ``timeout`` bounds each request, not counting time spent in the elicitation callback or in the
    browser step of an OAuth login. ``input_required_max_rounds`` caps the multi-round-trip loop.
    ``headers`` and ``auth`` (an ``httpx.Auth``, such as ``mcp_client.auth.OAuth``) apply to every HTTP
    request.
    """

    def __init__(
        self,
        server: str | StdioServerParameters | Transport,
        *,
        mode: str = "auto",
        elicitation_callback: ElicitationCallback | None = None,
        elicitation_complete_callback: ElicitationCompleteCallback | None = None,
        client_info: Implementation | Mapping[str, Any] | None = None,
        timeout: float | None = 30.0,
        input_required_max_rounds: int = 10,
        headers: Mapping[str, str] | None = None,
        auth: httpx.Auth | None = None,
        elicitation_modes: Iterable[str] | None = None,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(repr(m) for m in MODES)}; got {mode!r}")
        if input_required_max_rounds < 0:
            raise ValueError("input_required_max_rounds must be 0 or more")
        if timeout is not None and (not timeout > 0 or math.isnan(timeout)):
            raise ValueError(f"timeout must be a positive number of seconds or None; got {timeout!r}")
        self._transport = self._make_transport(server, headers, auth, timeout, max_message_bytes)
        self._mode = mode
        self._client_info = (
            client_info
            if isinstance(client_info, Implementation)
            else Implementation.model_validate(client_info)
            if client_info is not None
            else _DEFAULT_CLIENT_INFO
        )
        self._modes = declared_modes(elicitation_callback, elicitation_modes)
        self._capabilities = capabilities_for(self._modes)
        self._deadlines = RequestDeadlines(timeout)
        self._timeout = timeout
        self._max_rounds = input_required_max_rounds
        self._responder = ElicitationResponder(elicitation_callback, self._modes, self._deadlines)
        self._inbound = ServerMessageHandler(
            self._responder, self._reply_to_server, self._legacy_context, elicitation_complete_callback
        )
        self._ids = itertools.count(1)
        self._cold = not isinstance(self._transport, StreamableHTTPTransport)
        # HTTP headers are only built for transports that send them (a subprocess pipe has none).
        self._with_headers = not isinstance(self._transport, StdioTransport)
        self._era: Era | None = None
        self._state: Literal["new", "open", "closed"] = "new"
        self._task_group: anyio.abc.TaskGroup | None = None
        self.protocol_version: str | None = None
        """The negotiated protocol version, once connected."""
        self.server_info: Implementation | None = None
        """The server's name and version, as it gave them."""
        self.server_capabilities: ServerCapabilities = ServerCapabilities()
        """What the server said it can do (empty until it said)."""
        self.instructions: str | None = None
        """The server's usage instructions, if it gave any."""

    @staticmethod
    def _make_transport(
        server: object,
        headers: Mapping[str, str] | None,
        auth: httpx.Auth | None,
        timeout: float | None,
        max_message_bytes: int,
    ) -> Transport:
        if isinstance(server, str):
            if not server.startswith(("http://", "https://")):
                raise ValueError(
                    f"server must be an http:// or https:// URL, a StdioServerParameters or a transport; got "
                    f"{server!r}. For a command, use StdioServerParameters(command, args=[...])."
                )
            return StreamableHTTPTransport(
                server, headers=headers, auth=auth, timeout=timeout, max_message_bytes=max_message_bytes
            )
        if isinstance(server, StdioServerParameters):
            return StdioTransport(server, max_message_bytes=max_message_bytes)
        if isinstance(server, Transport):
            return server
        raise TypeError(
            "server must be a URL string, a StdioServerParameters or a Transport; "
            f"got {type(server).__name__}"
        )

    @property
    def server(self) -> str:
        """The URL or command line of the server, as shown to users."""
        return self._transport.label

    @property
    def session_id(self) -> str | None:
        """The legacy HTTP session id (``Mcp-Session-Id``), if the transport has one."""
        return getattr(self._transport, "session_id", None)

    @property
    def era(self) -> Literal["legacy", "modern"] | None:
        """``"legacy"`` (handshake) or ``"modern"`` (2026-07-28 envelope) once connected."""
        return self._era.name if self._era is not None else None

    # ------------------------------------------------------------------------- lifecycle

    async def __aenter__(self) -> Self:
        if self._state != "new":
            raise ClientStateError("a Client can be entered only once; create a new Client to reconnect")
        self._state = "open"
        task_group = anyio.create_task_group()
        await task_group.__aenter__()
        self._task_group = task_group
        try:
            await self._transport.open(self._spawn, self._inbound)
            await self._connect()
        except BaseException as exc:
            await self._shutdown(type(exc), exc, exc.__traceback__)
            raise
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self._shutdown(exc_type, exc, tb)

    async def _shutdown(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._state == "closed":
            return
        self._state = "closed"
        try:
            with anyio.CancelScope(shield=True):
                await self._transport.aclose()
        finally:
            task_group, self._task_group = self._task_group, None
            if task_group is not None:
                # Background work is owned here and already guarded; the caller's exception (if any)
                # propagates as it is, never wrapped in an ExceptionGroup.
                task_group.cancel_scope.cancel()
                await task_group.__aexit__(None, None, None)

    def _spawn(self, fn: Callable[[], Awaitable[None]]) -> None:
        """Start background work owned by this client; a failure there is logged, never lost silently."""
        task_group = self._task_group
        if task_group is None:
            return

        async def guarded() -> None:
            try:
                await fn()
            except Exception:
                logger.exception("background task for %s failed", self.server)

        task_group.start_soon(guarded)

    def _require_open(self) -> Era:
        if self._state != "open" or self._era is None:
            raise ClientStateError(
                "the Client is not connected; use it inside `async with Client(...) as client:`"
                if self._state != "closed"
                else "the Client is closed; create a new Client to reconnect"
            )
        return self._era

    # ----------------------------------------------------------------------- negotiation

    async def _connect(self) -> None:
        try:
            if self._mode == "legacy":
                await self._handshake()
            elif self._mode == "auto":
                await self._auto()
            else:
                self._adopt(self._mode, None)
        except (MCPError, ProtocolError) as exc:
            if isinstance(exc, UnsupportedProtocolVersionError):
                raise
            tried = {"legacy": "the initialize handshake", "auto": "server/discover, then initialize"}.get(
                self._mode, f"protocol {self._mode}"
            )
            raise MCPConnectionError(f"could not connect to {self.server} (tried {tried}): {exc}") from exc

    def _adopt(self, version: str, discover: dict[str, Any] | None) -> None:
        client_info = self._client_info.model_dump_wire()
        self._era = ModernEra(version, self._capabilities, client_info)
        self.protocol_version = version
        if discover is not None:
            self._absorb_server_description(discover)

    def _absorb_server_description(self, result: dict[str, Any]) -> None:
        capabilities = result.get("capabilities")
        if isinstance(capabilities, dict):
            self.server_capabilities = ServerCapabilities.model_validate(capabilities)
        instructions = result.get("instructions")
        if isinstance(instructions, str):
            self.instructions = instructions
        info = result.get("serverInfo")
        if info is None and isinstance(result.get("_meta"), dict):
            info = result["_meta"].get(SERVER_INFO_META)
        self._absorb_server_info(info)

    def _absorb_server_info(self, info: object) -> None:
        if isinstance(info, dict):
            try:
                self.server_info = Implementation.model_validate(info)
            except ValidationError:
                pass  # a malformed self-description is not worth failing a call over

    async def _auto(self) -> None:
        version = LATEST_MODERN
        probed_again = False
        while True:
            decision = await self._probe(version)
            if isinstance(decision, _negotiation.Adopt):
                self._adopt(decision.version, decision.discover)
                return
            if isinstance(decision, _negotiation.ProbeAgain) and not probed_again:
                version, probed_again = decision.version, True
                continue
            reason = decision.reason if isinstance(decision, _negotiation.Fallback) else "no mutual version"
            logger.debug("%s: falling back to the initialize handshake: %s", self.server, reason)
            again = await self._handshake(allow_probe_again=not probed_again)
            if again is None:
                return
            version, probed_again = again, True

    async def _probe(self, version: str) -> _negotiation.Decision:
        era = ModernEra(version, self._capabilities, self._client_info.model_dump_wire())
        params, headers = era.prepare("server/discover", None)
        message = _jsonrpc.request(next(self._ids), "server/discover", params)
        limit = self._connect_timeout()
        reply: dict[str, Any] | None = None
        with self._deadlines.scope(limit):  # stopped, like any request's, while a person logs in
            reply = await self._transport.request(message, headers)
        if reply is None:
            if isinstance(self._transport, StreamableHTTPTransport):
                raise MCPTimeoutError(f"{self.server} did not answer server/discover within {limit:g}s")
            return _negotiation.Fallback("server/discover got no answer (a legacy stdio server stays silent)")
        return _negotiation.after_probe(reply, version)

    def _connect_timeout(self) -> float:
        """The first answer of a subprocess may wait for its cold start: allow at least 10 s there."""
        if isinstance(self._transport, StreamableHTTPTransport):
            return self._deadlines.timeout
        return max(self._deadlines.timeout, _PROBE_TIMEOUT)

    async def _handshake(self, *, allow_probe_again: bool = False) -> str | None:
        """Run ``initialize``; return a modern version to probe instead if the server asks for one."""
        params = {
            "protocolVersion": LATEST_LEGACY,
            "capabilities": self._capabilities,
            "clientInfo": self._client_info.model_dump_wire(),
        }
        message = _jsonrpc.request(next(self._ids), "initialize", params)
        limit = self._connect_timeout()
        reply: dict[str, Any] | None = None
        with self._deadlines.scope(limit):
            reply = await self._transport.request(message, {})
            self._cold = False
        if reply is None:
            raise MCPTimeoutError(f"{self.server} did not answer initialize within {limit:g}s")
        error = reply.get("error")
        if isinstance(error, dict):
            if allow_probe_again and (again := _negotiation.after_initialize_error(error)) is not None:  # pyright: ignore[reportUnknownArgumentType]
                return again.version
            raise _jsonrpc.error_from(error)  # pyright: ignore[reportUnknownArgumentType]
        result = reply["result"]
        version = _negotiation.check_legacy_version(result.get("protocolVersion"))
        self._era = LegacyEra(version)
        self.protocol_version = version
        self._absorb_server_description(result)
        await self._transport.send(
            _jsonrpc.notification("notifications/initialized"), self._era.notification_headers("")
        )
        return None

    # -------------------------------------------------------------------------- requests

    async def _request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        """Send one request in the current era and return its result; JSON-RPC errors raise ``MCPError``."""
        era = self._require_open()
        try:
            return await self._send_request(era, method, params)
        except SessionExpiredError:
            if not isinstance(era, LegacyEra):
                raise
            logger.info("%s forgot our session; starting a new one", self.server)
            try:
                await self._handshake()
            except MCPClientError as exc:
                raise SessionExpiredError(
                    f"{self.server} forgot our session and a new one could not be started: {exc}"
                ) from exc
            return await self._send_request(self._require_open(), method, params)
        except MCPError as exc:
            if exc.code != _jsonrpc.UNSUPPORTED_PROTOCOL_VERSION or not isinstance(era, ModernEra):
                raise
            decision = _negotiation.after_probe({"error": exc.to_error_dict()}, era.protocol_version)
            if not isinstance(decision, _negotiation.ProbeAgain) or decision.version not in MODERN_VERSIONS:
                raise
            self._adopt(decision.version, None)
            return await self._send_request(self._require_open(), method, params)

    async def _send_request(self, era: Era, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        request_id = next(self._ids)
        wire_params, headers = era.prepare(method, params, with_headers=self._with_headers)
        message = _jsonrpc.request(request_id, method, wire_params)
        reply: dict[str, Any] | None = None
        try:
            with self._deadlines.scope() as scope:
                if self._cold:  # a subprocess's first answer waits for its start-up, as in _connect_timeout
                    scope.deadline = max(scope.deadline, anyio.current_time() + self._connect_timeout())
                reply = await self._transport.request(message, headers)
                self._cold = False
        except anyio.get_cancelled_exc_class():
            await self._cancel_on_server(era, request_id, "The client cancelled the request")
            raise
        if reply is None:  # pyright: ignore[reportUnnecessaryComparison]  (the deadline fired)
            await self._cancel_on_server(era, request_id, "The client timed out")
            raise MCPTimeoutError(
                f"{method} to {self.server} got no answer within {self._timeout:g}s; "
                "raise Client(timeout=...) "
                "if the server is slow (time spent answering elicitations does not count)"
            )
        error = reply.get("error")
        if isinstance(error, dict):
            raise _jsonrpc.error_from(error)  # pyright: ignore[reportUnknownArgumentType]
        result = reply["result"]
        if isinstance(era, ModernEra):
            meta = result.get("_meta")
            if isinstance(meta, dict) and self.server_info is None:
                self._absorb_server_info(meta.get(SERVER_INFO_META))  # pyright: ignore[reportUnknownMemberType]
        return result

    async def _cancel_on_server(self, era: Era, request_id: Any, reason: str) -> None:
        if not era.needs_cancel_notification(self._transport.cancels_by_closing):
            return
        message = _jsonrpc.notification(
            "notifications/cancelled", {"requestId": request_id, "reason": reason}
        )
        wire_params, _ = era.prepare("notifications/cancelled", message["params"])
        if isinstance(era, ModernEra):
            message["params"] = wire_params
        with anyio.CancelScope(shield=True), anyio.move_on_after(_CANCEL_NOTIFY_SECONDS):
            try:
                await self._transport.send(message, era.notification_headers("notifications/cancelled"))
            except MCPClientError:
                pass  # the server is gone: nothing left to cancel

    async def _reply_to_server(self, message: dict[str, Any]) -> None:
        era = self._era
        headers = era.notification_headers("") if era is not None else {}
        await self._transport.send(message, headers)

    def _legacy_context(self, request_id: Any) -> ClientRequestContext:
        return ClientRequestContext(
            server=self.server,
            server_info=self.server_info,
            protocol_version=self.protocol_version or LATEST_LEGACY,
            era="legacy",
            request_id=request_id,
        )

    async def _answer_input(self, key: str, params: dict[str, Any], index: int, count: int) -> dict[str, Any]:
        context = ClientRequestContext(
            server=self.server,
            server_info=self.server_info,
            protocol_version=self.protocol_version or LATEST_MODERN,
            era="modern",
            input_key=key,
            question_index=index,
            question_count=count,
        )
        return await self._responder.answer(params, context)

    async def _request_with_input(self, method: str, params: dict[str, Any], what: str) -> dict[str, Any]:
        """One request that may need input: the multi-round-trip loop, and legacy local failures."""

        async def send(round_params: dict[str, Any]) -> dict[str, Any]:
            return await self._request(method, round_params)

        try:
            result = await self._request(method, params)
            if _input_required.is_input_required(result):
                result = await _input_required.run(
                    send, params, self._answer_input, max_rounds=self._max_rounds, what=what, first=result
                )
        except MCPError as exc:
            if isinstance(exc, UrlElicitationRequiredError):
                for elicitation in exc.elicitations:
                    self._inbound.expect_completion(elicitation.elicitation_id)
            self._raise_local_failure()  # the server's echo stays attached as __context__
            raise
        if result.get("isError") is True:
            self._raise_local_failure()
        return result

    def _raise_local_failure(self) -> None:
        """If a pushed question failed on our side, raise that clearer error instead of the server's echo.

        The local error keeps its own ``__cause__`` (e.g. the exception the callback raised).
        """
        failures = self._inbound.local_failures
        if failures:
            raise failures.popleft()

    def _parse(self, model: type[_M], result: dict[str, Any], what: str) -> _M:
        try:
            return model.model_validate(result)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "(top level)"
            raise ProtocolError(
                f"{self.server} sent a malformed {what} result: {where}: {first['msg']}"
            ) from exc

    async def _list_all(self, method: str, key: str) -> list[Any]:
        items: list[Any] = []
        cursor: Any = None
        seen: set[Any] = set()
        for _ in range(_MAX_PAGES):
            result = await self._request(method, {"cursor": cursor} if cursor is not None else None)
            page = result.get(key)
            if not isinstance(page, list):
                raise ProtocolError(f"{self.server} answered {method} without a {key!r} list")
            items.extend(page)  # pyright: ignore[reportUnknownArgumentType]
            cursor = result.get("nextCursor")
            if cursor is None:
                return items
            if not isinstance(cursor, str) or cursor in seen:
                raise ProtocolError(f"{self.server} sent a repeated or invalid {method} cursor {cursor!r}")
            seen.add(cursor)
        raise ProtocolError(f"{self.server} sent more than {_MAX_PAGES} pages for {method}")

    # ------------------------------------------------------------------------ public API

    async def list_tools(self) -> ListToolsResult:
        """Every tool of the server (all pages)."""
        era = self._require_open()
        tools = era.absorb_tools(await self._list_all("tools/list", "tools"))
        return self._parse(ListToolsResult, {"tools": tools}, "tools/list")

    async def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None) -> CallToolResult:
        """Call a tool and return its result; the server's questions go to the elicitation callback.

        A tool's own failure is a result with ``is_error=True``; protocol failures raise ``MCPError``.
        """
        self._require_open()
        params = {"name": name, "arguments": dict(arguments) if arguments else {}}
        what = f"tools/call {name!r}"
        try:
            result = await self._request_with_input("tools/call", params, what)
        except MCPError as exc:
            if exc.code != _jsonrpc.HEADER_MISMATCH or not isinstance(self._era, ModernEra):
                raise
            await self.list_tools()  # the spec's recovery for stale x-mcp-header knowledge
            result = await self._request_with_input("tools/call", params, what)
        return self._parse(CallToolResult, result, what)

    async def list_prompts(self) -> ListPromptsResult:
        """Every prompt of the server (all pages)."""
        self._require_open()
        return self._parse(
            ListPromptsResult, {"prompts": await self._list_all("prompts/list", "prompts")}, "prompts/list"
        )

    async def get_prompt(self, name: str, arguments: Mapping[str, str] | None = None) -> GetPromptResult:
        """Render a prompt; the server's questions go to the elicitation callback."""
        self._require_open()
        params: dict[str, Any] = {"name": name}
        if arguments:
            params["arguments"] = dict(arguments)
        what = f"prompts/get {name!r}"
        return self._parse(GetPromptResult, await self._request_with_input("prompts/get", params, what), what)

    async def list_resources(self) -> ListResourcesResult:
        """Every resource of the server (all pages)."""
        self._require_open()
        resources = await self._list_all("resources/list", "resources")
        return self._parse(ListResourcesResult, {"resources": resources}, "resources/list")

    async def read_resource(self, uri: str) -> ReadResourceResult:
        """Read a resource; the server's questions go to the elicitation callback."""
        self._require_open()
        what = f"resources/read {uri!r}"
        return self._parse(
            ReadResourceResult, await self._request_with_input("resources/read", {"uri": uri}, what), what
        )

    async def ping(self) -> None:
        """Check that the server answers.

        The 2026-07-28 era has no ``ping`` method; there the check is a ``server/discover`` request.
        """
        era = self._require_open()
        await self._request("ping" if isinstance(era, LegacyEra) else "server/discover", None)

    async def send_request(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Send any request in the current era and return its raw result (for methods without a helper)."""
        self._require_open()
        return await self._request(method, dict(params) if params is not None else None)
