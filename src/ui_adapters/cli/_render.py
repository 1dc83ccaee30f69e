"""How ``mcp-client`` prints tools, parameters and results.

People get readable text: a tool's text content as text, structured content as highlighted JSON,
other blocks (images, audio, resources) as a one-line summary. Scripts ask for ``--json`` and get the
raw result, one JSON document on stdout. Everything a server wrote is passed through
``ui_adapters.text.sanitize`` before it reaches a terminal, and put in ``rich.text.Text`` (never
parsed as markup), so a server cannot move the cursor or restyle the screen. A result is never
hard-wrapped (a long line or URL stays one line; the terminal folds it for display), and redirected
output keeps the server's text byte for byte. The tool list fits the terminal's width on a terminal;
piped or redirected, where no width applies, each line of it arrives whole.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console, RenderableType
from rich.json import JSON
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from mcp_client.types import (
    AudioContent,
    CallToolResult,
    ContentBlock,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
    Tool,
)
from ui_adapters.cli._params import Parameter, parameters_of
from ui_adapters.text import sanitize

__all__ = ["print_json", "print_parameters", "print_result", "print_tools"]

_MAX_DESCRIPTION = 2000
_MAX_NAME = 200
# Width the tool list is laid out at when stdout is not a terminal: wider than any line it can have
# (every field is capped well below it), so no line is wrapped.
_UNWRAPPED_WIDTH = 10_000


def print_tools(console: Console, tools: Sequence[Tool]) -> None:
    """Every tool with its description and a table of its parameters."""
    if not tools:
        _emit(console, Text("This server has no tools.", style="dim"))
        return
    for index, tool in enumerate(tools):
        if index:
            _emit(console, Text())
        heading = Text(_safe(tool.name, _MAX_NAME, single_line=True), style="bold cyan")
        if tool.title and tool.title != tool.name:
            heading.append(f"  {_safe(tool.title, _MAX_NAME, single_line=True)}", style="bold")
        _emit(console, heading)
        if tool.description:
            _emit(
                console, Padding(Text(_safe(tool.description, _MAX_DESCRIPTION)), (0, 0, 0, 2), expand=False)
            )
        print_parameters(console, tool, heading=False)


def print_parameters(console: Console, tool: Tool, *, heading: bool = True) -> None:
    """The parameter table of one tool (name, type, required or not, default and description)."""
    params = parameters_of(tool)
    if heading:
        _emit(console, Text(f"Parameters of {_safe(tool.name, _MAX_NAME, single_line=True)}:", style="bold"))
    if not params:
        _emit(console, Text("  (no parameters)", style="dim"))
        return
    described = any(param.description or param.default is not None for param in params)
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column()
    table.add_column(no_wrap=True)
    if described:
        table.add_column()
    for param in params:
        table.add_row(*_parameter_row(param)[: 4 if described else 3])
    _emit(console, Padding(table, (0, 0, 0, 2), expand=False))


def _emit(console: Console, renderable: RenderableType) -> None:
    """``renderable`` fitted to the terminal; piped or redirected, laid out unwrapped, each line whole.

    Off a terminal rich would wrap at a made-up 80 columns and pad every line to it; a script or a
    pager reading the list wants a long description on one line and no trailing blanks instead.
    """
    if console.is_terminal:
        console.print(renderable)
        return
    options = console.options.update(width=_UNWRAPPED_WIDTH, no_wrap=False)
    lines = console.render_lines(renderable, options, pad=False)
    console.file.write("".join("".join(segment.text for segment in line).rstrip() + "\n" for line in lines))
    console.file.flush()


def _parameter_row(param: Parameter) -> tuple[Text, Text, Text, Text]:
    name = Text(_safe(param.name, _MAX_NAME, single_line=True), style="bold")
    kind = Text(_safe(param.type_label, 300, single_line=True), style="green")
    required = Text("required", style="red") if param.required else Text("optional", style="dim")
    about = Text()
    if param.default is not None:
        about.append("default: " + _safe(param.default, 100, single_line=True), style="cyan")
    if param.description:
        about.append(("  " if about else "") + _safe(param.description, 500, single_line=True))
    return name, kind, required, about


def print_result(out: Console, err: Console, result: CallToolResult) -> None:
    """A tool's result for people: its content on ``out`` (on ``err`` when the tool reports an error).

    Text blocks are printed as text and structured content as highlighted JSON. Servers often send
    the same thing both ways (a dict as its JSON text, a string ``s`` as ``{"result": s}``); then it
    is printed once: as JSON when the text was the JSON, as text when the JSON only wraps the text.
    """
    console = err if result.is_error else out
    if result.is_error:
        console.print(Text("The tool reported an error:", style="bold red"))
    structured = result.structured_content
    texts = [block.text for block in result.content if isinstance(block, TextContent)]
    text_is_json = structured is not None and bool(texts) and all(_parses_to(t, structured) for t in texts)
    for block in result.content:
        if isinstance(block, TextContent):
            if not text_is_json:
                _print_text(console, block.text)
        else:
            console.print(Text(_summary(block), style="dim"), soft_wrap=True)
    if structured is not None and not (texts and not text_is_json and _wraps(structured, texts)):
        if texts and not text_is_json:
            console.print(Text("structured content:", style="dim"))
        if console.is_terminal:
            console.print(_json_renderable(console, structured), soft_wrap=True)
        else:
            _print_text(console, json.dumps(structured, indent=2, ensure_ascii=False))
    if not result.content and structured is None:
        console.print(Text("(the tool returned no content)", style="dim"))


def print_json(console: Console, value: Any) -> None:
    """``value`` as one JSON document on ``console``'s file (plain, for scripts; ASCII on a terminal)."""
    text = json.dumps(value, indent=2, ensure_ascii=console.is_terminal)
    console.file.write(text + "\n")
    console.file.flush()


def _print_text(console: Console, text: str) -> None:
    """Server text on ``console``: sanitized on a terminal, as sent otherwise; never hard-wrapped."""
    if console.is_terminal:
        console.print(Text(sanitize(text)), soft_wrap=True)
        return
    console.file.write(text if text.endswith("\n") else text + "\n")
    console.file.flush()


def _json_renderable(console: Console, value: Any) -> JSON | Text:
    text = json.dumps(value, indent=2, ensure_ascii=console.is_terminal)
    if console.is_terminal:
        return JSON(text, highlight=True)  # ensure_ascii: no control character survives the dump
    return Text(text)


def _parses_to(text: str, value: Any) -> bool:
    try:
        return bool(json.loads(text) == value)
    except json.JSONDecodeError:
        return False


def _wraps(structured: Any, texts: list[str]) -> bool:
    """True for a one-key object (``{"result": x}``, ``{"content": x}``) when the text already says ``x``."""
    if not (isinstance(structured, dict) and len(structured) == 1):
        return False
    [wrapped] = structured.values()
    joined = "\n".join(texts)
    return (isinstance(wrapped, str) and wrapped == joined) or _parses_to(joined, wrapped)


def _summary(block: ContentBlock) -> str:
    if isinstance(block, ImageContent | AudioContent):
        kind = "image" if isinstance(block, ImageContent) else "audio"
        size = len(block.data) * 3 // 4
        return f"[{kind}: {_safe(block.mime_type, 100, single_line=True)}, about {size} bytes]"
    if isinstance(block, ResourceLink):
        name = _safe(block.name, _MAX_NAME, single_line=True)
        return f"[resource link: {name} <{_safe(block.uri, 500, single_line=True)}>]"
    if isinstance(block, EmbeddedResource):
        resource = block.resource
        uri = _safe(resource.uri, 500, single_line=True)
        if isinstance(resource, TextResourceContents):
            return f"[resource {uri}]\n{sanitize(resource.text)}"
        return f"[resource {uri}: binary, about {len(resource.blob) * 3 // 4} bytes]"
    kind = getattr(block, "type", "unknown")
    return f"[{_safe(str(kind), 100, single_line=True)} content]"


def _safe(text: str, max_length: int, *, single_line: bool = False) -> str:
    return sanitize(text, max_length=max_length, single_line=single_line)
