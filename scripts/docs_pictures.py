"""Make the docs' pictures from real runs: ``python scripts/docs_pictures.py [--out DIR] [NAME ...]``.

Each terminal picture is a real ``mcp-client`` run on a pseudo-terminal (pexpect), its output replayed
on a pyte screen (what a person would see, after every cursor move and redraw), and that screen drawn
as SVG by rich's console export, colours and bold included. The browser form, the browser approval and
the two MCP Apps views (light and dark: the budget-allocator and cohort-heatmap example servers through
BrowserAppHost) are screenshots their tests take in a real headless Chromium (test_browser_form.py,
test_browser_approval.py, the apps tests; Debian's chromium and chromium-driver).
Nothing is drawn by hand: after a change to what a picture shows, run this again and commit the result.

Names: terminal-form, terminal-review, url-consent, login-headless, terminal-approval, browser-form,
browser-approval, apps-light, apps-dark (default: all).
``--out DIR`` writes them elsewhere than ``docs/pictures`` (tests/test_docs_pictures.py does).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pyte  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.style import Style  # noqa: E402
from rich.text import Text  # noqa: E402
from tests.auth.conftest import start_oauth_server  # noqa: E402
from tests.support.screen import Screen, cli_screen, screen  # noqa: E402
from tests.support.servers import free_loopback_port, run_http_server  # noqa: E402

PICTURES = ROOT / "docs" / "pictures"  # --out changes it
ENTER = "\r"
ROWS, COLUMNS = 30, 100

# pyte's colour names -> rich's; anything else is a 6-digit hex from 256-colour or true-colour codes.
_NAMES = {"brown": "yellow", "default": None}


def _colour(name: str) -> str | None:
    if name in _NAMES:
        return _NAMES[name]
    if name.startswith("bright"):
        return "bright_" + _NAMES.get(name[6:], name[6:]) if name[6:] != "brown" else "bright_yellow"
    if len(name) == 6 and all(c in "0123456789abcdefABCDEF" for c in name):
        return "#" + name
    return name


def _text_of(screen: pyte.Screen) -> Text:
    """The screen as rich ``Text``: runs of cells with the same attributes, trailing blank rows dropped."""
    last = max((y for y, line in enumerate(screen.display) if line.strip()), default=0)
    text = Text()
    for y in range(last + 1):
        row = screen.buffer[y]
        run, attributes = "", None
        for x in range(len(screen.display[y].rstrip())):
            char = row[x]
            these = (char.fg, char.bg, char.bold, char.italics, char.underscore, char.reverse)
            if these != attributes and run:
                text.append(run, _style(attributes))
                run = ""
            run, attributes = run + (char.data or " "), these
        if run:
            text.append(run, _style(attributes))
        text.append("\n")
    text.rstrip()
    return text


def _style(attributes: tuple[str, str, bool, bool, bool, bool] | None) -> Style:
    assert attributes is not None
    fg, bg, bold, italic, underline, reverse = attributes
    return Style(
        color=_colour(fg), bgcolor=_colour(bg), bold=bold, italic=italic, underline=underline, reverse=reverse
    )


def _save(term: Screen, name: str, title: str) -> None:
    term.settle(0.5)
    console = Console(record=True, width=term._screen.columns, file=io.StringIO(), color_system="truecolor")
    console.print(_text_of(term._screen), soft_wrap=True)
    path = PICTURES / f"{name}.svg"
    path.write_text(console.export_svg(title=title), encoding="utf-8")
    print(f"wrote {path}")


def _example_server(name: str) -> contextlib.AbstractContextManager[str]:
    """``examples/servers/NAME.py`` over HTTP, on port 8000 as in the docs when it is free."""
    try:
        with socket.create_server(("127.0.0.1", 8000)):
            port = 8000
    except OSError:
        port = free_loopback_port()
    script = str(ROOT / "examples" / "servers" / f"{name}.py")
    return run_http_server(lambda port: [sys.executable, script, "--http", "--port", str(port)], port=port)


def terminal_form() -> None:
    with _example_server("bistro") as url:
        args = ("call", "--mode", "legacy", url, "book_table", "date=2025-12-25", "party_size=2")
        with cli_screen(*args, rows=ROWS, columns=COLUMNS) as term:
            term.wait_for(r"Enter to choose\)")
            term.send("y" + ENTER)  # Accept Alternative: y moves to Yes, Enter confirms
            term.wait_for(r"^› 2025-12-26")  # the date, pre-filled with the schema's default
            term.send("\x15" + "2025-12-27")  # erase, type another date
            term.wait_for(r"^› 2025-12-27")
            _save(term, "terminal-form", "mcp-client call: a form question")
            term.send(ENTER)
            term.wait_for("Send these answers")
            _save(term, "terminal-review", "mcp-client call: the review before sending")
            term.send(ENTER)
            term.wait_for("Booked for 2025-12-27")


def url_consent() -> None:
    with _example_server("bistro_url") as url:
        args = ("call", "--mode", "legacy", url, "pay_deposit", "booking_id=B-1042")
        with cli_screen(*args, rows=ROWS, columns=COLUMNS, DISPLAY=":0") as term:
            term.wait_for("pay.example.com")
            term.wait_for(r"\[y/N\]|\(y/N\)|y/n", seconds=20)
            _save(term, "url-consent", "mcp-client call: a link question")
            term.send("n")


def login_headless() -> None:
    data = ROOT / "build" / "docs-pictures-data"
    for server in start_oauth_server():
        with cli_screen("login", server, rows=ROWS, columns=COLUMNS, XDG_DATA_HOME=str(data)) as term:
            term.wait_for("Paste the address here")
            _save(term, "login-headless", "mcp-client login: no browser on this machine")
            term.child.sendcontrol("c")


def terminal_approval() -> None:
    """A real Client with ``terminal_approval()`` about to call ``drop_notes`` (the approvals server)."""
    script = str(ROOT / "tests" / "ui_adapters" / "approval_terminal_script.py")
    with screen([script, "--call", "drop_notes"], rows=ROWS, columns=COLUMNS) as term:
        term.wait_for(r"o/s/a/d or Up/Down to move")
        term.send("d")  # the cursor on Deny; nothing was chosen before
        term.wait_for(r"❯ Deny")
        _save(term, "terminal-approval", "terminal_approval(): the app asks before a tool call")
        term.send(ENTER)
        term.wait_for(r"Note \(optional\)")
        term.send(ENTER)
        term.wait_for("RAN: ")


def apps() -> None:
    env = {**os.environ, "MCP_CLIENT_SCREENSHOTS": str(PICTURES)}
    test = "tests/apps/test_browser_host.py::test_docs_pictures"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", test], cwd=ROOT, env=env, check=True)
    print(f"wrote {PICTURES / 'apps-light.png'} and {PICTURES / 'apps-dark.png'}")


def browser_form() -> None:
    env = {**os.environ, "MCP_CLIENT_SCREENSHOTS": str(PICTURES)}
    test = "tests/ui_adapters/test_browser_form.py::test_every_field_kind_filled_in_and_sent"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", test], cwd=ROOT, env=env, check=True)
    print(f"wrote {PICTURES / 'browser-form.png'}")


def browser_approval() -> None:
    env = {**os.environ, "MCP_CLIENT_SCREENSHOTS": str(PICTURES)}
    test = (
        "tests/ui_adapters/test_browser_approval.py"
        "::test_the_person_denies_with_a_note_and_the_server_never_runs_it"
    )
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", test], cwd=ROOT, env=env, check=True)
    print(f"wrote {PICTURES / 'browser-approval.png'}")


PICTURES_BY_NAME: dict[str, Callable[[], None]] = {
    "terminal-form": terminal_form,
    "terminal-review": terminal_form,
    "url-consent": url_consent,
    "login-headless": login_headless,
    "terminal-approval": terminal_approval,
    "browser-form": browser_form,
    "browser-approval": browser_approval,
    "apps-light": apps,
    "apps-dark": apps,
}


def main(argv: list[str]) -> None:
    global PICTURES
    parser = argparse.ArgumentParser(description="Make the docs' pictures from real runs.")
    parser.add_argument("--out", type=Path, default=PICTURES, help="folder to write them to")
    parser.add_argument("names", nargs="*", choices=[*PICTURES_BY_NAME, []], help="default: all")
    args = parser.parse_args(argv)
    PICTURES = args.out.resolve()
    PICTURES.mkdir(parents=True, exist_ok=True)
    done: set[Callable[[], None]] = set()
    for name in args.names or list(PICTURES_BY_NAME):
        make = PICTURES_BY_NAME[name]
        if make not in done:
            done.add(make)
            make()


if __name__ == "__main__":
    main(sys.argv[1:])
