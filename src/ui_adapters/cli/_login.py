"""``mcp-client login`` and ``logout``, and the OAuth that every http(s) connection of the CLI carries.

``tools`` and ``call`` connect with ``OAuth(authorize=BrowserLogin(...), storage=FileTokenStorage())``:
a server that answers 401 starts the login by itself (the status spinner steps aside while the
person logs in), and the tokens are kept for the next run. ``login`` logs in before any call (from
the server's well-known metadata), ``logout`` revokes and forgets. A ``--header Authorization: ...``
given by the user turns the CLI's own OAuth off: the user is managing authorization then.
"""

from __future__ import annotations

import datetime
import sys
from collections.abc import Sequence
from typing import TextIO

from prompt_toolkit.output import create_output
from rich.console import Console
from rich.text import Text

from mcp_client.auth import FileTokenStorage, OAuth, StoredTokens
from ui_adapters.cli._exit import EXIT_OK, UsageError
from ui_adapters.cli._status import StatusLine
from ui_adapters.login import BrowserLogin
from ui_adapters.text import sanitize

__all__ = ["CLIENT_NAME", "cli_oauth", "run_login", "run_logout"]

CLIENT_NAME = "mcp-client"


class _StatusAwareLogin:
    """The browser step with the status spinner off the screen while the person logs in."""

    def __init__(self, inner: BrowserLogin, status: StatusLine | None) -> None:
        self._inner = inner
        self._status = status

    async def __call__(self, authorization_url: str) -> str:
        if self._status is not None:
            self._status.pause()
        try:
            return await self._inner(authorization_url)
        finally:
            if self._status is not None:
                self._status.resume()


def cli_oauth(server: str, status: StatusLine | None = None, scopes: Sequence[str] | None = None) -> OAuth:
    """The CLI's OAuth for ``server``: tokens in the user's ``FileTokenStorage``, the login in this terminal.

    Questions and the link go to stdout when stdin and stdout are both the terminal, else to stderr,
    so ``--json`` output stays clean; a piped stdin is read for a pasted redirect address.
    """
    stream = sys.stdout if _isatty(sys.stdin) and _isatty(sys.stdout) else sys.stderr
    console = Console(file=stream, highlight=False, emoji=False, markup=False)
    login = BrowserLogin(server=server, console=console, output=create_output(stdout=stream))
    return OAuth(
        CLIENT_NAME,
        scopes=list(scopes) if scopes else None,
        authorize=_StatusAwareLogin(login, status),
        storage=FileTokenStorage(),
    )


async def run_login(server: str, out: Console, err: Console, *, scopes: Sequence[str]) -> int:
    """Log in to ``server`` now and say for how long the tokens hold."""
    _require_url(server, "login")
    oauth = cli_oauth(server, scopes=scopes)
    tokens = await oauth.login(server)
    line = Text("Logged in to ", style="green")
    line.append(sanitize(server, single_line=True), style="bold")
    out.print(line, soft_wrap=True)
    for detail in _describe(tokens):
        out.print(Text("  " + detail), soft_wrap=True)
    assert isinstance(oauth.storage, FileTokenStorage)
    out.print(Text(f"  tokens kept in {oauth.storage.path}", style="dim"), soft_wrap=True)
    return EXIT_OK


async def run_logout(server: str, out: Console, err: Console) -> int:
    """Revoke (where the server allows) and forget the tokens and registration for ``server``."""
    _require_url(server, "logout")
    storage = FileTokenStorage()
    forgot = await OAuth(CLIENT_NAME, storage=storage).logout(server)
    name = sanitize(server, single_line=True)
    if forgot:
        out.print(
            Text(f"Logged out of {name}: tokens revoked and removed from {storage.path}."), soft_wrap=True
        )
    else:
        out.print(Text(f"Not logged in to {name}; nothing to do."), soft_wrap=True)
    return EXIT_OK


def _describe(tokens: StoredTokens) -> list[str]:
    details: list[str] = []
    if tokens.issuer:
        details.append(f"authorization server: {sanitize(tokens.issuer, single_line=True)}")
    if tokens.scope:
        details.append(f"scopes: {sanitize(tokens.scope, single_line=True)}")
    if tokens.expires_at is not None:
        when = datetime.datetime.fromtimestamp(tokens.expires_at).astimezone()
        renew = " (renewed automatically)" if tokens.refresh_token else ""
        details.append(f"access valid until {when:%Y-%m-%d %H:%M %Z}{renew}")
    return details


def _require_url(server: str, command: str) -> None:
    if not server.startswith(("http://", "https://")):
        raise UsageError(f"{command} needs the server's http(s):// URL; stdio servers have no login")


def _isatty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):
        return False
