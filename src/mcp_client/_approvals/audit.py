"""The audit trail of approvals: one log line per decision, and an OpenTelemetry event where tracing is on.

Each decision says which server and tool, the rule that decided, whether a person was asked (or, for
a callback's ``ApprovalResult(asked=False)``, that nobody decided), the answer, whether it was
remembered and where a remembered answer came from. The line goes to logger ``mcp_client.approvals``
(INFO for a call allowed, WARNING for one denied). Arguments are folded (each value cut short, the
whole bounded, control characters escaped): an audit log is read by people who need to know what ran,
and must not become a copy of every file a model wrote.

With tracing on (see ``_connection.telemetry``), the decision is the event ``mcp.client.tool_approval``
on the current span (the app's span around the call, an agent framework's tool span), or, when none is
recording, on a short ``mcp.client.approval`` span of its own; the event carries no arguments.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from mcp_client._connection import telemetry as _telemetry

__all__ = ["Audit", "fold_arguments", "record"]

logger = logging.getLogger("mcp_client.approvals")

_VALUE_LIMIT = 40
_TOTAL_LIMIT = 300

Source = Literal["policy", "callback", "session", "store", "app"]


@dataclass(frozen=True, slots=True)
class Audit:
    """One decision about one call: what the log line and the trace event say."""

    server: str
    tool: str
    rule: str
    decision: Literal["allow", "deny"]
    asked: bool
    source: Source
    remember: str | None = None
    note: str | None = None


def _short(value: Any) -> str:
    text = repr(value)  # repr escapes control characters
    return text if len(text) <= _VALUE_LIMIT else text[: _VALUE_LIMIT - 1] + "…"


def fold_arguments(arguments: Mapping[str, Any] | None) -> str:
    """The call's arguments for a log line: each value cut at 40 characters, the whole at 300."""
    if not arguments:
        return "{}"
    text = "{" + ", ".join(f"{_short(str(key))}: {_short(value)}" for key, value in arguments.items()) + "}"
    return text if len(text) <= _TOTAL_LIMIT else text[: _TOTAL_LIMIT - 2] + "…}"


def record(audit: Audit, arguments: Mapping[str, Any] | None) -> None:
    """Log the decision on ``mcp_client.approvals`` and add it to the trace where tracing is on."""
    level = logging.INFO if audit.decision == "allow" else logging.WARNING
    if logger.isEnabledFor(level):
        asked = "asked" if audit.asked else "not asked"
        if audit.source == "callback" and not audit.asked:
            asked = "nobody decided"  # the callback had nobody to ask, or nobody answered in time
        remembered = f"remember={audit.remember}" if audit.remember else "not remembered"
        note = f"; note: {audit.note!r}" if audit.note else ""
        logger.log(
            level,
            "tool call %s: %s on %s (rule: %s; %s; answer from %s; %s%s) arguments: %s",
            "allowed" if audit.decision == "allow" else "denied",
            _short(audit.tool),
            _short(audit.server),
            audit.rule,
            asked,
            audit.source,
            remembered,
            note,
            fold_arguments(arguments),
        )
    if _telemetry.tracing_available() and _telemetry.tracing_on():
        _trace_event(audit)


def _trace_event(audit: Audit) -> None:
    from opentelemetry import trace

    attributes: dict[str, Any] = {
        "mcp.server": audit.server,
        "gen_ai.tool.name": audit.tool,
        "mcp.approval.decision": audit.decision,
        "mcp.approval.rule": audit.rule,
        "mcp.approval.asked": audit.asked,
        "mcp.approval.source": audit.source,
        "mcp.approval.remember": audit.remember or "",
    }
    span = trace.get_current_span()
    if span.is_recording():
        span.add_event("mcp.client.tool_approval", attributes)
        return
    tracer = trace.get_tracer("mcp-client")
    with tracer.start_as_current_span(
        f"mcp.client.approval {audit.tool}", kind=trace.SpanKind.INTERNAL
    ) as own:
        own.add_event("mcp.client.tool_approval", attributes)
