"""``mcp-client login`` and ``logout``, and the OAuth that every http(s) connection of the CLI carries.

``tools`` and ``call`` connect with ``OAuth(authorize=BrowserLogin(...), storage=FileTokenStorage())``:
a server that answers 401 starts the login by itself (the status spinner steps aside while the
person logs in), and the tokens are kept for the next run. ``login`` logs in before any call (from
the server's well-known metadata), ``logout`` revokes and forgets. A ``--header Authorization: ...``
given by the user, or a server URL with ``user:password@`` (sent as Basic auth, which the OAuth would
replace), turns the CLI's own OAuth off: the user is managing authorization then.
"""

from __future__ import annotations

import datetime
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from prompt_toolkit.output import create_output
from rich.console import Console
from rich.text import Text

from mcp_client import OAuthError
from mcp_client.auth import FileTokenStorage, OAuth, Revocation, StoredTokens, login_reason
from ui_adapters.cli._client_keys import recall, remember
from ui_adapters.cli._exit import EXIT_OK, UsageError
from ui_adapters.cli._status import StatusLine
from ui_adapters.login import BrowserLogin
from ui_adapters.text import sanitize

__all__ = ["CLIENT_NAME", "cli_oauth", "run_login", "run_logout"]

CLIENT_NAME = "mcp-client"


class _StatusAwareLogin:
    """The browser step with the status spinner off the screen while the person logs in.

    In a script (stdin not a terminal) a saved login that stopped working is not answered with the
    whole login panel and a wait for a pasted address nobody will paste: one line says what happened
    and what to run.
    """

    def __init__(
        self, inner: BrowserLogin, status: StatusLine | None, server: str, interactive: bool
    ) -> None:
        self._inner = inner
        self._status = status
        self._server = server
        self._interactive = interactive

    async def __call__(self, authorization_url: str) -> str:
        reason = login_reason()
        if not self._interactive and reason is not None and reason.kind in ("refused", "expired"):
            name = sanitize(self._server, single_line=True)
            what = (
                f"was refused by the authorization server ({reason.error})" if reason.error else "has expired"
            )
            command = f"mcp-client login {shlex.quote(name)}"
            raise OAuthError(
                f"the saved login for {name} {what}; run `{command}` in a terminal", error=reason.error
            )
        if self._status is not None:
            self._status.pause()
        try:
            return await self._inner(authorization_url)
        finally:
            if self._status is not None:
                self._status.resume()


def cli_oauth(
    server: str,
    status: StatusLine | None = None,
    scopes: Sequence[str] | None = None,
    *,
    client_id: str | None = None,
    private_key: str | None = None,
    dpop: bool = False,
) -> OAuth:
    """The CLI's OAuth for ``server``: tokens in the user's ``FileTokenStorage``, the login in this terminal.

    Questions and the link go to stdout when stdin and stdout are both the terminal, else to stderr,
    so ``--json`` output stays clean; a piped stdin is read for a pasted redirect address.
    """
    if client_id is None and private_key is None:
        remembered = recall(server)  # a private_key_jwt login: refreshes must be signed too
        if remembered is not None:
            client_id, private_key = remembered
    stream = sys.stdout if _isatty(sys.stdin) and _isatty(sys.stdout) else sys.stderr
    console = Console(file=stream, highlight=False, emoji=False, markup=False)
    login = BrowserLogin(server=server, console=console, output=create_output(stdout=stream))
    return OAuth(
        CLIENT_NAME,
        scopes=list(scopes) if scopes else None,
        authorize=_StatusAwareLogin(login, status, server, interactive=_isatty(sys.stdin)),
        storage=FileTokenStorage(),
        client_id=client_id,
        private_key=Path(private_key).expanduser() if private_key else None,
        dpop=dpop,
    )


async def run_login(
    server: str,
    out: Console,
    err: Console,
    *,
    scopes: Sequence[str],
    client_id: str | None = None,
    private_key: str | None = None,
    dpop: bool = False,
) -> int:
    """Log in to ``server`` now and say for how long the tokens hold.

    ``client_id`` logs in as a pre-registered client; with ``private_key`` (a PEM file) that client
    authenticates with private_key_jwt; ``dpop`` binds the tokens to a key kept with them.
    """
    _require_url(server, "login")
    if private_key and not client_id:
        raise UsageError("--private-key needs --client-id (the client the key was registered for)")
    oauth = cli_oauth(server, scopes=scopes, client_id=client_id, private_key=private_key, dpop=dpop)
    tokens = await oauth.login(server)
    if client_id and private_key:
        remember(server, client_id, private_key)
    line = Text("Logged in to ", style="green")
    line.append(sanitize(server, single_line=True), style="bold")
    out.print(line, soft_wrap=True)
    for detail in _describe(tokens):
        out.print(Text("  " + detail), soft_wrap=True)
    assert isinstance(oauth.storage, FileTokenStorage)
    out.print(Text(f"  tokens kept in {oauth.storage.path}", style="dim"), soft_wrap=True)
    return EXIT_OK


async def run_logout(server: str, out: Console, err: Console) -> int:
    """Revoke (where the server allows) and forget the tokens and registration for ``server``.

    Says what really happened: which tokens the authorization server revoked, which it refused and
    why (those stay valid until they expire), and that they were removed from the file either way.
    A server never logged in to leaves the token file untouched (not even created).
    """
    _require_url(server, "logout")
    storage = FileTokenStorage()
    oauth = OAuth(CLIENT_NAME, storage=storage)
    revocation = await oauth.revoke(server)
    forgot = await oauth.logout(server, revoke=False)
    name = sanitize(server, single_line=True)
    if not forgot:
        out.print(Text(f"Not logged in to {name}; nothing to do."), soft_wrap=True)
        return EXIT_OK
    out.print(Text(f"Logged out of {name}: {_revocation_summary(revocation)}"), soft_wrap=True)
    out.print(Text(f"  the saved login was removed from {storage.path}", style="dim"), soft_wrap=True)
    return EXIT_OK


def _revocation_summary(revocation: Revocation) -> str:
    until = ""
    if revocation.expires_at is not None:
        when = datetime.datetime.fromtimestamp(revocation.expires_at).astimezone()
        until = f" (the access token until {when:%Y-%m-%d %H:%M %Z})"
    if revocation.not_tried is not None:
        reason = sanitize(revocation.not_tried, single_line=True, max_length=300)
        return f"the tokens were not revoked ({reason}); they stay valid until they expire{until}."
    parts: list[str] = []
    if revocation.revoked:
        parts.append(" and ".join(revocation.revoked) + " revoked")
    if revocation.refused:
        refused = ", ".join(
            f"{kind} ({sanitize(code, single_line=True)})" for kind, code in revocation.refused
        )
        parts.append(f"the authorization server refused to revoke the {refused}")
    summary = "; ".join(parts) or "nothing to revoke"
    if revocation.refused:
        summary += f"; what it did not revoke stays valid until it expires{until}"
    return summary + "."


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
    if tokens.client_auth_method == "private_key_jwt":
        details.append(
            f"client {sanitize(tokens.client_id or '', single_line=True)} signs in with its private key"
        )
    if tokens.token_type == "DPoP":
        details.append("tokens bound to a DPoP key (kept with them)")
    return details


def _require_url(server: str, command: str) -> None:
    if not server.startswith(("http://", "https://")):
        raise UsageError(f"{command} needs the server's http(s):// URL; stdio servers have no login")


def _isatty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):
        return False
