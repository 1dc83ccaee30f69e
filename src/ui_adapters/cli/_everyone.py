"""Commands on every server of a ``--config`` file at once: ``servers``, and ``tools`` / ``prompts`` /
``resources`` given no SERVER.

They run one ``ClientGroup``: every server connects concurrently, a broken one is reported (with why)
while the others are listed, and a question from any server is answered in the terminal under the
server's name in the file (``context.server_name``). Tool names are those the group gives
(``{server}_{tool}``, or the entry's ``tool_prefix`` / ``rename_tools``).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from mcp_client import (
    ApprovalRequest,
    ApprovalResult,
    ClientGroup,
    ClientRequestContext,
    MCPClientError,
    ServerHealth,
)
from mcp_client.config import ServerConfig
from ui_adapters.cli._exit import EXIT_CONNECTION, EXIT_OK, UsageError
from ui_adapters.cli._listing import fetch_prompts, fetch_resources, print_prompts, print_resources
from ui_adapters.cli._render import print_json, print_tools
from ui_adapters.cli._server_questions import RootsAnswer, refuse_sampling
from ui_adapters.cli._status import ServerLogPrinter, StatusAwareCallback, StatusLine, terminal_ui
from ui_adapters.cli._targets import Everyone
from ui_adapters.text import sanitize

__all__ = ["run_all_prompts", "run_all_resources", "run_all_tools", "run_servers"]


@asynccontextmanager
async def _group(
    everyone: Everyone, ui: StatusAwareCallback, *, retry: bool = True
) -> AsyncGenerator[ClientGroup]:
    """The file's servers as one group. ``retry=False``: a server that is down is not tried again in the
    background, nor reconnected, so that what is reported is one look at each, the same every run."""
    base = everyone.base
    options: dict[str, Any] = dict(base.http_options)
    options["log_level"] = base.log_level
    if not retry:
        options["reconnect"] = False
    group = ClientGroup(
        everyone.config,
        elicitation_callback=ui,
        sampling_callback=refuse_sampling,
        list_roots_callback=RootsAnswer(base.roots).callback,
        logging_callback=ServerLogPrinter(ui.status),
        mode=base.mode,
        timeout=base.timeout,
        oauth=lambda server: _oauth(server, ui.status),
        client_options=options,
        # A server's "tool_policy" in the file may ask; these commands call no tool, so nobody is.
        approval_callback=_calls_none
        if any(server.tool_policy is not None for server in everyone.config.servers.values())
        else None,
    )
    with ui.status.show(f"Connecting to {len(everyone.config.servers)} servers of {everyone.config.source}…"):
        async with group:
            yield group


async def _calls_none(context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
    """The listing commands' ``approval_callback``: never asked, as they call no tool."""
    return ApprovalResult("deny", note="mcp-client lists here and calls no tool", asked=False)


def _oauth(server: ServerConfig, status: StatusLine) -> httpx2.Auth:
    from ui_adapters.cli._login import cli_oauth

    assert server.url is not None
    login = server.auth_options
    if login is None:
        return cli_oauth(server.url, status)
    return cli_oauth(
        server.url,
        status,
        list(login.scopes) or None,
        client_id=login.client_id,
        private_key=login.private_key,
        dpop=login.dpop,
    )


async def run_servers(everyone: Everyone, out: Console, err: Console, *, as_json: bool) -> int:
    """Each server's health (``ClientGroup.health()``, one look, no retries): connected (era, transport,
    tools count) or failed (with why). Exit 3 if any is not connected."""
    ui = terminal_ui(err)
    rows: list[dict[str, Any]] = []
    async with _group(everyone, ui, retry=False) as group:
        ui.status.update("Listing tools…")
        tools = await _tools_or_none(group)
        ui.status.update("Checking each server…")
        health = await group.health()
        for name, entry in everyone.config.servers.items():
            row: dict[str, Any] = {"name": name, "target": entry.target}
            state = health.get(name)
            error = group.failures.get(name)
            if state is not None and state.state == "connected" and name in group.clients:
                client = group[name]
                row.update(
                    connected=True,
                    era=client.era,
                    protocolVersion=client.protocol_version,
                    transport=client.transport_kind,
                    tools=sum(1 for tool in tools if tool.server == name) if tools is not None else None,
                )
            else:
                reason = state.reason if state is not None and state.reason else None
                row.update(
                    connected=False, error=reason or (str(error) if error is not None else "not connected")
                )
            row["health"] = _health_json(state)
            rows.append(row)
    for name in everyone.config.disabled:
        rows.append({"name": name, "connected": False, "disabled": True, "health": None})
    if as_json:
        print_json(out, rows)
    else:
        _print_servers(out, rows)
    broken = any(not row["connected"] and not row.get("disabled") for row in rows)
    return EXIT_CONNECTION if broken else EXIT_OK


def _health_json(state: ServerHealth | None) -> dict[str, Any]:
    if state is None:
        return {"state": "failed", "attempt": 0, "nextDelay": None, "reason": "not connected"}
    delay = round(state.next_delay, 2) if state.next_delay is not None else None
    return {"state": state.state, "attempt": state.attempt, "nextDelay": delay, "reason": state.reason}


_STATE_STYLES = {"connected": "green", "reconnecting": "yellow", "failed": "red", "disabled": "dim"}


def _state(row: dict[str, Any]) -> str:
    if row.get("disabled"):
        return "disabled"
    return str(row["health"]["state"]) if row.get("health") else "failed"


def _print_servers(out: Console, rows: list[dict[str, Any]]) -> None:
    """One line a server, in columns: the name, its health state (``connected``, ``reconnecting``,
    ``failed`` or ``disabled``), then for a connected server its era, its transport and its tools, for
    another why; each column as wide as its widest entry (names of any length line up; the counts of
    tools are right-aligned)."""
    names = [sanitize(row["name"], max_length=80, single_line=True) for row in rows]
    states = [_state(row) for row in rows]
    connected = [row for row in rows if row["connected"]]
    eras = [f"{row['era']} ({row['protocolVersion']})" for row in connected]
    name_width = max((cell_len(name) for name in names), default=0)
    state_width = max((len(state) for state in states), default=0)
    era_width = max((len(era) for era in eras), default=0)
    transport_width = max((len(str(row["transport"])) for row in connected), default=0)
    tools_width = max((len(_tools_count(row)) for row in connected), default=0)
    for name, state, row in zip(names, states, rows, strict=True):
        line = Text(name, style="bold")
        line.append(" " * (name_width - cell_len(name) + 2))
        line.append(state.ljust(state_width + 2), style=_STATE_STYLES.get(state, ""))
        if row.get("disabled"):
            line.append("in the file", style="dim")
        elif row["connected"]:
            era = f"{row['era']} ({row['protocolVersion']})"
            line.append(f"{era.ljust(era_width)}  {str(row['transport']).ljust(transport_width)}  ")
            tools = _tools_count(row)
            line.append(f"{tools.rjust(tools_width)} tool" + ("" if tools == "1" else "s"))
        else:
            attempts = row["health"]["attempt"] if row.get("health") else 0
            if state == "reconnecting" and attempts:
                line.append(f"{attempts} attempt{'' if attempts == 1 else 's'} failed: ", style="dim")
            line.append(sanitize(row["error"], max_length=500, single_line=True))
        out.print(line, soft_wrap=True)


def _tools_count(row: dict[str, Any]) -> str:
    return "?" if row["tools"] is None else str(row["tools"])


async def run_all_tools(everyone: Everyone, out: Console, err: Console, *, as_json: bool) -> int:
    """Every connected server's tools, under the names the group gives them."""
    ui = terminal_ui(err)
    async with _group(everyone, ui) as group:
        ui.status.update("Listing tools…")
        try:
            tools = await group.list_tools()
        except ValueError as error:  # two servers offer the same name
            raise UsageError(str(error)) from None
        failures = dict(group.failures)
    named = [entry.tool.model_copy(update={"name": entry.name}) for entry in tools]
    if as_json:
        print_json(
            out,
            [
                {**tool.model_dump_wire(), "server": entry.server}
                for tool, entry in zip(named, tools, strict=True)
            ],
        )
    else:
        print_tools(out, named)
    return _report_failures(err, failures)


async def run_all_prompts(everyone: Everyone, out: Console, err: Console, *, as_json: bool) -> int:
    """Every connected server's prompts, as ``SERVER.NAME`` (what ``get-prompt`` takes)."""
    ui = terminal_ui(err)
    found: list[tuple[str, Any]] = []
    async with _group(everyone, ui) as group:
        ui.status.update("Listing prompts…")
        failures = dict(group.failures)
        for name in list(group.clients):
            try:
                found.extend((name, prompt) for prompt in await fetch_prompts(group[name]))
            except MCPClientError as error:
                failures[name] = error
    if as_json:
        print_json(out, [{**prompt.model_dump_wire(), "server": server} for server, prompt in found])
    else:
        print_prompts(out, [p for _, p in found], [f"{server}.{p.name}" for server, p in found])
    return _report_failures(err, failures)


async def run_all_resources(everyone: Everyone, out: Console, err: Console, *, as_json: bool) -> int:
    """Every connected server's resources and templates, each with its server."""
    ui = terminal_ui(err)
    resources: list[tuple[str, Any]] = []
    templates: list[tuple[str, Any]] = []
    async with _group(everyone, ui) as group:
        ui.status.update("Listing resources…")
        failures = dict(group.failures)
        for name in list(group.clients):
            try:
                listed, templated = await fetch_resources(group[name])
            except MCPClientError as error:
                failures[name] = error
                continue
            resources.extend((name, r) for r in listed)
            templates.extend((name, t) for t in templated)
    if as_json:
        print_json(
            out,
            {
                "resources": [{**r.model_dump_wire(), "server": s} for s, r in resources],
                "resourceTemplates": [{**t.model_dump_wire(), "server": s} for s, t in templates],
            },
        )
    else:
        print_resources(
            out,
            [r for _, r in resources],
            [t for _, t in templates],
            [s for s, _ in resources],
            [s for s, _ in templates],
        )
    return _report_failures(err, failures)


async def _tools_or_none(group: ClientGroup) -> list[Any] | None:
    try:
        return await group.list_tools()
    except ValueError:
        return None


def _report_failures(err: Console, failures: dict[str, BaseException]) -> int:
    """Say on stderr which servers were left out and why; exit 3 if any, else 0."""
    for name, error in failures.items():
        line = Text("mcp-client: ", style="bold red")
        line.append(f"server {sanitize(name, max_length=80, single_line=True)!r} left out: ")
        line.append(sanitize(str(error), max_length=500, single_line=True))
        err.print(line, soft_wrap=True)
    return EXIT_CONNECTION if failures else EXIT_OK
