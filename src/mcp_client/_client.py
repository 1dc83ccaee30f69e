"""``Client``: the one object an app uses to talk to an MCP server, in either protocol era.

A thin façade: ``_connection.options`` checks what it was given and builds the transport (HTTP or stdio) and
the router of question handlers (``_session.router``: elicitation, sampling, roots); with the notification
routes (``_session.notifications``) they make the session (``_session.session``), which does the work:
negotiation, sending, deadlines, cancellation, recovery, the multi-round-trip loop
(``_session.input_required``) and the legacy push path (``_session.server_messages``), and reads results into
typed models. Every method here builds the wire params at most and delegates its body to the session; the
three calls that may ask questions, pause or run long take their options through ``_session.call_options``;
``listen()`` is ``_session.listen``'s.
"""

from __future__ import annotations

import inspect
import logging
import os
import ssl
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, Self, overload

from mcp_client._connection.transport import DEFAULT_MAX_MESSAGE_BYTES
from mcp_client._protocol.wire import lazy_module, wire

if TYPE_CHECKING:
    from pydantic import BaseModel

    from mcp_client._approvals.gate import ApprovalGate
    from mcp_client._approvals.policy import ToolPolicy
    from mcp_client._approvals.request import ApprovalCallback
    from mcp_client._approvals.store import ApprovalStore
    from mcp_client._connection.http_auth import HttpAuth
    from mcp_client._connection.http_options import CertTypes, HttpClientFactory, ProxyOption
    from mcp_client._connection.reconnect import Reconnect
    from mcp_client._connection.transport import Transport
    from mcp_client._group.client_group import GroupTool
    from mcp_client._protocol.versions import EraName
    from mcp_client._session import call_options as _call_options

    # In ApprovalCallback's annotation: the docs resolve Client's signature with these names.
    from mcp_client._session.context import ClientRequestContext  # noqa: F401  # pyright: ignore[reportUnusedImport]
    from mcp_client._session.elicitation import ElicitationCallback, ElicitationCompleteCallback
    from mcp_client._session.listen import Listening
    from mcp_client._session.notifications import LoggingCallback, MessageHandler, ProgressCallback
    from mcp_client._session.roots import ListRootsCallback
    from mcp_client._session.sampling import SamplingCallback
    from mcp_client._session.session import ListChangedCallback, Session
    from mcp_client._skills.skills import Skill, SkillEntry
    from mcp_client._tasks.tool_task import ToolTask
    from mcp_client._transports.stdio import StdioServerParameters
    from mcp_client.apps._resource import AppResource
    from mcp_client.types import (
        CallToolResult,
        CompleteResult,
        GetPromptResult,
        Implementation,
        InputRequiredResult,
        ListPromptsResult,
        ListResourcesResult,
        ListResourceTemplatesResult,
        ListToolsResult,
        LoggingLevel,
        PromptReference,
        ReadResourceResult,
        ResourceTemplateReference,
        ServerCapabilities,
        Tool,
    )


__all__ = ["Client"]

logger = logging.getLogger("mcp_client.session")

_LIST_NOTICES = (
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
)

if not TYPE_CHECKING:
    # The session, the transports and the wire models load when a Client is made, not when it is
    # imported (see ``_protocol.wire``): ``__init__`` imports what it builds; the calls use this module.
    _call_options = lazy_module("mcp_client._session.call_options")


class Client:
    """An async MCP client; use it as ``async with Client(server, ...) as client:``.

    ``server`` is an ``http(s)://`` URL (streamable HTTP; the older HTTP+SSE transport where the server
    refuses streamable HTTP, or always with ``transport="sse"``), a ``StdioServerParameters`` (a
    subprocess over stdio), a server object of the official SDK or fastmcp (run in this process, no
    socket), or a ``Transport`` object. ``mode`` is ``"legacy"`` (initialize handshake), ``"auto"``
    (probe ``server/discover``, fall back to the handshake) or a modern version such as ``"2026-07-28"``
    (adopt it with no traffic). ``prior_discover`` (a stored ``client.discover_result``) is adopted with
    no probe, its capabilities and server info known at once.

    ``verify`` (bool, a CA bundle path, an ``ssl.SSLContext``), ``cert`` (a client certificate),
    ``proxy``, ``trust_env`` and ``httpx_client_factory`` shape every HTTP request the client makes,
    OAuth's included (see ``mcp_client._connection.http_options``).

    A server may ask three kinds of question, pushed (legacy) or returned (2026-07-28), each to one
    callback that is also the capability declaration (no callback, no capability):

    * ``elicitation_callback(context, params) -> ElicitResult``: a person answers. The modes declared
      are ``elicitation_modes`` if given, else the callback's ``elicitation_modes`` attribute, else both.
      ``elicitation_complete_callback(elicitation_id)`` hears legacy URL-mode completions.
    * ``sampling_callback(context, params) -> CreateMessageResult``: the app's model answers a
      ``CreateMessageRequestParams``; ``sampling_capabilities`` (e.g. ``{"tools": {}}``) is declared as
      given. Raise ``MCPError`` to refuse.
    * ``list_roots_callback(context) -> ListRootsResult``: the folders the app works in (``file://``).

    A question of a kind not declared fails the call with ``CapabilityNotDeclaredError``.

    ``timeout`` bounds each request, not counting time its own questions spend with a callback or the
    browser step of an OAuth login; a progress report starts it again. ``input_required_max_rounds``
    caps the multi-round-trip loop. ``headers`` and ``auth`` (an ``httpx2.Auth``, such as
    ``mcp_client.auth.OAuth``, or an app's ``httpx.Auth`` subclass, run by the same protocol) apply to
    every HTTP request.

    List results are kept as long as the server's cache hints allow, and forgotten on its
    ``list_changed`` notices; ``list_changed_callback(fresh_list)`` (sync or async) is handed the new
    list, fetched in the background, after each such notice.

    ``logging_callback(params)`` gets the server's log messages (``LoggingMessageNotificationParams``),
    at ``log_level`` and up when one is given (legacy: ``logging/setLevel`` after the handshake;
    2026-07-28: in each request's ``_meta``, without which a modern server sends none).
    ``message_handler(notification)`` gets every other notification the client does not consume
    (list changes, resource updates, unknown ones) as typed models. Both may be sync or async.

    ``tasks=True`` declares the tasks extension (``io.modelcontextprotocol/tasks``): the server may then
    run a tool call as a durable task, which ``call_tool`` follows to its result (its questions going
    to the same callbacks), or hands back as a ``ToolTask`` with ``as_task=True``.

    ``reconnect`` (a ``Reconnect``, on by default) brings a lost server back: a stdio server that exited
    is started again by the next request, an HTTP server that refused the connection is tried again,
    with backoff; a call in flight when the connection died is sent again only if its tool says
    ``readOnlyHint`` or ``idempotentHint``. ``client.on_reconnect`` hears each reconnect.
    ``reconnect=False``: a lost server fails every later request.

    ``tool_policy`` (a ``ToolPolicy``) gates every ``call_tool`` before anything is sent: a call it
    denies raises ``ToolCallDenied``; one it asks about goes to ``approval_callback(context, request)``
    (an ``ApprovalRequest`` in, an ``ApprovalResult`` out; a callback that fails denies the call; nothing
    but the call's own cancellation bounds the wait). A policy that may ask needs the callback
    (``ValueError`` here otherwise); a callback alone means ``ToolPolicy()``. ``remember="always"``
    answers are kept in ``approval_store`` (an ``ApprovalStore``; default: one ``MemoryApprovalStore``
    per process). No policy and no callback: no gate, no cost.

    ``skills=True`` declares the Agent Skills extension (``io.modelcontextprotocol/skills``) and
    enables ``list_skills``, ``get_skill`` and ``load_skill``, which verify what they read.

    ``apps=True`` declares MCP Apps (``io.modelcontextprotocol/ui``, views as
    ``text/html;profile=mcp-app``); ``read_app`` reads a tool's view, refusing HTML over
    ``max_app_bytes`` (10 MiB by default).
    """

    def __init__(
        self,
        server: str | StdioServerParameters | Transport | object,
        *,
        mode: str = "auto",
        elicitation_callback: ElicitationCallback | None = None,
        elicitation_complete_callback: ElicitationCompleteCallback | None = None,
        client_info: Implementation | Mapping[str, Any] | None = None,
        timeout: float | None = 30.0,
        input_required_max_rounds: int = 10,
        headers: Mapping[str, str] | None = None,
        auth: HttpAuth | None = None,
        elicitation_modes: Iterable[str] | None = None,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        sampling_callback: SamplingCallback | None = None,
        sampling_capabilities: Mapping[str, Any] | None = None,
        list_roots_callback: ListRootsCallback | None = None,
        logging_callback: LoggingCallback | None = None,
        log_level: LoggingLevel | None = None,
        message_handler: MessageHandler | None = None,
        tasks: bool = False,
        skills: bool = False,
        apps: bool = False,
        max_app_bytes: int = 10 * 1024 * 1024,
        transport: Literal["auto", "http", "sse"] = "auto",
        verify: bool | str | os.PathLike[str] | ssl.SSLContext = True,
        cert: CertTypes | None = None,
        proxy: ProxyOption | None = None,
        trust_env: bool = True,
        httpx_client_factory: HttpClientFactory | None = None,
        prior_discover: Mapping[str, Any] | BaseModel | None = None,
        list_changed_callback: ListChangedCallback | None = None,
        reconnect: Reconnect | bool = True,
        approval_callback: ApprovalCallback | None = None,
        tool_policy: ToolPolicy | None = None,
        approval_store: ApprovalStore | None = None,
    ) -> None:
        from mcp_client._connection.http_options import HttpOptions
        from mcp_client._connection.options import (
            check_level,
            check_mode,
            client_info_of,
            router_for,
            transport_for,
        )
        from mcp_client._connection.reconnect import RECONNECTING_KINDS, Supervisor, policy_of
        from mcp_client._protocol.extensions import (
            APPS_UI_EXTENSION,
            SKILLS_EXTENSION,
            TASKS_EXTENSION,
            Extensions,
        )
        from mcp_client._protocol.version_choice import prior_discover as prior_discover_decision
        from mcp_client._session.call_options import check_seconds
        from mcp_client._session.context import shown_name
        from mcp_client._session.elicitation import UrlCompletions
        from mcp_client._session.notifications import Notifications
        from mcp_client._session.session import Session
        from mcp_client._skills.skills import SkillsAccess

        check_mode(mode, input_required_max_rounds)
        if isinstance(max_app_bytes, bool) or not isinstance(max_app_bytes, int) or max_app_bytes < 1:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(f"max_app_bytes must be a positive number of bytes, not {max_app_bytes!r}")
        self._max_app_bytes = max_app_bytes
        if prior_discover is not None and mode == "legacy":
            raise ValueError(
                "prior_discover is a 2026-07-28 discover result; it cannot go with mode='legacy'"
            )
        self._prior = prior_discover_decision(prior_discover) if prior_discover is not None else None
        check_seconds("timeout", timeout)
        check_level(log_level)
        if tool_policy is not None or approval_callback is not None:
            from mcp_client._approvals.gate import check_approval_options

            check_approval_options(tool_policy, approval_callback)
        http_options = HttpOptions(verify, cert, proxy, trust_env, httpx_client_factory)
        transport_ = transport_for(
            server, headers, auth, timeout, max_message_bytes, kind=transport, http_options=http_options
        )
        use_options = getattr(auth, "use_http_options", None)
        if callable(use_options):
            use_options(http_options)
        info = client_info_of(client_info)
        completions = UrlCompletions()
        router = router_for(
            elicitation_callback, elicitation_modes, completions, sampling_callback, sampling_capabilities,
            list_roots_callback,
        )  # fmt: skip
        notifications = Notifications(
            logging_callback=logging_callback,
            message_handler=message_handler,
            on_tools_changed=lambda: self._session.output_schemas.forget(),
            on_list_changed=lambda notice: self._session.list_changed(notice, list_changed_callback),
            source=lambda: shown_name(self._session.description.info, self._session.label),
        )
        # The HTTP+SSE transport predates the 2026-07-28 era: chosen explicitly, it speaks the handshake.
        self._mode = "legacy" if transport == "sse" and mode == "auto" else mode
        self._session = Session(
            transport_,
            router,
            client_info=info,
            timeout=timeout,
            max_rounds=input_required_max_rounds,
            completions=completions,
            complete_callback=elicitation_complete_callback,
            notifications=notifications,
            log_level=log_level,
            extensions=Extensions(
                [
                    *([TASKS_EXTENSION] if tasks else []),
                    *([SKILLS_EXTENSION] if skills else []),
                    *([APPS_UI_EXTENSION] if apps else []),
                ]
            ),
        )
        self._skills = SkillsAccess(self._session.request, self._session.label, declared=skills)
        self._gate: ApprovalGate | None = None
        if tool_policy is not None or approval_callback is not None:
            self._gate = _approval_gate(self._session, tool_policy, approval_callback, approval_store)
        self.on_reconnect: Callable[[Client], object] | None = None
        """Called (sync or async) with this client after it got its lost server back: the server's
        state is new (a restarted process, a new session), which the app may want to tell its user."""
        policy = policy_of(reconnect)
        if policy is not None and transport_.kind in RECONNECTING_KINDS:
            self._session.supervisor = Supervisor(
                policy,
                self._session.label,
                self._session.reconnect,
                lambda: self._reconnected(list_changed_callback),
                restarts_process=transport_.kind == "stdio",
            )

    async def _reconnected(self, list_changed_callback: ListChangedCallback | None) -> None:
        """After a reconnect: the lists the app was handed are stale, and the app may want to know."""
        for notice in _LIST_NOTICES:
            self._session.list_changed(notice, list_changed_callback)
        hook = self.on_reconnect
        if hook is not None:
            try:
                answer = hook(self)
                if inspect.isawaitable(answer):
                    await answer
            except Exception:
                logger.exception("Client.on_reconnect failed for %s", self.server)

    @property
    def server(self) -> str:
        """The URL or command line of the server, as shown to users.

        A URL is shown without the ``user:password@`` it may carry (``http://user:pw@host/mcp`` is
        ``http://host/mcp`` here, in error messages, logs and every callback's context); the requests
        still send those credentials as Basic auth."""
        return self._session.label

    @property
    def tool_policy(self) -> ToolPolicy | None:
        """The policy every ``call_tool`` of this client passes (``None``: calls are not gated)."""
        return self._gate.policy if self._gate is not None else None

    @property
    def transport_kind(self) -> str:
        """How the client reaches the server: ``"http"`` (streamable HTTP), ``"sse"`` (the older HTTP+SSE
        transport, chosen explicitly or after streamable HTTP was refused), ``"stdio"``, ``"in-process"``,
        or ``"custom"`` for a transport of the app's."""
        return self._session.transport.kind

    @property
    def session_id(self) -> str | None:
        """The legacy HTTP session id (``Mcp-Session-Id``), if the transport has one."""
        return self._session.transport.session_id

    @property
    def era(self) -> EraName | None:
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
    def discover_result(self) -> dict[str, Any] | None:
        """The ``server/discover`` result this connection was settled with (2026-07-28), as JSON: store it
        and pass it as ``Client(url, prior_discover=...)`` next time to connect with no probe."""
        return self._session.description.discover

    @property
    def instructions(self) -> str | None:
        """The server's usage instructions, if it gave any."""
        return self._session.description.instructions

    async def __aenter__(self) -> Self:
        await self._session.open(self._mode, self._prior)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self._session.close()

    # ---------------------------------------------------- calls that may ask questions

    @overload
    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        read_timeout_seconds: float | None = None,
        progress_callback: ProgressCallback | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: Literal[False] = False,
        as_task: Literal[False] = False,
    ) -> CallToolResult: ...

    @overload
    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        read_timeout_seconds: float | None = None,
        progress_callback: ProgressCallback | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        as_task: Literal[True],
    ) -> ToolTask: ...

    @overload
    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        read_timeout_seconds: float | None = None,
        progress_callback: ProgressCallback | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: bool,
        as_task: Literal[False] = False,
    ) -> CallToolResult | InputRequiredResult: ...

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        read_timeout_seconds: float | None = None,
        progress_callback: ProgressCallback | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: bool = False,
        as_task: bool = False,
    ) -> CallToolResult | InputRequiredResult | ToolTask:
        """Call a tool and return its result; the server's questions go to the elicitation callback.

        ``read_timeout_seconds`` replaces ``Client(timeout=...)`` for this call. ``progress_callback
        (progress, total, message)`` hears the call's progress, and each report restarts its timeout.
        ``meta`` joins the request's ``_meta``. ``allow_input_required=True`` returns a 2026-07-28
        server's ``InputRequiredResult`` instead of asking the callback; resume later (from any client)
        with ``input_responses`` and ``request_state``. A structured result is checked against the
        tool's ``outputSchema`` (``InvalidToolResultError``). A tool's own failure is a result with
        ``is_error=True``; protocol failures raise ``MCPError``.

        With ``Client(tasks=True)`` the server may run the call as a task: it is followed to its result
        (``tasks/get`` polls; each status message goes to ``progress_callback``; the timeout counts
        silence, not the task's total time; cancelling the call cancels the task). ``as_task=True``
        returns a ``ToolTask`` instead, at once.
        """
        options = _call_options.call_options(
            read_timeout_seconds,
            progress_callback,
            meta,
            input_responses,
            request_state,
            allow_input_required,
            as_task,
        )
        call_arguments: dict[str, Any] = dict(arguments) if arguments else {}
        params = {"name": name, "arguments": call_arguments}
        if self._gate is not None and input_responses is None and request_state is None:
            self._session.require_open()
            await self._gate.check(name, call_arguments)  # ToolCallDenied: nothing is sent
        if options is not None and options.as_task:
            return await self._session.start_tool_task(name, params, options)
        return await self._session.call_tool(name, params, options)

    async def task(self, saved: str | Mapping[str, Any]) -> ToolTask:
        """Pick up a task again: ``saved`` is a ``ToolTask.to_json()`` (or its JSON text) or a task id.

        Looks at the task once (``TaskLostError`` if the server no longer has it); then use the
        ``ToolTask`` as if this client had started it. Needs ``Client(tasks=True)``.
        """
        return await self._session.resume_task(saved)

    @overload
    async def get_prompt(
        self,
        name: str,
        arguments: Mapping[str, str] | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: Literal[False] = False,
    ) -> GetPromptResult: ...

    @overload
    async def get_prompt(
        self,
        name: str,
        arguments: Mapping[str, str] | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: bool,
    ) -> GetPromptResult | InputRequiredResult: ...

    async def get_prompt(
        self,
        name: str,
        arguments: Mapping[str, str] | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: bool = False,
    ) -> GetPromptResult | InputRequiredResult:
        """Render a prompt; the server's questions go to the elicitation callback (keywords: call_tool's)."""
        options = _call_options.call_options(
            None, None, meta, input_responses, request_state, allow_input_required
        )
        params: dict[str, Any] = {"name": name, "arguments": dict(arguments)} if arguments else {"name": name}
        what = f"prompts/get {name!r}"
        return await self._session.call_parsed(wire.GetPromptResult, "prompts/get", params, what, options)

    @overload
    async def read_resource(
        self,
        uri: str,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: Literal[False] = False,
    ) -> ReadResourceResult: ...

    @overload
    async def read_resource(
        self,
        uri: str,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: bool,
    ) -> ReadResourceResult | InputRequiredResult: ...

    async def read_resource(
        self,
        uri: str,
        *,
        meta: Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: str | None = None,
        allow_input_required: bool = False,
    ) -> ReadResourceResult | InputRequiredResult:
        """Read a resource; the server's questions go to the elicitation callback (keywords: call_tool's)."""
        options = _call_options.call_options(
            None, None, meta, input_responses, request_state, allow_input_required
        )
        what = f"resources/read {uri!r}"
        return await self._session.call_parsed(
            wire.ReadResourceResult, "resources/read", {"uri": uri}, what, options
        )

    # ------------------------------------------------------------------------ the rest

    async def list_tools(self, *, refresh: bool = False) -> ListToolsResult:
        """Every tool of the server (all pages).

        Kept for as long as the server's cache hints (``ttlMs``) allow, and forgotten on its
        ``list_changed`` notice or a new session; ``refresh=True`` asks the server again.
        """
        return await self._session.tool_list(refresh)

    async def list_prompts(self, *, refresh: bool = False) -> ListPromptsResult:
        """Every prompt of the server (all pages); cached as ``list_tools`` is."""
        return await self._session.list_all(wire.ListPromptsResult, "prompts/list", "prompts", refresh)

    async def list_resources(self, *, refresh: bool = False) -> ListResourcesResult:
        """Every resource of the server (all pages); cached as ``list_tools`` is."""
        return await self._session.list_all(wire.ListResourcesResult, "resources/list", "resources", refresh)

    async def list_resource_templates(self, *, refresh: bool = False) -> ListResourceTemplatesResult:
        """Every resource template of the server (all pages); cached as ``list_tools`` is."""
        return await self._session.list_all(
            wire.ListResourceTemplatesResult, "resources/templates/list", "resourceTemplates", refresh
        )

    async def read_app(self, app: str | Tool | GroupTool) -> AppResource:
        """A tool's MCP Apps view, read and checked: ``app`` is a ``ui://`` URI, a ``Tool`` (or
        ``GroupTool``) from ``list_tools()``, or a tool's name. ``AppResourceError`` when the tool has no
        view, the resource is not ``text/html;profile=mcp-app`` or its HTML is over ``max_app_bytes``.
        """
        from mcp_client.apps._resource import read_app

        return await read_app(self, app, max_bytes=self._max_app_bytes)

    async def list_skills(self) -> list[SkillEntry]:
        """Every skill the server lists (``skills/list``, all pages); nothing of them is read yet."""
        self._session.require_open()
        return await self._skills.list()

    async def get_skill(self, uri: str) -> SkillEntry:
        """The entry of one skill by its ``SKILL.md`` URI (``skills/get``), listed or not."""
        self._session.require_open()
        return await self._skills.get(uri)

    async def load_skill(
        self, skill: str | SkillEntry, *, read_files: bool = False, allow_unverified: bool = False
    ) -> Skill:
        """Read a skill's ``SKILL.md`` and check it against its entry: size, digest, frontmatter.

        ``skill`` is an entry from ``list_skills`` or a ``SKILL.md`` URI (its entry is fetched with
        ``get_skill``). Supporting files are read when ``Skill.read`` asks for them, each verified,
        or all at once with ``read_files=True``. Any mismatch raises ``SkillVerificationError`` naming
        the file and what differs; the content is not used. A skill whose entry lists no digests (a
        dynamic skill) is refused unless ``allow_unverified=True`` (its frontmatter is still checked).
        """
        self._session.require_open()
        return await self._skills.load(skill, read_files=read_files, allow_unverified=allow_unverified)

    async def complete(
        self,
        ref: PromptReference | ResourceTemplateReference | Mapping[str, Any],
        argument: Mapping[str, str],
        context_arguments: Mapping[str, str] | None = None,
    ) -> CompleteResult:
        """Suggested values for ``argument`` (``{"name", "value"}``) of a prompt or resource template.

        ``context_arguments`` are the values of arguments already filled in.
        """
        params: dict[str, Any] = {
            "ref": ref.model_dump_wire() if isinstance(ref, wire.BaseModel) else dict(ref),  # pyright: ignore[reportAttributeAccessIssue]
            "argument": dict(argument),
        }
        if context_arguments:
            params["context"] = {"arguments": dict(context_arguments)}
        return await self._session.request_parsed(wire.CompleteResult, "completion/complete", params)

    async def subscribe_resource(self, uri: str) -> None:
        """Ask for ``resources/updated`` notices about ``uri`` (legacy; in 2026-07-28 use ``listen``)."""
        await self._session.subscription_request("resources/subscribe", uri)

    async def unsubscribe_resource(self, uri: str) -> None:
        """Stop the notices ``subscribe_resource`` asked for."""
        await self._session.subscription_request("resources/unsubscribe", uri)

    async def set_logging_level(self, level: LoggingLevel) -> None:
        """Receive server log messages at ``level`` and up, from now on, in either era."""
        from mcp_client._connection.options import check_level

        check_level(level)
        await self._session.set_log_level(level)

    def listen(
        self,
        tools_list_changed: bool = False,
        prompts_list_changed: bool = False,
        resources_list_changed: bool = False,
        resource_subscriptions: Sequence[str] = (),
        task_ids: Sequence[str] = (),
    ) -> Listening:
        """``async with client.listen(...) as subscription: async for notice in subscription: ...``

        Yields change notices (``ToolListChangedNotification``, ``ResourceUpdatedNotification``...) of
        the kinds asked for, in both eras: a 2026-07-28 ``subscriptions/listen`` stream, or the legacy
        session's stream with ``resources/subscribe`` for ``resource_subscriptions`` while it is open.

        ``task_ids`` (2026-07-28, tasks extension) asks for ``notifications/tasks`` about those tool
        tasks (``TaskStatusNotification``); while the subscription is open, a call or ``ToolTask``
        following one of them takes each pushed state at once instead of waiting for its next poll.
        """
        from mcp_client._session.listen import listen_filter

        wanted = listen_filter(
            tools_list_changed, prompts_list_changed, resources_list_changed, resource_subscriptions, task_ids
        )
        return self._session.listen(wanted)

    async def send_ping(self) -> None:
        """Check that the server answers (2026-07-28 has no ``ping``: there it is ``server/discover``)."""
        await self._session.ping()

    ping = send_ping

    async def send_request(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Send any request in the current era and return its raw result (for methods without a helper)."""
        return await self._session.send_request(method, dict(params) if params is not None else None)

    async def send_roots_list_changed(self) -> None:
        """Tell the server that the roots changed, so it asks ``list_roots_callback`` again.

        Legacy: a ``notifications/roots/list_changed``. The 2026-07-28 era has no such notification: a
        server asks for roots with each request that needs them, so the next one gets the new answer.
        """
        await self._session.roots_changed()


def _approval_gate(
    session: Session,
    policy: ToolPolicy | None,
    callback: ApprovalCallback | None,
    store: ApprovalStore | None,
) -> ApprovalGate:
    """The gate of a client given a ``tool_policy`` or an ``approval_callback`` (alone: the default
    ``ToolPolicy()``, asking unless the server marks a tool read-only)."""
    from mcp_client._approvals.gate import ApprovalGate
    from mcp_client._approvals.policy import ToolPolicy
    from mcp_client._approvals.store import default_store

    return ApprovalGate(
        session,
        policy if policy is not None else ToolPolicy(),
        callback,
        store if store is not None else default_store(),
    )
