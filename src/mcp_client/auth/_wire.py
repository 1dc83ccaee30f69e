"""The HTTP exchanges of an OAuth flow as plain values, so the flow's decisions run without sockets.

The flow (``_flow``) yields an ``HttpRequest`` and is sent back an ``HttpResponse``; the driver
(``_runner``) does the actual I/O. Tests feed recorded responses straight in.

Nothing here may leak a secret: an ``HttpRequest``'s ``repr`` shows the method and URL only (the
body of a token request holds the code, the verifier, the refresh token or the client secret), and
text an authorization server sends back is cleaned with ``server_text`` before it reaches a message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode

from mcp_client._errors import OAuthError

MAX_DOCUMENT_BYTES = 256 * 1024
"""Largest metadata, registration or token response read; a hostile server cannot make us buffer more."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True, slots=True)
class HttpRequest:
    """One request the flow wants sent. ``purpose`` names it in errors ("token endpoint", ...)."""

    method: str
    url: str
    purpose: str
    headers: tuple[tuple[str, str], ...] = ()
    form: tuple[tuple[str, str], ...] | None = field(default=None, repr=False)
    json_body: Mapping[str, Any] | None = field(default=None, repr=False)
    client_assertion_audience: str | None = None
    """Set on token requests of a ``private_key_jwt`` client: the driver signs a ``client_assertion``
    for this audience (the authorization server's issuer) and adds it to the form (``_token_signing``)."""

    def body(self) -> bytes:
        """The encoded body: the form (``application/x-www-form-urlencoded``) or the JSON document."""
        if self.form is not None:
            return urlencode(self.form).encode("ascii")
        if self.json_body is not None:
            return json.dumps(self.json_body).encode("utf-8")
        return b""

    def with_changes(
        self, *, form: tuple[tuple[str, str], ...] | None = None, headers: tuple[tuple[str, str], ...] = ()
    ) -> HttpRequest:
        """The same request with ``form`` replaced (if given) and ``headers`` added."""
        return replace(self, form=self.form if form is None else form, headers=self.headers + tuple(headers))

    def form_dict(self) -> dict[str, str]:
        """The form fields as a dict (for tests and for checks on what is sent)."""
        return dict(self.form or ())

    def header(self, name: str) -> str | None:
        lowered = name.lower()
        for key, value in self.headers:
            if key.lower() == lowered:
                return value
        return None


@dataclass(frozen=True, slots=True)
class HttpResponse:
    """What came back: status, headers (lower-case names, repeated ones joined by ``", "`` except
    ``www-authenticate``, kept as a list), and the body (already bounded by the driver)."""

    status: int
    url: str
    headers: Mapping[str, str] = field(default_factory=lambda: {})
    body: bytes = field(default=b"", repr=False)
    www_authenticate: tuple[str, ...] = ()


def get_json(url: str, purpose: str) -> HttpRequest:
    return HttpRequest("GET", url, purpose, headers=(("accept", "application/json"),))


def read_json_object(response: HttpResponse, purpose: str) -> dict[str, Any]:
    """The body as a JSON object, or an ``OAuthError`` that names the URL and what is wrong with it."""
    if len(response.body) > MAX_DOCUMENT_BYTES:
        raise OAuthError(
            f"the {purpose} at {response.url} sent more than {MAX_DOCUMENT_BYTES} bytes; refusing to use it"
        )
    try:
        document = json.loads(response.body)
    except (ValueError, RecursionError):
        raise OAuthError(f"the {purpose} at {response.url} did not send valid JSON") from None
    if not isinstance(document, dict):
        raise OAuthError(f"the {purpose} at {response.url} sent JSON that is not an object")
    return document


def server_text(value: object, *, limit: int = 200) -> str:
    """Text from a server made fit for an error message: one line, no control characters, bounded."""
    if not isinstance(value, str):
        return ""
    text = _CONTROL.sub(" ", value).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with every occurrence of each (non-trivial) secret replaced by ``[redacted]``."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "[redacted]")
    return text


def oauth_error_from(response: HttpResponse, purpose: str, secrets: Iterable[str | None] = ()) -> OAuthError:
    """The ``OAuthError`` for a failed OAuth endpoint response (RFC 6749 section 5.2 error body if any)."""
    code: str | None = None
    description = ""
    try:
        document = json.loads(response.body[:MAX_DOCUMENT_BYTES])
    except (ValueError, RecursionError):
        document = None
    if isinstance(document, dict):
        code = server_text(document.get("error"), limit=80) or None
        description = server_text(document.get("error_description"))
    detail = code or f"HTTP {response.status}"
    if description:
        detail += f": {description}"
    message = redact(f"the {purpose} at {response.url} refused the request ({detail})", secrets)
    return OAuthError(message, error=code)
