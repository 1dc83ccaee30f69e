"""OAuth 2.1 authorization for MCP servers that need a login.

    from mcp_client import Client
    from mcp_client.auth import OAuth, FileTokenStorage

    auth = OAuth("My App", authorize=my_browser_step, storage=FileTokenStorage())
    async with Client("https://example.com/mcp", auth=auth) as client:
        ...

``OAuth`` (a person logs in through a browser; ``authorize`` is that step, ``ui_adapters.login`` has a
terminal one) and ``ClientCredentials`` (a service with its own credentials) are ``httpx.Auth``
objects for ``Client(auth=...)``. Tokens and client registrations are kept by a ``TokenStorage``:
``InMemoryTokenStorage`` (the default) or ``FileTokenStorage`` (survives restarts). Failures raise
``OAuthError``, an ``MCPClientError``.

This package is not imported by ``import mcp_client``; it never imports rich or prompt_toolkit.
"""

from mcp_client._errors import OAuthError
from mcp_client.auth._client_credentials import ClientCredentials
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
    "InMemoryTokenStorage",
    "LoginReason",
    "OAuth",
    "OAuthError",
    "Revocation",
    "StoredTokens",
    "TokenStorage",
    "default_storage_path",
    "login_reason",
]
