"""An MCP server (official `mcp==2.3.0` SDK) guarded by a real authorization server (oidc-provider).

It is a resource server only: it publishes protected resource metadata naming `--issuer`, and accepts
a request only with an RS256 JWT access token signed by a key from the issuer's JWKS, issued by that
issuer, for this server (`aud` = its `/mcp` URL) and carrying the scope `mcp:tools`. Anything else is
a 401 with a Bearer challenge. The tool `admin_report` also needs `mcp:admin`: without it the request
gets `403 insufficient_scope` (`scope="mcp:admin"`) before the tool runs, so a client has to step up.

    python tests/servers/oidc_guarded_server.py http --port N --issuer http://127.0.0.1:M

Tools: `whoami()` -> `client=<id> scopes=<space separated>` (never the token); `admin_report()` ->
`admin report for <client id>`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import anyio.to_thread
import jwt
from _asgi_body import read_body
from _serve import serve, transport_parser
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer

READY_MARKER = "OIDC_GUARDED_SERVER_READY"
REQUIRED_SCOPE = "mcp:tools"
ADMIN_SCOPE = "mcp:admin"
ADMIN_TOOL = "admin_report"


class JwtVerifier:
    """Checks signature (the issuer's JWKS), issuer, audience and expiry of a JWT access token."""

    def __init__(self, issuer: str, audience: str) -> None:
        self.issuer = issuer
        self.audience = audience
        self._keys = jwt.PyJWKClient(f"{issuer}/jwks", cache_keys=True, lifespan=60)

    def verify(self, token: str) -> AccessToken | None:
        try:
            key = self._keys.get_signing_key_from_jwt(token)
            claims: dict[str, Any] = jwt.decode(
                token,
                key.key,
                algorithms=["RS256"],
                audience=self.audience,
                issuer=self.issuer,
                options={"require": ["exp", "aud", "iss"]},
            )
        except jwt.PyJWTError:
            return None
        return AccessToken(
            token=token,
            client_id=str(claims.get("client_id", "")),
            scopes=str(claims.get("scope", "")).split(),
            expires_at=int(claims["exp"]),
            resource=self.audience,
            subject=str(claims.get("sub", "")) or None,
        )

    async def verify_token(self, token: str) -> AccessToken | None:
        return await anyio.to_thread.run_sync(self.verify, token)


class StepUpGate:
    """ASGI middleware: a `tools/call` of the admin tool needs `mcp:admin`, else 403 insufficient_scope."""

    def __init__(self, app: Any, verifier: JwtVerifier, metadata_url: str) -> None:
        self.app = app
        self.verifier = verifier
        self.metadata_url = metadata_url

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body, replay = await read_body(receive)
        if self._needs_admin(body) and not await self._has_admin(scope):
            challenge = (
                f'Bearer error="insufficient_scope", scope="{ADMIN_SCOPE}", '
                f'resource_metadata="{self.metadata_url}"'
            )
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [(b"www-authenticate", challenge.encode()), (b"content-length", b"0")],
                }
            )
            await send({"type": "http.response.body", "body": b""})
            return
        await self.app(scope, replay, send)

    @staticmethod
    def _needs_admin(body: bytes) -> bool:
        try:
            message = json.loads(body)
        except ValueError:
            return False
        return (
            isinstance(message, dict)
            and message.get("method") == "tools/call"  # pyright: ignore[reportUnknownMemberType]
            and isinstance(message.get("params"), dict)  # pyright: ignore[reportUnknownMemberType]
            and message["params"].get("name") == ADMIN_TOOL  # pyright: ignore[reportUnknownMemberType]
        )

    async def _has_admin(self, scope: dict[str, Any]) -> bool:
        headers = dict(scope["headers"])
        value = headers.get(b"authorization", b"").decode("latin-1")
        if not value.lower().startswith("bearer "):
            return True  # no token: the SDK's own check answers 401
        token = await self.verifier.verify_token(value[7:].strip())
        return token is None or ADMIN_SCOPE in token.scopes  # an invalid token: the SDK answers 401


def build_app(origin: str, issuer: str, host: str) -> Any:
    resource = f"{origin}/mcp"
    verifier = JwtVerifier(issuer, resource)
    mcp = MCPServer(
        "oidc-guarded",
        token_verifier=verifier,
        auth=AuthSettings(
            issuer_url=issuer,  # pyright: ignore[reportArgumentType]
            resource_server_url=resource,  # pyright: ignore[reportArgumentType]
            required_scopes=[REQUIRED_SCOPE],
            validate_token_resource=True,
        ),
    )

    @mcp.tool()
    def whoami() -> str:
        token = get_access_token()
        assert token is not None
        return f"client={token.client_id} scopes={' '.join(sorted(token.scopes))}"

    @mcp.tool()
    def admin_report() -> str:
        token = get_access_token()
        assert token is not None and ADMIN_SCOPE in token.scopes
        return f"admin report for {token.client_id}"

    app = mcp.streamable_http_app(host=host)
    return StepUpGate(app, verifier, f"{origin}/.well-known/oauth-protected-resource/mcp")


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, http = transport_parser(__doc__, stdio=False)
    http.add_argument("--issuer", required=True, help="the authorization server's issuer URL")
    args = parser.parse_args(argv)
    serve(args, ready_marker=READY_MARKER, http_app=lambda origin: build_app(origin, args.issuer, args.host))


if __name__ == "__main__":
    main()
