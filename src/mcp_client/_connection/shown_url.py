"""A server's URL as it may be shown: without the ``user:password@`` it may carry.

``Client("http://user:s3cret@host/mcp")`` is a real way to reach a server behind Basic auth (the HTTP
transports take the userinfo out of the URL and send it as an ``Authorization: Basic`` header when no
``auth=`` is given: ``url_credentials``). Everything that *names* the server (``Client.server``, the
transports' ``label``, error messages, log lines, the context handed to callbacks, approval requests and
audit lines, telemetry) shows it through ``without_credentials``, so the password never reaches a
screen, a log file or a trace.

Only the userinfo goes: scheme, host (its case too), port, path, query and fragment stay as given, so
the shown URL still tells which endpoint it is. ``ui_adapters.broker.stores.redact_server`` does the
same for what the question and approval stores keep (it cannot import this private module: it mirrors
it, and a test holds the two to the same answers).
"""

from __future__ import annotations

import re

__all__ = ["without_credentials"]

_URL_START = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")
"""A scheme and ``//``: the text is a URL with an authority (not a command line, not a bare name)."""


def without_credentials(url: str) -> str:
    """``url`` without the ``user:password@`` of its authority; any other text unchanged.

    The authority ends at the first ``/``, ``?`` or ``#``; its userinfo ends at its *last* ``@`` (a
    password may hold an ``@`` that the app did not percent-encode; httpx2 reads it the same way).
    """
    start = _URL_START.match(url)
    if start is None:
        return url
    head = start.end()
    end = len(url)
    for mark in "/?#":
        found = url.find(mark, head)
        if found != -1:
            end = min(end, found)
    at = url.rfind("@", head, end)
    if at == -1:
        return url
    return url[:head] + url[at + 1 :]
