"""The API reference (docs/reference/*.md) documents every public name; the strict build checks the rest.

Pages that use ``automodule`` get a module's ``__all__`` from autodoc itself; ``mcp_client``'s page
groups its names by hand (the client, callbacks, transports, errors), so a name added to
``mcp_client.__all__`` must be added there too, or this test says which one is missing.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import mcp_client

REFERENCE = Path(__file__).resolve().parents[1] / "docs" / "reference"
DIRECTIVE = re.compile(r"^\.\. auto(?P<kind>module|class|function|data|exception):: (?P<name>\S+)", re.M)


def _documented() -> dict[str, set[str]]:
    """``{page: {documented dotted names}}``."""
    return {
        page.name: {match["name"] for match in DIRECTIVE.finditer(page.read_text(encoding="utf-8"))}
        for page in REFERENCE.glob("*.md")
    }


def test_every_name_of_mcp_client_is_in_its_reference_page() -> None:
    documented = _documented()["mcp_client.md"]
    missing = sorted(f"mcp_client.{name}" for name in mcp_client.__all__ if name != "__version__")
    missing = [name for name in missing if name not in documented]
    assert not missing, f"add these to docs/reference/mcp_client.md: {missing}"


def test_every_public_module_has_a_reference() -> None:
    everywhere = set().union(*_documented().values())
    public = ["mcp_client.types", "mcp_client.schema", "mcp_client.auth", "ui_adapters"]
    public += [
        f"ui_adapters.{path.stem}"
        for path in sorted((REFERENCE.parents[1] / "src" / "ui_adapters").glob("*.py"))
        if not path.stem.startswith("_")
    ]
    public += [
        f"ui_adapters.{path.parent.name}"
        for path in sorted((REFERENCE.parents[1] / "src" / "ui_adapters").glob("*/__init__.py"))
        if path.parent.name != "cli"  # the mcp-client command: documented as a command (docs/cli.md)
    ]
    for module in public:
        importlib.import_module(module)
    missing = sorted(set(public) - everywhere)
    assert not missing, f"public modules without a reference page section: {missing}"


def test_the_cli_page_has_every_command_and_exit_code() -> None:
    """docs/cli.md against the real parser and exit codes: a new command or code must be documented."""
    from ui_adapters.cli import _exit
    from ui_adapters.cli._parser import build_parser

    page = (REFERENCE.parent / "cli.md").read_text(encoding="utf-8")
    parser = build_parser()
    commands = next(action for action in parser._actions if action.dest == "command").choices
    assert commands, "the parser has no sub-commands?"
    missing = [name for name in commands if f"mcp-client {name}" not in page]
    assert not missing, f"commands missing from docs/cli.md: {missing}"
    codes = {
        value for name, value in vars(_exit).items() if name.startswith("EXIT_") and isinstance(value, int)
    }
    rows = {int(code) for code in re.findall(r"^\| (\d+) \|", page, flags=re.M)}
    assert codes == rows, f"exit codes in the code {sorted(codes)}, in docs/cli.md {sorted(rows)}"
