"""The HTTP exchanges of an OAuth flow as plain values, so the flow's decisions run without sockets.

The flow (``_flow``) yields an ``HttpRequest`` and is sent back an ``HttpResponse``; the driver
(``_runner``) does the actual I/O. Tests feed recorded responses straight in.

Nothing here may leak a secret: an ``HttpRequest``'s ``repr`` shows the method and URL only (the
body of a token request holds the code, the verifier, the refresh token or the client secret), and
text an authorization server sends back is cleaned with ``server_text`` before it reaches a message.
A server may echo what it was sent: the driver notes every secret a request carried
(``HttpRequest.secrets``: form fields, the Basic or Bearer credentials, a signed client assertion)
on its ``HttpResponse``, and ``oauth_error_from`` removes them all from the message.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import quote, quote_plus, unquote, urlencode

from mcp_client._connection.shown_url import without_credentials
from mcp_client._errors import OAuthError
from mcp_client._text import one_line

MAX_DOCUMENT_BYTES = 256 * 1024
"""Largest metadata, registration or token response read; a hostile server cannot make us buffer more."""

MAX_SECONDS = 10**11
"""Largest ``expires_in`` / ``client_secret_expires_at`` taken (about 3,000 years): a larger number is a
server's mistake, refused with an ``OAuthError`` rather than an ``OverflowError`` from float()."""

_PUBLIC_FORM_FIELDS = frozenset(
    {
        "grant_type",
        "client_id",
        "resource",
        "scope",
        "redirect_uri",
        "token_type_hint",
        "client_assertion_type",
        "subject_token_type",
        "requested_token_type",
        "audience",
    }
)
"""Form fields that hold no secret; every other field's value is scrubbed from an error message."""


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

    def secrets(self) -> tuple[str, ...]:
        """Every secret this request carries, as it may come back: the values of the form fields that
        are not known to be public (code, verifier, refresh token, client secret, client assertion,
        assertion, subject token...), and the credentials of an ``Authorization`` header (the Basic
        pair's secret, percent-encoded and not, and the header's own value)."""
        found = [value for name, value in self.form or () if name not in _PUBLIC_FORM_FIELDS]
        authorization = self.header("authorization")
        if authorization:
            scheme, _, credentials = authorization.partition(" ")
            found.append(credentials)
            if scheme.lower() == "basic":
                found.extend(_basic_secret(credentials))
        return tuple(found)


@dataclass(frozen=True, slots=True)
class HttpResponse:
    """What came back: status, headers (lower-case names, repeated ones joined by ``", "`` except
    ``www-authenticate``, kept as a list), and the body (already bounded by the driver)."""

    status: int
    url: str
    headers: Mapping[str, str] = field(default_factory=lambda: {})
    body: bytes = field(default=b"", repr=False)
    www_authenticate: tuple[str, ...] = ()
    sent_secrets: tuple[str, ...] = field(default=(), repr=False)
    """What the request that got this answer carried (``HttpRequest.secrets``), set by the driver so
    that an error made from the answer can leave out whatever the server echoes of it."""

    @property
    def shown_url(self) -> str:
        """``url`` as a message quotes it: without any ``user:password@`` (the query stays, as in every
        URL the client shows: ``_connection.shown_url``)."""
        return without_credentials(self.url)


def _basic_secret(credentials: str) -> tuple[str, ...]:
    """The client secret (and the whole pair) of HTTP Basic credentials, encoded and decoded."""
    try:
        pair = base64.b64decode(credentials, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return ()
    _, _, secret = pair.partition(":")
    return (pair, secret, unquote(secret))


def get_json(url: str, purpose: str) -> HttpRequest:
    return HttpRequest("GET", url, purpose, headers=(("accept", "application/json"),))


def read_json_object(response: HttpResponse, purpose: str) -> dict[str, Any]:
    """The body as a JSON object, or an ``OAuthError`` that names the URL and what is wrong with it."""
    if len(response.body) > MAX_DOCUMENT_BYTES:
        raise OAuthError(
            f"the {purpose} at {response.shown_url} sent more than {MAX_DOCUMENT_BYTES} bytes; "
            "refusing to use it"
        )
    try:
        document = json.loads(response.body)
    except (ValueError, RecursionError):
        raise OAuthError(f"the {purpose} at {response.shown_url} did not send valid JSON") from None
    if not isinstance(document, dict):
        raise OAuthError(f"the {purpose} at {response.shown_url} sent JSON that is not an object")
    return document


def server_text(value: object, *, limit: int = 200) -> str:
    """Text from a server made fit for an error message: one line, no control characters, bounded."""
    return one_line(value, limit) if isinstance(value, str) else ""


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with every occurrence of each (non-trivial) secret replaced by ``[redacted]``, as sent
    and as a form or a URL encodes it; the longest first, so that no part of a longer one is left."""
    forms = {
        variant
        for secret in secrets
        if secret and len(secret) >= 4
        for variant in (secret, quote(secret, safe=""), quote_plus(secret))
    }
    for secret in sorted(forms, key=len, reverse=True):
        text = text.replace(secret, "[redacted]")
    return text


def read_seconds(value: object, what: str) -> float | None:
    """A number of seconds a server sent (a JSON number, or a string of ASCII digits), as a float.

    ``None`` when absent or not a number (the field is then ignored, as before); an ``OAuthError``
    naming ``what`` when it is larger than ``MAX_SECONDS``: a 400-digit number must not escape as
    ``OverflowError``, nor a 5,000-digit string as Python's ``ValueError`` on long integer text.
    """
    if isinstance(value, str):
        text = value.strip()
        if not (text.isascii() and text.isdigit()):
            return None
        if len(text) > len(str(MAX_SECONDS)):
            raise OAuthError(f"{what} is a number of {len(text)} digits; no lifetime is that long")
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if abs(value) > MAX_SECONDS:
        raise OAuthError(
            f"{what} is out of range (more than {MAX_SECONDS} seconds); no lifetime is that long"
        )
    return float(value)


def oauth_error_from(response: HttpResponse, purpose: str, secrets: Iterable[str | None] = ()) -> OAuthError:
    """The ``OAuthError`` for a failed OAuth endpoint response (RFC 6749 section 5.2 error body if any).

    Every secret the request carried (``response.sent_secrets``) and every one in ``secrets`` is
    removed from the server's text before it is shortened, so a cut never leaves part of one behind.
    """
    hidden = (*secrets, *response.sent_secrets)
    code: str | None = None
    description = ""
    try:
        document = json.loads(response.body[:MAX_DOCUMENT_BYTES])
    except (ValueError, RecursionError):
        document = None
    if isinstance(document, dict):
        error, text = document.get("error"), document.get("error_description")
        code = server_text(redact(error, hidden) if isinstance(error, str) else None, limit=80) or None
        description = server_text(redact(text, hidden) if isinstance(text, str) else None)
    detail = code or f"HTTP {response.status}"
    if description:
        detail += f": {description}"
    message = redact(f"the {purpose} at {response.shown_url} refused the request ({detail})", hidden)
    return OAuthError(message, error=code)
