"""Authorization servers that echo what they were sent, or send numbers no lifetime can be.

* A token endpoint that repeats the request in its error: every secret the client sent (the client
  secret in an HTTP Basic header or in the form, a signed client assertion, a JWT-bearer assertion,
  the code and verifier) is gone from the ``OAuthError``, also where the message is cut short.
* ``expires_in`` and ``client_secret_expires_at`` as a 400-digit number or a 5,000-digit string end in
  an ``OAuthError`` naming the field, not ``OverflowError`` / ``ValueError``.

Each server is a few Starlette routes on 127.0.0.1 (``_loopback_app.serve``).
"""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote, quote_plus, unquote, urlencode

import httpx2
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from mcp_client import Client, OAuthError
from mcp_client.auth import ClientCredentials, JWTBearer, OAuth
from tests.auth._loopback_app import serve
from tests.auth.conftest import Browser

pytestmark = pytest.mark.anyio

SECRET = "s3cr3t/with+chars:and=more-than-enough-to-spot"
SPACED = "a s3cr3t with spaces, chars+/= and more than enough to spot"
"""Form encoding (``quote_plus``: spaces as ``+``) and URL encoding (``%20``) differ only with spaces."""
ASSERTION = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ3b3JrbG9hZCJ9.assertion-signature"

TokenAnswer = Callable[[dict[str, str], dict[str, str]], Response]


def echo_everything(form: dict[str, str], headers: dict[str, str]) -> Response:
    """The worst kind of error page: the whole request, raw and decoded, in the description."""
    authorization = headers.get("authorization", "")
    decoded = ""
    if authorization.lower().startswith("basic "):
        decoded = base64.b64decode(authorization[6:]).decode()
    description = (
        f"rejected authorization={authorization} decoded={decoded} unquoted={unquote(decoded)} "
        f"form={urlencode(form)} values={' '.join(form.values())}"
    )
    return JSONResponse({"error": "invalid_client", "error_description": description}, status_code=401)


@dataclass
class EchoingServer:
    """A protected MCP endpoint, its metadata, registration and a token endpoint answered by ``token``."""

    token: TokenAnswer = echo_everything
    auth_methods: tuple[str, ...] = ("client_secret_basic",)
    registration: str = '{"client_id": "reg", "token_endpoint_auth_method": "none"}'
    """The registration response as sent (raw text: a 5,000-digit string is more than json.dumps writes)."""
    base: str = ""

    def app(self) -> Starlette:
        async def mcp(request: Request) -> Response:
            where = f"{self.base}/.well-known/oauth-protected-resource/mcp"
            return JSONResponse(
                {"error": "invalid_token"},
                status_code=401,
                headers={"www-authenticate": f'Bearer resource_metadata="{where}"'},
            )

        async def prm(request: Request) -> Response:
            return JSONResponse({"resource": f"{self.base}/mcp", "authorization_servers": [self.base]})

        async def metadata(request: Request) -> Response:
            return JSONResponse(
                {
                    "issuer": self.base,
                    "authorization_endpoint": f"{self.base}/authorize",
                    "token_endpoint": f"{self.base}/token",
                    "registration_endpoint": f"{self.base}/register",
                    "code_challenge_methods_supported": ["S256"],
                    "token_endpoint_auth_methods_supported": list(self.auth_methods),
                }
            )

        async def register(request: Request) -> Response:
            return Response(self.registration, status_code=201, media_type="application/json")

        async def authorize(request: Request) -> Response:
            query = request.query_params
            target = f"{query['redirect_uri']}?" + urlencode(
                {"code": "echo-code-123", "state": query["state"]}
            )
            return RedirectResponse(target, status_code=302)

        async def token(request: Request) -> Response:
            body = await request.body()
            form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
            return self.token(form, dict(request.headers))

        return Starlette(
            routes=[
                Route("/mcp", mcp, methods=["POST", "GET", "DELETE"]),
                Route("/.well-known/oauth-protected-resource/mcp", prm),
                Route("/.well-known/oauth-authorization-server", metadata),
                Route("/register", register, methods=["POST"]),
                Route("/authorize", authorize),
                Route("/token", token, methods=["POST"]),
            ]
        )


@asynccontextmanager
async def echoing(**options: Any) -> AsyncIterator[EchoingServer]:
    server = EchoingServer(**options)
    async with serve(server.app()) as base:
        server.base = base
        yield server


async def _fail_with(auth: httpx2.Auth, url: str) -> OAuthError:
    with pytest.raises(OAuthError) as caught:
        async with httpx2.AsyncClient(auth=auth, timeout=30) as http:
            await http.post(url, json={})
    return caught.value


def _assert_scrubbed(error: OAuthError, *secrets: str) -> None:
    message = str(error)
    assert "[redacted]" in message, message
    for secret in secrets:
        for piece in (secret, base64.b64encode(f"svc:{secret}".encode()).decode(), secret[:12]):
            assert piece not in message, (piece, message)


# ------------------------------------------------------------------------------------------ secrets


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
async def test_client_credentials_secret_echoed_from_a_header_or_the_form_is_scrubbed(method: str) -> None:
    async with echoing(auth_methods=(method,)) as server:
        error = await _fail_with(ClientCredentials("svc", SECRET), f"{server.base}/mcp")
    _assert_scrubbed(error, SECRET)
    assert error.error == "invalid_client"
    assert "rejected authorization=" in str(error)  # the server's text is still shown, without the secret


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
async def test_a_secret_with_spaces_echoed_in_any_encoding_is_scrubbed(method: str) -> None:
    """The form body carries the secret form-encoded (spaces as ``+``); the server echoes it so, and
    URL-encoded, and as sent: none of the three is left in the error."""
    async with echoing(auth_methods=(method,)) as server:
        error = await _fail_with(ClientCredentials("svc", SPACED), f"{server.base}/mcp")
    message = str(error)
    assert "form=" in message and "[redacted]" in message
    for encoded in (SPACED, quote_plus(SPACED), quote(SPACED, safe="")):
        assert encoded not in message and encoded[:16] not in message, (encoded, message)


async def test_a_signed_client_assertion_echoed_back_is_scrubbed() -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    sent: list[str] = []

    def echo(form: dict[str, str], headers: dict[str, str]) -> Response:
        sent.append(form["client_assertion"])
        description = f"the assertion {form['client_assertion']} does not verify"
        return JSONResponse({"error": "invalid_client", "error_description": description}, status_code=401)

    async with echoing(token=echo, auth_methods=("private_key_jwt",)) as server:
        error = await _fail_with(ClientCredentials("svc", private_key=key), f"{server.base}/mcp")
    assert len(sent) == 1
    _assert_scrubbed(error, sent[0])


async def test_jwt_bearer_assertion_and_basic_secret_echoed_back_are_scrubbed() -> None:
    async with echoing() as server:
        auth = JWTBearer(ASSERTION, client_id="svc", client_secret=SECRET)
        error = await _fail_with(auth, f"{server.base}/mcp")
    _assert_scrubbed(error, SECRET, ASSERTION)


async def test_the_code_exchange_of_a_login_scrubs_the_basic_secret_code_and_verifier(
    browser: Browser,
) -> None:
    async with echoing() as server:
        auth = OAuth("t", client_id="svc", client_secret=SECRET, authorize=browser)
        with pytest.raises(OAuthError) as caught:
            async with Client(f"{server.base}/mcp", mode="legacy", auth=auth) as client:
                await client.list_tools()
    _assert_scrubbed(caught.value, SECRET, "echo-code-123")


async def test_a_secret_where_the_message_is_cut_short_leaves_no_part_behind() -> None:
    """The description is shortened to 200 characters; a secret across the cut must not be half shown."""

    def echo(form: dict[str, str], headers: dict[str, str]) -> Response:
        description = "x" * 190 + " " + form["client_secret"] + " " + "y" * 100
        return JSONResponse({"error": "invalid_client", "error_description": description}, status_code=401)

    async with echoing(token=echo, auth_methods=("client_secret_post",)) as server:
        error = await _fail_with(ClientCredentials("svc", SECRET), f"{server.base}/mcp")
    assert SECRET[:6] not in str(error)


async def test_a_secret_echoed_as_the_error_code_is_scrubbed_from_the_code_too() -> None:
    def echo(form: dict[str, str], headers: dict[str, str]) -> Response:
        return JSONResponse({"error": f"bad_{form['client_secret']}"}, status_code=400)

    async with echoing(token=echo, auth_methods=("client_secret_post",)) as server:
        error = await _fail_with(ClientCredentials("svc", SECRET), f"{server.base}/mcp")
    assert SECRET not in str(error) and SECRET not in (error.error or "")


# ----------------------------------------------------------------------------------------- lifetimes

HUGE_NUMBER = "9" * 400
HUGE_STRING = '"' + "9" * 5000 + '"'


def _tokens_with(expires_in: str) -> TokenAnswer:
    def answer(form: dict[str, str], headers: dict[str, str]) -> Response:
        body = f'{{"access_token": "tok", "token_type": "Bearer", "expires_in": {expires_in}}}'
        return Response(body, media_type="application/json")

    return answer


@pytest.mark.parametrize("expires_in", [HUGE_NUMBER, HUGE_STRING, "-" + HUGE_NUMBER, '"1' + "0" * 20 + '"'])
async def test_an_expires_in_no_lifetime_can_be_is_an_oauth_error_naming_it(expires_in: str) -> None:
    async with echoing(token=_tokens_with(expires_in)) as server:
        error = await _fail_with(ClientCredentials("svc", SECRET), f"{server.base}/mcp")
    assert "expires_in" in str(error) and f"{server.base}/token" in str(error)
    assert HUGE_NUMBER not in str(error)


@pytest.mark.parametrize(("expires_in", "lifetime"), [("300", 300.0), ('"300"', 300.0), ('"soon"', None)])
async def test_an_ordinary_expires_in_still_sets_the_expiry(expires_in: str, lifetime: float | None) -> None:
    async with echoing(token=_tokens_with(expires_in)) as server:
        auth = ClientCredentials("svc", SECRET)
        auth.clock = lambda: 1000.0
        with pytest.raises(OAuthError, match="rejected the token it had just been issued"):
            async with httpx2.AsyncClient(auth=auth, timeout=30) as http:
                await http.post(f"{server.base}/mcp", json={})  # this MCP endpoint takes no token
        [tokens] = auth._tokens.values()  # pyright: ignore[reportPrivateUsage]
    assert tokens.expires_at == (1000.0 + lifetime if lifetime is not None else None)


@pytest.mark.parametrize("expires_at", [HUGE_NUMBER, HUGE_STRING])
async def test_a_client_secret_expires_at_no_date_can_be_is_an_oauth_error_naming_it(
    browser: Browser, expires_at: str
) -> None:
    registration = (
        '{"client_id": "reg", "client_secret": "reg-secret", '
        '"token_endpoint_auth_method": "client_secret_basic", '
        f'"client_secret_expires_at": {expires_at}}}'
    )
    async with echoing(registration=registration) as server:
        with pytest.raises(OAuthError) as caught:
            async with Client(
                f"{server.base}/mcp", mode="legacy", auth=OAuth("t", authorize=browser)
            ) as client:
                await client.list_tools()
    assert "client_secret_expires_at" in str(caught.value) and f"{server.base}/register" in str(caught.value)
    assert browser.opened == []  # refused at registration, before any login


# --------------------------------------------------------------------------- the pieces, without I/O


def test_a_request_names_every_secret_it_carries_and_no_public_field() -> None:
    from mcp_client.auth._records import ClientRegistration
    from mcp_client.auth._tokens import code_exchange

    client = ClientRegistration("svc", SECRET, token_endpoint_auth_method="client_secret_basic")
    request = code_exchange(
        "https://as.example/token",
        client,
        code="the-code",
        verifier="the-verifier",
        redirect_uri="http://127.0.0.1:1/cb",
        resource="https://mcp.example/mcp",
    )
    found = set(request.secrets())
    assert {"the-code", "the-verifier", SECRET, f"svc:{quote(SECRET, safe='')}"} <= found
    assert {"authorization_code", "svc", "http://127.0.0.1:1/cb", "https://mcp.example/mcp"}.isdisjoint(found)


def test_redact_removes_the_longest_secret_first_and_its_encoded_forms() -> None:
    from mcp_client.auth._wire import redact

    text = f"got {SECRET} / {quote(SECRET, safe='')} / {quote_plus(SECRET)} / abc"
    assert redact(text, ["s3cr3t", SECRET, "abc"]) == "got [redacted] / [redacted] / [redacted] / abc"
    assert quote_plus(SPACED) != quote(SPACED, safe="")  # a space: the two encodings differ
    text = f"got {SPACED} / {quote(SPACED, safe='')} / {quote_plus(SPACED)}"
    assert redact(text, [SPACED]) == "got [redacted] / [redacted] / [redacted]"


@pytest.mark.parametrize(
    ("value", "seconds"),
    [(300, 300.0), ("300", 300.0), (1.5, 1.5), (10**11, 1e11), (True, None), ("²", None), ("soon", None)],
)
def test_read_seconds_takes_numbers_and_digit_strings(value: object, seconds: float | None) -> None:
    from mcp_client.auth._wire import read_seconds

    assert read_seconds(value, "expires_in") == seconds


@pytest.mark.parametrize("value", [10**11 + 1, -(10**400), "9" * 13, 1e300])
def test_read_seconds_refuses_what_no_lifetime_can_be(value: object) -> None:
    from mcp_client.auth._wire import read_seconds

    with pytest.raises(OAuthError, match="expires_in"):
        read_seconds(value, "expires_in")
