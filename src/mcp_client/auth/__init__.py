"""OAuth 2.1 authorization for MCP servers that need a login.

::

    from mcp_client import Client
    from mcp_client.auth import OAuth, FileTokenStorage

    auth = OAuth("My App", authorize=my_browser_step, storage=FileTokenStorage())
    async with Client("https://example.com/mcp", auth=auth) as client:
        ...

``OAuth`` (a person logs in through a browser; ``authorize`` is that step, ``ui_adapters.login`` has a
terminal one) and ``ClientCredentials`` (a service with its own credentials) are ``httpx2.Auth``
objects for ``Client(auth=...)``, and so is ``JWTBearer`` (an assertion from a workload platform or,
with ``IdJagAssertion``, an enterprise identity provider, exchanged for a token: RFC 7523 2.1).
``private_key=`` (``private_key_jwt`` client authentication) and ``dpop=`` (DPoP-bound tokens, RFC
9449) need the ``oauth-jwt`` extra, imported only when used. Tokens and client registrations are
kept by a ``TokenStorage``: ``InMemoryTokenStorage`` (the default) or ``FileTokenStorage`` (survives
restarts). Failures raise ``OAuthError``, an ``MCPClientError``.

This package is not imported by ``import mcp_client``; it never imports rich or prompt_toolkit.
"""

from mcp_client._errors import OAuthError
from mcp_client.auth._client_credentials import ClientCredentials
from mcp_client.auth._id_jag import IdJagAssertion, request_id_jag
from mcp_client.auth._jwt_bearer import JWTBearer
from mcp_client.auth._oauth import OAuth
from mcp_client.auth._reason import LoginReason, login_reason
from mcp_client.auth._records import ClientRegistration, Revocation, StoredTokens
from mcp_client.auth._storage import (
    FileTokenStorage,
    InMemoryTokenStorage,
    TokenStorage,
    default_storage_path,
)

__all__ = [
    "ClientCredentials",
    "ClientRegistration",
    "FileTokenStorage",
    "IdJagAssertion",
    "InMemoryTokenStorage",
    "JWTBearer",
    "LoginReason",
    "OAuth",
    "OAuthError",
    "Revocation",
    "StoredTokens",
    "TokenStorage",
    "default_storage_path",
    "login_reason",
    "request_id_jag",
]
