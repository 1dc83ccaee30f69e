"""What the CLI says when the client fails: the error in CLI words, and advice where the cause is known.

The library's messages speak to programmers (``Client(timeout=...)``, JSON-RPC codes); a person at the
command line needs the option to change (``--timeout``, ``--mode``) or the likely mistake (a wrong
endpoint, a server that speaks only the deprecated HTTP+SSE transport).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from mcp_client import (
    CapabilityNotDeclaredError,
    MCPClientError,
    MCPError,
    MCPTimeoutError,
    UnsupportedProtocolVersionError,
    UrlElicitationRequiredError,
)

__all__ = ["advice_for", "message_for"]

_HTTP_STATUS_AS_JSONRPC = re.compile(r"(HTTP \d{3} from \S+) \(JSON-RPC error -?\d+\)")
_SSE_PROBE_SECONDS = 3.0
_SSE_PROBE_BYTES = 4096


def message_for(error: MCPClientError) -> str:
    """The error's message, with library advice replaced by the matching command-line option."""
    message = str(error)
    if isinstance(error, MCPTimeoutError):
        message = message.replace("raise Client(timeout=...)", "raise --timeout SECONDS")
    # An HTTP status the transport turned into a JSON-RPC error for the era negotiation is still an
    # HTTP status to the person reading it.
    return _HTTP_STATUS_AS_JSONRPC.sub(r"\1", message)


def advice_for(error: MCPClientError, *, server: object, mode: str, roots_given: bool = False) -> list[str]:
    """Lines of advice for failures with a known cause (empty when there is nothing useful to add)."""
    from ui_adapters.cli._server_questions import ROOTS_HINT

    message = str(error)
    lowered = message.lower()
    advice: list[str] = []
    undeclared_roots = isinstance(error, CapabilityNotDeclaredError) and error.kind == "roots"
    if not roots_given and (undeclared_roots or "roots capability" in lowered):
        advice.append(ROOTS_HINT)
    if "back-channel" in lowered and mode != "legacy":
        advice.append(
            "This tool asks its question over the legacy back-channel (ctx.elicit); "
            "try again with --mode legacy."
        )
    if isinstance(error, UrlElicitationRequiredError):
        advice.append("The server needs you to visit a link first: do that, then run the command again.")
    if mode not in ("auto", "legacy") and (
        isinstance(error, UnsupportedProtocolVersionError)
        or "not initialized" in lowered
        or (isinstance(error, MCPError) and error.code in (-32600, -32601, -32000))
    ):
        advice.append(
            f"This server may not speak protocol {mode}: try --mode auto (the default, which falls "
            "back to the handshake) or --mode legacy."
        )
    if isinstance(server, str):
        if _speaks_old_sse(server):
            advice.append(
                "This endpoint speaks the deprecated HTTP+SSE transport (protocol 2024-11-05), which "
                "mcp-client does not support; use the server's streamable HTTP endpoint (often /mcp)."
            )
        elif "HTTP 404 from" in message:
            path = urlsplit(server).path or "/"
            advice.append(
                f"Nothing answers at {path}: check the URL; streamable HTTP servers usually serve /mcp."
            )
    return advice


def _speaks_old_sse(url: str) -> bool:
    """True if a GET on ``url`` opens an event stream that announces an ``endpoint`` (HTTP+SSE, 2024-11-05).

    Asked only after the connection failed, bounded in time and bytes.
    """
    import httpx

    try:
        with (
            httpx.Client(timeout=_SSE_PROBE_SECONDS) as client,
            client.stream("GET", url, headers={"Accept": "text/event-stream"}) as response,
        ):
            if not response.headers.get("content-type", "").startswith("text/event-stream"):
                return False
            seen = b""
            for chunk in response.iter_bytes():
                seen += chunk
                if b"event: endpoint" in seen or b"event:endpoint" in seen:
                    return True
                if len(seen) >= _SSE_PROBE_BYTES:
                    return False
    except (httpx.HTTPError, OSError):
        return False
    return False
