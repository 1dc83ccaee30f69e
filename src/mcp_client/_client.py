"""``Client``: the one object an app uses to talk to an MCP server, in either protocol era.

A thin façade: it checks the options, builds the transport (HTTP or stdio), the router of question
handlers (``_router``), the notification routes (``_notifications``) and the session (``_session``),
and turns results into typed models. The session does the work: negotiation (``_negotiation``),
sending, deadlines, cancellation, recovery, the multi-round-trip loop (``_input_required``) and the
legacy push path (``_server_messages``). The three calls that may ask questions, pause or run long
live in ``_pausable_calls``; ``listen()`` in ``_listen``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Literal, Self, get_args

import httpx
from pydantic import BaseModel

from mcp_client import _results
from mcp_client._elicitation import (
    ElicitationCallback,
    ElicitationCompleteCallback,
    ElicitationHandler,
    UrlCompletions,
    declared_modes,
)
from mcp_client._errors import UnsupportedInEraError
from mcp_client._http import StreamableHTTPTransport
from mcp_client._listen import Listening, listen_filter
from mcp_client._notifications import LoggingCallback, MessageHandler, Notifications
from mcp_client._pausable_calls import PausableCalls, check_seconds
from mcp_client._router import Router
from mcp_client._session import Session
from mcp_client._stdio import StdioServerParameters, StdioTransport
from mcp_client._transport import DEFAULT_MAX_MESSAGE_BYTES, Transport
from mcp_client._versions import MODES
from mcp_client.types import (
    CompleteResult,
    Implementation,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    LoggingLevel,
    PromptReference,
    ResourceTemplateReference,
    ServerCapabilities,
)

__all__ = ["Client"]

_DEFAULT_CLIENT_INFO: dict[str, Any] = {"name": "mcp-client", "version": "0.1.0"}
"""A plain dict, not an ``Implementation``: building a model at import would build its validator."""
_LEVELS: tuple[str, ...] = get_args(LoggingLevel)


class Client(PausableCalls):
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
    browser step of an OAuth login; a progress report starts it again. ``input_required_max_rounds``
    caps the multi-round-trip loop. ``headers`` and ``auth`` (an ``httpx.Auth``, such as
    ``mcp_client.auth.OAuth``) apply to every HTTP request.

    ``logging_callback(params)`` gets the server's log messages (``LoggingMessageNotificationParams``),
    at ``log_level`` and up when one is given (legacy: ``logging/setLevel`` after the handshake;
    2026-07-28: in each request's ``_meta``, without which a modern server sends none).
    ``message_handler(notification)`` gets every other notification the client does not consume
    (list changes, resource updates, unknown ones) as typed models. Both may be sync or async.
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
        logging_callback: LoggingCallback | None = None,
        log_level: LoggingLevel | None = None,
        message_handler: MessageHandler | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(repr(m) for m in MODES)}; got {mode!r}")
        if input_required_max_rounds < 0:
            raise ValueError("input_required_max_rounds must be 0 or more")
        check_seconds("timeout", timeout)
        _check_level(log_level)
        transport = _transport_for(server, headers, auth, timeout, max_message_bytes)
        info = (
            client_info.model_dump_wire()
            if isinstance(client_info, Implementation)
            else Implementation.model_validate(client_info).model_dump_wire()
            if client_info is not None
            else dict(_DEFAULT_CLIENT_INFO)
        )
        completions = UrlCompletions()
        modes = declared_modes(elicitation_callback, elicitation_modes)
        router = Router([ElicitationHandler(elicitation_callback, modes, completions)])
        notifications = Notifications(
            logging_callback=logging_callback,
            message_handler=message_handler,
            on_tools_changed=lambda: self._session.output_schemas.forget(),
        )
        self._mode = mode
        self._session = Session(
            transport,
            router,
            client_info=info,
            timeout=timeout,
            max_rounds=input_required_max_rounds,
            completions=completions,
            complete_callback=elicitation_complete_callback,
            notifications=notifications,
            log_level=log_level,
        )

    @property
    def server(self) -> str:
        """The URL or command line of the server, as shown to users."""
        return self._session.label

    @property
    def session_id(self) -> str | None:
        """The legacy HTTP session id (``Mcp-Session-Id``), if the transport has one."""
        return self._session.transport.session_id

    @property
    def era(self) -> Literal["legacy", "modern"] | None:
        """``"legacy"`` (handshake) or ``"modern"`` (2026-07-28 envelope) once connected."""
        era = self._session.era
        return era.name if era is not None else None

    @property
    def protocol_version(self) -> str | None:
        """The negotiated protocol version, once connected."""
        return self._session.description.protocol_version

    @property
    def server_info(self) -> Implementation | None:
        """The server's name and version, as it gave them."""
        return self._session.description.info

    @property
    def server_capabilities(self) -> ServerCapabilities:
        """What the server said it can do (empty until it said)."""
        return self._session.description.capabilities

    @property
    def instructions(self) -> str | None:
        """The server's usage instructions, if it gave any."""
        return self._session.description.instructions

    async def __aenter__(self) -> Self:
        await self._session.open(self._mode)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self._session.close()

    # ------------------------------------------------------------------------ public API

    async def list_tools(self) -> ListToolsResult:
        """Every tool of the server (all pages)."""
        self._session.require_open()
        return _results.parse(
            ListToolsResult, {"tools": await self._session.list_tools()}, "tools/list", self.server
        )

    async def list_prompts(self) -> ListPromptsResult:
        """Every prompt of the server (all pages)."""
        prompts = await self._list_all("prompts/list", "prompts")
        return _results.parse(ListPromptsResult, {"prompts": prompts}, "prompts/list", self.server)

    async def list_resources(self) -> ListResourcesResult:
        """Every resource of the server (all pages)."""
        resources = await self._list_all("resources/list", "resources")
        return _results.parse(ListResourcesResult, {"resources": resources}, "resources/list", self.server)

    async def list_resource_templates(self) -> ListResourceTemplatesResult:
        """Every resource template of the server (all pages)."""
        templates = await self._list_all("resources/templates/list", "resourceTemplates")
        return _results.parse(
            ListResourceTemplatesResult,
            {"resourceTemplates": templates},
            "resources/templates/list",
            self.server,
        )

    async def complete(
        self,
        ref: PromptReference | ResourceTemplateReference | Mapping[str, Any],
        argument: Mapping[str, str],
        context_arguments: Mapping[str, str] | None = None,
    ) -> CompleteResult:
        """Suggested values for ``argument`` (``{"name", "value"}``) of a prompt or resource template.

        ``context_arguments`` are the values of arguments already filled in.
        """
        self._session.require_open()
        params: dict[str, Any] = {
            "ref": ref.model_dump_wire() if isinstance(ref, BaseModel) else dict(ref),  # pyright: ignore[reportAttributeAccessIssue]
            "argument": dict(argument),
        }
        if context_arguments:
            params["context"] = {"arguments": dict(context_arguments)}
        result = await self._session.request("completion/complete", params)
        return _results.parse(CompleteResult, result, "completion/complete", self.server)

    async def subscribe_resource(self, uri: str) -> None:
        """Ask for ``resources/updated`` notices about ``uri`` (legacy; in 2026-07-28 use ``listen``)."""
        await self._session.request(self._legacy_only("resources/subscribe"), {"uri": uri})

    async def unsubscribe_resource(self, uri: str) -> None:
        """Stop the notices ``subscribe_resource`` asked for."""
        await self._session.request(self._legacy_only("resources/unsubscribe"), {"uri": uri})

    async def set_logging_level(self, level: LoggingLevel) -> None:
        """Receive server log messages at ``level`` and up, from now on, in either era."""
        _check_level(level)
        await self._session.set_log_level(level)

    def listen(
        self,
        tools_list_changed: bool = False,
        prompts_list_changed: bool = False,
        resources_list_changed: bool = False,
        resource_subscriptions: Sequence[str] = (),
    ) -> Listening:
        """``async with client.listen(...) as subscription: async for notice in subscription: ...``

        Yields change notices (``ToolListChangedNotification``, ``ResourceUpdatedNotification``...) of
        the kinds asked for, in both eras: a 2026-07-28 ``subscriptions/listen`` stream, or the legacy
        session's stream with ``resources/subscribe`` for ``resource_subscriptions`` while it is open.
        """
        era = self._session.require_open()
        wanted = listen_filter(
            tools_list_changed, prompts_list_changed, resources_list_changed, resource_subscriptions
        )
        session = self._session
        return Listening(
            session, session.notifications, era.name, wanted, session.deadlines.timeout, self.server
        )

    async def send_ping(self) -> None:
        """Check that the server answers (2026-07-28 has no ``ping``: there it is ``server/discover``)."""
        era = self._session.require_open()
        await self._session.request(era.ping_method, None)

    ping = send_ping

    async def send_request(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Send any request in the current era and return its raw result (for methods without a helper)."""
        self._session.require_open()
        return await self._session.request(method, dict(params) if params is not None else None)

    async def _list_all(self, method: str, key: str) -> list[Any]:
        self._session.require_open()
        return await _results.list_all(self._session.request, method, key, self.server)

    def _legacy_only(self, method: str) -> str:
        if self._session.require_open().name == "modern":
            raise UnsupportedInEraError(
                f"{method} is not part of protocol {self.protocol_version}: use "
                "`async with client.listen(resource_subscriptions=[uri]) as subscription:` instead"
            )
        return method


def _check_level(level: str | None) -> None:
    if level is not None and level not in _LEVELS:
        raise ValueError(f"log level must be one of {', '.join(_LEVELS)}; got {level!r}")


def _transport_for(
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
        f"server must be a URL string, a StdioServerParameters or a Transport; got {type(server).__name__}"
    )
