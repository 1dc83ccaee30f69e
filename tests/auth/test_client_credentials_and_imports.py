"""``ClientCredentials`` against a small authorization server, and what importing the auth package costs."""

from __future__ import annotations

import base64
import subprocess
import sys
from urllib.parse import parse_qs

import httpx2
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from mcp_client import OAuthError
from mcp_client.auth import ClientCredentials
from tests.auth._loopback_app import Seen, serve

pytestmark = pytest.mark.anyio


async def test_client_credentials_grant_with_basic_auth_and_one_retry() -> None:
    """The SDK's authorization server has no client_credentials grant, so this one is ours (RFC 6749 4.4)."""
    seen = Seen()
    urls: dict[str, str] = {}
    issued: list[str] = []

    async def mcp(request: Request) -> Response:
        await seen.record(request)
        if issued and request.headers.get("authorization") == f"Bearer {issued[-1]}":
            return JSONResponse({"jsonrpc": "2.0", "id": 1, "result": {"ok": True}})
        where = f"{urls['base']}/.well-known/oauth-protected-resource/mcp"
        challenge = f'Bearer scope="jobs:run", resource_metadata="{where}"'
        return JSONResponse(
            {"error": "invalid_token"}, status_code=401, headers={"www-authenticate": challenge}
        )

    async def prm(request: Request) -> Response:
        return JSONResponse({"resource": f"{urls['base']}/mcp", "authorization_servers": [urls["base"]]})

    async def metadata(request: Request) -> Response:
        base = urls["base"]
        return JSONResponse(
            {
                "issuer": base,
                "authorization_endpoint": f"{base}/authorize",
                "token_endpoint": f"{base}/token",
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic"],
            }
        )

    async def token(request: Request) -> Response:
        body = await seen.record(request)
        form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
        expected = "Basic " + base64.b64encode(b"svc:svc-secret").decode()
        if request.headers.get("authorization") != expected or form.get("grant_type") != "client_credentials":
            return JSONResponse({"error": "invalid_client"}, status_code=401)
        assert form["scope"] == "jobs:run" and form["resource"] == f"{urls['base']}/mcp"
        issued.append(f"cc-{len(issued)}")
        return JSONResponse({"access_token": issued[-1], "token_type": "Bearer", "expires_in": 300})

    app = Starlette(
        routes=[
            Route("/mcp", mcp, methods=["POST"]),
            Route("/.well-known/oauth-protected-resource/mcp", prm),
            Route("/.well-known/oauth-authorization-server", metadata),
            Route("/token", token, methods=["POST"]),
        ]
    )
    async with serve(app) as urls["base"]:
        auth = ClientCredentials("svc", "svc-secret")
        assert "svc-secret" not in repr(auth)
        async with httpx2.AsyncClient(auth=auth) as http:
            first = await http.post(f"{urls['base']}/mcp", json={})
            second = await http.post(f"{urls['base']}/mcp", json={})
        assert (first.status_code, second.status_code) == (200, 200)
        assert issued == ["cc-0"]  # the token is reused, not fetched per request
        with pytest.raises(OAuthError, match="invalid_client"):
            async with httpx2.AsyncClient(auth=ClientCredentials("svc", "wrong")) as http:
                await http.post(f"{urls['base']}/mcp", json={})


def test_import_mcp_client_loads_no_auth_package_and_auth_loads_no_terminal_or_jose_library() -> None:
    code = (
        # httpx2 is in the baseline: what the auth package sends with, loaded by any HTTP client.
        "import sys, mcp_client, httpx2\n"
        "assert 'mcp_client.auth' not in sys.modules\n"
        "before = set(sys.modules)\n"
        "import mcp_client.auth\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "assert not new & {'rich', 'prompt_toolkit', 'ui_adapters'}, new\n"
        # The JOSE libraries (the oauth-jwt extra) load only for private_key= or dpop=.
        "from mcp_client.auth import OAuth, ClientCredentials, JWTBearer\n"
        "OAuth('app'); ClientCredentials('a', 'b'); JWTBearer('x.y.z', client_id='c')\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "assert not new & {'jwt', 'cryptography'}, new\n"
        "ClientCredentials('a', dpop=True, client_secret='b')\n"
        "assert 'jwt' in sys.modules and 'cryptography' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
