"""Security properties of the OAuth support, checked against real servers on loopback.

* No token, code, verifier or secret in any log line (every logger, DEBUG), repr or error message.
* Tokens go only to the origin they were obtained for: a redirect to another origin carries none,
  and a challenge from that other origin starts no login.
* Hostile authorization servers (``file:`` endpoints, huge documents, redirects on the token
  endpoint, error messages that echo the code) end in a clear ``OAuthError`` and nothing is fetched
  from a URL they name that the rules forbid.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from mcp_client import Client, MCPClientError, OAuthError
from mcp_client.auth import FileTokenStorage, OAuth
from mcp_client.auth._pkce import AuthorizationSecrets
from tests.auth._loopback_app import Seen, serve
from tests.auth.conftest import Browser

pytestmark = pytest.mark.anyio


# --------------------------------------------------------------------------------- secrets stay secret


async def test_no_secret_in_logs_reprs_or_messages(
    oauth_server: str,
    browser: Browser,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[AuthorizationSecrets] = []
    original = AuthorizationSecrets.new

    def capture() -> AuthorizationSecrets:
        drawn.append(original())
        return drawn[-1]

    monkeypatch.setattr(AuthorizationSecrets, "new", staticmethod(capture))
    caplog.set_level(logging.DEBUG)

    async def person(url: str) -> str:
        # The person's browser is not our code: what it logs (the redirect, with the code) is not judged.
        logging.disable(logging.CRITICAL)
        try:
            return await browser(url)
        finally:
            logging.disable(logging.NOTSET)

    storage = FileTokenStorage(tmp_path)
    oauth = OAuth("e2e", authorize=person, storage=storage)
    secrets: set[str] = set()

    async def remember() -> None:
        tokens = await storage.get_tokens(oauth_server)
        assert tokens is not None and tokens.refresh_token
        secrets.update({tokens.access_token, tokens.refresh_token})
        assert tokens.issuer is not None
        client = await storage.get_client(oauth_server, tokens.issuer)
        assert client is not None and client.client_secret
        secrets.add(client.client_secret)
        for text in (repr(tokens), repr(client), repr(oauth), repr(storage), str(tokens), str(client)):
            assert not [s for s in secrets if s in text], text

    async with Client(oauth_server, auth=oauth) as client:
        await client.call_tool("whoami", {})
        await remember()
        await client.call_tool("expire_my_token", {})
        await client.call_tool("whoami", {})  # a refresh after the 401
        await remember()
    await oauth.logout(oauth_server)

    secrets.update(s.verifier for s in drawn)
    secrets.update(s.state for s in drawn)
    secrets.update(parse_qs(urlsplit(url).query)["code"][0] for url in browser.returned)
    assert len(secrets) >= 7
    logged = [record.getMessage() for record in caplog.records]
    assert any("refreshed the tokens" in line for line in logged)
    leaks = [(secret, line) for line in logged for secret in secrets if secret in line]
    assert leaks == []


# ------------------------------------------------------------------------- a small authorization server


@dataclass
class MiniAS:
    """A protected MCP endpoint and its authorization server on one origin, with hooks to misbehave.

    ``metadata`` entries override the authorization server metadata; ``token`` answers the token
    endpoint. Everything received is recorded in ``seen``.
    """

    metadata: dict[str, Any] = field(default_factory=dict[str, Any])
    token: Callable[[dict[str, str]], Response] | None = None
    metadata_body: bytes | None = None
    seen: Seen = field(default_factory=Seen)
    base: str = ""

    def app(self) -> Starlette:
        async def mcp(request: Request) -> Response:
            await self.seen.record(request)
            challenge = f'Bearer resource_metadata="{self.base}/.well-known/oauth-protected-resource/mcp"'
            return JSONResponse(
                {"error": "invalid_token"}, status_code=401, headers={"www-authenticate": challenge}
            )

        async def prm(request: Request) -> Response:
            await self.seen.record(request)
            return JSONResponse({"resource": f"{self.base}/mcp", "authorization_servers": [self.base]})

        async def metadata(request: Request) -> Response:
            await self.seen.record(request)
            if self.metadata_body is not None:
                return Response(self.metadata_body, media_type="application/json")
            document = {
                "issuer": self.base,
                "authorization_endpoint": f"{self.base}/authorize",
                "token_endpoint": f"{self.base}/token",
                "registration_endpoint": f"{self.base}/register",
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none"],
            }
            return JSONResponse({**document, **self.metadata})

        async def register(request: Request) -> Response:
            await self.seen.record(request)
            return JSONResponse(
                {"client_id": "mini-client", "token_endpoint_auth_method": "none"}, status_code=201
            )

        async def authorize(request: Request) -> Response:
            await self.seen.record(request)
            query = request.query_params
            target = f"{query['redirect_uri']}?" + urlencode(
                {"code": "mini-code-123", "state": query["state"]}
            )
            return RedirectResponse(target, status_code=302)

        async def token(request: Request) -> Response:
            body = await self.seen.record(request)
            form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
            if self.token is not None:
                return self.token(form)
            return JSONResponse({"access_token": "mini-access", "token_type": "Bearer", "expires_in": 60})

        async def anything(request: Request) -> Response:
            await self.seen.record(request)
            return Response("nothing here", status_code=404)

        return Starlette(
            routes=[
                Route("/mcp", mcp, methods=["POST", "GET", "DELETE"]),
                Route("/.well-known/oauth-protected-resource/mcp", prm),
                Route("/.well-known/oauth-authorization-server", metadata),
                Route("/register", register, methods=["POST"]),
                Route("/authorize", authorize),
                Route("/token", token, methods=["POST"]),
                Route("/{path:path}", anything, methods=["GET", "POST"]),
            ]
        )


@asynccontextmanager
async def mini_as(**options: Any) -> AsyncIterator[MiniAS]:
    server = MiniAS(**options)
    async with serve(server.app()) as base:
        server.base = base
        yield server


async def _connect(url: str, browser: Browser) -> None:
    async with Client(url, mode="legacy", auth=OAuth("t", authorize=browser)) as client:
        await client.list_tools()


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"token_endpoint": "file:///etc/passwd"}, "uses file:"),
        ({"authorization_endpoint": "javascript:alert(document.cookie)"}, "uses javascript:"),
        ({"registration_endpoint": "http://203.0.113.9/register"}, "must use https"),
        ({"issuer": "https://attacker.example.com"}, "refusing to use it"),
        ({"code_challenge_methods_supported": ["plain"]}, "PKCE S256"),
    ],
)
async def test_hostile_metadata_ends_in_a_clear_error_before_anything_else_is_fetched(
    browser: Browser, override: dict[str, Any], message: str
) -> None:
    async with mini_as(metadata=override) as server:
        with pytest.raises(OAuthError, match=message) as caught:
            await _connect(f"{server.base}/mcp", browser)
        assert isinstance(caught.value, MCPClientError)
        assert server.seen.paths() == [
            "/mcp",
            "/.well-known/oauth-protected-resource/mcp",
            "/.well-known/oauth-authorization-server",
        ]
    assert browser.opened == []


async def test_a_huge_metadata_document_is_refused(browser: Browser) -> None:
    async with mini_as(metadata_body=b'{"issuer": "' + b"x" * (8 * 1024 * 1024) + b'"}') as server:
        with pytest.raises(OAuthError, match="more than"):
            await _connect(f"{server.base}/mcp", browser)


async def test_the_token_request_never_follows_a_redirect(browser: Browser) -> None:
    async with mini_as() as elsewhere, mini_as() as server:
        server.token = lambda form: RedirectResponse(f"{elsewhere.base}/token", status_code=307)
        with pytest.raises(OAuthError, match=r"token endpoint .* refused the request \(HTTP 307\)"):
            await _connect(f"{server.base}/mcp", browser)
        assert elsewhere.seen.requests == []  # the code and verifier went nowhere else


async def test_an_error_that_echoes_the_code_or_verifier_is_redacted(browser: Browser) -> None:
    def echo(form: dict[str, str]) -> Response:
        detail = f"code {form['code']} with verifier {form['code_verifier']} is not valid"
        return JSONResponse({"error": "invalid_grant", "error_description": detail}, status_code=400)

    async with mini_as(token=echo) as server:
        with pytest.raises(OAuthError, match="invalid_grant") as caught:
            await _connect(f"{server.base}/mcp", browser)
    message = str(caught.value)
    assert "mini-code-123" not in message and "[redacted]" in message
    assert caught.value.error == "invalid_grant"


# --------------------------------------------------------------------------------- one origin only


async def test_a_redirect_to_another_origin_carries_no_token_and_starts_no_login(
    oauth_server: str, browser: Browser
) -> None:
    """Server A (protected by the SDK's authorization server) sends an authorized request on to B."""
    a_seen, b_seen = Seen(), Seen()
    origin = oauth_server.rsplit("/", 1)[0]
    urls: dict[str, str] = {}

    async def a_mcp(request: Request) -> Response:
        await a_seen.record(request)
        if request.headers.get("authorization", "").startswith("Bearer at-"):
            return RedirectResponse(f"{urls['b']}/mcp", status_code=307)
        challenge = f'Bearer resource_metadata="{urls["a"]}/.well-known/oauth-protected-resource/mcp"'
        return JSONResponse(
            {"error": "invalid_token"}, status_code=401, headers={"www-authenticate": challenge}
        )

    async def a_prm(request: Request) -> Response:
        return JSONResponse({"resource": f"{urls['a']}/mcp", "authorization_servers": [origin]})

    async def b_any(request: Request) -> Response:
        await b_seen.record(request)
        challenge = f'Bearer resource_metadata="{urls["b"]}/.well-known/oauth-protected-resource/mcp"'
        return JSONResponse(
            {"error": "invalid_token"}, status_code=401, headers={"www-authenticate": challenge}
        )

    a_app = Starlette(
        routes=[
            Route("/mcp", a_mcp, methods=["POST", "GET", "DELETE"]),
            Route("/.well-known/oauth-protected-resource/mcp", a_prm),
        ]
    )
    b_app = Starlette(routes=[Route("/{path:path}", b_any, methods=["GET", "POST", "DELETE"])])
    async with serve(a_app) as urls["a"], serve(b_app) as urls["b"]:
        oauth = OAuth("t", authorize=browser)
        await oauth.login(f"{urls['a']}/mcp")  # so the redirected request is not one that just logged in
        with pytest.raises(MCPClientError):
            async with Client(f"{urls['a']}/mcp", mode="legacy", auth=oauth) as client:
                await client.list_tools()

    assert len(browser.opened) == 1  # one login, for A
    assert [h for h in a_seen.authorization_headers() if h.startswith("Bearer at-")]  # A did get the token
    assert b_seen.authorization_headers() == []  # B never did
    assert "/.well-known/oauth-protected-resource/mcp" not in b_seen.paths()  # and B's 401 started nothing
