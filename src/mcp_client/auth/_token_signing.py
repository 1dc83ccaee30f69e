"""What the driver adds to a token request before it goes out: a ``client_assertion``, a DPoP proof.

Both are made just before sending, one per request (a nonce retry gets new ones), because both carry
a ``jti`` the server must never see twice and a short lifetime. The sans-IO flows only mark what a
request needs (``HttpRequest.client_assertion_audience``); signing is asynchronous here because a
client key may be held by an HSM or a KMS.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from mcp_client._connection.shown_url import without_credentials
from mcp_client._errors import OAuthError
from mcp_client.auth._dpop import DPoPKey, DPoPNonces, is_token_nonce_error, nonce_loop_error
from mcp_client.auth._jwt_assertion import CLIENT_ASSERTION_TYPE, ClientAssertion
from mcp_client.auth._wire import HttpRequest, HttpResponse

__all__ = ["TokenRequestSigner"]

_SIGNED_PURPOSES = ("token endpoint", "revocation endpoint")

Send = Callable[[HttpRequest], Awaitable[HttpResponse]]


class TokenRequestSigner:
    """Client assertion (``assertion``) and DPoP proofs (``dpop``, with ``nonces``) for token requests."""

    def __init__(
        self,
        *,
        assertion: ClientAssertion | None = None,
        dpop: DPoPKey | None = None,
        nonces: DPoPNonces | None = None,
    ) -> None:
        self.assertion = assertion
        self.dpop = dpop
        self.nonces = nonces if nonces is not None else DPoPNonces()

    async def prepare(self, request: HttpRequest) -> HttpRequest:
        """``request`` with a fresh ``client_assertion`` (if marked) and DPoP proof (token endpoint only)."""
        if request.purpose not in _SIGNED_PURPOSES:
            return request
        form = request.form
        headers: list[tuple[str, str]] = []
        audience = request.client_assertion_audience
        if audience is not None:
            if self.assertion is None:
                raise OAuthError(
                    f"the client is registered for private_key_jwt at {audience}, but no private_key was "
                    "configured to sign its client assertion"
                )
            client_id = request.form_dict().get("client_id", "")
            signed = await self.assertion.make(client_id, audience)
            form = (
                *(form or ()),
                ("client_assertion_type", CLIENT_ASSERTION_TYPE),
                ("client_assertion", signed),
            )
        if self.dpop is not None and request.purpose == "token endpoint":
            proof = self.dpop.proof(request.method, request.url, nonce=self.nonces.get(request.url))
            headers.append(("dpop", proof))
        return request.with_changes(form=form, headers=tuple(headers))

    async def send(self, request: HttpRequest, send: Send) -> HttpResponse:
        """Send ``request`` prepared; on ``use_dpop_nonce`` once more with a proof carrying the nonce."""
        response = await send(await self.prepare(request))
        if self.dpop is None or request.purpose != "token endpoint":
            return response
        got_nonce = self.nonces.remember(request.url, response.headers)
        if not is_token_nonce_error(response):
            return response
        if not got_nonce:
            raise OAuthError(
                f"the token endpoint at {without_credentials(request.url)} asked for a DPoP nonce "
                "(use_dpop_nonce) but sent no DPoP-Nonce header"
            )
        response = await send(await self.prepare(request))
        self.nonces.remember(request.url, response.headers)
        if is_token_nonce_error(response):
            raise nonce_loop_error(f"the token endpoint at {without_credentials(request.url)}")
        return response
