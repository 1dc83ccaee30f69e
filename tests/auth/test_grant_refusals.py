"""The promises of the grants without a person, one test each, the refusals included.

``ClientCredentials`` takes a client secret or a private key, never both and never neither; a DPoP
proof names the request's URL without its query or fragment (RFC 9449 section 4.2), checked on the
wire by ``_jwt_server`` (which verifies every proof).
"""

from __future__ import annotations

import httpx2
import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from mcp_client.auth import ClientCredentials, JWTBearer, OAuth
from tests.auth._jwt_server import JwtServer
from tests.auth._loopback_app import serve

pytestmark = pytest.mark.anyio


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def test_client_credentials_refuses_a_secret_and_a_private_key_together() -> None:
    with pytest.raises(ValueError, match="one of them"):
        ClientCredentials("svc", "its-secret", private_key=_key())


def test_client_credentials_refuses_neither_a_secret_nor_a_private_key() -> None:
    with pytest.raises(ValueError, match="one of them"):
        ClientCredentials("svc")


def test_client_credentials_refuses_an_empty_client_id() -> None:
    with pytest.raises(ValueError, match="client_id must not be empty"):
        ClientCredentials("", "its-secret")


@pytest.mark.parametrize(
    "make",
    [
        lambda: JWTBearer("assertion", client_id="app", client_secret="s", private_key=_key()),
        lambda: OAuth(client_id="app", client_secret="s", private_key=_key()),
    ],
    ids=["JWTBearer", "OAuth"],
)
def test_the_other_grants_refuse_a_secret_and_a_private_key_together(make: object) -> None:
    with pytest.raises(ValueError, match="not both"):
        make()  # type: ignore[operator]


async def test_a_dpop_proof_names_the_url_without_its_query_or_fragment() -> None:
    server = JwtServer(client_id="svc", client_public_key=None)
    async with serve(server.app()) as server.base:
        auth = ClientCredentials("svc", "svc-secret", dpop=True)
        async with httpx2.AsyncClient(auth=auth) as http:
            response = await http.post(f"{server.base}/mcp?tenant=acme&page=2#top", json={})
            assert response.status_code == 200, server.errors
    assert server.errors == []
    assert [proof["claims"]["htu"] for proof in server.resource_proofs] == [f"{server.base}/mcp"]
    assert [proof["claims"]["htu"] for proof in server.token_proofs] == [f"{server.base}/token"]


@pytest.mark.parametrize("grant", ["ClientCredentials", "JWTBearer"])
async def test_a_token_close_to_expiry_is_replaced_before_the_request_not_after_a_401(grant: str) -> None:
    """The shared token cache (``GrantAuth``): a token about to expire is fetched anew before the
    request goes out, so the MCP server never sees the old one refused."""
    server = JwtServer(client_id="svc", client_public_key=None)
    async with serve(server.app()) as server.base:
        auth: ClientCredentials | JWTBearer = (
            ClientCredentials("svc", "svc-secret")
            if grant == "ClientCredentials"
            else JWTBearer("an-assertion")
        )
        async with httpx2.AsyncClient(auth=auth) as http:
            assert (await http.post(f"{server.base}/mcp", json={})).status_code == 200
            auth.clock = lambda: 2e10  # the token now expires within the margin
            assert (await http.post(f"{server.base}/mcp", json={})).status_code == 200
    assert server.errors == []
    assert len(server.token_requests) == 2 and len(set(server.issued)) == 2
    assert [scheme for _, scheme in server.resource_requests] == ["", "Bearer", "Bearer"]  # one 401 only
