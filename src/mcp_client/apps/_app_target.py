"""Which server a view belongs to, and the tools it may call there.

A view may only reach the server whose tool it renders (the spec: "callable by the app from the same
server connection only"). With a lone ``Client`` that is the client; with a ``ClientGroup`` it is the
member that offers the tool's unique group name, looked up again on each call (a member that reconnects
gets a new ``Client``) so a view's calls and reads never go to another member. For a group, the tools a
view may call are those the group offers from that member (a tool its config entry filters out stays out
of reach) and whose visibility has ``"app"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio

from mcp_client.apps._tool_app import app_may_call

if TYPE_CHECKING:
    from mcp_client._client import Client
    from mcp_client._group.client_group import ClientGroup, GroupTool
    from mcp_client.types import Tool


class ToolNotFound(KeyError):
    """No server offers the view's tool (or a group routes its name to none or to two servers)."""

    def __str__(self) -> str:  # KeyError's own would quote the message
        return str(self.args[0]) if self.args else "the view's tool is not offered"


class AppTarget:
    """The view's server and tool, resolved once (on first use) from what ``AppBridge`` was given."""

    def __init__(self, client: Client | ClientGroup, tool: Tool | GroupTool | str) -> None:
        self._client = client
        self._given = tool
        self._lock = anyio.Lock()
        self._server: str | None = None
        self._tool: Tool | None = None
        self._group: ClientGroup | None = None

    @property
    def server(self) -> str | None:
        """The server's name (a group's member name, or the name the server gives itself), once resolved."""
        return self._server

    async def tool(self) -> Tool:
        """The tool whose view this is, as its server lists it (``ToolNotFound``, a ``KeyError``, when no
        server offers it)."""
        async with self._lock:
            if self._tool is None:
                try:
                    await self._resolve()
                except ToolNotFound:
                    raise
                except (KeyError, ValueError) as missing:  # a group's route: none, or two, offer it
                    raise ToolNotFound(missing.args[0] if missing.args else str(missing)) from missing
            assert self._tool is not None
            return self._tool

    async def _resolve(self) -> None:
        from mcp_client._group.client_group import ClientGroup, GroupTool

        given: Any = self._given
        if isinstance(self._client, ClientGroup):
            self._group = self._client
            if isinstance(given, GroupTool):
                self._server, self._tool = given.server, given.tool
                return
            name = given if isinstance(given, str) else str(getattr(given, "name", given))
            self._server, original = await self._client.route(name)
            self._tool = await self._listed(original)
            return
        info = self._client.server_info  # its own name: never the URL or command line (they may hold secrets)
        self._server = info.name if info is not None else "the view's server"
        if isinstance(given, GroupTool):
            given = given.tool
        if isinstance(given, str):
            self._tool = await self._listed(given)
        else:
            self._tool = given

    async def _listed(self, name: str) -> Tool:
        for tool in await self.tools():
            if tool.name == name:
                return tool
        raise ToolNotFound(f"no tool named {name!r} on server {self._server!r}; list them with list_tools()")

    async def client(self) -> Client:
        """The ``Client`` of the view's server (for a group: its member, as connected now)."""
        await self.tool()
        if self._group is not None:
            assert self._server is not None
            return self._group[self._server]
        return self._client  # type: ignore[return-value]

    async def tools(self) -> list[Tool]:
        """Every tool of the view's server (for a group: those the group offers from that member)."""
        if self._group is not None:
            assert self._server is not None
            # The member's own list, filtered by its config entry as the group filters it: not
            # group.list_tools(), which fails as a whole when two *other* servers offer one name.
            config = self._group._members[self._server].config
            listed = (await self._group[self._server].list_tools()).tools
            return [tool for tool in listed if config.offers(tool.name)]
        client: Client = self._client  # type: ignore[assignment]
        return list((await client.list_tools()).tools)

    async def app_tools(self) -> list[Tool]:
        """The tools of the view's server a view may call (visibility has ``"app"``)."""
        await self.tool()
        return [tool for tool in await self.tools() if app_may_call(tool)]

    async def server_tool(self, name: str) -> Tool | None:
        """The tool ``name`` of the view's server, whatever its visibility; ``None`` if it has none."""
        await self.tool()
        for tool in await self.tools():
            if tool.name == name:
                return tool
        return None
