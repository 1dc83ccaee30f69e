"""What the CLI says when the client fails: the error in CLI words, and advice where the cause is known.

The library's messages speak to programmers (``Client(timeout=...)``, JSON-RPC codes); a person at the
command line needs the option to change (``--timeout``, ``--mode``) or the likely mistake (a wrong
endpoint, an HTTP+SSE server reached with `--transport http`).
"""

from __future__ import annotations

import re
import shlex
from urllib.parse import urlsplit

from mcp_client import (
    CapabilityNotDeclaredError,
    MCPClientError,
    MCPError,
    MCPTimeoutError,
    NoBackChannelError,
    OAuthError,
    UnsupportedProtocolVersionError,
    UrlElicitationRequiredError,
)

__all__ = ["advice_for", "message_for"]

_HTTP_STATUS_AS_JSONRPC = re.compile(r"(HTTP \d{3} from \S+.*?) \(JSON-RPC error -?\d+\)", re.S)
# The library's advice names its own parameters: Client(timeout=...), read_timeout_seconds.
_LIBRARY_TIMEOUT = re.compile(r"raise Client\(timeout=\.\.\.\)(?: or the call's read_timeout_seconds)?")
_NO_LOGIN_METADATA = "publishes no OAuth metadata"
_SSE_PROBE_SECONDS = 3.0
_MISSING_CAPABILITY = -32021
_TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
_SSE_PROBE_BYTES = 4096


def message_for(
    error: MCPClientError, server: str = "the server", *, mode_in_config: str | None = None
) -> str:
    """The error's message in command-line words: options instead of library parameters, no jargon.

    ``mode_in_config`` is the ``--config`` file whose entry for the server set its ``mode`` (which wins
    over ``--mode``), if one did.
    """
    from ui_adapters.cli._server_questions import NO_MODEL

    message = str(error)
    if isinstance(error, NoBackChannelError):
        fix = (
            f'set "mode": "legacy" in its entry of {mode_in_config}'
            if mode_in_config is not None
            else "try again with --mode legacy (or leave --mode out)"
        )
        return (
            f"{server} tried to ask you a question the legacy way (ctx.elicit), which a 2026-07-28 "
            f"connection has no channel for, so the question never reached you: {fix}."
        )
    if isinstance(error, MCPError) and error.message == NO_MODEL:
        # The server hears NO_MODEL ("mcp-client has no model..."); after the "mcp-client: " prefix the
        # person would read the name twice.
        return (
            "the tool asked for an answer from a language model (sampling), and this command line has "
            "no model to give one, so the call stopped there"
        )
    if isinstance(error, MCPTimeoutError):
        message = _LIBRARY_TIMEOUT.sub("raise --timeout SECONDS", message)
        message = re.sub(r"^tools/call to ", "the tool call to ", message)
    if isinstance(error, OAuthError) and _NO_LOGIN_METADATA in message:
        return (
            f"{server} does not ask for a login: it publishes no login details (no OAuth metadata), so "
            f"there is nothing to log in to. Use its tools directly: mcp-client tools {shlex.quote(server)}"
        )
    # An HTTP status the transport turned into a JSON-RPC error for the era negotiation is still an
    # HTTP status to the person reading it.
    return _HTTP_STATUS_AS_JSONRPC.sub(r"\1", message)


def advice_for(
    error: MCPClientError, *, server: object, mode: str, roots_given: bool = False, transport: str = "auto"
) -> list[str]:
    """Lines of advice for failures with a known cause (empty when there is nothing useful to add)."""
    from ui_adapters.cli._server_questions import ROOTS_HINT

    message = str(error)
    lowered = message.lower()
    advice: list[str] = []
    undeclared_roots = isinstance(error, CapabilityNotDeclaredError) and error.kind == "roots"
    if not roots_given and (undeclared_roots or "roots capability" in lowered):
        advice.append(ROOTS_HINT)
    if isinstance(error, NoBackChannelError):
        return advice  # its message says it all, and what to do
    if "back-channel" in lowered and mode == "2026-07-28":
        advice.append(
            "This tool asks its question over the legacy back-channel (ctx.elicit); "
            "try again with --mode legacy (or leave --mode out)."
        )
    if mode != "2026-07-28" and "handler returned an invalid result" in lowered:
        advice.append(
            'If this tool asks its questions the 2026-07-28 way ("input required"), its server answers '
            "them only in that protocol: try again with --mode 2026-07-28."
        )
    if _needs_tasks_extension(error):
        advice.append(
            "This tool runs only as a task (the tasks extension, which exists only in protocol "
            "2026-07-28); the server did not run it"
            + (": try again with --mode 2026-07-28." if mode == "legacy" else ".")
        )
    if isinstance(error, UrlElicitationRequiredError):
        advice.append("The server needs you to visit a link first: do that, then run the command again.")
    if (
        mode not in ("auto", "legacy")
        and not _refused_by_us(error)
        and (
            isinstance(error, UnsupportedProtocolVersionError)
            or "not initialized" in lowered
            or (isinstance(error, MCPError) and error.code in (-32600, -32601, -32000))
        )
    ):
        advice.append(
            f"This server may not speak protocol {mode}: try --mode auto (the default: the handshake "
            "when the server speaks it) or --mode legacy."
        )
    if isinstance(server, str):
        # Left to choose, the client falls back to HTTP+SSE by itself; only --transport http stops it.
        if transport == "http" and _speaks_old_sse(server):
            advice.append(
                "This endpoint speaks the older HTTP+SSE transport (protocol 2024-11-05): leave "
                "--transport out (or give --transport sse) to reach it that way."
            )
        elif "HTTP 404 from" in message:
            path = urlsplit(server).path or "/"
            advice.append(
                f"Nothing answers at {path}: check the URL; streamable HTTP servers usually serve /mcp."
            )
    return advice


def _refused_by_us(error: MCPClientError) -> bool:
    """The error is the CLI's own refusal of a server question (no model for sampling), passed back."""
    from ui_adapters.cli._server_questions import NO_MODEL

    return isinstance(error, MCPError) and error.message == NO_MODEL


def _needs_tasks_extension(error: MCPClientError) -> bool:
    """A ``-32021`` refusal naming the tasks extension (``data.requiredCapabilities.extensions``)."""
    if not (isinstance(error, MCPError) and error.code == _MISSING_CAPABILITY):
        return False
    data = error.data if isinstance(error.data, dict) else {}
    required = data.get("requiredCapabilities")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    extensions = required.get("extensions") if isinstance(required, dict) else None  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    return isinstance(extensions, dict) and _TASKS_EXTENSION in extensions


def _speaks_old_sse(url: str) -> bool:
    """True if a GET on ``url`` opens an event stream that announces an ``endpoint`` (HTTP+SSE, 2024-11-05).

    Asked only after the connection failed, bounded in time and bytes.
    """
    import httpx2

    try:
        with (
            httpx2.Client(timeout=_SSE_PROBE_SECONDS) as client,
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
    except (httpx2.HTTPError, OSError):
        return False
    return False
