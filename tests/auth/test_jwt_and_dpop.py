"""private_key_jwt, DPoP and the JWT-bearer grant, checked on the wire by a server that verifies them.

The server (``_jwt_server``) verifies every client assertion and every DPoP proof with the public key
(PyJWT): headers, signature and claims. The tests assert what it saw and what the caller got.
"""

from __future__ import annotations

import os
import ssl
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx2
import jwt
import pytest
import trustme
from cryptography.hazmat.primitives.asymmetric import ec

from mcp_client import OAuthError
from mcp_client._connection.http_options import HttpOptions
from mcp_client.auth import (
    ClientCredentials,
    FileTokenStorage,
    IdJagAssertion,
    JWTBearer,
    OAuth,
    request_id_jag,
)
from mcp_client.auth._dpop import DPoPKey, DPoPNonces, present_token
from mcp_client.auth._jose import pem_of
from mcp_client.auth._jwt_assertion import ClientAssertion
from mcp_client.auth._records import StoredTokens
from tests.auth._jwt_server import JWT_BEARER, TOKEN_EXCHANGE, JwtServer
from tests.auth._loopback_app import serve

pytestmark = pytest.mark.anyio


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


async def _follow_redirect(url: str) -> str:
    """The "browser": the test authorization endpoint redirects at once; hand back the Location."""
    async with httpx2.AsyncClient(follow_redirects=False) as browser:
        return (await browser.get(url)).headers["location"]


async def test_private_key_jwt_signs_every_token_request_of_a_login_and_its_refresh() -> None:
    key = _key()
    server = JwtServer(client_id="app", client_public_key=key.public_key())
    async with serve(server.app()) as server.base:
        auth = OAuth(client_id="app", private_key=pem_of(key).decode(), authorize=_follow_redirect)
        assert "PRIVATE" not in repr(auth) and "private_key=<hidden>" in repr(auth)
        async with httpx2.AsyncClient(auth=auth) as http:
            assert (await http.post(f"{server.base}/mcp", json={})).status_code == 200
            tokens = await auth.get_tokens(f"{server.base}/mcp")
            assert tokens is not None and tokens.client_auth_method == "private_key_jwt"
            auth.clock = lambda: 2e10  # the token is now about to expire: refreshed before the request
            assert (await http.post(f"{server.base}/mcp", json={})).status_code == 200
    assert server.errors == []
    grants = [form["grant_type"] for form in server.token_requests]
    assert grants == ["authorization_code", "refresh_token"]
    assert all("client_secret" not in form for form in server.token_requests)
    assert [h["alg"] for h in server.assertion_headers] == ["ES256", "ES256"]
    assert {c["aud"] for c in server.assertions} == {server.base}  # the issuer (RFC 7523bis)
    assert len({c["jti"] for c in server.assertions}) == 2


async def test_client_credentials_with_private_key_jwt_and_dpop_on_post_get_and_delete() -> None:
    key = _key()
    server = JwtServer(client_id="svc", client_public_key=key.public_key())
    async with serve(server.app()) as server.base:
        auth = ClientCredentials("svc", private_key=key, dpop=True)
        async with httpx2.AsyncClient(auth=auth) as http:
            for method in ("POST", "GET", "DELETE"):
                response = await http.request(method, f"{server.base}/mcp")
                assert response.status_code == 200, (method, server.errors)
    assert server.errors == []
    assert [form["grant_type"] for form in server.token_requests] == ["client_credentials"]
    assert len(server.token_proofs) == 1 and "ath" not in server.token_proofs[0]["claims"]
    methods = [proof["claims"]["htm"] for proof in server.resource_proofs]
    assert methods == ["POST", "GET", "DELETE"]
    assert [scheme for _, scheme in server.resource_requests] == ["", "DPoP", "DPoP", "DPoP"]
    jtis = [p["claims"]["jti"] for p in server.token_proofs + server.resource_proofs]
    assert len(set(jtis)) == len(jtis)


@pytest.mark.parametrize("where", ["as", "rs"])
async def test_a_dpop_nonce_challenge_is_answered_once_with_the_nonce(where: str) -> None:
    server = JwtServer(as_nonce="once" if where == "as" else None, rs_nonce="once" if where == "rs" else None)
    async with serve(server.app()) as server.base:
        auth = OAuth(authorize=_follow_redirect, client_id="app", dpop=True)
        async with httpx2.AsyncClient(auth=auth) as http:
            assert (await http.post(f"{server.base}/mcp", json={})).status_code == 200
            assert (await http.post(f"{server.base}/mcp", json={})).status_code == 200
    assert server.errors == []
    if where == "as":
        nonces = [proof["claims"].get("nonce") for proof in server.token_proofs]
        assert nonces == [None, "nonce-0"]  # challenged once, retried once with the nonce
    else:
        nonces = [proof["claims"].get("nonce") for proof in server.resource_proofs]
        assert nonces == [None, "nonce-0", "nonce-0"]  # the nonce is remembered for the next request


async def test_a_token_endpoint_that_wants_a_new_nonce_forever_ends_in_an_oauth_error() -> None:
    server = JwtServer(as_nonce="forever")
    async with serve(server.app()) as server.base:
        auth = OAuth(authorize=_follow_redirect, client_id="app", dpop=True)
        async with httpx2.AsyncClient(auth=auth) as http:
            with pytest.raises(OAuthError, match="use_dpop_nonce twice in a row") as caught:
                await http.post(f"{server.base}/mcp", json={})
    assert "token endpoint" in str(caught.value)
    assert len(server.token_requests) == 2  # the first request and its one retry, no loop


async def test_an_mcp_server_that_wants_a_new_nonce_forever_ends_in_an_oauth_error() -> None:
    server = JwtServer(rs_nonce="forever")
    async with serve(server.app()) as server.base:
        auth = ClientCredentials("svc", "secret", dpop=True)
        async with httpx2.AsyncClient(auth=auth) as http:
            with pytest.raises(OAuthError, match="use_dpop_nonce twice in a row"):
                await http.post(f"{server.base}/mcp", json={})
    assert len(server.resource_proofs) == 2 and len(server.token_requests) == 1


def test_jti_is_never_repeated_across_10000_assertions_and_proofs() -> None:
    key = _key()
    assertion = ClientAssertion(key)
    dpop = DPoPKey(key)
    nonces = DPoPNonces()
    tokens = StoredTokens(access_token="at", token_type="DPoP")
    jtis: set[str] = set()
    for number in range(10_000):
        request = httpx2.Request("POST", f"https://mcp.example.com/mcp?n={number}")
        present_token(request, tokens, dpop, nonces)
        jtis.add(jwt.decode(request.headers["dpop"], options={"verify_signature": False})["jti"])
    assert len(jtis) == 10_000
    claims = [assertion.claims("c", "https://as.example.com")["jti"] for _ in range(10_000)]
    assert len(set(claims) | jtis) == 20_000


async def test_a_signed_assertion_verifies_with_the_public_key_and_a_kms_signer_is_used_as_given() -> None:
    key = _key()
    made = await ClientAssertion(key).make("c", "https://as.example.com")
    claims = jwt.decode(made, key.public_key(), algorithms=["ES256"], audience="https://as.example.com")
    assert (claims["iss"], claims["sub"], claims["exp"] - claims["iat"]) == ("c", "c", 60)
    assert jwt.get_unverified_header(made) == {"alg": "ES256", "typ": "JWT"}

    seen: list[dict[str, Any]] = []

    async def kms_sign(claims: dict[str, Any]) -> str:
        seen.append(claims)
        return jwt.encode(claims, key, algorithm="ES256", headers={"kid": "kms-1"})

    signed = await ClientAssertion(kms_sign).make("c", "https://as.example.com")
    assert jwt.get_unverified_header(signed)["kid"] == "kms-1" and seen[0]["aud"] == "https://as.example.com"


def test_a_key_file_others_can_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "client.pem"
    path.write_bytes(pem_of(_key()))
    os.chmod(path, 0o644)
    with pytest.raises(OAuthError, match=r"can be read by others \(mode 644\).*chmod 600"):
        ClientCredentials("svc", private_key=path)
    os.chmod(path, 0o600)
    assert "private_key=<hidden>" in repr(ClientCredentials("svc", private_key=path))
    with pytest.raises(OAuthError, match="not a readable PEM"):
        ClientCredentials("svc", private_key="not a key")


async def test_the_dpop_key_is_stored_with_the_tokens_and_a_restart_refreshes_with_it(tmp_path: Path) -> None:
    server = JwtServer()
    storage = FileTokenStorage(tmp_path / "tokens.json")
    async with serve(server.app()) as server.base:
        first = OAuth(client_id="app", authorize=_follow_redirect, dpop=True, storage=storage)
        async with httpx2.AsyncClient(auth=first) as http:
            assert (await http.post(f"{server.base}/mcp", json={})).status_code == 200
        assert stat.S_IMODE(os.stat(storage.path).st_mode) == 0o600
        stored = await storage.get_tokens(f"{server.base}/mcp")
        assert stored is not None and stored.token_type == "DPoP" and stored.dpop_jwk is not None
        assert "dpop_jwk" not in repr(stored)
        # A new process: no dpop= option at all, the key comes from the token file. The rotated token
        # is bound to the same key (the server refuses a refresh signed with another one).
        second = OAuth(client_id="app", authorize=_follow_redirect, storage=storage)
        second.clock = lambda: 2e10
        async with httpx2.AsyncClient(auth=second) as http:
            assert (await http.post(f"{server.base}/mcp", json={})).status_code == 200
    assert server.errors == []
    assert [form["grant_type"] for form in server.token_requests] == ["authorization_code", "refresh_token"]
    assert server.issued == ["at-0", "at-1"] and server.bound["at-1"] == server.bound["at-0"]


async def test_jwt_bearer_asks_for_a_fresh_assertion_and_reports_a_refusal_without_fallback() -> None:
    server = JwtServer()
    asked: list[tuple[str, str]] = []

    async def workload_token(audience: str, resource: str) -> str:
        asked.append((audience, resource))
        return "platform-jwt"

    async with serve(server.app()) as server.base:
        auth = JWTBearer(workload_token, client_id="workload", issuer=server.base)
        assert "platform-jwt" not in repr(auth)
        async with httpx2.AsyncClient(auth=auth) as http:
            assert (await http.post(f"{server.base}/mcp", json={})).status_code == 200
        refused = JWTBearer("refuse-me", client_id="workload")
        async with httpx2.AsyncClient(auth=refused) as http:
            with pytest.raises(OAuthError, match="invalid_grant") as caught:
                await http.post(f"{server.base}/mcp", json={})
    assert caught.value.error == "invalid_grant" and "refuse-me" not in str(caught.value)
    assert asked == [(server.base, f"{server.base}/mcp")]
    first, second = server.token_requests
    assert first["grant_type"] == JWT_BEARER and first["assertion"] == "platform-jwt"
    assert first["client_id"] == "workload" and first["resource"] == f"{server.base}/mcp"
    assert second["grant_type"] == JWT_BEARER  # one request, and no other grant after the refusal


async def test_enterprise_managed_authorization_trades_the_id_token_for_an_id_jag_and_presents_it() -> None:
    server = JwtServer()
    async with serve(server.app()) as server.base:
        id_jag = IdJagAssertion(f"{server.base}/token", "the-id-token", client_id="idp-app")
        auth = JWTBearer(id_jag, client_id="mcp-app", client_secret="s3cret")
        async with httpx2.AsyncClient(auth=auth) as http:
            assert (await http.post(f"{server.base}/mcp", json={})).status_code == 200
    exchange, grant = server.token_requests
    assert exchange["grant_type"] == TOKEN_EXCHANGE and exchange["subject_token"] == "the-id-token"
    assert exchange["audience"] == server.base and exchange["resource"] == f"{server.base}/mcp"
    assert exchange["requested_token_type"] == "urn:ietf:params:oauth:token-type:id-jag"
    assert grant["grant_type"] == JWT_BEARER and grant["assertion"] == f"id-jag-for-{server.base}"


async def test_the_id_jag_exchange_reaches_an_idp_behind_a_private_ca(tmp_path: Path) -> None:
    # A company IdP signed by the company's own CA: refused by default, trusted with verify=, and
    # JWTBearer hands its Client's options (here: the CA bundle) to the IdJagAssertion it holds.
    ca = trustme.CA()
    ca_file, cert_file, key_file = tmp_path / "ca.pem", tmp_path / "cert.pem", tmp_path / "key.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    issued = ca.issue_cert("127.0.0.1")
    issued.private_key_pem.write_to_path(str(key_file))
    for number, pem in enumerate(issued.cert_chain_pems):
        pem.write_to_path(str(cert_file), append=number > 0)
    server = JwtServer()
    async with serve(server.app(), tls=(str(cert_file), str(key_file))) as server.base:
        exchange = {"audience": server.base, "resource": f"{server.base}/mcp", "client_id": "idp-app"}
        token_endpoint = f"{server.base}/token"
        with pytest.raises(OAuthError, match=r"certificate verify failed.*verify='ca\.pem'"):
            await request_id_jag(token_endpoint, "the-id-token", **exchange)
        trusted = await request_id_jag(token_endpoint, "the-id-token", verify=str(ca_file), **exchange)
        assert trusted == f"id-jag-for-{server.base}"

        auth = JWTBearer(
            IdJagAssertion(f"{server.base}/token", "the-id-token", client_id="idp-app"), client_id="mcp-app"
        )
        auth.use_http_options(HttpOptions(verify=str(ca_file)))  # what Client(..., verify=ca) does
        async with httpx2.AsyncClient(auth=auth, verify=ssl.create_default_context(cafile=ca_file)) as http:
            assert (await http.post(f"{server.base}/mcp", json={})).status_code == 200
    grants = [form["grant_type"] for form in server.token_requests]
    assert grants == [TOKEN_EXCHANGE, TOKEN_EXCHANGE, JWT_BEARER]


def test_without_the_extra_the_options_name_the_install_and_plain_oauth_still_works() -> None:
    code = (
        "import sys\n"
        "sys.modules['jwt'] = None\n"
        "from mcp_client import OAuthError\n"
        "from mcp_client.auth import OAuth, ClientCredentials\n"
        "OAuth('x'); ClientCredentials('a', 'b')\n"
        "try:\n"
        "    OAuth(client_id='a', dpop=True)\n"
        "except OAuthError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "pip install 'mcp-elicit-client[oauth-jwt]'" in done.stdout
