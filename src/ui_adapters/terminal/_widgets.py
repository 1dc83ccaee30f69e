"""The prompt_toolkit widgets of a terminal form: a validated line of text and a (checkbox) pick list.

Each builder returns an application that has not started yet; ``_runner.run_application`` runs it. The
keys are the same everywhere, and shown at the bottom of every prompt:

- Enter: confirm this answer (a text answer is only accepted once it is valid);
- Ctrl-N: decline the whole question (raises ``UserDeclined``);
- Esc, Ctrl-C, Ctrl-D: cancel the whole question (raises ``UserCancelled``);
- pick lists: Up/Down (or k/j), PgUp/PgDn, Home/End move; Space or x ticks a box in a checkbox list;
  y/n answer a yes/no question directly.

Labels reaching these widgets have already been sanitized by the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output
from prompt_toolkit.shortcuts import PromptSession
from prompt_toolkit.styles import Style
from prompt_toolkit.validation import ValidationError, Validator

from ui_adapters.terminal._outcomes import UserCancelled, UserDeclined

__all__ = ["KEYS_HINT", "TEXT_PROMPT", "Picker", "text_session"]

KEYS_HINT = "Enter confirm · Ctrl-N decline · Esc/Ctrl-C cancel"
TEXT_PROMPT = "› "

_STYLE = Style.from_dict(
    {
        "prompt": "bold",
        "cursor": "reverse",
        "hint": "#888888",
        "error": "#ff5555 bold",
        "bottom-toolbar": "noreverse #888888",
    }
)


def _exit(app: Application[Any], **kwargs: Any) -> None:
    """Exit ``app`` unless it already has a result (keys typed ahead may ask twice)."""
    if app.future is not None and not app.future.done():
        app.exit(**kwargs)


def _question_keys() -> KeyBindings:
    """Decline and cancel, bound the same way in every widget."""
    keys = KeyBindings()

    @keys.add("c-c")
    @keys.add("c-d")
    @keys.add("escape", eager=True)
    def _cancel(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
        _exit(event.app, exception=UserCancelled())

    @keys.add("c-n")
    def _decline(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
        _exit(event.app, exception=UserDeclined())

    return keys


class _CallableValidator(Validator):
    """Runs ``reason_for(text)`` on every change; a reason blocks Enter and is shown under the prompt."""

    def __init__(self, reason_for: Callable[[str], str | None]) -> None:
        self._reason_for = reason_for

    def validate(self, document: Document) -> None:
        reason = self._reason_for(document.text)
        if reason is not None:
            raise ValidationError(cursor_position=len(document.text), message=reason)


def text_session(
    reason_for: Callable[[str], str | None],
    *,
    input: Input | None,
    output: Output | None,
) -> PromptSession[str]:
    """A one-line prompt ``› `` validated live by ``reason_for`` (``None`` means valid).

    The key hint is the line right above the input (a bottom toolbar would sit on the terminal's last
    row, far from the prompt); a reason is shown right below it. Start it with
    ``session.prompt_async(default=..., pre_run=...)``; it returns the accepted text.
    """
    return PromptSession[str](
        [("class:hint", f"{KEYS_HINT}\n"), ("class:prompt", TEXT_PROMPT)],
        validator=_CallableValidator(reason_for),
        validate_while_typing=True,
        key_bindings=_question_keys(),
        style=_STYLE,
        erase_when_done=True,
        input=input,
        output=output,
        enable_history_search=False,
        mouse_support=False,
    )


@dataclass
class Picker:
    """A pick list (one choice) or checkbox list (``multi``), paged so any number of choices stays fast.

    ``run`` of the built application returns the list of chosen indices (exactly one unless ``multi``).
    ``check`` vets a checkbox selection before Enter is accepted (``None`` means fine); ``limit`` is
    the most boxes that may be ticked. ``shortcuts`` maps a key to a choice index that is picked at
    once (``y``/``n`` for yes/no questions). ``cursor`` ``None`` starts with nothing chosen: Enter does
    nothing until the person moves to a choice or presses a shortcut. ``title`` ``None`` shows none
    (a form field's label is already on screen). Long lines wrap instead of being cut.
    """

    title: str | None
    labels: Sequence[str]
    multi: bool = False
    cursor: int | None = 0
    ticked: set[int] = field(default_factory=set[int])
    check: Callable[[list[int]], str | None] | None = None
    limit: int | None = None
    shortcuts: dict[str, int] = field(default_factory=dict[str, int])
    page_size: int = 10
    error: str | None = None

    def application(self, *, input: Input | None, output: Output | None) -> Application[list[int]]:
        """The prompt_toolkit application showing this list."""
        control = FormattedTextControl(self._fragments, focusable=True, show_cursor=False)
        return Application[list[int]](
            layout=Layout(HSplit([Window(control, dont_extend_height=True, wrap_lines=True)])),
            key_bindings=self._keys(),
            style=_STYLE,
            full_screen=False,
            erase_when_done=True,
            mouse_support=False,
            input=input,
            output=output,
        )

    def _move(self, delta: int) -> None:
        if self.labels:
            if self.cursor is None:  # the first move lands on the first choice
                self.cursor = 0 if delta > 0 else len(self.labels) - 1
            else:
                self.cursor = max(0, min(len(self.labels) - 1, self.cursor + delta))
        self.error = None

    def _toggle(self) -> None:
        if self.cursor is None:
            self._move(1)
            return
        if self.cursor in self.ticked:
            self.ticked.discard(self.cursor)
        elif self.limit is not None and len(self.ticked) >= self.limit:
            self.error = f"at most {self.limit} may be chosen; untick one first"
            return
        else:
            self.ticked.add(self.cursor)
        self.error = None

    def _confirm(self, app: Application[Any]) -> None:
        if not self.multi:
            if self.cursor is None:
                keys = "/".join(self.shortcuts) or "Up/Down"
                self.error = f"nothing is chosen yet: press {keys} to choose"
            elif self.labels:
                _exit(app, result=[self.cursor])
            return
        chosen = sorted(self.ticked)
        reason = self.check(chosen) if self.check is not None else None
        if reason is not None:
            self.error = reason
            return
        _exit(app, result=chosen)

    def _keys(self) -> KeyBindings:
        keys = _question_keys()
        page = max(1, self.page_size)

        @keys.add("up")
        @keys.add("k")
        def _up(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
            self._move(-1)

        @keys.add("down")
        @keys.add("j")
        @keys.add("tab")
        def _down(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
            self._move(1)

        @keys.add("pageup")
        def _page_up(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
            self._move(-page)

        @keys.add("pagedown")
        def _page_down(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
            self._move(page)

        @keys.add("home")
        def _home(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
            self._move(-len(self.labels))

        @keys.add("end")
        def _end(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
            self._move(len(self.labels))

        @keys.add("enter")
        def _enter(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
            self._confirm(event.app)

        multi = Condition(lambda: self.multi)

        @keys.add("space", filter=multi)
        @keys.add("x", filter=multi)
        def _tick(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
            self._toggle()

        for key, index in self.shortcuts.items():

            def pick(event: KeyPressEvent, index: int = index) -> None:
                self.cursor = index
                self._confirm(event.app)

            keys.add(key)(pick)

        return keys

    def _fragments(self) -> StyleAndTextTuples:
        page = max(1, self.page_size)
        start = ((self.cursor or 0) // page) * page
        stop = min(len(self.labels), start + page)
        how = "Space to tick, Enter when done" if self.multi else "Up/Down to move, Enter to choose"
        if self.shortcuts and not self.multi:
            how = f"{'/'.join(self.shortcuts)} or " + how
        lines: StyleAndTextTuples = []
        if self.title:
            lines.append(("class:prompt", f"{self.title}\n"))
        lines.append(("class:hint", f"({how})\n"))
        for index in range(start, stop):
            pointer = "❯ " if index == self.cursor else "  "
            box = ("[x] " if index in self.ticked else "[ ] ") if self.multi else ""
            style = "class:cursor" if index == self.cursor else ""
            lines.append((style, f"{pointer}{box}{self.labels[index]}"))
            lines.append(("", "\n"))
        if len(self.labels) > page:
            lines.append(
                ("class:hint", f"  {start + 1}-{stop} of {len(self.labels)} (PgUp/PgDn, Home/End)\n")
            )
        if self.error:
            lines.append(("class:error", f"  {self.error}\n"))
        lines.append(("class:hint", KEYS_HINT))
        return lines
