"""Defaults for the browser step when the application configures none.

``loopback_redirect_uri`` picks a free port on 127.0.0.1 for the redirect (RFC 8252 section 7.3): the
``authorize`` callback listens there, or the person pastes the URL back. ``no_browser_step`` is the
``authorize`` used when none is given: ``mcp_client`` itself has no user interface, so it explains
where to get one instead of guessing (``ui_adapters.login`` shows the link, asks before opening the
browser, listens on the loopback redirect and lets a person on a headless machine paste it back).
"""

from __future__ import annotations

import socket

from mcp_client._errors import OAuthError

CALLBACK_PATH = "/callback"


def loopback_redirect_uri() -> str:
    """``http://127.0.0.1:PORT/callback`` with a port that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}{CALLBACK_PATH}"


async def no_browser_step(authorization_url: str) -> str:
    raise OAuthError(
        "this server needs you to log in with a browser, but no authorize= callback was given to OAuth; "
        "pass OAuth(authorize=ui_adapters.login.browser_login()) for the terminal (it shows the link, opens "
        "the browser on consent and catches the redirect), or your own async callback, or log in once with "
        "`mcp-client login SERVER` and use FileTokenStorage()"
    )
