"""``AppBridge``: the host side of one view's JSON-RPC (MCP Apps 2026-01-26), with no UI of its own.

The view (the server's HTML, running in a sandboxed frame) is a JSON-RPC peer: it asks the host to
initialise, call tools, read resources, open links, post messages; the host tells it the tool's input and
result and when it is torn down. This class is that conversation and nothing else: a host (a browser
page, a web app) carries the messages. It hands each message the view sent to ``await handle(message)``
and sends back what that returns, and gives ``send`` (an async callable) to the bridge for the messages
the host sends on its own.

Rules it keeps, whoever carries the messages:

* Nothing goes to the view before its ``ui/notifications/initialized`` (the spec's MUST): the tool's input,
  result, cancellation and context changes are queued until then, and then sent in the order given.
* A view calls tools of its own server only, and only those whose visibility has ``"app"``; the call goes
  through the ``Client`` (its questions reach the client's ``elicitation_callback``, its tool policy
  applies), and a refused call never reaches the server.
* Nothing a view asks of the person happens without the app's callback: with none, the request is
  refused with a JSON-RPC error and logged (logger ``mcp_client.apps``).
* A malformed message, a callback that raises, a server that fails: the view gets a JSON-RPC error,
  ``handle`` never raises (cancellation aside).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlsplit

import anyio

from mcp_client._errors import MCPClientError, MCPError
from mcp_client._version import __version__
from mcp_client.apps._app_target import AppTarget, ToolNotFound
from mcp_client.apps._host_context import (
    DisplayMode,
    check_host_context,
    default_host_context,
    style_variables,
)
from mcp_client.apps._tool_app import app_of
from mcp_client.apps._view_messages import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    REFUSED,
    MalformedMessage,
    RequestId,
    ViewError,
    ViewMessage,
    error_answer,
    parse_view_message,
    result_answer,
)

if TYPE_CHECKING:
    from mcp_client._client import Client
    from mcp_client._group.client_group import ClientGroup, GroupTool
    from mcp_client.types import CallToolResult, Tool

logger = logging.getLogger("mcp_client.apps")

PROTOCOL_VERSION = "2026-01-26"
"""The MCP Apps version this host speaks (the only stable one); a view asking another gets this one."""

SUPPORTED_PROTOCOL_VERSIONS = (PROTOCOL_VERSION,)

DEFAULT_TEARDOWN_TIMEOUT = 5.0
"""Seconds ``teardown()`` waits for the view's answer to ``ui/resource-teardown`` before giving up."""

Send = Callable[[dict[str, Any]], Awaitable[None]]
"""The host's way to the view: takes one JSON-RPC message (a dict) and delivers it."""

ViewCallback = Callable[[dict[str, Any]], "bool | Awaitable[bool]"]
"""Gets the request's ``params``; returns ``True`` to accept it, ``False`` to refuse (sync or async)."""

LogCallback = Callable[[dict[str, Any]], "Awaitable[None] | None"]
"""Gets a ``notifications/message``'s ``params`` (``level``, ``logger``, ``data``); returns nothing."""

_MESSAGE_BLOCKS: dict[str, dict[str, Any]] = {
    "text": {},
    "image": {},
    "audio": {},
    "resource": {},
    "resourceLink": {},
}
_LINK_SCHEMES = ("http", "https")
_LOG_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.ERROR,
    "alert": logging.ERROR,
    "emergency": logging.ERROR,
}
_DISPLAY_MODES = ("inline", "fullscreen", "pip")
_LOG_CHARS = 2000


class AppBridge:
    """The host side of one view's JSON-RPC: ``AppBridge(client, tool, send=deliver)``.

    ``client`` is a ``Client`` or a ``ClientGroup``; ``tool`` the tool whose view this is: a ``Tool`` from
    ``list_tools()``, a group's ``GroupTool``, or its name (a group's unique name for a group). The view's
    calls and reads go to that tool's server only. ``send`` is an async callable that delivers one
    host-to-view message (a dict).

    The host passes each message the view posts to ``await bridge.handle(message)`` and delivers the dict
    it returns (``None``: nothing to answer, a notification). It tells the view about the tool with
    ``await bridge.tool_input(arguments)``, ``await bridge.tool_result(result)`` or
    ``await bridge.tool_cancelled(reason)``: held until the view's ``ui/notifications/initialized``, then
    sent in order. ``await bridge.teardown()`` sends ``ui/resource-teardown`` and waits a bounded time for
    the view's answer.

    ``host_context`` (a mapping) overrides fields of the ``hostContext`` the view gets at ``ui/initialize``
    (``default_host_context()``: theme, every standard style variable for it, display mode ``inline``,
    container dimensions, locale, time zone, platform); a ``theme`` given without ``styles`` brings that
    theme's style variables. A field the view's SDK would reject (a theme other than ``light`` or
    ``dark``, a style variable that is not a standard one) raises ``ValueError``. ``host_info`` is the
    host's ``{"name", "version"}`` (``mcp-client`` by default).

    The view's requests that need the person go to the callbacks, which get the request's ``params`` (a
    dict), may be sync or async, and return ``True`` to accept (the view's request succeeds) or ``False``
    to refuse (the view gets a JSON-RPC error): ``on_message`` (``ui/message``: a message for the chat),
    ``on_model_context`` (``ui/update-model-context``: context for the model's next turn), ``on_open_link``
    (``ui/open-link``: the host never opens a link itself; the callback opens it, or asks the person, and
    says whether it did; only ``http``/``https`` links reach it). ``on_log`` gets ``notifications/message``
    and returns nothing. Without its callback a request is refused and logged (``mcp_client.apps``); a
    callback that raises gives the view an error and is logged, and the host goes on. The
    ``hostCapabilities`` the view gets name ``openLinks``, ``message`` and ``updateModelContext`` only
    where the callback was given, so a view can tell beforehand (give a callback only where the app does
    something with it). ``teardown_timeout`` bounds ``teardown()``'s wait (seconds).
    """

    def __init__(
        self,
        client: Client | ClientGroup,
        tool: Tool | GroupTool | str,
        *,
        send: Send,
        host_context: Mapping[str, Any] | None = None,
        host_info: Mapping[str, Any] | None = None,
        on_message: ViewCallback | None = None,
        on_open_link: ViewCallback | None = None,
        on_model_context: ViewCallback | None = None,
        on_log: LogCallback | None = None,
        teardown_timeout: float = DEFAULT_TEARDOWN_TIMEOUT,
    ) -> None:
        self._target = AppTarget(client, tool)
        self._send = send
        overrides = dict(host_context or {})
        check_host_context(overrides)
        self._context = default_host_context(theme=overrides.get("theme", "light"))
        self._context.update(overrides)
        self._host_info = dict(host_info or {"name": "mcp-client", "version": __version__})
        self._on_message = on_message
        self._on_open_link = on_open_link
        self._on_model_context = on_model_context
        self._on_log = on_log
        self._teardown_timeout = teardown_timeout
        self._lock = anyio.Lock()
        self._queue: list[dict[str, Any]] = []
        self._initialized = False
        self._closed = False
        self._next_id = 0
        self._pending: dict[RequestId, tuple[anyio.Event, list[ViewMessage]]] = {}
        self._running: dict[RequestId, anyio.CancelScope] = {}
        self._app_info: dict[str, Any] | None = None
        self._app_capabilities: dict[str, Any] | None = None
        self._size: dict[str, float] = {}
        self.teardown_requested: bool = False
        """Whether the view asked to be torn down (``ui/notifications/request-teardown``): the host
        decides whether to."""

    # ------------------------------------------------------------------ what the host reads

    @property
    def initialized(self) -> bool:
        """Whether the view sent ``ui/notifications/initialized`` (the host may now send it messages)."""
        return self._initialized

    @property
    def closed(self) -> bool:
        """Whether ``teardown()`` was called: nothing more is sent to the view, its requests are refused."""
        return self._closed

    @property
    def server(self) -> str | None:
        """The name of the view's server (a group's member name, or the name the server gives itself),
        once the tool was looked up."""
        return self._target.server

    @property
    def app_info(self) -> dict[str, Any] | None:
        """The view's ``appInfo`` from its ``ui/initialize`` (``None`` before)."""
        return self._app_info

    @property
    def app_capabilities(self) -> dict[str, Any] | None:
        """The view's ``appCapabilities`` from its ``ui/initialize`` (``None`` before)."""
        return self._app_capabilities

    @property
    def size(self) -> dict[str, float]:
        """The view's last reported size (``width``, ``height`` in pixels; ``{}`` before any report)."""
        return dict(self._size)

    @property
    def host_context(self) -> dict[str, Any]:
        """The ``hostContext`` as it stands (what ``ui/initialize`` answers, with later changes)."""
        return dict(self._context)

    async def tool(self) -> Tool:
        """The tool whose view this is, as its server lists it; ``KeyError`` if no server offers it."""
        return await self._target.tool()

    # ------------------------------------------------------------------ what the host tells the view

    async def tool_input(self, arguments: Mapping[str, Any] | None = None) -> None:
        """Send the tool call's complete arguments (``ui/notifications/tool-input``), once, before the
        result; held until the view is initialized."""
        await self._notify("ui/notifications/tool-input", {"arguments": dict(arguments or {})})

    async def tool_input_partial(self, arguments: Mapping[str, Any]) -> None:
        """Send arguments still being streamed (``ui/notifications/tool-input-partial``), before
        ``tool_input``; held until the view is initialized."""
        await self._notify("ui/notifications/tool-input-partial", {"arguments": dict(arguments)})

    async def tool_result(self, result: CallToolResult | Mapping[str, Any]) -> None:
        """Send the tool's result (``ui/notifications/tool-result``: the whole ``CallToolResult``, its
        ``structuredContent`` and ``_meta`` included); held until the view is initialized."""
        params = result if isinstance(result, Mapping) else result.model_dump_wire()
        await self._notify("ui/notifications/tool-result", dict(params))

    async def tool_cancelled(self, reason: str | None = None) -> None:
        """Tell the view the tool call was cancelled (``ui/notifications/tool-cancelled``), for any reason;
        held until the view is initialized."""
        await self._notify("ui/notifications/tool-cancelled", {"reason": reason} if reason else {})

    async def set_host_context(self, changes: Mapping[str, Any]) -> None:
        """Change fields of the ``hostContext`` and tell the view the ones that changed
        (``ui/notifications/host-context-changed``). A new ``theme`` without ``styles`` brings its style
        variables; a field the view would reject raises ``ValueError`` (see ``AppBridge``)."""
        changes = dict(changes)
        check_host_context(changes)
        theme = changes.get("theme")
        if theme in ("light", "dark") and theme != self._context.get("theme") and "styles" not in changes:
            changes["styles"] = {"variables": style_variables(theme)}
        changed = {key: value for key, value in changes.items() if self._context.get(key) != value}
        if not changed:
            return
        self._context.update(changed)
        await self._notify("ui/notifications/host-context-changed", changed)

    async def teardown(
        self,
        reason: str | None = None,
        *,
        timeout: float | None = None,  # noqa: ASYNC109 - a bound on the wait for the view, not a deadline
    ) -> bool:
        """Tell the view it is about to go (``ui/resource-teardown``) and wait for its answer, at most
        ``timeout`` seconds (``teardown_timeout``, 5 by default). Returns whether the view answered with a
        success in time.

        Afterwards nothing more is sent to the view, its requests are refused and those still running are
        cancelled. A view that never sent ``initialized`` gets nothing (the host may not send it anything)
        and this returns ``False`` at once; so does a ``send`` that fails (the page is gone): it is logged,
        never raised. The bound covers the ``send`` too: a ``send`` that blocks does not hold the host.
        """
        if self._closed:
            return False
        self._closed = True  # from now on nothing else is sent, whoever holds the lock
        self._next_id += 1
        request_id = self._next_id
        answered = anyio.Event()
        answers: list[ViewMessage] = []
        # The whole of it is bounded, the send included: a page that stopped reading must not hold the host.
        try:
            with anyio.move_on_after(self._teardown_timeout if timeout is None else timeout):
                async with self._lock:
                    self._queue.clear()
                    if not self._initialized:
                        return False
                    self._pending[request_id] = (answered, answers)
                    params: dict[str, Any] = {"reason": reason} if reason else {}
                    request = {"jsonrpc": "2.0", "id": request_id, "method": "ui/resource-teardown"}
                    try:
                        await self._send({**request, "params": params})
                    except Exception:
                        logger.warning("the view's ui/resource-teardown could not be sent", exc_info=True)
                        return False
                await answered.wait()
        finally:
            self._pending.pop(request_id, None)
            for scope in list(self._running.values()):  # requests still running have nobody to answer
                scope.cancel()
        if not answers:
            logger.info("the view did not answer ui/resource-teardown in time; torn down anyway")
            return False
        return answers[0].error is None

    async def _notify(self, method: str, params: dict[str, Any]) -> None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        async with self._lock:
            if self._closed:
                logger.debug("%s not sent: the view was torn down", method)
                return
            if not self._initialized:
                self._queue.append(message)
                return
            await self._send(message)

    # ------------------------------------------------------------------ what the view sends

    async def handle(self, message: object) -> dict[str, Any] | None:
        """Answer one message the view sent: the JSON-RPC response to send back, or ``None`` (a
        notification, a response to the host's own request, or a request the view cancelled).

        Never raises: a malformed message gets ``-32600`` / ``-32602``, an unknown method ``-32601``, a
        refusal or a failure a JSON-RPC error naming it.
        """
        try:
            parsed = parse_view_message(message)
        except MalformedMessage as bad:
            logger.warning("a malformed message from the view (%r) was answered with an error", str(bad))
            return bad.answer
        if parsed.kind == "response":
            self._answered(parsed)
            return None
        if parsed.kind == "notification":
            await self._notified(parsed)
            return None
        return await self._request(parsed)

    def _answered(self, message: ViewMessage) -> None:
        assert message.id is not None
        pending = self._pending.get(message.id)
        if pending is None:
            logger.debug("the view answered request %r, which the host never sent or gave up on", message.id)
            return
        event, answers = pending
        answers.append(message)
        event.set()

    async def _request(self, message: ViewMessage) -> dict[str, Any] | None:
        request_id = message.id
        assert request_id is not None
        if self._closed:
            return error_answer(request_id, REFUSED, "the view was torn down: the host takes no requests")
        handler = self._handlers().get(message.method)
        if handler is None:
            logger.info("the view asked for %r, which this host does not offer", message.method)
            return error_answer(request_id, METHOD_NOT_FOUND, f"this host has no method {message.method!r}")
        scope = anyio.CancelScope()
        self._running[request_id] = scope
        try:
            with scope:
                try:
                    return result_answer(request_id, await handler(message.params))
                except ViewError as refused:
                    return error_answer(request_id, refused.code, refused.message)
                except ToolNotFound as missing:
                    return error_answer(request_id, REFUSED, str(missing))
                except MCPError as failed:
                    return error_answer(request_id, failed.code, failed.message)
                except MCPClientError as failed:
                    return error_answer(request_id, REFUSED, str(failed))
                except Exception:
                    logger.exception("the host failed to answer the view's %r", message.method)
                    failed_message = f"the host failed to answer {message.method}"
                    return error_answer(request_id, INTERNAL_ERROR, failed_message)
        finally:
            if self._running.get(request_id) is scope:
                del self._running[request_id]
        logger.info("the view's %r (request %r) was cancelled: not answered", message.method, request_id)
        return None

    def _handlers(self) -> dict[str, Callable[[dict[str, Any]], Awaitable[Mapping[str, Any]]]]:
        return {
            "ui/initialize": self._initialize,
            "ping": self._ping,
            "tools/call": self._call_tool,
            "tools/list": self._list_tools,
            "resources/read": self._read_resource,
            "ui/open-link": self._open_link,
            "ui/message": self._message,
            "ui/update-model-context": self._model_context,
            "ui/request-display-mode": self._display_mode,
        }

    async def _notified(self, message: ViewMessage) -> None:
        method, params = message.method, message.params
        if method == "ui/notifications/initialized":
            await self._flush()
        elif method == "ui/notifications/size-changed":
            for key in ("width", "height"):
                value = params.get(key)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    self._size[key] = value
        elif method == "notifications/message":
            await self._log(params)
        elif method == "notifications/cancelled":
            cancelled = params.get("requestId")
            scope = self._running.get(cancelled) if isinstance(cancelled, str | int) else None
            if scope is not None:
                scope.cancel()
        elif method == "ui/notifications/request-teardown":
            self.teardown_requested = True
            logger.info("the view asked to be torn down")
        else:
            logger.debug("a notification the host does not use: %r", method)

    async def _flush(self) -> None:
        """The view is initialized: send what was held, in order (a failing ``send`` is logged)."""
        async with self._lock:
            if self._initialized or self._closed:
                return
            self._initialized = True
            queued, self._queue = self._queue, []
            for queued_message in queued:
                try:
                    await self._send(queued_message)
                except Exception:
                    method = queued_message["method"]
                    logger.warning("%s could not be sent to the view", method, exc_info=True)

    # ------------------------------------------------------------------ the view's requests

    async def _initialize(self, params: dict[str, Any]) -> Mapping[str, Any]:
        info, capabilities = params.get("appInfo"), params.get("appCapabilities")
        self._app_info = dict(info) if isinstance(info, Mapping) else None  # pyright: ignore[reportUnknownArgumentType]
        self._app_capabilities = dict(capabilities) if isinstance(capabilities, Mapping) else None  # pyright: ignore[reportUnknownArgumentType]
        version = params.get("protocolVersion")
        context = dict(self._context)
        try:
            tool = await self._target.tool()
        except (ToolNotFound, MCPClientError) as missing:
            logger.warning("the view's tool could not be looked up (%s): no toolInfo", missing)
        else:
            wire = tool.model_dump_wire()
            # The view checks its whole initialize answer against the spec's Tool schema: a tool whose
            # input schema is no object schema would make it refuse the host, so it gets no toolInfo.
            if isinstance(wire.get("inputSchema"), Mapping) and wire["inputSchema"].get("type") == "object":
                context.setdefault("toolInfo", {"tool": wire})
        return {
            "protocolVersion": version if version in SUPPORTED_PROTOCOL_VERSIONS else PROTOCOL_VERSION,
            "hostInfo": dict(self._host_info),
            "hostCapabilities": self._capabilities(),
            "hostContext": context,
        }

    def _capabilities(self) -> dict[str, Any]:
        """What this host does for a view: proxies its server's tools and resources and takes its logs;
        links, messages and model context only where the app gave the callback."""
        capabilities: dict[str, Any] = {"serverTools": {}, "serverResources": {}, "logging": {}}
        if self._on_open_link is not None:
            capabilities["openLinks"] = {}
        if self._on_message is not None:
            capabilities["message"] = dict(_MESSAGE_BLOCKS)
        if self._on_model_context is not None:
            capabilities["updateModelContext"] = {**_MESSAGE_BLOCKS, "structuredContent": {}}
        return capabilities

    async def _ping(self, params: dict[str, Any]) -> Mapping[str, Any]:
        return {}

    async def _call_tool(self, params: dict[str, Any]) -> Mapping[str, Any]:
        name = params.get("name")
        if not isinstance(name, str) or not name:
            raise ViewError(INVALID_PARAMS, "tools/call needs the tool's name (params.name, a string)")
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, Mapping):
            raise ViewError(INVALID_PARAMS, f"the arguments of tool {name!r} are a JSON object")
        tool = await self._target.server_tool(name)
        server = self._target.server
        if tool is None:
            logger.warning("the view called tool %r, which server %r does not offer: refused", name, server)
            raise ViewError(INVALID_PARAMS, f"server {server!r} has no tool {name!r} a view may call")
        app = app_of(tool)
        if app is not None and not app.app_visible:
            logger.warning("the view called tool %r, whose visibility lacks 'app': refused", name)
            raise ViewError(
                REFUSED,
                f"tool {name!r} is not callable from a view: its visibility is {list(app.visibility)}, "
                "without 'app'",
            )
        logger.info("the view calls tool %r on server %r", name, server)
        client = await self._target.client()
        result = await client.call_tool(name, cast("Mapping[str, Any]", arguments))
        return result.model_dump_wire()

    async def _list_tools(self, params: dict[str, Any]) -> Mapping[str, Any]:
        return {"tools": [tool.model_dump_wire() for tool in await self._target.app_tools()]}

    async def _read_resource(self, params: dict[str, Any]) -> Mapping[str, Any]:
        uri = params.get("uri")
        if not isinstance(uri, str) or not uri:
            raise ViewError(INVALID_PARAMS, "resources/read needs the resource's uri (params.uri, a string)")
        client = await self._target.client()
        logger.info("the view reads %r on server %r", uri, self._target.server)
        return (await client.read_resource(uri)).model_dump_wire()

    async def _open_link(self, params: dict[str, Any]) -> Mapping[str, Any]:
        url = params.get("url")
        if not isinstance(url, str) or not url:
            raise ViewError(INVALID_PARAMS, "ui/open-link needs the link (params.url, a string)")
        try:
            parts = urlsplit(url)
        except ValueError:
            parts = None
        if (
            parts is None
            or parts.scheme.lower() not in _LINK_SCHEMES
            or not parts.netloc
            or any(ord(char) < 33 or ord(char) == 127 for char in url)
        ):
            logger.warning("the view asked to open a link that is no http(s) URL: refused")
            raise ViewError(INVALID_PARAMS, "ui/open-link opens http and https links only")
        await self._ask(self._on_open_link, "on_open_link", "ui/open-link", params, "opens no links")
        return {}

    async def _message(self, params: dict[str, Any]) -> Mapping[str, Any]:
        if not isinstance(params.get("content"), list):
            raise ViewError(INVALID_PARAMS, "ui/message needs its content (params.content, a list of blocks)")
        await self._ask(self._on_message, "on_message", "ui/message", params, "takes no messages from views")
        return {}

    async def _model_context(self, params: dict[str, Any]) -> Mapping[str, Any]:
        await self._ask(
            self._on_model_context,
            "on_model_context",
            "ui/update-model-context",
            params,
            "takes no model context from views",
        )
        return {}

    async def _display_mode(self, params: dict[str, Any]) -> Mapping[str, Any]:
        mode = params.get("mode")
        if mode not in _DISPLAY_MODES:
            raise ViewError(INVALID_PARAMS, "ui/request-display-mode needs a mode: inline, fullscreen or pip")
        current: DisplayMode = self._context.get("displayMode", "inline")
        return {"mode": current}

    async def _ask(
        self, callback: ViewCallback | None, name: str, method: str, params: dict[str, Any], refusal: str
    ) -> None:
        """Put the view's request to the app's callback; refuse (``ViewError``) unless it says ``True``."""
        if callback is None:
            logger.warning("the view sent %s; refused: this host has no %s callback", method, name)
            raise ViewError(REFUSED, f"this host {refusal}")
        try:
            answer: object = callback(dict(params))
            if inspect.isawaitable(answer):
                answer = await answer
        except Exception:
            logger.exception("the host's %s callback failed on the view's %s", name, method)
            raise ViewError(INTERNAL_ERROR, f"the host failed to handle {method}") from None
        if answer is True:
            return
        if answer is not False:
            logger.warning(
                "%s returned %r, not True or False: the view's %s is refused", name, answer, method
            )
        raise ViewError(REFUSED, f"the host refused the view's {method}")

    async def _log(self, params: dict[str, Any]) -> None:
        if self._on_log is None:
            level = _LOG_LEVELS.get(str(params.get("level")), logging.INFO)
            # The view's text is data: repr() escapes its control characters, and it is cut to a line.
            source = repr(params.get("logger") or "view")[:_LOG_CHARS]
            logger.log(level, "the view logs (%s): %s", source, repr(params.get("data"))[:_LOG_CHARS])
            return
        try:
            answer = self._on_log(dict(params))
            if inspect.isawaitable(answer):
                await answer
        except Exception:
            logger.exception("the host's on_log callback failed")
