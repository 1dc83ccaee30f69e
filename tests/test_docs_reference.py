"""The API reference documents every public name, and docs/cli.md every command and exit code.

The site is built (strictly, as CI does) into a temporary folder and its inventory (``objects.inv``,
what the reference defines) is compared with the public names: ``__all__`` of ``mcp_client``,
``mcp_client.types``, ``mcp_client.schema``, ``mcp_client.auth`` and every public ``ui_adapters``
module. A name or module no page lists yet is still documented (``docs/_ext/public_names.py`` adds it
under "More names"), so this fails only when the reference itself is broken.
"""

from __future__ import annotations

import html
import importlib
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.docs_examples import examples
from tests.support.extras import need

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "reference"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built once for this module's tests (strictly, as ``bash scripts/docs`` does): its html."""
    need("sphinx", extra="docs")
    out = tmp_path_factory.mktemp("docs")
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html", "-d",
         str(out / "doctrees"), "docs", str(out / "html")],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    return out / "html"


def _docs_ext() -> None:
    if str(ROOT / "docs" / "_ext") not in sys.path:
        sys.path.insert(0, str(ROOT / "docs" / "_ext"))


@pytest.mark.slow
def test_every_public_name_is_in_the_built_reference(site: Path) -> None:
    inventory_file = need("sphinx.util.inventory", extra="docs").InventoryFile
    _docs_ext()
    from public_names import public_ui_adapters_modules  # docs/_ext: imports Sphinx too

    with (site / "objects.inv").open("rb") as inventory:
        loaded = inventory_file.load(inventory, "", lambda base, path: path)
    documented = {name for role, entries in loaded.items() if role.startswith("py:") for name in entries}
    modules = ["mcp_client", "mcp_client.types", "mcp_client.schema", "mcp_client.auth", "mcp_client.config"]
    modules += ["mcp_client.apps"]
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


def _code_blocks(page: Path) -> list[str]:
    """The text of each code block of a built page, as a reader sees (and copies) it."""
    blocks = re.findall(r"<pre>(.*?)</pre>", page.read_text(encoding="utf-8"), flags=re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", block)) for block in blocks]


@pytest.mark.slow
def test_no_code_block_shows_the_doc_runners_marker(site: Path) -> None:
    """``# docs: not run (reason)`` tells the docs runner to skip a block: readers never see it."""
    marked = [example for example in examples() if example.not_run and example.page.startswith("docs/")]
    assert len(marked) > 5, "the docs have marked examples: the parser or this test went wrong"
    pages = site.rglob("*.html")
    shown = {page.relative_to(site).as_posix(): "\n".join(_code_blocks(page)) for page in pages}
    with_marker = sorted(name for name, code in shown.items() if "docs: not run" in code)
    assert not with_marker, f"pages whose code blocks show the runner's marker: {with_marker}"
    for example in marked:  # the rest of the block is still there, from its first line on
        rest = example.code.split("\n", 1)[1].rstrip("\n")
        page = example.page.removeprefix("docs/").removesuffix(".md") + ".html"
        assert rest in shown[page], f"{example.id}: the block lost more than its marker"


def test_the_marker_is_the_runners() -> None:
    """The build strips exactly the blocks the runner counts as not run (docs/_ext copies its regex)."""
    need("sphinx", extra="docs")
    _docs_ext()
    from runner_markers import without_marker

    for example in examples():
        stripped = without_marker(example.code)
        if example.not_run:
            assert stripped == example.code.split("\n", 1)[1], example.id
        else:
            assert stripped is None, example.id
    assert without_marker("# docs: not run\nprint(1)\n") is None  # no reason: the runner refuses it too


@pytest.mark.slow
def test_every_page_links_the_repository_and_the_specification(site: Path) -> None:
    conf = _conf()
    for page in ("index.html", "quickstart.html", "reference/mcp_client.html"):
        text = (site / page).read_text(encoding="utf-8")
        assert f'href="{conf.REPOSITORY}"' in text, f"{page} does not link the repository"
        assert 'href="https://modelcontextprotocol.io/specification"' in text, f"{page}: no spec link"
    index = (site / "index.html").read_text(encoding="utf-8")
    assert f'<a class="reference external" href="{conf.REPOSITORY}">the repository</a>' in index
    assert ">the MCP specification</a>" in index


def _conf() -> Any:
    spec = importlib.util.spec_from_file_location("docs_conf", ROOT / "docs" / "conf.py")
    assert spec and spec.loader
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    return conf


def test_the_repository_url_comes_from_pyproject_when_it_names_one(tmp_path: Path) -> None:
    conf = _conf()
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert conf.repository_url(pyproject) == "https://github.com/mcp-elicit-client/mcp-elicit-client"
    pyproject.write_text(
        '[project]\nname = "x"\n[project.urls]\nRepository = "https://example.org/r"\n', encoding="utf-8"
    )
    assert conf.repository_url(pyproject) == "https://example.org/r"


def _inline_code(page: Path) -> list[tuple[str, str | None]]:
    """Each inline code span of a built page's article: its text, and where it links (``None``: nowhere)."""
    text = page.read_text(encoding="utf-8")
    article = text[text.index("<article") :]
    found = re.finditer(
        r'(?:<a class="[^"]*api-name[^"]*" href="(?P<href>[^"]*)">)?'
        r'<code class="docutils literal[^>]*>(?P<code>.*?)</code>',
        article,
        flags=re.S,
    )
    return [(html.unescape(re.sub(r"<[^>]+>", "", m["code"])), m["href"]) for m in found]


@pytest.mark.slow
def test_the_apis_names_in_backticks_link_to_the_reference(site: Path) -> None:
    """`Client`, `ChatForm.restore(data)`, `client.call_tool`: the first mention on a page is a link."""
    table = (site / "reference.html").read_text(encoding="utf-8")
    first_column = re.findall(r'<tr class="row-(?:odd|even)"><td><p>(.*?)</p></td>', table, flags=re.S)
    assert len(first_column) > 20
    unlinked = [
        html.unescape(re.sub(r"<[^>]+>", "", code))
        for cell in first_column
        for linked, code in re.findall(r'(<a class="[^"]*api-name[^>]*>)?<code[^>]*>(.*?)</code>', cell)
        if not linked
    ]
    assert not unlinked, f"names of the Public names table that do not link to the reference: {unlinked}"

    quickstart = _inline_code(site / "quickstart.html")
    clients = [href for code, href in quickstart if code.startswith("Client(")]
    assert clients[0] == "reference/mcp_client.html#mcp_client.Client", quickstart
    assert all(href is None for href in clients[1:])  # the first mention, not every one
    assert ("import mcp_client", None) in quickstart  # code that is not a name stays code

    ui = dict(reversed(_inline_code(site / "ui.html")))  # the first of each text
    assert ui["ChatForm.restore(data)"] == "reference/ui_adapters.html#ui_adapters.chat.ChatForm.restore"
    assert ui["ui_adapters.chat"] == "reference/ui_adapters.html#module-ui_adapters.chat"
    assert ui["client.call_tool"] == "reference/mcp_client.html#mcp_client.Client.call_tool"
    assert ui['"done"'] is None
    titles = re.findall(r"<h[1-6]>(.*?)</h[1-6]>", (site / "ui.html").read_text(encoding="utf-8"), re.S)
    assert not any("api-name" in title for title in titles), "a heading became a link"
