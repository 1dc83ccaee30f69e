"""``mcp-client tools`` and ``mcp-client call``: connect, do one thing, print it, return an exit code.

Errors are raised, not printed: ``UsageError`` (exit 2) and the client's ``MCPClientError`` (exit 3)
are turned into messages and codes in one place, ``ui_adapters.cli.main``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import httpx2
from rich.console import Console

from mcp_client import (
    Client,
    ClientRequestContext,
    ElicitationCallback,
    ElicitationCompleteCallback,
    StdioServerParameters,
    UrlElicitationRequiredError,
    with_server_name,
)
from mcp_client.types import CallToolResult, LoggingLevel, Root, Tool
from ui_adapters.broker.stores import redact_server
from ui_adapters.cli._approval import FilePolicy, check_call
from ui_adapters.cli._args import parse_arguments, suggest
from ui_adapters.cli._era_choice import connected
from ui_adapters.cli._exit import EXIT_OK, EXIT_TOOL_ERROR, UsageError
from ui_adapters.cli._render import print_json, print_result, print_tools
from ui_adapters.cli._server_questions import RootsAnswer, refuse_sampling
from ui_adapters.cli._status import ServerLogPrinter, StatusAwareCallback, StatusLine, terminal_ui
from ui_adapters.cli._task_command import print_detached
from ui_adapters.cli._tasks import needs_tasks, needs_tasks_message

if TYPE_CHECKING:
    from mcp_client import ApprovalCallback, ToolPolicy

__all__ = ["Connection", "LoginOptions", "run_call", "run_tools"]


@dataclass(frozen=True)
class LoginOptions:
    """How to log in when the server asks (a config entry's ``"auth"`` object), as ``login``'s options."""

    client_id: str | None = None
    private_key: str | None = None
    dpop: bool = False
    scopes: Sequence[str] = ()


@dataclass(frozen=True)
class Connection:
    """Where and how to connect: the parsed SERVER and the connection options.

    Every client answers sampling requests with the CLI's refusal and roots with ``roots`` (none given:
    no roots declared).
    """

    server: str | StdioServerParameters
    mode: str = "auto"
    headers: Mapping[str, str] = field(default_factory=dict[str, str])
    timeout: float | None = 30.0
    log_level: LoggingLevel = "info"
    roots: Sequence[Root] = ()
    transport: Literal["auto", "http", "sse"] = "auto"
    verify: bool | str = True
    proxy: str | None = None
    login: LoginOptions | None = None
    name: str | None = None
    apps: bool = False
    """Declare the MCP Apps extension (``mcp-client apps``)."""
    tool_policy: ToolPolicy | None = None
    approval_callback: ApprovalCallback | None = None
    """The client's approval gate (``mcp-client apps``: the calls its view makes; ``_view_approval``)."""
    file_policy: FilePolicy | None = None
    """The ``tool_policy`` the --config file gives this server: ``call`` follows it (``check_call``)."""

    @property
    def label(self) -> str:
        """The server's name in the --config file, else its URL (without ``user:password@``) or command
        line."""
        if self.name is not None:
            return self.name
        return redact_server(self.server) if isinstance(self.server, str) else self.server.command_line

    @property
    def http_options(self) -> dict[str, Any]:
        """``Client``'s TLS and proxy options as the command line gave them (the defaults left out)."""
        options: dict[str, Any] = {}
        if self.verify is not True:
            options["verify"] = self.verify
        if self.proxy is not None:
            options["proxy"] = self.proxy
        return options

    def connect(
        self,
        callback: ElicitationCallback | None = None,
        complete: ElicitationCompleteCallback | None = None,
        status: StatusLine | None = None,
        roots: RootsAnswer | None = None,
        mode: str | None = None,
    ) -> AbstractAsyncContextManager[Client]:
        """A connected client (``async with``); with a ``status``, the server's log lines are printed there.

        ``roots`` answers the server's ``roots/list`` (default: a fresh answer with this connection's roots).
        With ``--mode auto`` the era is the CLI's choice (``_era_choice``); ``mode`` overrides it.
        """
        answer = roots or RootsAnswer(self.roots)
        return connected(
            mode or self.mode, lambda mode: self._client(mode, callback, complete, status, answer)
        )

    def _client(
        self,
        mode: str,
        callback: ElicitationCallback | None,
        complete: ElicitationCompleteCallback | None,
        status: StatusLine | None,
        roots: RootsAnswer,
    ) -> Client:
        options: dict[str, Any] = {}
        if callback is not None and self.name is not None:
            # Questions from a server of the --config file say its name there, as in a ClientGroup.
            options["elicitation_modes"] = getattr(callback, "elicitation_modes", None)
            callback = with_server_name(callback, self.name)
        return Client(
            self.server,
            mode=mode,
            elicitation_callback=callback,
            elicitation_complete_callback=complete,
            headers=dict(self.headers) or None,
            timeout=self.timeout,
            sampling_callback=refuse_sampling,
            list_roots_callback=roots.callback,
            auth=self._auth(status),
            logging_callback=ServerLogPrinter(status) if status is not None else None,
            log_level=self.log_level if status is not None else None,
            tasks=True,  # a long tool may run as a task: followed to its end, its status on the line
            apps=self.apps,
            tool_policy=self.tool_policy,
            approval_callback=self.approval_callback,
            transport=self.transport,
            **self.http_options,
            **options,
        )

    def _auth(self, status: StatusLine | None) -> httpx2.Auth | None:
        """OAuth for http(s) servers (a 401 starts the login), unless the user authorizes the requests:
        a ``--header Authorization: ...``, or a URL with ``user:password@`` (Basic auth, which an auth
        given to the client would replace)."""
        if not isinstance(self.server, str) or any(k.lower() == "authorization" for k in self.headers):
            return None
        if redact_server(self.server) != self.server:
            return None
        from ui_adapters.cli._login import cli_oauth

        login = self.login or LoginOptions()
        return cli_oauth(
            self.server,
            status,
            login.scopes or None,
            client_id=login.client_id,
            private_key=login.private_key,
            dpop=login.dpop,
        )


async def run_tools(connection: Connection, out: Console, err: Console, *, as_json: bool) -> int:
    """List the server's tools with their parameters (``--json``: the raw tool list).

    It connects declaring what ``call`` declares (form and URL questions): servers list the tools that
    ask questions only to clients that can answer them.
    """
    ui = terminal_ui(err)
    with ui.status.show(f"Connecting to {connection.label}…"):
        async with connection.connect(ui, ui.elicitation_complete_callback, ui.status) as client:
            ui.status.update("Listing tools…")
            tools = (await client.list_tools()).tools
    if as_json:
        print_json(out, [tool.model_dump_wire() for tool in tools])
    else:
        print_tools(out, tools)
    return EXIT_OK


async def run_call(
    connection: Connection,
    tool_name: str,
    words: Sequence[str],
    out: Console,
    err: Console,
    *,
    as_json: bool,
    detach: bool = False,
    yes: bool = False,
    command: str = "mcp-client call --yes ...",
) -> int:
    """Call one tool with ``KEY=VALUE`` arguments, answering its questions in the terminal.

    Unless ``yes``, a tool the server does not mark read-only is asked about first (``_approval``):
    at a terminal the person decides; without one the call is refused (``NotApprovedError``, exit 4)
    and ``command`` is the command line suggested with ``--yes``. A server of the --config file with a
    ``tool_policy`` is judged by it instead: its deny refuses (``--yes`` too), its allow runs unasked,
    and what it asks about is asked as above.

    Returns 0, or 1 when the tool reports ``isError``. A call the server runs as a task is followed to
    its end (its status messages on the status line); with ``detach``, its id is printed instead
    (``--json``: the task's ``to_json()``) for ``mcp-client task``.
    """
    ui = terminal_ui(err)
    roots = RootsAnswer(connection.roots)
    result: CallToolResult | None = None
    with ui.status.show(f"Connecting to {connection.label}…"):
        async with connection.connect(ui, ui.elicitation_complete_callback, ui.status, roots) as client:
            ui.status.update("Listing tools…")
            tool = _find_tool((await client.list_tools()).tools, tool_name, connection.label)
            arguments = parse_arguments(tool, words)
            await check_call(
                client,
                connection.label,
                tool,
                arguments,
                ui,
                err,
                command=command,
                yes=yes,
                policy=connection.file_policy,
            )
            # A tool that runs only as a task needs the tasks extension, which exists only in 2026-07-28:
            # nothing was called yet, so --mode auto reconnects in that era (the tool is called once).
            task_era = needs_tasks(tool) and client.era == "legacy"
            if task_era and connection.mode != "auto":
                raise UsageError(needs_tasks_message(tool, connection.label))
            call = (connection, ui, roots, tool.name, arguments, out, err, detach, as_json)
            if not task_era:
                result = await _call_once(client, *call)
        if task_era:
            ui.status.update(f"Connecting to {connection.label} (protocol 2026-07-28, for tasks)…")
            modern = connection.connect(ui, ui.elicitation_complete_callback, ui.status, roots, "2026-07-28")
            async with modern as client:
                result = await _call_once(client, *call)
    if result is None:
        return EXIT_OK  # detached: the task's id is printed
    if as_json:
        print_json(out, result.model_dump_wire())
    else:
        print_result(out, err, result)
    return EXIT_TOOL_ERROR if result.is_error else EXIT_OK


async def _call_once(
    client: Client,
    connection: Connection,
    ui: StatusAwareCallback,
    roots: RootsAnswer,
    name: str,
    arguments: dict[str, Any],
    out: Console,
    err: Console,
    detach: bool,
    as_json: bool,
) -> CallToolResult | None:
    """Call the tool on a connected client: its result, or ``None`` once a detached task's id is printed."""
    if connection.roots and client.era == "legacy":
        # A legacy server asks for roots by itself once connected; let it have them first.
        ui.status.update("Waiting for the server to ask for the --root folders…")
        await roots.wait_until_asked()
    ui.status.update(f"Calling {name}…")
    if detach:
        task = await client.call_tool(name, arguments, as_task=True)
        if task.id is not None:
            print_detached(out, err, task, connection.label, as_json=as_json)
            return None
        return await task.result()  # the server answered at once: nothing to detach from
    # A progress callback makes the server report progress (a bar instead of the spinner), and each
    # report restarts --timeout: a long tool that keeps reporting is never cut off. A task's status
    # messages come the same way.
    return await _call_after_links(client, connection, ui, name, arguments)


async def _call_after_links(
    client: Client, connection: Connection, ui: StatusAwareCallback, name: str, arguments: dict[str, Any]
) -> CallToolResult:
    """Call the tool; after a ``-32042`` (links to visit first), show the links, then call it once more.

    Each link gets the usual consent prompt; once the person says they are done (or the server confirms
    every link), the call is made again. Declining a link, or stopping, re-raises the error.
    """
    try:
        return await client.call_tool(name, arguments, progress_callback=ui.status.progress)
    except UrlElicitationRequiredError as error:
        if ui.url is None or not error.elicitations:
            raise
        context = ClientRequestContext(
            server=connection.label,
            server_info=client.server_info,
            protocol_version=client.protocol_version or "",
            era="modern" if client.era == "modern" else "legacy",
        )
        for params in error.elicitations:
            if (await ui(context, params)).action != "accept":
                raise
        ids = [params.elicitation_id for params in error.elicitations if params.elicitation_id]
        ui.status.pause()
        try:
            go_on = await ui.url.wait_until_done(ids, then=f"call {name} again")
        finally:
            ui.status.resume()
        if not go_on:
            raise
        ui.status.update(f"Calling {name} again…")
        return await client.call_tool(name, arguments, progress_callback=ui.status.progress)


def _find_tool(tools: Sequence[Tool], name: str, server: str) -> Tool:
    for tool in tools:
        if tool.name == name:
            return tool
    names = [tool.name for tool in tools]
    if not names:
        raise UsageError(f"{server} has no tools, so there is no {name!r} to call")
    close = suggest(name, names)
    suggestion = f" Did you mean {close!r}?" if close else ""
    raise UsageError(f"{server} has no tool {name!r}.{suggestion} Its tools: {', '.join(names)}")
