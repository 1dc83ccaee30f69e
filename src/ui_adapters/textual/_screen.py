"""``ElicitationScreen``: a question as a modal form inside a Textual app.

The screen names the server first, shows its message, then one row per field (label, help, widget, and
the reason a value is refused, right under it); a link question shows the full link, the host a browser
would really contact and the warnings the terminal shows, and opens the link only when the person chooses
to. It dismisses with the ``ElicitResult``: Send (checked against the form model first), Decline
(ctrl+n) or Cancel (escape). Once Send has refused the form, each field is checked again as it changes.

Who asks is docked at the top of the dialog, the keys and buttons at its bottom, and the rest scrolls
between them: the actions stay on screen however small the terminal. Server text is shown as plain text
(``Text``, markup off), never as Textual markup, wherever it goes, the notification included. The
layout's CSS is the screen's own ``CSS`` with ``!important`` rather than ``DEFAULT_CSS``, which an app's
CSS overrides (see ``ElicitationScreen.CSS``).

A question can also be withdrawn (``withdraw``): the call that asked is over, so nobody waits for the
answer. The screen then says so in a notification and closes without an answer; if the app has put
another screen over it, it closes as soon as it is back on top, so the app's own screens are left alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Select, SelectionList, Static, Switch

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
from ui_adapters.textual._fields import MISSING, FieldInput, Missing, field_label

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
    ElicitationScreen > #dialog { border: thick $primary; background: $surface; padding: 0 1; }
    ElicitationScreen #asker { text-style: bold; color: $accent; background: $surface; }
    ElicitationScreen #footer { background: $surface; }
    ElicitationScreen .label { margin-top: 1; text-style: bold; }
    ElicitationScreen .help { color: $text-muted; }
    ElicitationScreen .error, ElicitationScreen .refusal { color: $error; }
    ElicitationScreen #keys { color: $text-muted; margin-top: 1; }
    ElicitationScreen .warning { color: $warning; }
    ElicitationScreen #host { text-style: bold reverse; }
    ElicitationScreen #buttons { margin-top: 1; }
    ElicitationScreen #buttons Button { margin-right: 2; }
    """
    """The looks: an app may restyle these (its CSS wins over a widget's ``DEFAULT_CSS``)."""

    CSS: ClassVar[str] = """
    ElicitationScreen {
        layout: vertical !important; align: center middle !important; overflow: hidden hidden !important;

        & > #dialog {
            display: block !important; visibility: visible !important; layout: vertical !important;
            dock: none !important; offset: 0 0 !important; overflow: hidden hidden !important;
            width: 90% !important; min-width: 0 !important; max-width: 100 !important;
            height: auto !important; min-height: 0 !important; max-height: 90% !important;
        }
        & #asker { dock: top !important; }
        & #footer { dock: bottom !important; }
        & #body, & #footer { layout: vertical !important; }
        & #body { overflow-x: hidden !important; overflow-y: auto !important; }
        & #buttons { layout: horizontal !important; }
        & #body, & #footer, & #buttons, & #dialog > Static, & #body > Static, & #footer > Static,
        & #body > Select > SelectCurrent {
            display: block !important; visibility: visible !important; offset: 0 0 !important;
            width: 1fr !important; min-width: 0 !important; max-width: 100% !important;
            height: auto !important; min-height: 0 !important; max-height: 100% !important;
        }
        & #body > Input, & #body > Select, & #body > SelectionList, & #body > Switch {
            display: block !important; visibility: visible !important; offset: 0 0 !important;
            width: 1fr !important; min-width: 0 !important; max-width: 100% !important;
            height: auto !important; min-height: 0 !important; max-height: 100% !important;
        }
        & #body > Input { height: 3 !important; }
        & #body > Switch { width: auto !important; }
        & #body > Select > SelectCurrent > Static {
            height: auto !important; min-height: 0 !important; max-height: 100% !important;
        }
        & #body > Select > SelectOverlay {
            display: none !important; visibility: visible !important;
            width: 1fr !important; min-width: 0 !important; max-width: 100% !important;
            height: auto !important; min-height: 0 !important; max-height: 12 !important;
        }
        & #body > Select.-expanded > SelectOverlay { display: block !important; }
        & #body > Static.error, & #footer > Static.error { display: none !important; }
        & #body > Static.error.shown, & #footer > Static.error.shown { display: block !important; }
        & #buttons > Button {
            display: block !important; visibility: visible !important; offset: 0 0 !important;
            width: auto !important; min-width: 16 !important; max-width: 100% !important;
            height: auto !important; min-height: 0 !important; max-height: 100% !important;
        }
    }
    """
    """The layout the form needs, guarded: an app's own CSS comes after a widget's defaults and wins
    over them, so its global rules (``OptionList { height: 1fr; }`` empties the Yes/No list, ``Button
    { width: 100%; }`` pushes Decline and Cancel out of the dialog) would reach the form's widgets.
    This is screen CSS (an app's level, scoped to this screen), with ids and ``!important``, so the
    sizes and visibility of the form's own widgets stay as drawn whatever the app's type rules say."""

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
        self._refused = False  # Send refused the form once: fields are checked as they change
        self.withdrawn: bool = False
        """True once ``withdraw`` was called: the answer, if any, is no longer wanted."""

    @property
    def server_name(self) -> str:
        """The asking server's name as shown (cleaned of control characters, at most 80 of them)."""
        name = self.context.server_name if self.context is not None else "the server"
        return sanitize(name, max_length=80, single_line=True) or "the server"

    def compose(self) -> ComposeResult:
        # The widgets are built here, inside the app: an ``Input`` given a value looks up the app.
        if isinstance(self.params, ElicitRequestFormParams):
            self._inputs = [
                FieldInput.build(form_field, f"field-{index}")
                for index, form_field in enumerate(self.params.form.fields)
            ]
        # Who asks is docked on top of the dialog and the keys and buttons at its bottom; the message
        # and the fields scroll between them, so the actions are on screen however short the terminal.
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
            yield _plain(f"{asker} {verb}{place}:", id="asker")
            if isinstance(self.params, ElicitRequestURLParams):
                yield from self._compose_link(self.params.url)
                return
            with VerticalScroll(id="body"):
                yield from self._compose_message()
                for index, field_input in enumerate(self._inputs):
                    form_field = field_input.form_field
                    yield _plain(field_label(form_field), classes="label")
                    if form_field.help:
                        yield _plain(sanitize(form_field.help, max_length=1000), classes="help")
                    yield field_input.widget
                    yield _plain("", id=f"error-{index}", classes="error")
            with Vertical(id="footer"):
                yield _plain("", id="form-error", classes="error")
                keys = "tab: next field · ctrl+s: send · ctrl+n: decline · escape: cancel"
                yield _plain(keys, id="keys")
                with Horizontal(id="buttons"):
                    yield Button("Send", id="send", variant="primary", compact=True)
                    yield Button("Decline", id="decline", compact=True)
                    yield Button("Cancel", id="cancel", variant="error", compact=True)

    def _compose_message(self) -> ComposeResult:
        yield _plain(sanitize(self.params.message, max_length=_MAX_MESSAGE) or "(no message)", id="message")

    def _compose_link(self, url: str) -> ComposeResult:
        inspection = inspect_url(url)
        with VerticalScroll(id="body"):
            yield from self._compose_message()
            if inspection.refusal is not None:
                yield _plain(f"Link (hidden characters spelled out): {visible_url(url)}")
                yield _plain(f"This link must not be opened: {inspection.refusal}", classes="refusal")
            else:
                yield _plain(f"Link: {url}", id="link")
                shown = inspection.host + (
                    f" (displayed as {inspection.unicode_host})" if inspection.unicode_host else ""
                )
                yield _plain(f"Site: {shown}", id="host")
            for warning in inspection.warnings:
                yield _plain(f"⚠ {warning.message}", classes="warning")
        with Vertical(id="footer"), Horizontal(id="buttons"):
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
        notice = WITHDRAWN_NOTICE.format(server=self.server_name)
        self.app.notify(notice, severity="warning", timeout=10, markup=False)  # the name is the server's
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
            value, problem = _checked(field_input)
            self._show_error(index, problem)
            if problem is not None:
                first_wrong = index if first_wrong is None else first_wrong
            elif value is not MISSING:
                content[field_input.form_field.name] = value  # type: ignore[assignment]
        if first_wrong is not None:
            self._refused = True
            self._show(self.query_one("#form-error", Static), None)
            self._inputs[first_wrong].widget.focus()
            return
        form = self.params.form
        try:
            checked = form.validate_content(form.fill_defaults(content))
        except ValueError as refusal:
            self._refused = True
            self._show(self.query_one("#form-error", Static), sanitize(str(refusal), max_length=300))
            return
        self.dismiss(ElicitResult(action="accept", content=dict(checked)))

    # Once Send has refused the form, a field is checked again at each change: its error goes as soon as
    # the value is right, or says what is wrong with it now. Before that, nothing is said while a field
    # is being filled in (the input's own border shows a value it cannot read).

    def on_input_changed(self, event: Input.Changed) -> None:
        self._changed(event.input)

    def on_select_changed(self, event: Select.Changed) -> None:
        self._changed(event.select)

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[object]) -> None:
        self._changed(event.selection_list)

    def on_switch_changed(self, event: Switch.Changed) -> None:
        self._changed(event.switch)

    def _changed(self, widget: Widget) -> None:
        if not self._refused:
            return
        for index, field_input in enumerate(self._inputs):
            if field_input.widget is widget:
                self._show_error(index, _checked(field_input)[1])
                break
        else:
            return
        form_error = self.query_one("#form-error", Static)
        if form_error.has_class("shown"):  # the whole form's refusal: checked again once each field is right
            self._show(form_error, None)
            assert isinstance(self.params, ElicitRequestFormParams)
            content: dict[str, AnswerValue] = {}
            for field_input in self._inputs:
                value, problem = _checked(field_input)
                if problem is not None:
                    return
                if value is not MISSING:
                    content[field_input.form_field.name] = value  # type: ignore[assignment]
            form = self.params.form
            try:
                form.validate_content(form.fill_defaults(content))
            except ValueError as refusal:
                self._show(form_error, sanitize(str(refusal), max_length=300))

    def _show_error(self, index: int, problem: str | None) -> None:
        self._show(self.query_one(f"#error-{index}", Static), problem)

    @staticmethod
    def _show(line: Static, problem: str | None) -> None:
        """Put a refusal in an error line (shown only while there is one)."""
        line.update(_plain_text("" if problem is None else f"✗ {problem}"))
        line.set_class(problem is not None, "shown")

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


def _checked(field_input: FieldInput) -> tuple[AnswerValue | Missing, str | None]:
    """The field's value and, if it is not one the field takes, why (cleaned, one line)."""
    form_field = field_input.form_field
    try:
        value = field_input.value()
    except ValueError as refusal:
        return MISSING, sanitize(str(refusal), max_length=200, single_line=True)
    if value is MISSING:
        if form_field.required and form_field.default is None:
            return value, "this field is required"
        return value, None
    problem = form_field.check(value)
    return value, None if problem is None else sanitize(problem, max_length=200, single_line=True)


def _plain_text(text: str) -> Text:
    """Text shown as it is: never read as Textual markup (``[b]`` stays ``[b]``)."""
    return Text(text)


def _plain(text: str, *, id: str | None = None, classes: str | None = None) -> Static:
    """A ``Static`` of plain text: everything in it may be the server's, so nothing is markup."""
    return Static(_plain_text(text), id=id, classes=classes, markup=False)
