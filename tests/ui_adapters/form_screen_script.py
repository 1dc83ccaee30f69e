"""One question on a real terminal, with nothing around it: what the screen tests of the form read.

    python tests/ui_adapters/form_screen_script.py form SCHEMA_JSON     # TerminalFormAdapter
    python tests/ui_adapters/form_screen_script.py link URL             # UrlAdapter (print only)
    python tests/ui_adapters/form_screen_script.py paste                # BrowserLogin, paste-back step

The screen is cleared first, so the question starts on the top row, as after `clear` (the spot where a
prompt_toolkit layout has the most room below it). What the person decided is printed last, as
``RESULT: <json>`` (``form``, ``link``) or ``LOGIN: <address>`` / ``LOGIN FAILED: <reason>``
(``paste``). Stdin may be a pty or a pipe: the adapters pick widgets or plain lines themselves.
"""

from __future__ import annotations

import json
import sys

import anyio

from mcp_client import OAuthError
from mcp_client._session.context import ClientRequestContext
from mcp_client.types import ElicitRequestFormParams, ElicitRequestURLParams, Implementation

CONTEXT = ClientRequestContext(
    server="http://127.0.0.1:8000/mcp",
    server_info=Implementation(name="screen-test", version="1.0"),
    protocol_version="2025-11-25",
    era="legacy",
)
# The redirect URI is not on loopback, so nothing listens for it: the address can only be pasted.
LOGIN_URL = (
    "https://login.example.com/authorize?response_type=code&client_id=c"
    "&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback&state=s1"
)


async def form(schema: str) -> None:
    from ui_adapters.terminal import TerminalFormAdapter

    params = ElicitRequestFormParams(message="Please answer.", requested_schema=json.loads(schema))
    result = await TerminalFormAdapter()(CONTEXT, params)
    print(f"RESULT: {json.dumps(result.model_dump_wire(), sort_keys=True)}", flush=True)


async def link(url: str) -> None:
    from ui_adapters.url import UrlAdapter

    params = ElicitRequestURLParams(message="Pay here.", url=url, elicitation_id="e1")
    result = await UrlAdapter(print_only=True)(CONTEXT, params)
    print(f"RESULT: {json.dumps(result.model_dump_wire(), sort_keys=True)}", flush=True)


async def paste() -> None:
    from ui_adapters.login import BrowserLogin

    try:
        address = await BrowserLogin(server="screen-test", print_only=True, timeout=60)(LOGIN_URL)
    except OAuthError as error:
        print(f"LOGIN FAILED: {error}", flush=True)
        return
    print(f"LOGIN: {address}", flush=True)


def main() -> None:
    if sys.stdout.isatty():
        print("\x1b[H\x1b[2J", end="", flush=True)  # as after `clear`
    what, *rest = sys.argv[1:]
    if what == "form":
        anyio.run(form, rest[0])
    elif what == "link":
        anyio.run(link, rest[0])
    else:
        anyio.run(paste)


if __name__ == "__main__":
    main()
