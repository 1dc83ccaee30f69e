"""``ElicitationScreen``: a question as a modal form inside a Textual app.

The screen names the server first, shows its message, then one row per field (label, help, widget, and
the reason a value is refused, right under it); a link question shows the full link, the host a browser
would really contact and the warnings the terminal shows, and opens the link only when the person chooses
to. It dismisses with the ``ElicitResult``: Send (checked against the form model first), Decline
(ctrl+n) or Cancel (escape). Server text is shown as plain text, never as Textual markup.

A question can also be withdrawn (``withdraw``): the call that asked is over, so nobody waits for the
answer. The screen then says so in a notification and closes without an answer; if the app has put
another screen over it, it closes as soon as it is back on top, so the app's own screens are left alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from mcp_client import ClientRequestContext
from mcp_client.schema import AnswerValue
from mcp_client.types import (
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
)
from ui_adapters._url_safety import inspect_url, visible_url
from ui_adapters.text import sanitize
from ui_adapters.textual._fields import MISSING, FieldInput, field_label

__all__ = ["ElicitationScreen"]

_MAX_MESSAGE = 4000

WITHDRAWN_NOTICE = (
    "Withdrawn: {server} no longer needs this answer (the call that asked is over: the server went "
    "away or the call was cancelled). Nothing was sent."
)
"""The notification shown when a question is withdrawn (the terminal adapter's words)."""


class ElicitationScreen(ModalScreen[ElicitResult]):
    """A modal form for one elicitation question; dismisses with the ``ElicitResult`` to send."""

    DEFAULT_CSS: ClassVar[str] = """
    ElicitationScreen { align: center middle; }
    ElicitationScreen > #dialog {
        width: 90%; max-width: 100; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    ElicitationScreen #asker { text-style: bold; color: $accent; }
    ElicitationScreen #fields { height: auto; max-height: 60vh; }
    ElicitationScreen .label { margin-top: 1; text-style: bold; }
    ElicitationScreen .help { color: $text-muted; }
    ElicitationScreen .error { color: $error; height: auto; display: none; }
    ElicitationScreen .error.shown { display: block; }
    ElicitationScreen #keys { color: $text-muted; margin-top: 1; }
    ElicitationScreen .warning { color: $warning; }
    ElicitationScreen #host { text-style: bold reverse; }
    ElicitationScreen #buttons { height: auto; margin-top: 1; }
    ElicitationScreen #buttons Button { margin-right: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+n", "decline", "Decline"),
        Binding("ctrl+s", "send", "Send"),
    ]

    def __init__(
        self,
        params: ElicitRequestParams,
        context: ClientRequestContext | None = None,
        *,
        open_url: Callable[[str], None] | None = None,
    ) -> None:
        """``open_url`` opens an accepted link (default: the app's ``open_url``, the system browser)."""
        super().__init__()
        self.params = params
        self.context = context
        self._open_url = open_url
        self._inputs: list[FieldInput] = []
        self.withdrawn: bool = False
        """True once ``withdraw`` was called: the answer, if any, is no longer wanted."""
        if isinstance(params, ElicitRequestFormParams):
            self._inputs = [
                FieldInput.build(form_field, f"field-{index}")
                for index, form_field in enumerate(params.form.fields)
            ]

    @property
    def server_name(self) -> str:
        """The asking server's name as shown (cleaned of control characters, at most 80 of them)."""
        name = self.context.server_name if self.context is not None else "the server"
        return sanitize(name, max_length=80, single_line=True) or "the server"

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            context = self.context
            place = ""
            if context is not None and context.question_count > 1:
                place = f" (question {context.question_index} of {context.question_count})"
            verb = (
                "asks you to open a web page" if isinstance(self.params, ElicitRequestURLParams) else "asks"
            )
            asker = self.server_name
            tool = sanitize(context.tool_name or "", max_length=80, single_line=True) if context else ""
            if tool:  # the call that asks, where the server said ("bistro · book_table asks")
                asker = f"{asker} · {tool}"
            yield Static(f"{asker} {verb}{place}:", id="asker", markup=False)
            message = sanitize(self.params.message, max_length=_MAX_MESSAGE) or "(no message)"
            yield Static(message, id="message", markup=False)
            if isinstance(self.params, ElicitRequestURLParams):
                yield from self._compose_link(self.params.url)
                return
            with VerticalScroll(id="fields"):
                for index, field_input in enumerate(self._inputs):
                    form_field = field_input.form_field
                    yield Static(field_label(form_field), classes="label", markup=False)
                    if form_field.help:
                        yield Static(sanitize(form_field.help, max_length=1000), classes="help", markup=False)
                    yield field_input.widget
                    yield Static("", id=f"error-{index}", classes="error", markup=False)
            yield Static("", id="form-error", classes="error", markup=False)
            keys = "tab: next field · ctrl+s: send · ctrl+n: decline · escape: cancel"
            yield Static(keys, id="keys", markup=False)
            with Horizontal(id="buttons"):
                yield Button("Send", id="send", variant="primary", compact=True)
                yield Button("Decline", id="decline", compact=True)
                yield Button("Cancel", id="cancel", variant="error", compact=True)

    def _compose_link(self, url: str) -> ComposeResult:
        inspection = inspect_url(url)
        if inspection.refusal is not None:
            yield Static(f"Link (hidden characters spelled out): {visible_url(url)}", markup=False)
            yield Static(f"This link must not be opened: {inspection.refusal}", classes="error", markup=False)
        else:
            yield Static(f"Link: {url}", id="link", markup=False)
            shown = inspection.host + (
                f" (displayed as {inspection.unicode_host})" if inspection.unicode_host else ""
            )
            yield Static(f"Site: {shown}", id="host", markup=False)
        for warning in inspection.warnings:
            yield Static(f"⚠ {warning.message}", classes="warning", markup=False)
        with Horizontal(id="buttons"):
            if inspection.refusal is None:
                yield Button("Open the link", id="open", variant="primary", compact=True)
            yield Button("Decline", id="decline", compact=True)
            yield Button("Cancel", id="cancel", variant="error", compact=True)

    def on_mount(self) -> None:
        focusable = [field_input.widget for field_input in self._inputs]
        if focusable:
            focusable[0].focus()
        else:
            self.query_one("#buttons Button", Button).focus()

    def withdraw(self) -> None:
        """Close without an answer, saying why: the call that asked is over (see the module docstring).

        Safe to call from any task of the app's event loop, at any point of the screen's life: before
        it is mounted, while it is shown, under another screen, or after it was dismissed (nothing then).
        """
        if self.withdrawn or self not in self.app.screen_stack:
            return
        self.withdrawn = True
        self.app.notify(WITHDRAWN_NOTICE.format(server=self.server_name), severity="warning", timeout=10)
        if self.app.screen is self:
            self.dismiss(None)

    def on_screen_resume(self) -> None:
        if self.withdrawn and self.app.screen is self:
            self.dismiss(None)  # withdrawn while another screen was over it

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {"send": self.action_send, "open": self._open, "decline": self.action_decline}
        actions.get(event.button.id or "", self.action_cancel)()

    def action_cancel(self) -> None:
        self.dismiss(ElicitResult(action="cancel"))

    def action_decline(self) -> None:
        self.dismiss(ElicitResult(action="decline"))

    def action_send(self) -> None:
        if not isinstance(self.params, ElicitRequestFormParams):
            return
        content: dict[str, AnswerValue] = {}
        first_wrong: int | None = None
        for index, field_input in enumerate(self._inputs):
            error = self.query_one(f"#error-{index}", Static)
            try:
                value = field_input.value()
                if value is MISSING:
                    if field_input.form_field.required and field_input.form_field.default is None:
                        raise ValueError("this field is required")
                else:
                    problem = field_input.form_field.check(value)
                    if problem is not None:
                        raise ValueError(problem)
                    content[field_input.form_field.name] = value  # type: ignore[assignment]
                _show(error, "")
            except ValueError as refusal:
                _show(error, f"✗ {sanitize(str(refusal), max_length=200, single_line=True)}")
                first_wrong = index if first_wrong is None else first_wrong
        if first_wrong is not None:
            self._inputs[first_wrong].widget.focus()
            return
        form = self.params.form
        try:
            checked = form.validate_content(form.fill_defaults(content))
        except ValueError as refusal:
            _show(self.query_one("#form-error", Static), f"✗ {sanitize(str(refusal), max_length=300)}")
            return
        self.dismiss(ElicitResult(action="accept", content=dict(checked)))

    def _open(self) -> None:
        assert isinstance(self.params, ElicitRequestURLParams)
        url = self.params.url
        if inspect_url(url).refusal is not None:
            return
        if self._open_url is not None:
            self._open_url(url)
        else:
            self.app.open_url(url)
        self.dismiss(ElicitResult(action="accept"))


def _show(line: Static, text: str) -> None:
    """Put ``text`` in an error line, shown only while it says something."""
    line.update(text)
    line.set_class(bool(text), "shown")
