"""The HTML of an approval page: the app asks whether a tool call may run.

The page's own words (the heading, the labels, the four buttons) are the app's; everything that came
from the server or the model (server and tool names, argument values, the tool's title, description
and hints) is cleaned and folded by ``ui_adapters._approval_text`` (the same text every approval UI
shows), escaped, and shown as data: in table cells under labels that say whose words they are, the
title and description in quotes. No choice is pre-selected for a call the server does not mark
read-only; the buttons carry fixed values (``once``, ``session``, ``always``, ``deny``), never server text.
"""

from __future__ import annotations

from ui_adapters._approval_text import APP_ASKS, is_read_only, outcome_text, summary_lines, tool_text
from ui_adapters.broker.approval import ApprovalStatus, PendingApproval
from ui_adapters.browser._page import CLOSED_SCRIPT, document, escape, json_text

__all__ = ["CHOICE_VALUES", "render_approval", "render_approval_closed"]

CHOICE_VALUES = {"once": "Allow once", "session": "Allow for this session", "always": "Always allow"}
"""The allow buttons' values and labels, in the order every approval UI offers them; then Deny."""

_CLOSED: dict[ApprovalStatus, str] = {
    "allowed": "Allowed",
    "denied": "Denied",
    "timed-out": "Timed out: denied",
    "withdrawn": "No longer needed",
    "pending": "Waiting",
}

_CSS = """
table.call { width: 100%; border-collapse: collapse; margin: 12px 0 4px; font-size: 15px; }
table.call th { text-align: left; vertical-align: top; color: var(--muted); font-weight: 600;
  padding: 6px 12px 6px 0; white-space: nowrap; width: 1%; }
table.call td { padding: 6px 0; overflow-wrap: anywhere; font-family: ui-monospace, "DejaVu Sans Mono",
  monospace; white-space: pre-wrap; }
table.call tr + tr { border-top: 1px solid var(--line); }
.app { font-size: 19px; font-weight: 600; margin: 0 0 4px; }
textarea { width: 100%; min-height: 3em; padding: 8px 10px; font: inherit; border: 1px solid var(--line);
  border-radius: 8px; background: transparent; color: inherit; }
button.deny { border-color: var(--error); color: var(--error); }
"""

_SCRIPT = (
    """
"use strict";
(() => {
  const form = document.getElementById("approval");
  if (!form) { return; }
"""
    + CLOSED_SCRIPT
    + """})();
"""
)


def _call(approval: PendingApproval) -> str:
    """Who asks (the app), and the call as a table: the top of the page, open or closed."""
    rows = "\n".join(
        f'<tr><th scope="row">{escape(label)}</th><td>{escape(text)}</td></tr>'
        for label, text in summary_lines(approval.request)
    )
    return f"""<p class="app" id="app-asks">{escape(APP_ASKS)}</p>
<table class="call" id="call">
{rows}
</table>"""


def _closed_texts() -> dict[str, str]:
    return {
        "allowed": "Allowed: the tool call runs. You can close this tab.",
        "denied": "Denied: the tool call does not run. You can close this tab.",
        "timed-out": "Nobody answered in time, so the tool call was denied. You can close this tab.",
        "withdrawn": "The app no longer needs this answer. You can close this tab.",
        "pending": "Still waiting for your decision.",
    }


def render_approval(approval: PendingApproval, *, nonce: str, csrf: str, action: str, events: str) -> str:
    """The approval page: who asks (the app), the call as a table, four buttons and a note."""
    focus = " autofocus" if is_read_only(approval.request) else ""  # a risky call: nothing pre-chosen
    allow_buttons = "\n".join(
        f'<button type="submit" name="choice" value="{value}" id="allow-{value}"'
        f"{focus if value == 'once' else ''}>{escape(label)}</button>"
        for value, label in CHOICE_VALUES.items()
    )
    return document(
        f"Allow {tool_text(approval.request)}?",
        nonce,
        f"""<main>
{_call(approval)}
<div class="closed" id="closed" role="status" hidden></div>
<form id="approval" method="post" action="{escape(action)}" data-events="{escape(events)}">
<input type="hidden" name="csrf" value="{escape(csrf)}">
<div class="field"><label for="note">Note (optional; told to the model if you deny)</label>
<textarea id="note" name="note" maxlength="2000"></textarea></div>
<div class="actions">
{allow_buttons}
<button type="submit" name="choice" value="deny" id="deny" class="deny">Deny</button>
</div>
</form>
</main>
<footer>Shown by this app on this computer, for this tool call only. Closing this tab denies the
call.</footer>
<style nonce="{escape(nonce)}">{_CSS}</style>
<script type="application/json" id="closed-texts">{json_text(_closed_texts())}</script>
<script nonce="{escape(nonce)}">{_SCRIPT}</script>""",
    )


def render_approval_closed(approval: PendingApproval, *, nonce: str) -> str:
    """The page once the approval is decided (here, by the timeout, or the call went away)."""
    result = approval.result
    said = outcome_text(result) if result is not None else _closed_texts()[approval.status]
    return document(
        f"{_CLOSED[approval.status]}: {tool_text(approval.request)}",
        nonce,
        f"""<main>
{_call(approval)}
<p class="closed" id="closed" role="status">{escape(said)}</p>
</main>
<style nonce="{escape(nonce)}">{_CSS}</style>""",
    )
