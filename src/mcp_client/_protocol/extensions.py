"""Protocol extensions (SEP-2133): what the client declares, what the server offers, who owns a result.

An extension is named by a reverse-DNS id (``io.modelcontextprotocol/tasks``). The client declares
the ones the app opted into under ``capabilities.extensions`` (each with its settings object): in
every request's ``_meta`` envelope in 2026-07-28, in ``initialize`` in the legacy era; the same
capabilities object goes both ways, so the era needs no word about it. The server lists its own under
``capabilities.extensions`` (``ServerCapabilities.extensions``).

An extension may *claim* a ``resultType``: a result carrying that discriminator belongs to it, and the
session hands it over instead of reading it as the request's standard result. A claimed result on a
method the extension does not cover, or from a server talking to a client that never declared the
extension, is an invalid response (the spec's words for tasks), and says so.

To add an extension: an ``Extension`` (id, settings, the result types it claims and the methods it may
answer), declared by ``Client`` when the app opts in; the session's ``claim`` then routes its results. Tasks
(``_tasks.tasks``) claims ``resultType: "task"``; Agent Skills (``_skills.skills``) and MCP Apps
(``mcp_client.apps``) only declare.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mcp_client._errors import MCPError, ProtocolError, ServerError

TASKS = "io.modelcontextprotocol/tasks"
"""The tasks extension (SEP-2663)."""


@dataclass(frozen=True, slots=True)
class Extension:
    """One extension the client may declare: its id, settings, and the results it claims."""

    id: str
    settings: Mapping[str, Any] = field(default_factory=dict[str, Any])
    result_types: frozenset[str] = frozenset()
    methods: frozenset[str] = frozenset()
    """The requests whose results it may replace (``tools/call`` for tasks)."""


TASKS_EXTENSION = Extension(TASKS, result_types=frozenset({"task"}), methods=frozenset({"tools/call"}))

SKILLS = "io.modelcontextprotocol/skills"
SKILLS_EXTENSION = Extension(SKILLS)
"""Agent Skills (``_skills.skills``): declared with ``Client(skills=True)``; it claims no result type."""

APPS = "io.modelcontextprotocol/ui"
APPS_UI_EXTENSION = Extension(APPS, settings={"mimeTypes": ["text/html;profile=mcp-app"]})
"""MCP Apps (``mcp_client.apps``): declared with ``Client(apps=True)``, naming the one view MIME type this
client renders; it claims no result type."""

KNOWN: dict[str, Extension] = {TASKS: TASKS_EXTENSION}
"""Extensions this client knows, declared or not: a claimed result from an undeclared one is refused."""


MISSING_CAPABILITY = -32021


def missing_extension(error: MCPError, declared: Extensions) -> MCPError:
    """``error`` with what to do added, if it is ``-32021`` for the tasks extension we did not declare."""
    if error.code != MISSING_CAPABILITY or not isinstance(error, ServerError):
        return error
    data: object = error.data
    required = data.get("requiredCapabilities") if isinstance(data, dict) else None
    wanted = required.get("extensions") if isinstance(required, dict) else None
    if not isinstance(wanted, dict) or TASKS not in wanted or TASKS in declared:
        return error
    hinted = ServerError(
        error.code,
        f"{error.message} (the server runs this tool only as a task: pass tasks=True to Client)",
        error.data,
    )
    hinted.__cause__ = error
    return hinted


def legacy_tasks(error: MCPError, server_capabilities: Mapping[str, Any]) -> MCPError:
    """``error`` with the plain word, if a 2025-11-25 server that offers experimental tasks refused a call.

    SEP-1686 servers (fastmcp 2.x, the official SDK 1.2x) run a ``taskSupport: "required"`` tool only
    for a request carrying ``task``, and refuse others (``-32601``, sometimes ``-32021``); this client
    supports only the 2026-07-28 extension (see docs/long-calls.md, "The legacy era").
    """
    if not isinstance(error, ServerError) or error.code not in (-32601, MISSING_CAPABILITY):
        return error
    if not isinstance(server_capabilities.get("tasks"), dict):
        return error
    hinted = ServerError(
        error.code,
        f"{error.message} (this server offers only the experimental tasks of 2025-11-25, SEP-1686, which "
        "mcp-client does not support: a tool it runs only as a task needs the 2026-07-28 tasks extension, "
        "Client(tasks=True) with a server that speaks 2026-07-28)",
        error.data,
    )
    hinted.__cause__ = error
    return hinted


class Extensions:
    """The extensions one client declared, and which of them owns a result (see the module docstring)."""

    def __init__(self, declared: Iterable[Extension] = ()) -> None:
        self.declared = {extension.id: extension for extension in declared}

    def __contains__(self, extension_id: str) -> bool:
        return extension_id in self.declared

    def capabilities(self, base: Mapping[str, Any]) -> dict[str, Any]:
        """``base`` (the question handlers' capabilities) with ``extensions`` added, if any is declared."""
        if not self.declared:
            return dict(base)
        return {
            **base,
            "extensions": {extension.id: dict(extension.settings) for extension in self.declared.values()},
        }

    def claim(self, method: str, result: Mapping[str, Any], label: str) -> Extension | None:
        """The extension that owns ``result`` of ``method``, ``None`` for a standard result.

        Raises ``ProtocolError`` for a claimed result the client cannot take: from an extension it
        did not declare, or on a method the extension does not cover.
        """
        result_type = result.get("resultType")
        if result_type is None or result_type in ("complete", "input_required"):
            return None
        owner = next((e for e in self.declared.values() if result_type in e.result_types), None)
        if owner is None:
            known = next((e for e in KNOWN.values() if result_type in e.result_types), None)
            if known is None:
                return None  # an unknown resultType: read as the standard result, as before
            raise ProtocolError(
                f"{method} to {label}: the server returned resultType {result_type!r} of the {known.id} "
                "extension, which this client did not declare (the server must not do that); pass "
                "tasks=True to Client to accept tasks"
                if known.id == TASKS
                else f"{method} to {label}: the server returned resultType {result_type!r} of the "
                f"undeclared extension {known.id}"
            )
        if method not in owner.methods:
            raise ProtocolError(
                f"{method} to {label}: the server returned resultType {result_type!r}, which the "
                f"{owner.id} extension allows only for {', '.join(sorted(owner.methods))}: "
                "an invalid response"
            )
        return owner
