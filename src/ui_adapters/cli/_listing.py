"""``prompts``, ``get-prompt``, ``resources`` and ``read`` on one server: what ``fastmcp call`` offers too.

Each connects as ``call`` does (the server's questions are answered in the terminal), does one request,
prints it (``--json``: the raw result) and returns an exit code. Text from the server is sanitized.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from mcp_client import Client
from mcp_client.types import (
    BlobResourceContents,
    ContentBlock,
    EmbeddedResource,
    Prompt,
    Resource,
    ResourceTemplate,
    TextContent,
    TextResourceContents,
)
from ui_adapters.cli._commands import Connection
from ui_adapters.cli._exit import EXIT_OK, UsageError
from ui_adapters.cli._render import print_json
from ui_adapters.cli._status import terminal_ui
from ui_adapters.text import sanitize

__all__ = [
    "fetch_prompts",
    "fetch_resources",
    "print_prompts",
    "print_resources",
    "prompt_arguments",
    "run_get_prompt",
    "run_prompts",
    "run_read",
    "run_resources",
]

_MAX_LINE = 300


async def run_prompts(connection: Connection, out: Console, err: Console, *, as_json: bool) -> int:
    ui = terminal_ui(err)
    with ui.status.show(f"Connecting to {connection.label}…"):
        async with connection.connect(ui, ui.elicitation_complete_callback, ui.status) as client:
            ui.status.update("Listing prompts…")
            prompts = await fetch_prompts(client)
    if as_json:
        print_json(out, [prompt.model_dump_wire() for prompt in prompts])
    else:
        print_prompts(out, prompts)
    return EXIT_OK


async def run_resources(connection: Connection, out: Console, err: Console, *, as_json: bool) -> int:
    ui = terminal_ui(err)
    with ui.status.show(f"Connecting to {connection.label}…"):
        async with connection.connect(ui, ui.elicitation_complete_callback, ui.status) as client:
            ui.status.update("Listing resources…")
            resources, templates = await fetch_resources(client)
    if as_json:
        print_json(
            out,
            {
                "resources": [r.model_dump_wire() for r in resources],
                "resourceTemplates": [t.model_dump_wire() for t in templates],
            },
        )
    else:
        print_resources(out, resources, templates)
    return EXIT_OK


async def run_get_prompt(
    connection: Connection, words: Sequence[str], out: Console, err: Console, *, as_json: bool
) -> int:
    if not words:
        raise UsageError("name the prompt: get-prompt SERVER NAME [KEY=VALUE ...]")
    name, arguments = words[0], prompt_arguments(words[1:])
    ui = terminal_ui(err)
    with ui.status.show(f"Connecting to {connection.label}…"):
        async with connection.connect(ui, ui.elicitation_complete_callback, ui.status) as client:
            ui.status.update(f"Getting prompt {name}…")
            known = [prompt.name for prompt in await fetch_prompts(client)]
            if name not in known:
                listed = ", ".join(known) if known else "none"
                raise UsageError(f"{connection.label} has no prompt {name!r}. Its prompts: {listed}")
            result = await client.get_prompt(name, arguments)
    if as_json:
        print_json(out, result.model_dump_wire())
        return EXIT_OK
    if result.description:
        out.print(Text(_line(result.description), style="dim"), soft_wrap=True)
    for message in result.messages:
        out.print(Text(message.role + ":", style="bold"), soft_wrap=True)
        _print_block(out, message.content)
    return EXIT_OK


async def run_read(
    connection: Connection, words: Sequence[str], out: Console, err: Console, *, as_json: bool
) -> int:
    if len(words) != 1:
        raise UsageError("give one URI: read SERVER URI (see `mcp-client resources SERVER`)")
    uri = words[0]
    ui = terminal_ui(err)
    with ui.status.show(f"Connecting to {connection.label}…"):
        async with connection.connect(ui, ui.elicitation_complete_callback, ui.status) as client:
            ui.status.update(f"Reading {uri}…")
            result = await client.read_resource(uri)
    if as_json:
        print_json(out, result.model_dump_wire())
        return EXIT_OK
    for contents in result.contents:
        _print_contents(out, contents)
    return EXIT_OK


async def fetch_prompts(client: Client) -> list[Prompt]:
    """The server's prompts; none when it does not offer prompts."""
    if client.server_capabilities.prompts is None:
        return []
    return (await client.list_prompts()).prompts


async def fetch_resources(client: Client) -> tuple[list[Resource], list[ResourceTemplate]]:
    """The server's resources and templates; none when it does not offer resources."""
    if client.server_capabilities.resources is None:
        return [], []
    resources = (await client.list_resources()).resources
    templates = (await client.list_resource_templates()).resource_templates
    return resources, templates


def prompt_arguments(words: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` words as a prompt's arguments (always strings, as prompts take them)."""
    arguments: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise UsageError(f"prompt arguments are KEY=VALUE, got {word!r}")
        arguments[key] = value
    return arguments


def print_prompts(out: Console, prompts: Sequence[Prompt], names: Sequence[str] | None = None) -> None:
    """Each prompt (under ``names[i]`` when given) with its description and arguments."""
    if not prompts:
        out.print("(no prompts)")
    for index, prompt in enumerate(prompts):
        out.print(Text(_line(names[index] if names else prompt.name), style="bold"), soft_wrap=True)
        if prompt.description:
            out.print("  " + _line(prompt.description), soft_wrap=True, markup=False)
        for argument in prompt.arguments or ():
            need = "required" if argument.required else "optional"
            row = f"  {_line(argument.name)}  {need}"
            if argument.description:
                row += "  " + _line(argument.description)
            out.print(row, soft_wrap=True, markup=False)


def print_resources(
    out: Console,
    resources: Sequence[Resource],
    templates: Sequence[ResourceTemplate],
    servers: Sequence[str] | None = None,
    template_servers: Sequence[str] | None = None,
) -> None:
    """Each resource's URI, name and type, then the templates (with their server when given)."""
    if not resources and not templates:
        out.print("(no resources)")
    for index, resource in enumerate(resources):
        row = Text(_line(resource.uri), style="bold")
        row.append("  " + _line(resource.name))
        if resource.mime_type:
            row.append("  " + _line(resource.mime_type), style="dim")
        if servers:
            row.append(f"  [{_line(servers[index])}]", style="dim")
        out.print(row, soft_wrap=True)
        if resource.description:
            out.print("  " + _line(resource.description), soft_wrap=True, markup=False)
    for index, template in enumerate(templates):
        row = Text(_line(template.uri_template), style="bold")
        row.append("  " + _line(template.name) + "  (template)")
        if template_servers:
            row.append(f"  [{_line(template_servers[index])}]", style="dim")
        out.print(row, soft_wrap=True)


def _print_block(out: Console, block: ContentBlock) -> None:
    if isinstance(block, TextContent):
        out.print(sanitize(block.text), soft_wrap=True, markup=False)
    elif isinstance(block, EmbeddedResource):
        _print_contents(out, block.resource)
    else:
        out.print(Text(f"({block.type} content)", style="dim"), soft_wrap=True)


def _print_contents(out: Console, contents: Any) -> None:
    if isinstance(contents, TextResourceContents):
        out.print(sanitize(contents.text), soft_wrap=True, markup=False)
    elif isinstance(contents, BlobResourceContents):
        size = len(base64.b64decode(contents.blob, validate=False)) if contents.blob else 0
        kind = contents.mime_type or "binary"
        out.print(Text(f"({kind}, {size} bytes; --json shows it in base64)", style="dim"), soft_wrap=True)


def _line(text: str) -> str:
    return sanitize(text, max_length=_MAX_LINE, single_line=True)
