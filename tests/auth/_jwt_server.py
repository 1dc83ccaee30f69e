"""A small authorization server and MCP endpoint that check private_key_jwt assertions and DPoP proofs.

Written for the tests of ``private_key=``, ``dpop=`` and ``JWTBearer``: every assertion and every
proof is verified with PyJWT against the public key (signature, ``typ``, ``alg``, claims), and what
was seen is recorded for the test to assert on. ``as_nonce`` / ``rs_nonce`` make the token endpoint
or the MCP endpoint demand a DPoP nonce: ``"once"`` (a first proof without the current nonce is
challenged) or ``"forever"`` (every request is challenged). Loopback only (see ``_loopback_app``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode

import jwt
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_JAG = "urn:ietf:params:oauth:token-type:id-jag"


def jwk_key(jwk: dict[str, Any]) -> str:
    """What a DPoP token is bound to here: the public JWK, canonical (a thumbprint would do as well)."""
    return json.dumps({k: jwk[k] for k in sorted(jwk) if k in ("crv", "e", "kty", "n", "x", "y")})


@dataclass
class JwtServer:
    client_id: str = "svc"
    client_public_key: Any = None  # set: token requests must carry a valid private_key_jwt assertion
    as_nonce: str | None = None  # "once" | "forever"
    rs_nonce: str | None = None
    base: str = ""
    assertions: list[dict[str, Any]] = field(default_factory=list)
    assertion_headers: list[dict[str, Any]] = field(default_factory=list)
    token_requests: list[dict[str, str]] = field(default_factory=list)
    token_proofs: list[dict[str, Any]] = field(default_factory=list)
    resource_proofs: list[dict[str, Any]] = field(default_factory=list)
    resource_requests: list[tuple[str, str]] = field(default_factory=list)  # (method, authorization scheme)
    bound: dict[str, str] = field(default_factory=dict)  # access or refresh token -> bound JWK
    issued: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    nonce_counter: int = 0

    # ------------------------------------------------------------------------------------ checks

    def _verify_assertion(self, form: dict[str, str]) -> str | None:
        if form.get("client_assertion_type") != ASSERTION_TYPE:
            return "no client_assertion_type"
        token = form.get("client_assertion", "")
        header = jwt.get_unverified_header(token)
        try:
            claims = jwt.decode(
                token,
                self.client_public_key,
                algorithms=["ES256", "RS256", "PS256", "EdDSA"],
                audience=self.base,
                options={"require": ["iss", "sub", "aud", "exp", "iat", "jti"]},
            )
        except jwt.PyJWTError as exc:
            return f"assertion does not verify: {exc}"
        if claims["iss"] != self.client_id or claims["sub"] != self.client_id:
            return "iss/sub are not the client_id"
        if not 0 < claims["exp"] - claims["iat"] <= 300:
            return "assertion lifetime is not short"
        self.assertions.append(claims)
        self.assertion_headers.append(header)
        return None

    def _verify_proof(
        self, proof: str | None, method: str, url: str, token: str | None
    ) -> dict[str, Any] | str:
        if not proof:
            return "no DPoP proof"
        header = jwt.get_unverified_header(proof)
        if header.get("typ") != "dpop+jwt" or "jwk" not in header or "d" in header["jwk"]:
            return f"bad proof header {header}"
        key = jwt.PyJWK(header["jwk"]).key
        try:
            claims = jwt.decode(proof, key, algorithms=[header["alg"]], options={"require": ["iat", "jti"]})
        except jwt.PyJWTError as exc:
            return f"proof does not verify: {exc}"
        if claims.get("htm") != method or claims.get("htu") != url.split("?")[0]:
            return f"htm/htu {claims.get('htm')} {claims.get('htu')} do not match {method} {url}"
        if abs(claims["iat"] - time.time()) > 120:
            return "iat is not now"
        if token is not None:
            digest = base64.urlsafe_b64encode(hashlib.sha256(token.encode()).digest()).rstrip(b"=").decode()
            if claims.get("ath") != digest:
                return "ath does not match the token"
        return {"header": header, "claims": claims}

    def _nonce_wanted(self, policy: str | None, claims: dict[str, Any]) -> str | None:
        """The nonce to challenge with, or None when the proof is acceptable."""
        if policy is None:
            return None
        current = f"nonce-{self.nonce_counter}"
        if policy == "forever":
            self.nonce_counter += 1
            return f"nonce-{self.nonce_counter}"
        return None if claims.get("nonce") == current else current

    # ------------------------------------------------------------------------------------ routes

    async def prm(self, request: Request) -> Response:
        return JSONResponse({"resource": f"{self.base}/mcp", "authorization_servers": [self.base]})

    async def metadata(self, request: Request) -> Response:
        base = self.base
        return JSONResponse(
            {
                "issuer": base,
                "authorization_endpoint": f"{base}/authorize",
                "token_endpoint": f"{base}/token",
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["private_key_jwt", "client_secret_basic", "none"],
                "token_endpoint_auth_signing_alg_values_supported": ["ES256"],
                "dpop_signing_alg_values_supported": ["ES256"],
                "grant_types_supported": [
                    "authorization_code",
                    "refresh_token",
                    "client_credentials",
                    JWT_BEARER,
                ],
            }
        )

    async def authorize(self, request: Request) -> Response:
        query = request.query_params
        target = f"{query['redirect_uri']}?{urlencode({'code': 'the-code', 'state': query['state']})}"
        return RedirectResponse(target, status_code=302)

    async def token(self, request: Request) -> Response:
        form = {k: v[0] for k, v in parse_qs((await request.body()).decode()).items()}
        self.token_requests.append(form)
        if self.client_public_key is not None and form.get("grant_type") != TOKEN_EXCHANGE:
            problem = self._verify_assertion(form)
            if problem:
                self.errors.append(problem)
                return JSONResponse(
                    {"error": "invalid_client", "error_description": problem}, status_code=401
                )
        bound_to: str | None = None
        proof = request.headers.get("dpop")
        if proof is not None:
            checked = self._verify_proof(proof, "POST", f"{self.base}/token", None)
            if isinstance(checked, str):
                self.errors.append(checked)
                return JSONResponse(
                    {"error": "invalid_dpop_proof", "error_description": checked}, status_code=400
                )
            self.token_proofs.append(checked)
            nonce = self._nonce_wanted(self.as_nonce, checked["claims"])
            if nonce is not None:
                return JSONResponse(
                    {"error": "use_dpop_nonce"}, status_code=400, headers={"DPoP-Nonce": nonce}
                )
            bound_to = jwk_key(checked["header"]["jwk"])
        grant = form.get("grant_type")
        if grant == "refresh_token":
            previous = self.bound.get(form.get("refresh_token", ""))
            if previous is not None and previous != bound_to:
                self.errors.append("refresh with another key than the one the refresh token is bound to")
                return JSONResponse({"error": "invalid_grant"}, status_code=400)
        if grant == JWT_BEARER and form.get("assertion") == "refuse-me":
            return JSONResponse(
                {"error": "invalid_grant", "error_description": "assertion refused"}, status_code=400
            )
        if grant == TOKEN_EXCHANGE:
            return JSONResponse(
                {
                    "access_token": f"id-jag-for-{form.get('audience')}",
                    "issued_token_type": ID_JAG,
                    "token_type": "N_A",
                }
            )
        number = len(self.issued)
        access, refresh = f"at-{number}", f"rt-{number}"
        self.issued.append(access)
        if bound_to is not None:
            self.bound[access] = self.bound[refresh] = bound_to
        return JSONResponse(
            {
                "access_token": access,
                "refresh_token": refresh,
                "token_type": "DPoP" if bound_to else "Bearer",
                "expires_in": 3600,
            }
        )

    async def mcp(self, request: Request) -> Response:
        authorization = request.headers.get("authorization", "")
        scheme, _, token = authorization.partition(" ")
        self.resource_requests.append((request.method, scheme))
        where = f"{self.base}/.well-known/oauth-protected-resource/mcp"
        challenge = {"www-authenticate": f'Bearer resource_metadata="{where}"'}
        if token not in self.issued:
            return JSONResponse({"error": "invalid_token"}, status_code=401, headers=challenge)
        if token in self.bound:
            checked = self._verify_proof(request.headers.get("dpop"), request.method, str(request.url), token)
            if isinstance(checked, str) or scheme != "DPoP":
                self.errors.append(checked if isinstance(checked, str) else f"scheme {scheme}")
                return JSONResponse({"error": "invalid_token"}, status_code=401, headers=challenge)
            if jwk_key(checked["header"]["jwk"]) != self.bound[token]:
                self.errors.append("proof signed with another key than the token is bound to")
                return JSONResponse({"error": "invalid_token"}, status_code=401, headers=challenge)
            self.resource_proofs.append(checked)
            nonce = self._nonce_wanted(self.rs_nonce, checked["claims"])
            if nonce is not None:
                return JSONResponse(
                    {"error": "use_dpop_nonce"},
                    status_code=401,
                    headers={"www-authenticate": 'DPoP error="use_dpop_nonce"', "DPoP-Nonce": nonce},
                )
        return self._answer(await request.body())

    @staticmethod
    def _answer(body: bytes) -> Response:
        """Just enough MCP (the handshake, an empty tools/list) for ``Client`` to list tools; else ok."""
        try:
            message = json.loads(body) if body else None
        except ValueError:
            message = None
        if not isinstance(message, dict) or "method" not in message:
            return JSONResponse({"jsonrpc": "2.0", "id": 1, "result": {"ok": True}})
        if "id" not in message:
            return Response(status_code=202)
        method = message["method"]
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": message.get("params", {}).get("protocolVersion", "2025-11-25"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "jwt-test-server", "version": "1"},
            }
        elif method == "tools/list":
            result = {"tools": [{"name": "whoami", "inputSchema": {"type": "object"}}]}
        else:
            error = {"code": -32601, "message": f"Method not found: {method}"}
            return JSONResponse({"jsonrpc": "2.0", "id": message["id"], "error": error})
        return JSONResponse({"jsonrpc": "2.0", "id": message["id"], "result": result})

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/mcp", self.mcp, methods=["POST", "GET", "DELETE"]),
                Route("/.well-known/oauth-protected-resource/mcp", self.prm),
                Route("/.well-known/oauth-authorization-server", self.metadata),
                Route("/authorize", self.authorize),
                Route("/token", self.token, methods=["POST"]),
            ]
        )


@contextmanager
def running_in_thread(server: JwtServer) -> Iterator[str]:
    """``server`` on 127.0.0.1 in a thread of this process, for a client in another process; the MCP URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server.base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    uv = uvicorn.Server(uvicorn.Config(server.app(), log_level="error", lifespan="off"))
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield f"{server.base}/mcp"
    finally:
        uv.should_exit = True
        thread.join(timeout=10)
