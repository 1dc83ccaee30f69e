"""private_key_jwt and DPoP against a real authorization server (oidc-provider 9, tests/support).

- A client registered at the provider with its public key logs in with ``private_key_jwt`` (no
  secret anywhere), calls the guarded MCP server, and refreshes with a new signed assertion; the
  provider rotates the refresh token.
- ``dpop=True``: the provider issues a DPoP-bound JWT (``cnf.jkt``); a resource server written here
  checks every proof (signature, ``htm``/``htu``/``ath``/``iat``, and that its key is the one the
  token is bound to). After a restart (a new ``OAuth`` on the same token file, no ``dpop=``), the
  refresh is made with the stored key (the provider binds a public client's refresh token to it)
  and the rotated token is bound to the same key.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from mcp_client import Client
from mcp_client.auth import FileTokenStorage, OAuth
from mcp_client.auth._jose import pem_of, public_jwk
from tests.auth._loopback_app import serve
from tests.oidc._helpers import BrowserStep, TokenFile, tool_text
from tests.support.browser import Browser
from tests.support.oidc_provider import oidc_stack_running

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

BOUND = 120.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _thumbprint(jwk: dict[str, Any]) -> str:
    """RFC 7638 JWK thumbprint (what ``cnf.jkt`` holds)."""
    members = {k: jwk[k] for k in ("crv", "e", "kty", "n", "x", "y") if k in jwk}
    digest = hashlib.sha256(json.dumps(members, separators=(",", ":"), sort_keys=True).encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


async def test_login_and_refresh_with_private_key_jwt(
    browser: Browser, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    key_file = tmp_path / "client.pem"
    key_file.write_bytes(pem_of(key))
    os.chmod(key_file, 0o600)
    redirect_uri = f"http://127.0.0.1:{_free_port()}/callback"
    client = {
        "client_id": "pkjwt-app",
        "token_endpoint_auth_method": "private_key_jwt",
        "token_endpoint_auth_signing_alg": "ES256",
        "jwks": {"keys": [{**public_jwk(key), "use": "sig", "alg": "ES256"}]},
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "application_type": "native",
    }
    tokens = TokenFile(tmp_path / "tokens.json")
    (tmp_path / "stack").mkdir()
    with oidc_stack_running(tmp_path / "stack", extra_config={"clients": [client]}) as stack:
        auth = OAuth(
            client_id="pkjwt-app",
            private_key=key_file,
            redirect_uri=redirect_uri,
            authorize=BrowserStep(browser),
            storage=FileTokenStorage(tokens.path),
        )
        with anyio.fail_after(BOUND):
            async with Client(stack.url, auth=auth) as mcp:
                assert "pkjwt-app" in await tool_text(mcp, "whoami")
        first = tokens.tokens(stack.url)
        assert first["client_auth_method"] == "private_key_jwt" and first["refresh_token"]
        tokens.expire(stack.url)
        again = OAuth(client_id="pkjwt-app", private_key=key_file, storage=FileTokenStorage(tokens.path))
        with anyio.fail_after(BOUND):
            async with Client(stack.url, auth=again) as mcp:
                assert "pkjwt-app" in await tool_text(mcp, "whoami")
        provider = stack.provider
        assert provider.seen("grant") == ["authorization_code", "refresh_token"]
        assert provider.seen("grant_refused") == []
    assert tokens.tokens(stack.url)["refresh_token"] != first["refresh_token"]  # rotated
    assert "client_secret" not in json.dumps(tokens.read())
    tokens.assert_not_in([caplog.text])


async def test_a_dpop_bound_token_is_checked_by_the_resource_and_refreshed_with_the_stored_key(
    browser: Browser, tmp_path: Path
) -> None:
    seen: list[dict[str, Any]] = []
    problems: list[str] = []
    holder: dict[str, str] = {}

    async def check(request: Request) -> Response:
        """The resource server: the token's signature and audience, then the proof and the binding."""
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if not token:
            where = f"{holder['base']}/.well-known/oauth-protected-resource/mcp"
            return JSONResponse(
                {}, status_code=401, headers={"www-authenticate": f'DPoP resource_metadata="{where}"'}
            )
        try:
            async with httpx2.AsyncClient() as http:
                jwks = (await http.get(f"{holder['issuer']}/jwks")).json()
            signing = jwt.PyJWK(jwks["keys"][0]).key
            claims = jwt.decode(token, signing, algorithms=["RS256"], audience=f"{holder['base']}/mcp")
            proof = request.headers["dpop"]
            header = jwt.get_unverified_header(proof)
            assert header["typ"] == "dpop+jwt" and "d" not in header["jwk"]
            bound = jwt.decode(proof, jwt.PyJWK(header["jwk"]).key, algorithms=[header["alg"]])
            ath = base64.urlsafe_b64encode(hashlib.sha256(token.encode()).digest()).rstrip(b"=").decode()
            assert scheme == "DPoP", scheme
            assert bound["htm"] == request.method and bound["htu"] == f"{holder['base']}/mcp"
            assert bound["ath"] == ath and abs(bound["iat"] - time.time()) < 120
            assert claims["cnf"]["jkt"] == _thumbprint(header["jwk"]), "proof key is not the bound key"
        except (AssertionError, KeyError, jwt.PyJWTError, httpx2.HTTPError) as exc:
            problems.append(repr(exc))
            return JSONResponse({"error": "invalid_token"}, status_code=401)
        seen.append({"jkt": claims["cnf"]["jkt"], "jti": bound["jti"], "token": token})
        return JSONResponse({"ok": True})

    async def prm(request: Request) -> Response:
        document = {"resource": f"{holder['base']}/mcp", "authorization_servers": [holder["issuer"]]}
        return JSONResponse({**document, "scopes_supported": ["mcp:tools"]})

    app = Starlette(
        routes=[
            Route("/mcp", check, methods=["GET", "POST"]),
            Route("/.well-known/oauth-protected-resource/mcp", prm),
        ]
    )
    tokens = TokenFile(tmp_path / "tokens.json")
    (tmp_path / "stack").mkdir()
    with oidc_stack_running(
        tmp_path / "stack", extra_config={"features": {"dPoP": {"enabled": True}}}
    ) as stack:
        holder["issuer"] = stack.provider.issuer
        async with serve(app) as holder["base"]:
            url = f"{holder['base']}/mcp"
            auth = OAuth(
                "dpop-app", dpop=True, authorize=BrowserStep(browser), storage=FileTokenStorage(tokens.path)
            )
            with anyio.fail_after(BOUND):
                async with httpx2.AsyncClient(auth=auth) as http:
                    assert (await http.post(url, json={})).status_code == 200, problems
                    assert (await http.get(url)).status_code == 200, problems
            saved = tokens.tokens(url)
            assert saved["token_type"] == "DPoP" and saved["dpop_jwk"]["d"]
            tokens.expire(url)
            restarted = OAuth(
                "dpop-app", storage=FileTokenStorage(tokens.path)
            )  # no dpop=: the key is stored
            with anyio.fail_after(BOUND):
                async with httpx2.AsyncClient(auth=restarted) as http:
                    assert (await http.post(url, json={})).status_code == 200, problems
        assert stack.provider.seen("grant") == ["authorization_code", "refresh_token"]
        assert stack.provider.seen("grant_refused") == []
    assert problems == []
    assert len({entry["jkt"] for entry in seen}) == 1  # one key, before and after the restart
    assert len({entry["token"] for entry in seen}) == 2 and len({entry["jti"] for entry in seen}) == 3
    assert tokens.tokens(url)["refresh_token"] != saved["refresh_token"]
