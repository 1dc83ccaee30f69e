"""The API reference documents every public name, and docs/cli.md every command and exit code.

The site is built (strictly, as CI does) into a temporary folder and its inventory (``objects.inv``,
what the reference defines) is compared with the public names: ``__all__`` of ``mcp_client``,
``mcp_client.types``, ``mcp_client.schema``, ``mcp_client.auth`` and every public ``ui_adapters``
module. A name or module no page lists yet is still documented (``docs/_ext/public_names.py`` adds it
under "More names"), so this fails only when the reference itself is broken.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.extras import need

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "reference"


@pytest.mark.slow
def test_every_public_name_is_in_the_built_reference(tmp_path: Path) -> None:
    inventory_file = need("sphinx.util.inventory", extra="docs").InventoryFile
    if str(ROOT / "docs" / "_ext") not in sys.path:
        sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    from public_names import public_ui_adapters_modules  # docs/_ext: imports Sphinx too

    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html", "-d",
         str(tmp_path / "doctrees"), "docs", str(tmp_path / "html")],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    with (tmp_path / "html" / "objects.inv").open("rb") as inventory:
        loaded = inventory_file.load(inventory, "", lambda base, path: path)
    documented = {name for role, entries in loaded.items() if role.startswith("py:") for name in entries}
    modules = ["mcp_client", "mcp_client.types", "mcp_client.schema", "mcp_client.auth", "mcp_client.config"]
    modules += ["ui_adapters"]
    modules += public_ui_adapters_modules()
    missing = []
    for module_name in modules:
        module = importlib.import_module(module_name)
        assert module_name in documented, f"no reference for the module {module_name}"
        for name in getattr(module, "__all__", ()):
            if name == "__version__" or name.startswith("_"):
                continue
            home = getattr(getattr(module, name), "__module__", module_name)
            if f"{module_name}.{name}" not in documented and not _documented_elsewhere(name, documented):
                missing.append(f"{module_name}.{name} (defined in {home})")
    assert not missing, f"public names the reference does not document: {missing}"


def _documented_elsewhere(name: str, documented: set[str]) -> bool:
    """A name re-exported by a second public module (``mcp_client.auth.OAuthError``) is documented once."""
    return any(entry.endswith(f".{name}") for entry in documented)


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
