"""Reading an HTTP request's body in an ASGI gate, then handing the request on as if it were never read.

The gates in front of some test servers (`basic_auth_server.py`, `signed_server.py`,
`oidc_guarded_server.py`) decide on a POST's body (its JSON-RPC method, its signature) before the MCP app
behind them sees it. ASGI delivers the body once, as `http.request` messages from `receive`, so a gate
that reads it must give the app a `receive` that delivers the same messages again, then the live ones
(`http.disconnect`).

Imported as `_asgi_body` by the server scripts (the script's own folder is first on `sys.path`, as for
`_serve`), and as `tests.servers._asgi_body` by a test that wraps an app in its own process
(`tests/core/test_list_cache_wire.py`): it imports nothing but the standard library.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

Receive = Callable[[], Awaitable[dict[str, Any]]]


async def read_body(receive: Receive) -> tuple[bytes, Receive]:
    """`(body, replay)`: the whole body, and a `receive` for the app that delivers what was read first."""
    messages: list[dict[str, Any]] = []
    body = b""
    while True:
        message = await receive()
        messages.append(message)
        body += message.get("body", b"")
        if message["type"] != "http.request" or not message.get("more_body"):
            break

    async def replay() -> dict[str, Any]:
        return messages.pop(0) if messages else await receive()

    return body, replay
