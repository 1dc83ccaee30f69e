"""``ApprovalScreen`` and ``textual_approval``: the app asks, in a modal dialog, whether a tool call may run.

The dialog opens with the app's question (it says the app asks, not the server), then the call, row by
row (``ui_adapters._approval_text``: server, tool, each argument folded to one line, the server's title
and description in quotes after words saying they are the server's, the hints it claims, the rule that
asked), a note input and four buttons: Allow once, Allow for this session, Always allow, Deny. Deny has
the focus unless the server marks the tool read-only, so Enter alone never allows a risky call; escape
denies. It dismisses with the ``ApprovalResult`` (the note typed, if any). Server text is plain
``Text``, never Textual markup.

``textual_approval(app)`` is the ``approval_callback``: it pushes the screen on the app's own event
loop (the Client runs in an async worker, as for ``textual_callback``) and waits for the answer; a call
cancelled meanwhile closes the dialog with a notification.
"""

from __future__ import annotations

from typing import Any, ClassVar

import anyio
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input

from mcp_client import ApprovalCallback, ApprovalRequest, ApprovalResult, ClientRequestContext
from ui_adapters._approval_text import APP_ASKS, CHOICES, is_read_only, server_text, summary_lines
from ui_adapters.textual._modal import on_app_thread, plain, shown_until_answered

__all__ = ["ApprovalScreen", "textual_approval"]

_BUTTON_IDS = ("allow-once", "allow-session", "allow-always", "deny")
_MAX_NOTE = 2000
WITHDRAWN_NOTICE = "Withdrawn: the tool call on {server} was cancelled while you were asked. Nothing was run."


class ApprovalScreen(ModalScreen[ApprovalResult]):
    """A modal dialog for one tool call's approval; dismisses with the ``ApprovalResult``."""

    DEFAULT_CSS: ClassVar[str] = """
    ApprovalScreen > #dialog { border: thick $warning; background: $surface; padding: 0 1; }
    ApprovalScreen #asker { text-style: bold; color: $warning; background: $surface; }
    ApprovalScreen #footer { background: $surface; }
    ApprovalScreen .row-label { color: $text-muted; margin-top: 1; }
    ApprovalScreen #keys { color: $text-muted; margin-top: 1; }
    ApprovalScreen #buttons { margin-top: 1; }
    ApprovalScreen #buttons Button { margin-right: 2; }
    """
    """The looks: an app may restyle these (its CSS wins over a widget's ``DEFAULT_CSS``)."""

    CSS: ClassVar[str] = """
    ApprovalScreen {
        layout: vertical !important; align: center middle !important; overflow: hidden hidden !important;

        & > #dialog {
            display: block !important; visibility: visible !important; layout: vertical !important;
            dock: none !important; offset: 0 0 !important; overflow: hidden hidden !important;
            width: 90% !important; min-width: 0 !important; max-width: 110 !important;
            height: auto !important; min-height: 0 !important; max-height: 90% !important;
        }
        & #asker { dock: top !important; }
        & #footer { dock: bottom !important; }
        & #body, & #footer { layout: vertical !important; }
        & #body { overflow-x: hidden !important; overflow-y: auto !important; }
        & #buttons { layout: horizontal !important; }
        & #body, & #footer, & #buttons, & #dialog > Static, & #body > Static, & #footer > Static {
            display: block !important; visibility: visible !important; offset: 0 0 !important;
            width: 1fr !important; min-width: 0 !important; max-width: 100% !important;
            height: auto !important; min-height: 0 !important; max-height: 100% !important;
        }
        & #footer > Input {
            display: block !important; visibility: visible !important; offset: 0 0 !important;
            width: 1fr !important; height: 3 !important;
        }
        & #buttons > Button {
            display: block !important; visibility: visible !important; offset: 0 0 !important;
            width: auto !important; min-width: 12 !important; max-width: 100% !important;
            height: auto !important; min-height: 0 !important; max-height: 100% !important;
        }
    }
    """
    """The layout guarded against an app's global CSS, as ``ElicitationScreen.CSS`` is."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "deny", "Deny")]

    def __init__(self, request: ApprovalRequest, context: ClientRequestContext | None = None) -> None:
        super().__init__()
        self.request = request
        self.context = context
        self.withdrawn: bool = False
        """True once ``withdraw`` was called: the answer, if any, is no longer wanted."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield plain(APP_ASKS, id="asker")
            with VerticalScroll(id="body"):
                for index, (label, text) in enumerate(summary_lines(self.request)):
                    yield plain(f"{label}: {text}", id=f"row-{index}")
            with Vertical(id="footer"):
                yield Input(placeholder="Note (optional): why, for the record and the model", id="note")
                keys = "tab: next · enter: press the focused button · escape: deny"
                yield plain(keys, id="keys")
                with Horizontal(id="buttons"):
                    for (label, _), button_id in zip(CHOICES, _BUTTON_IDS, strict=True):
                        variant = "error" if button_id == "deny" else "default"
                        yield Button(label, id=button_id, variant=variant, compact=True)

    def on_mount(self) -> None:
        # Only a tool the server marks read-only starts on "Allow once"; any other starts on Deny.
        focused = "#allow-once" if is_read_only(self.request) else "#deny"
        self.query_one(focused, Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button_id = event.button.id or "deny"
        index = _BUTTON_IDS.index(button_id) if button_id in _BUTTON_IDS else _BUTTON_IDS.index("deny")
        self._answer(CHOICES[index][1])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()  # Enter in the note decides nothing: the person presses a button
        self.query_one("#allow-once" if is_read_only(self.request) else "#deny", Button).focus()

    def action_deny(self) -> None:
        self._answer(CHOICES[-1][1])

    def _answer(self, chosen: ApprovalResult) -> None:
        note = self.query_one("#note", Input).value.strip()[:_MAX_NOTE]
        self.dismiss(ApprovalResult(decision=chosen.decision, remember=chosen.remember, note=note or None))

    def withdraw(self) -> None:
        """Close without an answer, saying why: the call was cancelled (safe at any point of its life)."""
        if self.withdrawn or self not in self.app.screen_stack:
            return
        self.withdrawn = True
        notice = WITHDRAWN_NOTICE.format(server=server_text(self.request))
        self.app.notify(notice, severity="warning", timeout=10, markup=False)
        if self.app.screen is self:
            self.dismiss(None)

    def on_screen_resume(self) -> None:
        if self.withdrawn and self.app.screen is self:
            self.dismiss(None)


def textual_approval(app: App[Any]) -> ApprovalCallback:
    """An ``approval_callback`` showing each tool call as a modal ``ApprovalScreen`` in ``app``.

    Run the Client on the app's loop (``app.run_worker(coroutine)``); from another thread the call is
    refused with an error saying so. Approvals are asked one at a time; a dialog closed without an
    answer denies.
    """
    turn = anyio.Lock()

    async def callback(context: ClientRequestContext, request: ApprovalRequest) -> ApprovalResult:
        on_app_thread(app, "textual_approval")
        async with turn:
            screen = ApprovalScreen(request, context)
            return await shown_until_answered(app, screen, ApprovalResult(decision="deny"))

    return callback
