"""The rich renderables of a terminal form: the question panel, a field's introduction, the review table.

Every piece of server text goes through ``ui_adapters.text.sanitize`` and into a ``rich.text.Text``,
which rich never parses as markup, so ``[bold]`` or ``[link=...]`` in a server's message is shown as
typed and nothing the server sends becomes a style, a hyperlink or a terminal control.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from mcp_client import ClientRequestContext
from mcp_client.schema import FieldKind, FormField
from ui_adapters.terminal._values import AnswerValue, default_text, display, hint
from ui_adapters.text import sanitize

__all__ = [
    "MAX_HELP",
    "MAX_LABEL",
    "MAX_MESSAGE",
    "field_intro",
    "field_label",
    "question_panel",
    "review_table",
    "server_line",
]

MAX_MESSAGE = 4000
MAX_LABEL = 120
MAX_HELP = 600
_MAX_SERVER = 200
_MAX_DEFAULT = 200
_CHOSEN = frozenset({FieldKind.BOOLEAN, FieldKind.SINGLE_CHOICE, FieldKind.MULTI_CHOICE})


def field_label(field: FormField) -> str:
    """The field's title (or name), safe and on one line."""
    return sanitize(field.label, max_length=MAX_LABEL, single_line=True) or sanitize(
        field.name, max_length=MAX_LABEL, single_line=True
    )


def server_line(context: ClientRequestContext) -> Text:
    """Who asks: the server's own name (and its tool, when the question says which call asks:
    ``bistro · book_table asks``), and the URL or command it was reached at when that differs."""
    name = sanitize(context.server_name, max_length=_MAX_SERVER, single_line=True)
    where = sanitize(context.server, max_length=_MAX_SERVER, single_line=True)
    tool = sanitize(context.tool_name or "", max_length=MAX_LABEL, single_line=True)
    if tool:
        line = Text(name or "(unnamed)", style="bold")
        line.append(f" · {tool}", style="bold")
        line.append(" asks", style="dim")
    else:
        line = Text("Server ", style="dim")
        line.append(name or "(unnamed)", style="bold")
    if where and where != name:
        line.append(f" ({where})", style="dim")
    return line


def question_panel(context: ClientRequestContext, message: str, field_count: int) -> Panel:
    """The panel that opens a question: which server asks, which question of the round, its message."""
    title = Text("Question from an MCP server")
    if context.question_count > 1:
        title = Text(f"Question {context.question_index} of {context.question_count} from an MCP server")
    body: list[RenderableType] = [server_line(context), Text("")]
    body.append(Text(sanitize(message, max_length=MAX_MESSAGE) or "(no message)"))
    if field_count:
        noun = "field" if field_count == 1 else "fields"
        body.append(Text(""))
        body.append(Text(f"{field_count} {noun} to fill in; * marks a required one.", style="dim"))
    return Panel(Group(*body), title=title, title_align="left", border_style="cyan")


def field_intro(field: FormField, position: int, total: int) -> Text:
    """What is shown above a field's prompt: number, label, required or not, help, accepted input."""
    text = Text(f"[{position}/{total}] ", style="dim")
    text.append(field_label(field), style="bold")
    text.append(" *" if field.required else " (optional)", style="red" if field.required else "dim")
    if field.help:
        text.append("\n    ")
        text.append(sanitize(field.help, max_length=MAX_HELP, single_line=True))
    accepted = hint(field)
    if accepted:
        text.append(f"\n    {accepted}", style="dim")
    shown_default = default_text(field)
    if shown_default is not None:
        default = sanitize(shown_default, max_length=_MAX_DEFAULT, single_line=True)
        # A text field left empty sends its default; a choice starts on (or ticked with) its default,
        # which Enter keeps: unticking every box is an answer of its own, and may be refused.
        kept = "Enter keeps it" if field.kind in _CHOSEN else "sent if left empty"
        text.append(f"\n    default: {default} ({kept})", style="dim")
    return text


def review_table(fields: Sequence[FormField], answers: Mapping[str, AnswerValue | None]) -> Table:
    """A numbered summary of the answers, shown before anything is sent."""
    table = Table(title=Text("Your answers"), title_justify="left", show_lines=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("Field")
    table.add_column("Answer")
    for position, field in enumerate(fields, start=1):
        label = Text(field_label(field))
        if field.required:
            label.append(" *", style="red")
        table.add_row(Text(str(position)), label, Text(display(field, answers.get(field.name))))
    return table
