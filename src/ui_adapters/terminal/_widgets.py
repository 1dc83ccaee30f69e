"""The prompt_toolkit widgets of a terminal form: a validated line of text and a (checkbox) pick list.

Each builder returns an application that has not started yet; ``_runner.run_application`` runs it. The
keys are the same everywhere, and shown at the bottom of every prompt:

- Enter: confirm this answer (a text answer is only accepted once it is valid);
- Shift-Tab: back to the previous field (raises ``GoBack``; not on the first field);
- Ctrl-N: decline the whole question (raises ``UserDeclined``);
- Esc, Ctrl-C, Ctrl-D: cancel the whole question (raises ``UserCancelled``);
- while changing one field from the review, Esc (and Shift-Tab) go back to the review instead, keeping
  the answer as it was: every other answer would be lost with the question. Ctrl-C still cancels it.
- pick lists: Up/Down (or k/j), PgUp/PgDn, Home/End move; Space or x ticks a box in a checkbox list;
  y/n move to Yes/No in a yes/no question, and Enter confirms it, as at the link prompt (``y``, Enter).
  A letter that answered at once would leave the Enter of a habitual "y, Enter" to the next prompt,
  where it would keep a default or send the review unseen.

Labels reaching these widgets have already been sanitized by the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition, to_filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output
from prompt_toolkit.shortcuts import PromptSession
from prompt_toolkit.styles import Style
from prompt_toolkit.validation import ValidationError, Validator

from ui_adapters.terminal._outcomes import Back, GoBack, UserCancelled, UserDeclined

__all__ = ["KEYS_HINT", "TEXT_PROMPT", "Picker", "keys_hint", "text_session"]

KEYS_HINT = "Enter confirm · Ctrl-N decline · Esc/Ctrl-C cancel"
TEXT_PROMPT = "› "


def keys_hint(back: Back) -> list[str]:
    """The keys of a prompt, one item each, for the hint line (what ``_question_keys(back)`` binds)."""
    if back == "review":
        return ["Enter confirm", "Esc back to the review", "Ctrl-N decline", "Ctrl-C cancel the question"]
    shift_tab = ["Shift-Tab previous field"] if back == "previous" else []
    return ["Enter confirm", *shift_tab, "Ctrl-N decline", "Esc/Ctrl-C cancel"]


def wrap_hint(parts: Sequence[str], width: int) -> str:
    """``parts`` joined with `` · ``, broken between two parts (never inside one) to fit ``width``."""
    lines: list[str] = []
    line = ""
    for part in parts:
        joined = f"{line} · {part}" if line else part
        if line and len(joined) >= width:
            lines.append(line)
            line = part
        else:
            line = joined
    lines.append(line)
    return "\n".join(lines)


def _hint_text(back: Back, keys: Sequence[str] | None = None) -> str:
    """The key hint (``keys``, else the form's keys for ``back``) for the terminal's current width
    (asked at every redraw, so a resize re-wraps)."""
    try:
        width = get_app().output.get_size().columns
    except Exception:  # no size known (a dummy output): one line
        width = 10_000
    return wrap_hint(keys if keys is not None else keys_hint(back), width)


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


def _question_keys(back: Back) -> KeyBindings:
    """Back, decline and cancel, bound the same way in every widget (see the module for the keys)."""
    keys = KeyBindings()

    @keys.add("c-c")
    @keys.add("c-d")
    @keys.add("escape", eager=True, filter=Condition(lambda: back != "review"))
    def _cancel(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
        _exit(event.app, exception=UserCancelled())

    @keys.add("s-tab", filter=Condition(lambda: back is not None))
    @keys.add("escape", eager=True, filter=Condition(lambda: back == "review"))
    def _back(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
        _exit(event.app, exception=GoBack())

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
    back: Back = None,
    input: Input | None,
    output: Output | None,
) -> PromptSession[str]:
    """A one-line prompt ``› `` validated live by ``reason_for`` (``None`` means valid); ``back`` says
    where Shift-Tab (and, from the review, Esc) lead.

    The key hint is the line right above the input (a bottom toolbar would sit on the terminal's last
    row, far from the prompt); a reason is shown right below it. Start it with
    ``session.prompt_async(default=..., pre_run=...)``; it returns the accepted text.

    prompt_toolkit's input line grows to fill every row below the cursor when the terminal reports
    where the cursor is (real terminals do), which pushes its validation message down to the last row:
    after ``clear`` that is some thirty empty rows under the prompt, and Enter looks dead. The line is
    made to keep its own height, so the reason is always the row right under it.
    """
    session = PromptSession[str](
        lambda: [("class:hint", f"{_hint_text(back)}\n"), ("class:prompt", TEXT_PROMPT)],
        validator=_CallableValidator(reason_for),
        validate_while_typing=True,
        key_bindings=_question_keys(back),
        style=_STYLE,
        erase_when_done=True,
        input=input,
        output=output,
        enable_history_search=False,
        mouse_support=False,
    )
    session.layout.current_window.dont_extend_height = to_filter(True)
    return session


@dataclass
class Picker:
    """A pick list (one choice) or checkbox list (``multi``), paged so any number of choices stays fast.

    ``run`` of the built application returns the list of chosen indices (exactly one unless ``multi``).
    ``check`` vets a checkbox selection before Enter is accepted (``None`` means fine); ``limit`` is
    the most boxes that may be ticked. ``shortcuts`` maps a key to a choice index the cursor jumps to
    (``y``/``n`` for yes/no questions; Enter confirms). ``cursor`` ``None`` starts with nothing chosen:
    Enter only says what to do until the person moves to a choice or presses a shortcut. ``title``
    ``None`` shows none (a form field's label is already on screen). Long lines wrap instead of being
    cut. ``back`` says where Shift-Tab (and, from the review, Esc) lead. ``keys`` replaces the hint
    line's words where the keys mean something else than in a form (an approval: Ctrl-N and Esc deny).
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
    back: Back = None
    keys: Sequence[str] | None = None

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
            # From nothing chosen, Down lands on the first choice and Up on the last (End, Home alike).
            start = self.cursor if self.cursor is not None else (-1 if delta > 0 else len(self.labels))
            self.cursor = max(0, min(len(self.labels) - 1, start + delta))
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
                if self.shortcuts:
                    keys = " or ".join(self.shortcuts)
                    self.error = f"nothing is chosen yet: press {keys} to choose, then Enter"
                else:
                    self.error = "nothing is chosen yet: press Up/Down, then Enter"
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
        keys = _question_keys(self.back)
        page = max(1, self.page_size)

        @keys.add("up")
        @keys.add("k")
        def _up(event: KeyPressEvent) -> None:  # pyright: ignore[reportUnusedFunction]
            self._move(-1)

        @keys.add("down")
        @keys.add("j")
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
                self.error = None

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
        lines.append(("class:hint", _hint_text(self.back, self.keys)))
        return lines
