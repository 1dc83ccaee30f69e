"""``AppHost``: what every MCP Apps host does, whatever serves its pages.

It resolves a tool (on a ``Client`` or a ``ClientGroup``), calls it, reads its view (``read_app``), and
gives the view an ``AppBridge`` (``mcp_client.apps``) and a ``ViewChannel`` on the host's ``AppSite``:
the view's messages come from the host page in batched POSTs, the host's go back on an event stream.
See ``_site`` for the routes and ``_channel`` for the limits that keep one view from stalling the others.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from types import TracebackType
from typing import Any, Literal, Self

import anyio
import anyio.abc

from mcp_client import Client, ClientGroup
from mcp_client.apps import AppBridge, app_of
from mcp_client.types import CallToolResult, Tool
from ui_adapters.apps._channel import ViewChannel
from ui_adapters.apps._csp import ViewPolicy, allow_attribute, view_csp
from ui_adapters.apps._site import AppSite
from ui_adapters.apps._view import TEARDOWN_SECONDS, AppView
from ui_adapters.text import sanitize

__all__ = ["AppHost", "Callback", "LogCallback"]

logger = logging.getLogger("ui_adapters.apps")

Callback = Callable[[dict[str, Any]], bool | Awaitable[bool]]
"""``on_message``, ``on_open_link``, ``on_model_context``: the request's ``params``; True accepts."""
LogCallback = Callable[[dict[str, Any]], Awaitable[None] | None]
"""``on_log``: the log notification's ``params``; returns nothing (sync or async)."""

_REQUEST_TEARDOWN = "ui/notifications/request-teardown"
_FLUSH_SECONDS = 2.0
"""After the views are closed, how long their pages get to hear it before the server stops."""


class AppHost:
    """What every host of views does, whatever serves its pages: resolve a tool, call it, read its view,
    give it a bridge and a channel on ``site``, and close the views when it leaves.

    A subclass says where the pages live: ``_open_site`` returns the ``AppSite`` (and starts whatever
    serves it), ``_close_site`` stops it, ``_opened`` is told each new view. ``BrowserAppHost`` serves
    them on loopback sockets; an ASGI app can serve the same ``site.respond``.
    """

    def __init__(
        self,
        client: Client | ClientGroup,
        *,
        theme: Literal["light", "dark"] = "light",
        on_message: Callback | None = None,
        on_open_link: Callback | None = None,
        on_model_context: Callback | None = None,
        on_log: LogCallback | None = None,
    ) -> None:
        if theme not in ("light", "dark"):
            raise ValueError(f"theme must be 'light' or 'dark', not {theme!r}")
        self.client = client
        self.theme: Literal["light", "dark"] = theme
        self.on_message = on_message
        self.on_open_link = on_open_link
        self.on_model_context = on_model_context
        self.on_log = on_log
        self.views: list[AppView] = []
        self._site: AppSite | None = None
        self._tg: anyio.abc.TaskGroup | None = None

    @property
    def site(self) -> AppSite:
        """The HTTP routes (``AppSite``) of this host's views."""
        if self._site is None:
            raise RuntimeError(f"use the host in `async with {type(self).__name__}(client) as host:` first")
        return self._site

    # ------------------------------------------------------------------ what a subclass provides

    async def _open_site(self, tg: anyio.abc.TaskGroup) -> AppSite:
        """The site the views are served on; start serving it in ``tg`` (cancelled on leaving)."""
        raise NotImplementedError

    async def _close_site(self) -> None:
        """Release what ``_open_site`` took (after its tasks are cancelled)."""

    async def _opened(self, view: AppView) -> None:
        """A new view is served at ``view.url``."""

    # ------------------------------------------------------------------ the context

    async def __aenter__(self) -> Self:
        tg = anyio.create_task_group()
        await tg.__aenter__()
        try:
            self._site = await self._open_site(tg)
        except BaseException as exc:
            tg.cancel_scope.cancel()
            await tg.__aexit__(type(exc), exc, exc.__traceback__)
            await self._close_site()
            raise
        self._tg = tg
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        tg = self._tg
        try:
            with anyio.CancelScope(shield=True):
                await self.close_views()
                # Let open pages hear that their view is closed, then stop serving.
                with anyio.move_on_after(_FLUSH_SECONDS):
                    for view in self.views:
                        await view._channel.wait_no_pages()  # pyright: ignore[reportPrivateUsage]
            if tg is not None:
                tg.cancel_scope.cancel()
                # The body's own exception is not the task group's: it propagates as it is, ungrouped.
                await tg.__aexit__(None, None, None)
        finally:
            self._tg = None
            await self._close_site()

    async def close_views(self) -> None:
        """Close every view at once (each waits a bounded time for its view's answer)."""
        async with anyio.create_task_group() as closing:
            for view in list(self.views):
                closing.start_soon(view.close)

    # ------------------------------------------------------------------ showing views

    async def show(self, name: str, arguments: Mapping[str, Any] | None = None) -> AppView:
        """Call the tool ``name`` and show its view with the result; returns once the view is served.

        ``name`` is the tool's name on its server (a group's unique name for a ``ClientGroup``). A tool
        without a view is refused (``ValueError``) before it is called.
        """
        client, tool, server = await self._resolve(name)
        _require_view(tool, name, server)
        result = await client.call_tool(tool.name, arguments)
        return await self._present(client, tool, server, name, arguments or {}, result)

    async def present(
        self, name: str, arguments: Mapping[str, Any] | None, result: CallToolResult
    ) -> AppView:
        """Show the view of tool ``name`` with a ``result`` already obtained (a model's call)."""
        client, tool, server = await self._resolve(name)
        _require_view(tool, name, server)
        return await self._present(client, tool, server, name, arguments or {}, result)

    async def _resolve(self, name: str) -> tuple[Client, Tool, str]:
        source = self.client
        if isinstance(source, ClientGroup):
            tools = await source.list_tools()
            found = [t for t in tools if t.name == name] or [t for t in tools if t.tool.name == name]
            if len(found) > 1:
                servers = ", ".join(sorted(t.server for t in found))
                raise ValueError(
                    f"several servers offer a tool named {name!r} ({servers}): use its group name"
                )
            if not found:
                raise ValueError(f"no tool named {name!r} among the group's servers")
            return source[found[0].server], found[0].tool, found[0].server
        listed = await source.list_tools()
        for tool in listed.tools:
            if tool.name == name:
                return source, tool, _server_label(source)
        raise ValueError(f"{_server_label(source)} has no tool named {name!r}")

    async def _present(
        self,
        client: Client,
        tool: Tool,
        server: str,
        name: str,
        arguments: Mapping[str, Any],
        result: CallToolResult,
    ) -> AppView:
        site = self.site
        tg = self._tg
        if tg is None:
            raise RuntimeError(f"the {type(self).__name__} was left; views can no longer be shown")
        resource = await client.read_app(tool)
        policy = ViewPolicy.of(resource.csp)
        channel = ViewChannel(
            title=name,
            server=server,
            html=resource.html,
            csp=_wire_csp(policy),
            permissions=_wire_permissions(resource.permissions),
            proxy_csp=view_csp(policy, frame_ancestors=(site.host_origin, site.sandbox_origin)),
            allow=allow_attribute(resource.permissions),
            border=bool(resource.prefers_border),
            theme=self.theme,
        )
        view = AppView(
            name=name,
            server=server,
            arguments=arguments,
            result=result,
            url=site.page_url(channel),
            channel=channel,
        )
        bridge = self._bridge(client, tool, channel)
        view._bridge = bridge  # pyright: ignore[reportPrivateUsage]
        await bridge.tool_input(dict(arguments))  # both held by the bridge until the view is initialized
        await bridge.tool_result(result)
        site.add(channel)
        self.views.append(view)
        tg.start_soon(self._serve_view, view, channel, bridge)
        await self._opened(view)
        return view

    async def _serve_view(self, view: AppView, channel: ViewChannel, bridge: AppBridge) -> None:
        tg = self._tg
        assert tg is not None

        async def handle(message: dict[str, Any]) -> dict[str, Any] | None:
            _record(view, message)
            answer = await bridge.handle(message)
            if message.get("method") == _REQUEST_TEARDOWN and "id" not in message:
                # The view asks to go (its own "done"): close it as ``close()`` would, not from here, where
                # the view's answer to the teardown must still come in.
                tg.start_soon(view.close)
            return answer

        try:
            await channel.serve(handle)
        finally:
            with anyio.CancelScope(shield=True):
                await view.close()
            # The channel stays on the site (its HTML dropped): a reload of the page says it is closed.

    def _bridge(self, client: Client, tool: Tool, channel: ViewChannel) -> AppBridge:
        """The view's bridge; a callback the app did not give stays unset, so the view is told at
        ``ui/initialize`` that this host does not take links, messages or model context."""
        return AppBridge(
            client,
            tool,
            send=channel.send,
            host_context={"theme": self.theme},
            on_message=self.on_message,
            on_open_link=self.on_open_link,
            on_model_context=self.on_model_context,
            on_log=self.on_log,
            teardown_timeout=TEARDOWN_SECONDS,
        )


def _record(view: AppView, message: dict[str, Any]) -> None:
    """Keep what the view sends for the app (``AppView.messages``, ``model_context``, ``logs``), whether
    or not a callback takes it."""
    params = message.get("params")
    if not isinstance(params, dict):
        return
    method = message.get("method")
    if method == "ui/message" and "id" in message:
        view.messages.append(dict(params))  # pyright: ignore[reportUnknownArgumentType]
    elif method == "ui/update-model-context" and "id" in message:
        view.model_context = dict(params)  # pyright: ignore[reportUnknownArgumentType]
    elif method == "notifications/message":
        view.logs.append(dict(params))  # pyright: ignore[reportUnknownArgumentType]


def _server_label(client: Client) -> str:
    """The server as a person knows it: the name it gives itself, else how it was reached."""
    info = client.server_info
    name = (info.title or info.name) if info is not None else None
    return sanitize(name) if name else client.server


def _require_view(tool: Tool, name: str, server: str) -> None:
    app = app_of(tool)
    if app is None or app.resource_uri is None:
        raise ValueError(
            f"the tool {name!r} of {server} has no view (no _meta.ui.resourceUri): call it with "
            "call_tool and show its text content instead"
        )


def _wire_csp(policy: ViewPolicy) -> dict[str, list[str]] | None:
    wire = {
        "connectDomains": policy.connect,
        "resourceDomains": policy.resource,
        "frameDomains": policy.frame,
        "baseUriDomains": policy.base_uri,
    }
    return {key: value for key, value in wire.items() if value} or None


def _wire_permissions(permissions: object) -> dict[str, dict[str, Any]] | None:
    from ui_adapters.apps._csp import PERMISSION_FEATURES

    allowed = allow_attribute(permissions).split("; ")
    wire = {key: {} for key, feature in PERMISSION_FEATURES.items() if feature in allowed}
    return wire or None
