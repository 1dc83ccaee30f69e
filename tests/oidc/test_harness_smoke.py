"""The oidc-provider harness itself: a browser login through its pages gives a token the MCP server takes."""

from __future__ import annotations

from collections.abc import Callable

import httpx2
import pytest

from mcp_client import Client
from mcp_client.auth import InMemoryTokenStorage, OAuth
from tests.support.browser import Browser
from tests.support.oidc_provider import OidcStack, log_in_with_browser

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("scope_mode", ["resource", "client"])
async def test_a_browser_login_reaches_the_guarded_tool(
    oidc_stack_factory: Callable[..., OidcStack], browser: Browser, scope_mode: str
) -> None:
    oidc_stack = oidc_stack_factory(scope_mode=scope_mode)

    async def authorize(url: str) -> str:
        return await log_in_with_browser(browser, url)

    auth = OAuth("harness-smoke", authorize=authorize, storage=InMemoryTokenStorage())
    async with Client(oidc_stack.url, auth=auth) as client:
        result = await client.call_tool("whoami", {})
    assert "scopes=mcp:tools" in str(result)
    assert oidc_stack.provider.seen("registration")
    tokens = await auth.get_tokens(oidc_stack.url)
    assert tokens is not None and tokens.refresh_token


async def test_extra_configuration_is_merged_in(oidc_stack_factory: Callable[..., OidcStack]) -> None:
    """``extra_config`` reaches the provider, merged into its features (for other auth methods' tests)."""
    stack = oidc_stack_factory(extra_config={"features": {"introspection": {"enabled": True}}})
    async with httpx2.AsyncClient(timeout=10) as http:
        metadata = (await http.get(f"{stack.provider.issuer}/.well-known/openid-configuration")).json()
    assert metadata["introspection_endpoint"] == f"{stack.provider.issuer}/token/introspection"
    assert metadata["revocation_endpoint"] == f"{stack.provider.issuer}/token/revocation"  # still there
