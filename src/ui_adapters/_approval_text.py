"""An ``ApprovalRequest`` as every approval UI shows it: the app's words, and the server's as quoted data.

An approval is the app's own question ("may this tool call run?"), not a server's: each UI opens with
``APP_ASKS`` and names the server, the tool and the arguments. Everything in the request that came
from the server (its name, the tool's name, title and description, the arguments the model wrote) is
cleaned of control characters, escape sequences and bidi tricks (``ui_adapters.text.sanitize``),
folded to a bounded length, and the title and description are shown in quotes after words saying they
are the server's (``quoted``), so that no server text reads as the app speaking. The strings returned
are plain text: put them in a ``rich.text.Text`` (never parsed as markup), or escape them.

Kept in one place so the terminal, chat and Textual approvals say the same thing, and a change of
wording or of folding reaches all of them at once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from mcp_client import ApprovalRequest, ApprovalResult
from ui_adapters.text import sanitize

__all__ = [
    "APP_ASKS",
    "CHOICES",
    "MAX_ARGUMENTS",
    "MAX_VALUE",
    "annotations_text",
    "argument_lines",
    "description_text",
    "is_read_only",
    "outcome_text",
    "quoted",
    "reason_text",
    "server_text",
    "summary_lines",
    "title_text",
    "tool_text",
    "value_text",
]

APP_ASKS: Final = "This app asks before it runs a tool call (the app asks you, not the server)."
"""The first words of every approval: who asks."""

MAX_VALUE: Final = 200
"""At most this many characters of one argument's value (or of the server's title) on screen."""
MAX_DESCRIPTION: Final = 600
MAX_ARGUMENTS: Final = 30
"""At most this many arguments listed; the rest are counted."""
_MAX_NAME: Final = 120
_READ_CAP: Final = 8 * MAX_VALUE  # a long string is cut before it is serialized: bounded work

CHOICES: Final[tuple[tuple[str, ApprovalResult], ...]] = (
    ("Allow once", ApprovalResult(decision="allow", remember="once")),
    ("Allow for this session", ApprovalResult(decision="allow", remember="session")),
    ("Always allow", ApprovalResult(decision="allow", remember="always")),
    ("Deny", ApprovalResult(decision="deny")),
)
"""The four answers, in the order every UI offers them (labels are the app's words)."""


def is_read_only(request: ApprovalRequest) -> bool:
    """Whether the server marks the tool read-only (its claim): only then may a UI pre-choose "allow"."""
    annotations = request.annotations or {}
    return annotations.get("readOnlyHint") is True


def server_text(request: ApprovalRequest) -> str:
    """The server's name, cleaned, on one line."""
    return sanitize(request.server, max_length=_MAX_NAME, single_line=True) or "(unnamed server)"


def tool_text(request: ApprovalRequest) -> str:
    """The tool's name, cleaned, on one line."""
    return sanitize(request.tool, max_length=_MAX_NAME, single_line=True) or "(unnamed tool)"


def quoted(text: str | None, *, max_length: int = MAX_VALUE) -> str | None:
    """Server text in quotes, on one line, cleaned and folded; ``None`` when there is none."""
    if text is None:
        return None
    cleaned = sanitize(text, max_length=max_length, single_line=True)
    return f"“{cleaned}”" if cleaned else None


def description_text(request: ApprovalRequest) -> str | None:
    """The server's description of the tool, quoted (see ``quoted``)."""
    return quoted(request.description, max_length=MAX_DESCRIPTION)


def title_text(request: ApprovalRequest) -> str | None:
    """The server's title for the tool, quoted (a newline in it is folded into the line)."""
    return quoted(request.title)


def value_text(value: Any) -> str:
    """One argument's value as JSON on one line (strings in quotes), cleaned and folded to
    ``MAX_VALUE`` characters; a value cut short says how long it was."""
    length = len(value) if isinstance(value, str) else None
    shown = _capped(value)
    try:
        dumped = json.dumps(shown, ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # a circular structure, a huge integer
        dumped = str(type(value).__name__)
    text = sanitize(dumped, max_length=MAX_VALUE, single_line=True)
    if len(dumped) > MAX_VALUE and text.endswith("…"):
        size = f"{length} characters" if length is not None else f"{len(dumped)}+ characters as JSON"
        text = f"{text} ({size})"
    return text


def argument_lines(arguments: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(name, value)`` per argument, both cleaned and folded; at most ``MAX_ARGUMENTS`` of them, then
    one line counting the rest."""
    lines: list[tuple[str, str]] = []
    for index, (name, value) in enumerate(arguments.items()):
        if index == MAX_ARGUMENTS:
            lines.append(("…", f"and {len(arguments) - MAX_ARGUMENTS} more arguments, not shown"))
            break
        shown = sanitize(str(name), max_length=_MAX_NAME, single_line=True) or "(blank)"
        lines.append((shown, value_text(value)))
    return lines


def annotations_text(request: ApprovalRequest) -> str | None:
    """The tool's hints as the server gives them (``readOnlyHint=true, destructiveHint=false``)."""
    annotations = request.annotations or {}
    hints = [
        f"{key}={json.dumps(annotations[key])}"
        for key in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
        if isinstance(annotations.get(key), bool)
    ]
    return ", ".join(hints) if hints else None


def reason_text(request: ApprovalRequest) -> str:
    """The policy rule that asked (the app's own rule; cleaned all the same, it quotes patterns)."""
    return sanitize(request.reason, max_length=MAX_VALUE, single_line=True) or "(no rule given)"


def outcome_text(result: ApprovalResult) -> str:
    """What was decided, in the app's words (``Allowed for this session.``)."""
    if result.decision == "deny":
        text = "Denied: the tool call does not run."
    else:
        text = {
            "once": "Allowed once.",
            "session": "Allowed for this session.",
            "always": "Always allowed.",
        }[result.remember]
    if result.note:
        text += f" Note: {sanitize(result.note, max_length=MAX_VALUE, single_line=True)}"
    return text


def summary_lines(request: ApprovalRequest) -> list[tuple[str, str]]:
    """Every row an approval shows after ``APP_ASKS``, as ``(label, text)``; labels are the app's words
    and say whose text follows."""
    rows: list[tuple[str, str]] = [("Server", server_text(request)), ("Tool", tool_text(request))]
    arguments = argument_lines(request.arguments)
    if not arguments:
        rows.append(("Arguments", "(none)"))
    rows.extend((f"Argument {name}", value) for name, value in arguments)
    title = title_text(request)
    if title is not None:
        rows.append(("The server titles it", title))
    description = description_text(request)
    if description is not None:
        rows.append(("The server describes it", description))
    hints = annotations_text(request)
    rows.append(("The server claims", hints or "(no hints: not read-only, may be destructive)"))
    rows.append(("Asked because", reason_text(request)))
    return rows


def _capped(value: Any, depth: int = 0) -> Any:
    """``value`` with long strings cut and deep or wide containers trimmed, before it is serialized."""
    if isinstance(value, str):
        return value[:_READ_CAP]
    if depth > 8:
        return "…"
    if isinstance(value, Mapping):
        items = list(value.items())[:MAX_ARGUMENTS]  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType, reportUnknownVariableType]
        return {str(k): _capped(v, depth + 1) for k, v in items}  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        return [_capped(v, depth + 1) for v in list(value)[:MAX_ARGUMENTS]]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    return value
