"""An MCP server behind OAuth, built on the official `mcp==2.3.0` SDK's server-side auth.

The authorization server is the SDK's (`mcp.server.auth`: metadata, dynamic registration, authorize,
token with PKCE and client authentication, revocation, protected resource metadata, bearer checks);
this file only supplies the provider it calls for storage and consent. Consent is automatic: the
authorize endpoint redirects straight back with a code, as a person clicking "Allow" would cause.
Refresh tokens rotate: each refresh revokes the refresh token it used.

    python tests/servers/oauth_server.py http --port N [--host 127.0.0.1] [--scope mcp:tools]
        [--access-ttl SECONDS]

Serves `http://127.0.0.1:N/mcp` (both eras) with the authorization server on the same origin, and
prints `OAUTH_SERVER_READY <url>` once it accepts connections.

Tools (all need a token with the configured scope):
- `whoami()`: `client=<id> scopes=<space separated> token=<serial>` (the serial, never the token).
- `auth_stats()`: JSON counters: registrations, authorizations, code_exchanges, refreshes, revocations,
  and `refresh_reuse` (a rotated-out refresh token presented again).
- `expire_my_token()`: the calling access token stops working at once (the next request gets 401).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence

from _serve import serve, transport_parser
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

READY_MARKER = "OAUTH_SERVER_READY"


class AutoApproveProvider:
    """In-memory clients, codes and tokens; every authorization request is approved at once."""

    def __init__(self, access_ttl: int) -> None:
        self.access_ttl = access_ttl
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}
        self.rotated_out: set[str] = set()
        self.serials: dict[str, int] = {}
        self.stats = {
            "registrations": 0,
            "authorizations": 0,
            "code_exchanges": 0,
            "refreshes": 0,
            "revocations": 0,
            "refresh_reuse": 0,
        }

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        self.clients[client_info.client_id] = client_info
        self.stats["registrations"] += 1

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        self.stats["authorizations"] += 1
        code = secrets.token_urlsafe(32)
        assert client.client_id is not None
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        code = self.codes.get(authorization_code)
        return code if code is not None and code.client_id == client.client_id else None

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        self.stats["code_exchanges"] += 1
        return self._issue(
            authorization_code.client_id, authorization_code.scopes, authorization_code.resource
        )

    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> RefreshToken | None:
        if refresh_token in self.rotated_out:
            self.stats["refresh_reuse"] += 1
        token = self.refresh.get(refresh_token)
        return token if token is not None and token.client_id == client.client_id else None

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        if refresh_token.token not in self.refresh:
            raise TokenError("invalid_grant", "refresh token already used")
        del self.refresh[refresh_token.token]
        self.rotated_out.add(refresh_token.token)
        self.stats["refreshes"] += 1
        return self._issue(refresh_token.client_id, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        access = self.access.get(token)
        if access is None or (access.expires_at is not None and access.expires_at < time.time()):
            return None
        return access

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        self.stats["revocations"] += 1
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)

    def _issue(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access, refresh = f"at-{secrets.token_urlsafe(24)}", f"rt-{secrets.token_urlsafe(24)}"
        expires = int(time.time()) + self.access_ttl
        self.access[access] = AccessToken(
            token=access, client_id=client_id, scopes=scopes, expires_at=expires, resource=resource
        )
        self.refresh[refresh] = RefreshToken(
            token=refresh, client_id=client_id, scopes=scopes, resource=resource
        )
        self.serials[access] = len(self.serials) + 1
        return OAuthToken(
            access_token=access,
            token_type="Bearer",
            expires_in=self.access_ttl,
            refresh_token=refresh,
            scope=" ".join(scopes) or None,
        )


def build_server(base: str, scope: str, access_ttl: int) -> MCPServer:
    provider = AutoApproveProvider(access_ttl)
    mcp = MCPServer(
        "oauth-guarded",
        auth_server_provider=provider,
        auth=AuthSettings(
            issuer_url=base,  # pyright: ignore[reportArgumentType]
            resource_server_url=f"{base}/mcp",  # pyright: ignore[reportArgumentType]
            required_scopes=[scope],
            client_registration_options=ClientRegistrationOptions(
                enabled=True, valid_scopes=[scope, "mcp:extra"]
            ),
            revocation_options=RevocationOptions(enabled=True),
            validate_token_resource=True,
        ),
    )

    @mcp.tool()
    def whoami() -> str:
        token = get_access_token()
        assert token is not None
        serial = provider.serials.get(token.token)
        return f"client={token.client_id} scopes={' '.join(token.scopes)} token={serial}"

    @mcp.tool()
    def auth_stats() -> str:
        return json.dumps(provider.stats, sort_keys=True)

    @mcp.tool()
    def expire_my_token() -> str:
        token = get_access_token()
        assert token is not None
        provider.access.pop(token.token, None)
        return "expired"

    return mcp


def main(argv: Sequence[str] | None = None) -> None:
    parser, _, http = transport_parser(__doc__, stdio=False)
    http.add_argument("--scope", default="mcp:tools", help="the scope every request needs")
    http.add_argument("--access-ttl", type=int, default=3600, help="access token lifetime in seconds")
    args = parser.parse_args(argv)
    serve(
        args,
        ready_marker=READY_MARKER,
        http_app=lambda origin: build_server(origin, args.scope, args.access_ttl).streamable_http_app(
            host=args.host
        ),
    )


if __name__ == "__main__":
    main()
