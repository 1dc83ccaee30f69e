"""A 2026-07-28 server that could not ask its question mid-call: its ``-32600`` named, with the fix.

A tool written with the official SDK's ``ctx.elicit`` sends its question as a request of its own over
the open call (the legacy back-channel). A 2026-07-28 connection has no such channel, so the server
answers the call with ``-32600`` "Cannot send 'elicitation/create': this transport context has no
back-channel for server-initiated requests." Read raw, that reads like a bug of the client's; it is a
choice of era the app can change, so the call raises ``NoBackChannelError`` saying so. Only in the
2026-07-28 era: a legacy server without a back-channel (``json_response``, ``stateless_http``) has no
other era to offer, and its error stays as it was sent.
"""

from __future__ import annotations

import re

from mcp_client._errors import MCPError, NoBackChannelError, ServerError
from mcp_client._text import one_line

__all__ = ["no_back_channel"]

INVALID_REQUEST = -32600
# The words, not the sentence: "back-channel", "back channel" or "backchannel", in any case.
_NO_BACK_CHANNEL = re.compile(r"\bback[- ]?channel", re.I)
# The request the server could not send, as the official SDK quotes it ('elicitation/create').
_METHOD = re.compile(r"\b((?:elicitation|sampling|roots)/[A-Za-z]+)\b")


def no_back_channel(error: MCPError, *, modern: bool, server: str, server_name: str | None) -> MCPError:
    """``NoBackChannelError`` for a server's "no back-channel" ``-32600`` in 2026-07-28, else ``error``.

    ``server`` is the URL or command line, ``server_name`` the name the server gave itself (if any).
    """
    if not modern or type(error) is not ServerError or error.code != INVALID_REQUEST:
        return error
    if not _NO_BACK_CHANNEL.search(error.message):
        return error
    method = _METHOD.search(error.message)
    hinted = NoBackChannelError(
        error.code,
        error.message,
        error.data,
        server=server,
        server_name=one_line(server_name, 100, replacement="") if server_name else None,
        method=method[1] if method else None,
    )
    hinted.__cause__ = error
    return hinted
