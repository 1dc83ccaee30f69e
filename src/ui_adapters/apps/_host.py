"""``BrowserAppHost``: MCP Apps views in the person's own browser, served by us on loopback.

Each view gets a host page of ours on one loopback origin, which frames the sandbox proxy on another
(the spec's two origins), which loads the server's HTML under a Content-Security-Policy built from what
the resource declared. The view's JSON-RPC reaches an ``AppBridge`` (``mcp_client.apps``) through the
host page: its messages come in batched POSTs, the host's go back on an event stream. See ``_site`` for
the routes and ``_channel`` for the limits that keep one view from stalling the others.
"""

from __future__ import annotations

import inspect
import logging
import sys
import webbrowser
from collections.abc import Awaitable, Callable, Mapping
from types import TracebackType
from typing import Any, Literal, Self

import anyio
import anyio.abc

from mcp_client import Client, ClientGroup
from mcp_client.apps import app_of
from mcp_client.types import CallToolResult, Tool
from ui_adapters.apps._channel import ViewChannel
from ui_adapters.apps._csp import ViewPolicy, allow_attribute, view_csp
from ui_adapters.apps._server import listen_loopback, serve_forever
from ui_adapters.apps._site import AppSite
from ui_adapters.text import sanitize

__all__ = ["AppView", "BrowserAppHost", "Callback", "LogCallback"]

logger = logging.getLogger("ui_adapters.apps")

Callback = Callable[[dict[str, Any]], bool | Awaitable[bool]]
"""``on_message``, ``on_open_link``, ``on_model_context``: the request's ``params``; True accepts."""
LogCallback = Callable[[dict[str, Any]], object]
"""``on_log``: the log notification's ``params``."""

TEARDOWN_SECONDS = 3.0
"""How long ``AppView.close`` waits for the view to answer ``ui/resource-teardown``."""
_FLUSH_SECONDS = 2.0
"""After the views are closed, how long their pages get to hear it before the server stops."""


class AppView:
    """One tool's view, shown by ``BrowserAppHost.show`` or ``present``.

    ``url`` is the host page; ``result`` the tool's result the view was given; ``messages`` the
    ``ui/message`` params the view sent, ``model_context`` the last ``ui/update-model-context`` params.
    """

    def __init__(
        self,
        *,
        name: str,
        server: str,
        arguments: Mapping[str, Any],
        result: CallToolResult,
        url: str,
        channel: ViewChannel,
    ) -> None:
        self.name = name
        self.server = server
        self.arguments = dict(arguments)
        self.result = result
        self.url = url
        self.messages: list[dict[str, Any]] = []
        self.model_context: dict[str, Any] | None = None
        self.logs: list[dict[str, Any]] = []
        self._channel = channel
        self._bridge: Any = None
        self._closing = False
        self._closed = anyio.Event()

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    async def close(self) -> None:
        """Tear the view down: send ``ui/resource-teardown``, wait up to ``TEARDOWN_SECONDS`` for its
        answer, then the page says the view is closed. Closing a closed view does nothing."""
        if self._closing:
            await self._closed.wait()
            return
        self._closing = True
        try:
            if self._bridge is not None and self._channel.pages > 0:
                with anyio.move_on_after(TEARDOWN_SECONDS):
                    await _teardown(self._bridge)
        except Exception:
            logger.warning("the view of %r did not take its teardown well", self.name, exc_info=True)
        finally:
            self._channel.close(f"The view of {sanitize(self.name)} is closed.")
            self._closed.set()

    async def wait_closed(self) -> None:
        """Wait until the view is closed (``close()``, or the host left)."""
        await self._closed.wait()

    def __repr__(self) -> str:
        return f"AppView(name={self.name!r}, server={self.server!r}, url={self.url!r}, closed={self.closed})"


class BrowserAppHost:
    """Shows MCP Apps views in the browser; an async context manager around a ``Client`` or ``ClientGroup``.

    * ``open_browser``: True opens each view's page in the system browser (``webbrowser``; the link is
      printed on stderr when none starts); False leaves it to you (``view.url``); or a callable taking
      the URL (sync or async: a notebook's IFrame, a test's browser).
    * ``theme``: ``"light"`` or ``"dark"``, for the page and the view's host context.
    * ``on_message``, ``on_open_link``, ``on_model_context``: called with the view's request ``params``
      (sync or async) and return True to accept; without one the view's request is refused.
      ``on_open_link`` opens the link itself (the host never does). ``on_log`` hears the view's logs.
    """

    def __init__(
        self,
        client: Client | ClientGroup,
        *,
        open_browser: bool | Callable[[str], object] = True,
        theme: Literal["light", "dark"] = "light",
        on_message: Callback | None = None,
        on_open_link: Callback | None = None,
        on_model_context: Callback | None = None,
        on_log: LogCallback | None = None,
    ) -> None:
        if theme not in ("light", "dark"):
            raise ValueError(f"theme must be 'light' or 'dark', not {theme!r}")
        self.client = client
        self.open_browser = open_browser
        self.theme: Literal["light", "dark"] = theme
        self.on_message = on_message
        self.on_open_link = on_open_link
        self.on_model_context = on_model_context
        self.on_log = on_log
        self.views: list[AppView] = []
        self._site: AppSite | None = None
        self._tg: anyio.abc.TaskGroup | None = None
        self._server_scope: anyio.CancelScope | None = None  # made on entering: no event loop may run yet
        self._listeners: list[Any] = []

    @property
    def site(self) -> AppSite:
        """The HTTP routes (``AppSite``) of this host's views."""
        if self._site is None:
            raise RuntimeError("use the host in `async with BrowserAppHost(client) as host:` first")
        return self._site

    async def __aenter__(self) -> Self:
        host_listener = listen_loopback()
        sandbox_listener = listen_loopback()
        self._listeners = [host_listener, sandbox_listener]
        self._site = AppSite(
            host_authority=f"127.0.0.1:{host_listener.getsockname()[1]}",
            sandbox_authority=f"127.0.0.1:{sandbox_listener.getsockname()[1]}",
        )
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        site = self._site
        tg = self._tg
        server_scope = self._server_scope = anyio.CancelScope()

        async def run_servers() -> None:
            with server_scope:
                async with anyio.create_task_group() as servers:
                    servers.start_soon(serve_forever, site, host_listener, tg)
                    servers.start_soon(serve_forever, site, sandbox_listener, tg)

        tg.start_soon(run_servers)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        tg = self._tg
        try:
            with anyio.CancelScope(shield=True):
                async with anyio.create_task_group() as closing:
                    for view in list(self.views):
                        closing.start_soon(view.close)
                # Let open pages hear that their view is closed, then stop serving.
                with anyio.move_on_after(_FLUSH_SECONDS):
                    for view in self.views:
                        await view._channel.wait_no_pages()  # pyright: ignore[reportPrivateUsage]
            if self._server_scope is not None:
                self._server_scope.cancel()
            if tg is not None:
                tg.cancel_scope.cancel()
                await tg.__aexit__(exc_type, exc, tb)
        finally:
            self._tg = None
            for listener in self._listeners:
                listener.close()
            self._listeners = []

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
                return source, tool, source.server
        raise ValueError(f"{source.server} has no tool named {name!r}")

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
        assert self._tg is not None
        resource = await client.read_app(tool)  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType]
        policy = ViewPolicy.of(getattr(resource, "csp", None))  # pyright: ignore[reportUnknownArgumentType]
        permissions = getattr(resource, "permissions", None)  # pyright: ignore[reportUnknownArgumentType]
        channel = ViewChannel(
            title=name,
            server=server,
            html=str(resource.html),  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]
            csp=_wire_csp(policy),
            permissions=_wire_permissions(permissions),
            proxy_csp=view_csp(policy, frame_ancestors=(site.host_origin, site.sandbox_origin)),
            allow=allow_attribute(permissions),
            border=bool(getattr(resource, "prefers_border", False)),  # pyright: ignore[reportUnknownArgumentType]
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
        view._bridge = self._bridge(client, tool, view, channel)  # pyright: ignore[reportPrivateUsage]
        await _deliver(view._bridge, arguments, result)  # pyright: ignore[reportPrivateUsage]
        site.add(channel)
        self.views.append(view)
        self._tg.start_soon(self._serve_view, view, channel)
        await self._open(view)
        return view

    async def _serve_view(self, view: AppView, channel: ViewChannel) -> None:
        try:
            await channel.serve(lambda message: _handle(view._bridge, message))  # pyright: ignore[reportPrivateUsage]
        finally:
            await view.close()
            self.site.remove(channel)

    def _bridge(self, client: Client, tool: Tool, view: AppView, channel: ViewChannel) -> Any:
        from mcp_client.apps import AppBridge  # pyright: ignore[reportAttributeAccessIssue, reportUnknownVariableType]

        async def on_message(params: dict[str, Any]) -> bool:
            view.messages.append(params)
            return await _ask(self.on_message, params)

        async def on_model_context(params: dict[str, Any]) -> bool:
            view.model_context = params
            return await _ask(self.on_model_context, params)

        async def on_open_link(params: dict[str, Any]) -> bool:
            return await _ask(self.on_open_link, params)

        async def on_log(params: dict[str, Any]) -> None:
            view.logs.append(params)
            if self.on_log is not None:
                outcome = self.on_log(params)
                if inspect.isawaitable(outcome):
                    await outcome

        return AppBridge(  # pyright: ignore[reportUnknownVariableType]
            client,
            tool,
            send=channel.send,
            host_context=_host_context(self.theme),
            on_message=on_message,
            on_open_link=on_open_link,
            on_model_context=on_model_context,
            on_log=on_log,
        )

    async def _open(self, view: AppView) -> None:
        opener = self.open_browser
        if opener is False:
            return
        if opener is True:
            opened = await anyio.to_thread.run_sync(webbrowser.open, view.url, abandon_on_cancel=True)
            if not opened:
                print(
                    f"Open this page to see {view.name} from {view.server}: {view.url}",
                    file=sys.stderr,
                    flush=True,
                )
            return
        outcome = opener(view.url)
        if inspect.isawaitable(outcome):
            await outcome


def _require_view(tool: Tool, name: str, server: str) -> None:
    app = app_of(tool)
    if app is None or app.resource_uri is None:
        raise ValueError(
            f"the tool {name!r} of {server} has no view (no _meta.ui.resourceUri): call it with "
            "call_tool and show its text content instead"
        )


async def _ask(callback: Callback | None, params: dict[str, Any]) -> bool:
    if callback is None:
        return False
    outcome = callback(params)
    if inspect.isawaitable(outcome):
        outcome = await outcome
    return outcome is True


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


# ---------------------------------------------------------------------- the bridge's surface


def _host_context(theme: str) -> Any:
    from mcp_client.apps import default_host_context  # pyright: ignore[reportAttributeAccessIssue, reportUnknownVariableType]

    return default_host_context(theme=theme)  # pyright: ignore[reportUnknownVariableType]


async def _handle(bridge: Any, message: dict[str, Any]) -> dict[str, Any] | None:
    return await bridge.handle(message)  # type: ignore[no-any-return]


async def _deliver(bridge: Any, arguments: Mapping[str, Any], result: CallToolResult) -> None:
    await bridge.tool_input(dict(arguments))
    await bridge.tool_result(result)


async def _teardown(bridge: Any) -> None:
    await bridge.teardown()
