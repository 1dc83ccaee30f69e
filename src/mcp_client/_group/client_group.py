"""``ClientGroup``: many servers at once, from one ``mcpServers`` config, with one question UI for all.

Each server gets its own ``Client`` (so its own protocol era and transport), connected concurrently: the
group is ready when the slowest server has answered, not after the sum of them. A server that fails to
start, or needs a login the group cannot get, does not sink the others: ``group.failures`` says which and
why, and ``group.connect(name)`` tries it again.

Every ``Client`` lives inside a task of its own, owned by the group's task group: a client's transport
opens cancel scopes and task groups of its own, which anyio requires to be left by the task that entered
them. Closing the group (or ``remove(name)``) asks that task to leave its ``async with``.

Questions from every server reach the one ``elicitation_callback`` (or the per-server one given in
``callbacks``), with ``context.server_name`` set to the config's name for the server, so a terminal or
browser UI says who is asking. Notices too: the shared ``logging_callback``, ``message_handler`` and
a call's ``progress_callback`` run with ``current_server()`` naming the server that sent each one.
Tools are offered under unique names (``{server}_{tool}`` unless the config gives a ``tool_prefix``,
``rename_tools`` or the app a ``tool_name`` function), filtered by the config's ``include_tools`` /
``exclude_tools``; ``call_tool`` routes a unique name back to its server.
"""

from __future__ import annotations

import inspect
import logging
import math
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

import anyio
from anyio.abc import TaskGroup

from mcp_client._approvals.gate import check_approval_options, name_calls
from mcp_client._approvals.policy import ToolPolicy
from mcp_client._approvals.request import ApprovalCallback
from mcp_client._approvals.store import ApprovalStore
from mcp_client._client import Client
from mcp_client._connection.http_auth import HttpAuth
from mcp_client._connection.reconnect import ServerHealth, policy_of
from mcp_client._errors import ClientStateError, MCPClientError
from mcp_client._group.keeper import MemberKeeper, client_health
from mcp_client._session.context import (  # ClientRequestContext: in ApprovalCallback (the docs)
    ClientRequestContext,  # noqa: F401  # pyright: ignore[reportUnusedImport]
    notices_from,
    with_notices_from,
    with_server_name,
)
from mcp_client._session.elicitation import ElicitationCallback
from mcp_client._session.notifications import LoggingCallback, MessageHandler, ProgressCallback
from mcp_client._session.roots import ListRootsCallback
from mcp_client._session.sampling import SamplingCallback
from mcp_client._transports.stdio import StdioServerParameters
from mcp_client.config import ConfigError, MCPConfig, ServerConfig, load_config
from mcp_client.types import CallToolResult, Tool, ToolListChangedNotification

if TYPE_CHECKING:
    from mcp_client.apps._resource import AppResource

__all__ = ["ClientGroup", "GroupTool"]

logger = logging.getLogger("mcp_client.group")

ToolNamer = Callable[[ServerConfig, str], str]
"""``tool_name(server, tool_name) -> unique name``: how the group names a server's tool."""
AuthFactory = Callable[[ServerConfig], HttpAuth]
"""``oauth(server) -> httpx2.Auth``: the login for a server whose config entry says ``"auth": "oauth"``."""


def default_tool_name(server: ServerConfig, tool: str) -> str:
    """The group's default naming: ``ServerConfig.tool_name`` (rename, else prefix + name)."""
    return server.tool_name(tool)


@dataclass(frozen=True, slots=True)
class GroupTool:
    """A tool as the group offers it: ``name`` is unique across servers; ``tool`` is the server's own."""

    name: str
    server: str
    tool: Tool

    @property
    def original_name(self) -> str:
        return self.tool.name


class _Member:
    """One server's ``Client`` and the task that holds it open."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.client: Client | None = None
        self.stop = anyio.Event()
        self.done = anyio.Event()
        self.error: BaseException | None = None
        self.tools: list[GroupTool] | None = None
        self.keeper: MemberKeeper | None = None
        """Its failures in a row while it is down (``None`` until a first attempt failed)."""


class ClientGroup:
    """Many MCP servers as one: ``async with ClientGroup("mcp.json", elicitation_callback=ui) as group:``.

    ``config`` is a path to an ``mcpServers`` file, a dict in that shape, or a loaded ``MCPConfig``
    (``mcp_client.config``). The callbacks and options are those of ``Client`` and apply to every server;
    a config entry's ``mode`` and ``timeout`` win for that server. ``callbacks`` maps a server name to an
    elicitation callback of its own. ``oauth(server_config)`` builds the login (an ``httpx2.Auth``, e.g.
    ``mcp_client.auth.OAuth``) for entries that say ``"auth": "oauth"``. ``connect_timeout`` bounds each
    server's connection (a stdio server's cold start included).

    * ``group[name]`` is that server's ``Client``; ``group.clients`` the connected ones;
      ``group.failures`` maps a server that could not connect to its exception.
    * ``await group.list_tools()`` returns ``GroupTool`` entries under unique names;
      ``await group.call_tool(unique_name, arguments)`` routes the call.
    * ``tool_policy`` (a ``ToolPolicy``) gates every server's tool calls, ``tool_policies`` maps a
      server name to a policy of its own (``ToolPolicy(ask="never")`` with no patterns: not gated), and
      so does a config entry's ``"tool_policy"`` (a server's policy given in both is a ``ValueError``);
      patterns match the group's unique tool name and ``server.tool`` (the config's server name, the
      server's own tool name). ``approval_callback`` is asked for them all, with
      ``context.server_name`` naming the server; ``approval_store`` keeps their ``"always"`` answers.
    * ``await group.connect(name)`` retries a failed server, ``await group.add(name, entry)`` adds one at
      run time, ``await group.remove(name)`` closes one.
    """

    def __init__(
        self,
        config: str | os.PathLike[str] | Mapping[str, Any] | MCPConfig,
        *,
        elicitation_callback: ElicitationCallback | None = None,
        callbacks: Mapping[str, ElicitationCallback] | None = None,
        sampling_callback: SamplingCallback | None = None,
        sampling_capabilities: Mapping[str, Any] | None = None,
        list_roots_callback: ListRootsCallback | None = None,
        logging_callback: LoggingCallback | None = None,
        message_handler: MessageHandler | None = None,
        mode: str = "auto",
        timeout: float | None = 30.0,
        connect_timeout: float | None = 60.0,
        tool_name: ToolNamer | None = None,
        oauth: AuthFactory | None = None,
        client_options: Mapping[str, Any] | None = None,
        approval_callback: ApprovalCallback | None = None,
        tool_policy: ToolPolicy | None = None,
        tool_policies: Mapping[str, ToolPolicy] | None = None,
        approval_store: ApprovalStore | None = None,
    ) -> None:
        self.config: MCPConfig = load_config(config)
        self._tool_policies = dict(tool_policies or {})
        unknown_policies = set(self._tool_policies) - set(self.config.servers)
        if unknown_policies:
            raise ValueError(
                f"tool_policies name servers that are not in {self.config.source}: "
                f"{', '.join(sorted(unknown_policies))}"
            )
        self._tool_policy = tool_policy
        self._approval_callback = approval_callback
        for server in self.config.servers.values():  # at ClientGroup(...), not when that server connects
            self._check_policy(server)
        self._approval_store = approval_store
        self._elicitation_callback = elicitation_callback
        self._callbacks = dict(callbacks or {})
        unknown = set(self._callbacks) - set(self.config.servers)
        if unknown:
            raise ValueError(
                f"callbacks name servers that are not in {self.config.source}: {', '.join(sorted(unknown))}"
            )
        self._sampling_callback = sampling_callback
        self._sampling_capabilities = sampling_capabilities
        self._list_roots_callback = list_roots_callback
        self._logging_callback = logging_callback
        self._message_handler = message_handler
        self._mode = mode
        self._timeout = timeout
        self._connect_timeout = connect_timeout
        self._tool_name = tool_name or default_tool_name
        self._oauth = oauth
        self._client_options = dict(client_options or {})
        self._members: dict[str, _Member] = {}
        self._task_group: TaskGroup | None = None
        self._closed = False

    # ------------------------------------------------------------------ lifetime

    async def __aenter__(self) -> Self:
        if self._task_group is not None or self._closed:
            raise ClientStateError("a ClientGroup can be entered once")
        self._task_group = anyio.create_task_group()
        await self._task_group.__aenter__()
        try:
            async with anyio.create_task_group() as starting:
                for server in self.config.servers.values():
                    starting.start_soon(self._connect_member, server)
        except BaseException:
            await self._shut_down()
            raise
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self._shut_down()

    async def _shut_down(self) -> None:
        if self._task_group is None or self._closed:
            return
        self._closed = True
        for member in self._members.values():
            member.stop.set()
        task_group, self._task_group = self._task_group, None
        # Each member closes its Client in its own task, shielded; the group's scope must be left here,
        # in the task that entered it, and not inside a scope entered later.
        await task_group.__aexit__(None, None, None)

    # ------------------------------------------------------------------ servers

    @property
    def names(self) -> list[str]:
        """Every server the group knows, connected or not, in config order."""
        return list(self._members)

    @property
    def clients(self) -> dict[str, Client]:
        """The connected servers' clients, by name."""
        return {name: m.client for name, m in self._members.items() if m.client is not None}

    @property
    def failures(self) -> dict[str, BaseException]:
        """Servers that could not connect (or whose connection ended), with the reason."""
        return {name: m.error for name, m in self._members.items() if m.error is not None}

    def __getitem__(self, name: str) -> Client:
        member = self._members.get(name)
        if member is None:
            known = ", ".join(self._members) or "none"
            raise KeyError(f"no server named {name!r} in this group (servers: {known})")
        if member.client is None:
            reason = f": {member.error}" if member.error is not None else ""
            raise ClientStateError(f"server {name!r} is not connected{reason}; try group.connect({name!r})")
        return member.client

    def __contains__(self, name: object) -> bool:
        return name in self._members

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._members))

    async def connect(self, name: str) -> Client:
        """Connect (again) to a server of the config that failed or was removed; raises its error."""
        server = self._members[name].config if name in self._members else self.config[name]
        await self._close_member(name)
        member = await self._connect_member(server)
        if member.client is None:
            assert member.error is not None
            raise member.error
        return member.client

    async def add(self, name: str, entry: Mapping[str, Any] | ServerConfig) -> Client:
        """Add a server at run time (an ``mcpServers`` entry, or a ``ServerConfig``) and connect to it."""
        if name in self._members:
            raise ValueError(f"a server named {name!r} is already in this group; remove it first")
        if isinstance(entry, ServerConfig):
            server = replace(entry, name=name)
        else:
            server = load_config({"mcpServers": {name: dict(entry)}}).servers[name]
        self._check_policy(server, source="<added>")
        member = await self._connect_member(server)
        if member.client is None:
            assert member.error is not None
            raise member.error
        return member.client

    async def remove(self, name: str) -> None:
        """Close one server's connection and forget it."""
        if name not in self._members:
            raise KeyError(f"no server named {name!r} in this group")
        await self._close_member(name)
        del self._members[name]

    async def _close_member(self, name: str) -> None:
        member = self._members.get(name)
        if member is None:
            return
        member.stop.set()
        with anyio.CancelScope(shield=True):
            await member.done.wait()

    async def _connect_member(self, server: ServerConfig) -> _Member:
        if self._task_group is None:
            raise ClientStateError("use the ClientGroup inside `async with`")
        member = _Member(server)
        self._members[server.name] = member
        ready = anyio.Event()
        self._task_group.start_soon(self._hold, member, ready)
        await ready.wait()
        return member

    async def _hold(self, member: _Member, ready: anyio.Event) -> None:
        """The task that owns one server's ``Client``: connects it, and while it cannot, tries again in
        the background with the backoff of ``Client(reconnect=...)`` (``_group.keeper``)."""
        policy = policy_of(self._client_options.get("reconnect", True))
        try:
            while True:
                connected = await self._hold_once(member, ready)
                ready.set()
                if connected or policy is None or member.stop.is_set():
                    return
                keeper = member.keeper = member.keeper or MemberKeeper(policy)
                delay = keeper.failed(member.error)
                logger.info(
                    "server %r is down (%s); trying again in %.1f s", member.config.name, member.error, delay
                )
                with anyio.move_on_after(delay):
                    await member.stop.wait()
                if member.stop.is_set():
                    return
        finally:
            ready.set()
            member.done.set()

    async def _came_back(self, member: _Member) -> None:
        """A member that was down is connected: its tools return, and the app hears the list changed."""
        if member.keeper is None:
            return
        member.keeper = None
        member.error = None
        member.tools = None
        logger.warning("server %r is connected again", member.config.name)
        if self._message_handler is not None:
            notice = ToolListChangedNotification(method="notifications/tools/list_changed")
            try:
                with notices_from(member.config.name):
                    answer = self._message_handler(notice)
                    if inspect.isawaitable(answer):
                        await answer
            except Exception:
                logger.exception("the message handler failed on %r's list change", member.config.name)

    async def health(self) -> dict[str, ServerHealth]:
        """Each server's state, for a status page: ``connected`` (it answered a ping just now),
        ``reconnecting`` (with the attempt and the next delay) or ``failed`` (with the reason)."""
        states: dict[str, ServerHealth] = {}

        async def check(name: str, member: _Member) -> None:
            if member.client is not None:
                states[name] = await client_health(member.client)
            elif member.keeper is not None:
                states[name] = member.keeper.health
            else:
                reason = str(member.error) if member.error is not None else "not connected"
                states[name] = ServerHealth("failed", 0, None, reason)

        async with anyio.create_task_group() as checking:
            for name, member in list(self._members.items()):
                checking.start_soon(check, name, member)
        return {name: states[name] for name in self._members if name in states}

    async def _hold_once(self, member: _Member, ready: anyio.Event) -> bool:
        """One attempt: connect the server's ``Client`` and hold it open until the member is stopped.

        The connect deadline is a scope around the whole ``async with client``, lifted once connected: a
        scope entered around ``__aenter__`` alone would close before the client's own scopes.
        """
        connected = False
        try:
            with anyio.CancelScope() as scope:
                if self._connect_timeout is not None:
                    scope.deadline = anyio.current_time() + self._connect_timeout
                async with self._client_for(member.config) as client:
                    scope.deadline = math.inf
                    connected = True
                    member.client = client
                    await self._came_back(member)
                    ready.set()
                    try:
                        await member.stop.wait()
                    finally:
                        member.client = None
                        member.tools = None
            if not connected:
                member.error = MCPClientError(
                    f"server {member.config.name!r} ({member.config.target}) did not connect within "
                    f"{self._connect_timeout:g} s"
                )
        except Exception as exc:
            if connected:  # closing one server must not break the others' shutdown
                logger.debug("server %r did not close cleanly: %s", member.config.name, exc)
            else:
                member.error = exc
                logger.debug("server %r did not connect: %s", member.config.name, exc)
        return connected

    def _client_for(self, server: ServerConfig) -> Client:
        target: object
        transport = "auto"
        if server.kind == "stdio":
            assert server.command is not None
            target = StdioServerParameters(
                server.command, list(server.args), dict(server.env) if server.env is not None else None,
                server.cwd,
            )  # fmt: skip
        elif server.kind == "in-process":
            target = server.server
        else:
            assert server.url is not None
            target = server.url
            transport = "sse" if server.kind == "sse" else "auto"
        auth: HttpAuth | None = None
        if server.auth == "oauth":
            if self._oauth is None:
                raise MCPClientError(
                    f'server {server.name!r} needs a login ("auth": "oauth"), and this group has no way '
                    "to log in: pass ClientGroup(oauth=lambda server: OAuth(...))"
                )
            auth = self._oauth(server)
        options: dict[str, Any] = {
            "transport": transport,
            "mode": server.mode or self._mode,
            "timeout": server.timeout if server.timeout is not None else self._timeout,
            "sampling_capabilities": self._sampling_capabilities,
            "logging_callback": _named(self._logging_callback, server.name),
            "message_handler": _named(self._message_handler, server.name),
            **self._client_options,
        }
        if server.headers:
            options["headers"] = dict(server.headers)
        if auth is not None:
            options["auth"] = auth
        elicitation = self._callbacks.get(server.name, self._elicitation_callback)
        if elicitation is not None:
            options["elicitation_callback"] = with_server_name(elicitation, server.name)
            options.setdefault("elicitation_modes", getattr(elicitation, "elicitation_modes", None))
            complete = getattr(elicitation, "on_elicitation_complete", None)
            if complete is not None:
                options.setdefault("elicitation_complete_callback", complete)
        if self._sampling_callback is not None:
            options["sampling_callback"] = with_server_name(self._sampling_callback, server.name)
        if self._list_roots_callback is not None:
            options["list_roots_callback"] = with_server_name(self._list_roots_callback, server.name)
        policy = self._policy_of(server)
        if policy is not None:
            options["tool_policy"] = policy
        if self._approval_callback is not None:
            options["approval_callback"] = with_server_name(self._approval_callback, server.name)
        if self._approval_store is not None:
            options["approval_store"] = self._approval_store
        client = Client(target, **options)
        namer = self._tool_name
        name_calls(
            client._gate,  # pyright: ignore[reportPrivateUsage]
            server.name,
            lambda tool: namer(server, tool),
        )
        return client

    def _policy_of(self, server: ServerConfig) -> ToolPolicy | None:
        """The member's policy: its own (``tool_policies``, or its config entry's), else the group's."""
        own = self._tool_policies.get(server.name, server.tool_policy)
        return own if own is not None else self._tool_policy

    def _check_policy(self, server: ServerConfig, *, source: str | None = None) -> None:
        """A member's policy given twice, or one from the file that may ask with nobody to ask: said
        with the file, the server and the fix."""
        source = source or self.config.source
        written = server.tool_policy
        if written is not None and server.name in self._tool_policies:
            raise ValueError(
                f"server {server.name!r} has a tool_policy in {source} and one in "
                "ClientGroup(tool_policies=...): give it in one place"
            )
        if written is not None and written.may_ask and self._approval_callback is None:
            raise ConfigError(
                f'{source}: server {server.name!r}, field "tool_policy": ask={written.ask!r} may ask a '
                "person to approve a tool call, and this group has no approval_callback to ask: pass "
                'ClientGroup(approval_callback=...), or write "ask": "never" to run what allow and deny '
                "do not name"
            )
        check_approval_options(self._policy_of(server), self._approval_callback)

    # ------------------------------------------------------------------ tools

    async def list_tools(self, *, refresh: bool = False) -> list[GroupTool]:
        """Every connected server's tools under unique names, filtered as the config says.

        Lists of servers not listed yet are fetched concurrently; ``refresh=True`` fetches them all again.
        A server whose listing fails is left out and its error recorded in ``failures``.
        """
        members = await self._listed(refresh)
        tools: list[GroupTool] = []
        owners: dict[str, tuple[str, str]] = {}
        for member in members:
            for tool in member.tools or ():
                other = owners.get(tool.name)
                if other == (tool.server, tool.original_name):  # a server listing one tool twice
                    logger.warning(
                        "server %r lists its tool %r twice; the group offers the first entry",
                        tool.server,
                        tool.original_name,
                    )
                    continue
                if other is not None:
                    raise _not_unique(tool.name, other, (tool.server, tool.original_name))
                owners[tool.name] = (tool.server, tool.original_name)
                tools.append(tool)
        return tools

    async def _listed(self, refresh: bool) -> list[_Member]:
        """The connected members, each with its tools listed (concurrently, where not listed yet)."""
        members = [m for m in self._members.values() if m.client is not None]
        async with anyio.create_task_group() as listing:
            for member in members:
                if refresh or member.tools is None:
                    listing.start_soon(self._list_member, member)
        return members

    async def _list_member(self, member: _Member) -> None:
        assert member.client is not None
        try:
            result = await member.client.list_tools()
        except MCPClientError as exc:
            member.error = exc
            member.tools = []
            return
        config = member.config
        member.tools = [
            GroupTool(self._tool_name(config, tool.name), config.name, tool)
            for tool in result.tools
            if config.offers(tool.name)
        ]

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        read_timeout_seconds: float | None = None,
        progress_callback: ProgressCallback | None = None,
        **options: Any,
    ) -> CallToolResult:
        """Call a tool by its unique group name (from ``list_tools``); the rest is as ``Client.call_tool``
        (``progress_callback`` runs with ``current_server()`` naming the server)."""
        server, tool = await self.route(name)
        return await self[server].call_tool(
            tool, arguments, read_timeout_seconds, _named(progress_callback, server), **options
        )  # type: ignore[no-any-return]

    async def read_app(self, app: str | GroupTool) -> AppResource:
        """A tool's MCP Apps view (``Client.read_app``): ``app`` is a ``GroupTool`` or a unique group name."""
        if isinstance(app, GroupTool):
            return await self[app.server].read_app(app.tool)
        if isinstance(app, str) and not app.startswith("ui://"):  # pyright: ignore[reportUnnecessaryIsInstance]
            server, name = await self.route(app)
            return await self[server].read_app(name)
        raise TypeError(
            "ClientGroup.read_app takes a GroupTool or a group tool name (a ui:// URI names no server: "
            "use group[server].read_app(uri))"
        )

    async def route(self, name: str) -> tuple[str, str]:
        """``(server name, the server's own tool name)`` for a unique group tool name.

        A name two servers offer is never routed (``ValueError``, as ``list_tools`` raises), whichever
        came first; names that are unique route even while others collide.
        """
        members = await self._listed(refresh=False)  # a server not listed yet may offer it too
        found = list(
            dict.fromkeys(  # a server listing one name twice offers it once
                (member.config.name, tool.original_name)
                for member in members
                for tool in member.tools or ()
                if tool.name == name
            )
        )
        if len(found) > 1:
            raise _not_unique(name, found[0], found[1])
        if found:
            return found[0]
        down = {n: m.error for n, m in self._members.items() if m.client is None and m.error is not None}
        if down:  # it may be one of theirs: say so, at once, rather than wait for them
            # No double quote: KeyError shows its message's repr, which would then escape every quote.
            why = "; ".join(f"{n!r}: {error}" for n, error in down.items()).replace('"', "'")
            raise KeyError(
                f"no tool named {name!r} among the connected servers; down (tried again in the background, "
                f"see `await group.health()`): {why}"
            )
        raise KeyError(f"no tool named {name!r} in this group; list them with `await group.list_tools()`")


_C = TypeVar("_C", bound=Callable[..., Any])


def _named(callback: _C | None, server: str) -> _C | None:
    """``callback``, run with ``current_server() == server`` (the config's name beats the server's own)."""
    return cast("_C", with_notices_from(callback, server)) if callback is not None else None


def _not_unique(name: str, first: tuple[str, str], second: tuple[str, str]) -> ValueError:
    """Two tools under one name in the group: (server, the server's tool name) of each."""
    if first[0] == second[0]:  # one server's own tools, renamed onto one name by its config entry
        return ValueError(
            f"server {first[0]!r} offers two tools named {name!r} ({first[1]!r} and {second[1]!r}); "
            'change its "rename_tools" entry in the config so they differ'
        )
    return ValueError(
        f"two servers offer a tool named {name!r}: {first[0]!r} and {second[0]!r}; give one of them a "
        '"tool_prefix" or "rename_tools" entry in the config'
    )
