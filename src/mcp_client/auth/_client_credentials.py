"""``ClientCredentials``: machine-to-machine authorization (``client_credentials`` grant) as an httpx2.Auth.

No person and no browser: on a 401 the flow discovers the authorization server (as ``OAuth`` does),
asks its token endpoint for a token with the client's own credentials, and retries the request once.
A token close to expiry is replaced before the request. Tokens live in memory only.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcp_client.auth import _flow, _scopes
from mcp_client.auth._challenge import Challenge
from mcp_client.auth._grant_auth import GrantAuth

__all__ = ["ClientCredentials"]


class ClientCredentials(GrantAuth):
    """``Client(url, auth=ClientCredentials(client_id, client_secret))`` for a service, not a person.

    ``scopes`` are requested as given; ``None`` asks for what the server's challenge or metadata names.
    The client authenticates with HTTP Basic unless the server supports only ``client_secret_post``;
    with ``private_key`` instead of a secret, with a signed ``private_key_jwt`` assertion on every
    token request (see ``OAuth`` for the key forms). ``dpop=True`` (or a key) binds the tokens to a
    DPoP key (RFC 9449). Both need the ``oauth-jwt`` extra.
    Failures end in ``OAuthError``; the secret never appears in a message or a repr.
    """

    def __init__(
        self,
        client_id: str,
        client_secret: str | None = None,
        scopes: Sequence[str] | str | None = None,
        *,
        timeout: float = 30.0,
        private_key: object | None = None,
        signing_algorithm: str | None = None,
        dpop: object = False,
    ) -> None:
        if not client_id:
            raise ValueError("client_id must not be empty")
        if (client_secret is None) == (private_key is None):
            raise ValueError("ClientCredentials needs a client_secret or a private_key (one of them)")
        super().__init__(
            dpop=dpop, private_key=private_key, signing_algorithm=signing_algorithm, timeout=timeout
        )
        self._client_id = client_id
        self._client_secret = client_secret
        selected = _scopes.join(scopes)
        self._scopes = tuple(selected.split()) if selected else (() if scopes is not None else None)

    def __repr__(self) -> str:
        held = "client_secret=<hidden>" if self._client_secret is not None else "private_key=<hidden>"
        return f"ClientCredentials(client_id={self._client_id!r}, {held})"

    async def _fetch_token(self, key: str, challenge: Challenge | None) -> None:
        request = _flow.ClientCredentialsRequest(
            server_url=key,
            client_id=self._client_id,
            client_secret=self._client_secret,
            scopes=self._scopes,
            clock=self.clock,
            challenge=challenge,
            known=self._discovery.get(key) if challenge is None else None,  # a 401 discovers afresh
            private_key_jwt=self._signing is not None,
        )
        async with self._http_options.client(timeout=self._timeout) as http:
            tokens, discovery = await self._runner(http, key).run(_flow.client_credentials(request))
        self._keep(key, tokens)
        self._discovery[key] = discovery
