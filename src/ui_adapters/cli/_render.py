"""How ``mcp-client`` prints tools, parameters and results.

People get readable text: a tool's text content as text, structured content as highlighted JSON,
other blocks (images, audio, resources) as a one-line summary. Scripts ask for ``--json`` and get the
raw result, one JSON document on stdout. Everything a server wrote is passed through
``ui_adapters.text.sanitize`` before it reaches a terminal, and put in ``rich.text.Text`` (never
parsed as markup), so a server cannot move the cursor or restyle the screen; piped output keeps the
server's text byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console
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


def print_tools(console: Console, tools: Sequence[Tool]) -> None:
    """Every tool with its description and a table of its parameters."""
    if not tools:
        console.print(Text("This server has no tools.", style="dim"))
        return
    for index, tool in enumerate(tools):
        if index:
            console.print()
        heading = Text(_safe(tool.name, _MAX_NAME, single_line=True), style="bold cyan")
        if tool.title and tool.title != tool.name:
            heading.append(f"  {_safe(tool.title, _MAX_NAME, single_line=True)}", style="bold")
        console.print(heading)
        if tool.description:
            console.print(
                Padding(Text(_safe(tool.description, _MAX_DESCRIPTION)), (0, 0, 0, 2), expand=False)
            )
        print_parameters(console, tool, heading=False)


def print_parameters(console: Console, tool: Tool, *, heading: bool = True) -> None:
    """The parameter table of one tool (name, type, required, description)."""
    params = parameters_of(tool)
    if heading:
        console.print(Text(f"Parameters of {_safe(tool.name, _MAX_NAME, single_line=True)}:", style="bold"))
    if not params:
        console.print(Text("  (no parameters)", style="dim"))
        return
    described = any(param.description for param in params)
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column()
    table.add_column(no_wrap=True)
    if described:
        table.add_column()
    for param in params:
        table.add_row(*_parameter_row(param)[: 4 if described else 3])
    console.print(Padding(table, (0, 0, 0, 2), expand=False))


def _parameter_row(param: Parameter) -> tuple[Text, Text, Text, Text]:
    name = Text(_safe(param.name, _MAX_NAME, single_line=True), style="bold")
    kind = Text(_safe(param.type_label, 300, single_line=True), style="green")
    required = Text("required", style="red") if param.required else Text("optional", style="dim")
    return name, kind, required, Text(_safe(param.description, 500, single_line=True))


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
                console.print(_text(console, block.text))
        else:
            console.print(Text(_summary(block), style="dim"))
    if structured is not None and not (texts and not text_is_json and _wraps(structured, texts)):
        if texts and not text_is_json:
            console.print(Text("structured content:", style="dim"))
        console.print(_json_renderable(console, structured))
    if not result.content and structured is None:
        console.print(Text("(the tool returned no content)", style="dim"))


def print_json(console: Console, value: Any) -> None:
    """``value`` as one JSON document on ``console``'s file (plain, for scripts; ASCII on a terminal)."""
    text = json.dumps(value, indent=2, ensure_ascii=console.is_terminal)
    console.file.write(text + "\n")
    console.file.flush()


def _text(console: Console, text: str) -> Text:
    return Text(sanitize(text) if console.is_terminal else text)


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
    """True for ``{"result": x}`` when the text content already says ``x``."""
    if not (isinstance(structured, dict) and len(structured) == 1 and "result" in structured):
        return False
    wrapped = structured["result"]
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
