"""``mcp-client apps SERVER TOOL [KEY=VALUE ...]``: call a tool and open its view (MCP Apps) in the browser.

The client declares the Apps extension, the tool is called as ``call`` calls it (the same arguments,
its questions answered in the terminal, and asked about first unless the server marks it read-only or
``--yes``: ``_approval``), and ``BrowserAppHost`` serves its view on loopback and opens the system
browser (``--no-browser``: the page's URL is printed instead). The tool's text is printed too.
The view's own tool calls pass the client's approval gate the same way (``_view_approval``).
The command then stays up, serving the view, until the person closes the view's page (it stays gone for
``PAGE_GONE_SECONDS``) or presses Ctrl-C; either way the view is torn down (``ui/resource-teardown``).

What the view asks for is shown on stderr and refused, except its logs: there is no chat to post its
messages to or model to give context to, and a link it wants opened is printed with its real host for
the person to open themselves (the host never opens one by itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from mcp_client.approvals import approved_by_app, pending_approval, settle_approval
from mcp_client.apps import app_of
from ui_adapters.cli._approval import ask_before_call
from ui_adapters.cli._args import parse_arguments
from ui_adapters.cli._commands import Connection, _find_tool
from ui_adapters.cli._exit import EXIT_OK, EXIT_TOOL_ERROR, UsageError
from ui_adapters.cli._render import print_json, print_result
from ui_adapters.cli._status import terminal_ui
from ui_adapters.cli._view_approval import ViewLines, view_approvals
from ui_adapters.text import sanitize
from ui_adapters.url import print_link

if TYPE_CHECKING:
    from ui_adapters.apps import AppView

__all__ = ["run_apps"]

_MAX_SHOWN = 2000
PAGE_GONE_SECONDS = 3.0
"""How long a view's page may be gone (closed, or reloading) before the command closes the view."""


async def run_apps(
    connection: Connection,
    tool_name: str,
    words: Sequence[str],
    out: Console,
    err: Console,
    *,
    as_json: bool,
    open_browser: bool,
    yes: bool = False,
    command: str = "mcp-client apps --yes ...",
) -> int:
    """Call ``tool_name`` and serve its view until it is closed (or Ctrl-C); 1 when the tool failed.

    Unless ``yes``, the call is asked about as ``call`` asks (``NotApprovedError``, exit 4, when it may
    not run), and so is each call the view makes of a tool not marked read-only; ``command`` is the
    command line suggested with ``--yes``.
    """
    from ui_adapters.apps import BrowserAppHost

    ui = terminal_ui(err)
    lines = ViewLines(err)
    approvals = view_approvals(err, lines, ui.status, yes=yes, command=command)
    connection = replace(
        connection,
        apps=True,
        tool_policy=approvals.tool_policy,
        approval_callback=approvals.approval_callback,
    )
    with ui.status.show(f"Connecting to {connection.label}…"):
        async with connection.connect(ui, ui.elicitation_complete_callback, ui.status) as client:
            ui.status.update("Listing tools…")
            tool = _find_tool((await client.list_tools()).tools, tool_name, connection.label)
            app = app_of(tool)
            if app is None or app.resource_uri is None:
                raise UsageError(
                    f"the tool {tool.name!r} of {connection.label} has no view (no _meta.ui.resourceUri): "
                    f"run it with `mcp-client call` instead"
                )
            arguments = parse_arguments(tool, words)
            if not yes:
                answer = await ask_before_call(
                    client, connection.label, tool, arguments, ui, err, command=command, verb="apps"
                )
                if answer is not None and answer.remember != "once":
                    # "for this session" / "always" holds for the view's calls of this tool too.
                    pending = await pending_approval(client, tool.name, arguments)
                    if pending is not None:
                        await settle_approval(client, tool.name, arguments, pending[0], answer)
            host = BrowserAppHost(
                client,
                open_browser=open_browser,
                on_message=_refused(lines, "sends a message for the chat"),
                on_model_context=_refused(lines, "updates the model's context"),
                on_open_link=_link(lines, err),
                on_log=_log(lines),
            )
            async with host:
                ui.status.update(f"Calling {tool.name}…")
                # Asked above (or read-only, or --yes): the gate lets this one call through. Only the
                # call runs inside approved_by_app(): the view's tasks, started by present(), must not
                # inherit it, or the view's own calls would pass unasked.
                with approved_by_app():
                    result = await client.call_tool(tool.name, arguments)
                view = await host.present(tool.name, arguments, result)
                ui.status.pause()  # the result and the URL stay on screen, the spinner is done
                if as_json:
                    print_json(out, {"url": view.url, "result": view.result.model_dump_wire()})
                else:
                    print_result(out, err, view.result)
                    out.print(Text.assemble(("View: ", "dim"), view.url), soft_wrap=True)
                out.file.flush()
                err.print(Text("Serving the view until its page is closed; Ctrl-C stops.", style="dim"))
                await _until_closed(view)
    err.print(Text("The view is closed.", style="dim"))
    return EXIT_TOOL_ERROR if view.result.is_error else EXIT_OK


async def _until_closed(view: AppView) -> None:
    """Until the view is closed, or its page was open and has been gone for ``PAGE_GONE_SECONDS``
    (a reload comes back sooner): the person closed the tab, so the view is torn down."""
    import anyio

    async with anyio.create_task_group() as group:

        async def page_gone() -> None:
            await view.wait_abandoned(PAGE_GONE_SECONDS)
            await view.close()

        group.start_soon(page_gone)
        await view.wait_closed()
        group.cancel_scope.cancel()


def _refused(lines: ViewLines, what: str) -> Any:
    def callback(params: dict[str, Any]) -> bool:
        lines.print(Text(f"The view {what}; refused (no chat here).", style="yellow"))
        return False

    return callback


def _link(lines: ViewLines, err: Console) -> Any:
    def callback(params: dict[str, Any]) -> bool:
        url = params.get("url")
        if not isinstance(url, str):
            return False

        def show() -> None:
            err.print(
                Text("The view asks to open a link (not opened; open it yourself if you trust it):", "yellow")
            )
            print_link(err, url)

        lines.write(show)
        return False

    return callback


def _log(lines: ViewLines) -> Any:
    def callback(params: dict[str, Any]) -> None:
        level = sanitize(str(params.get("level", "info")), max_length=20, single_line=True)
        data = params.get("data")
        text = data if isinstance(data, str) else repr(data)
        lines.print(Text(f"view [{level}] {sanitize(text, max_length=_MAX_SHOWN)}", style="dim"))

    return callback
