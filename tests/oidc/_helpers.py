"""What the tests against oidc-provider share: the browser step, the token file, and the secret check."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mcp_client import Client
from mcp_client.auth import LoginReason, login_reason
from tests.support.browser import Browser
from tests.support.oidc_provider import log_in_with_browser


class BrowserStep:
    """``OAuth(authorize=...)``: the person logs in in Chromium; records each URL and the reason given."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.urls: list[str] = []
        self.reasons: list[LoginReason | None] = []

    async def __call__(self, url: str) -> str:
        self.urls.append(url)
        self.reasons.append(login_reason())
        return await log_in_with_browser(self.browser, url)


async def no_login(url: str) -> str:
    raise AssertionError("a login was started, but the saved login should have been used")


async def tool_text(client: Client, name: str) -> str:
    result = await client.call_tool(name, {})
    return "".join(getattr(block, "text", "") for block in result.content)


class TokenFile:
    """The ``tokens.json`` a test uses, and every secret it ever held (to prove none leaks)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.secrets: set[str] = set()

    def read(self) -> dict[str, Any]:
        servers: dict[str, Any] = json.loads(self.path.read_text())["servers"]
        for entry in servers.values():
            for record in [entry.get("tokens") or {}, *(entry.get("clients") or {}).values()]:
                for key in ("access_token", "refresh_token", "client_secret"):
                    if record.get(key):
                        self.secrets.add(record[key])
        return servers

    def tokens(self, server: str) -> dict[str, Any]:
        return self.read()[server]["tokens"]

    def change_tokens(self, server: str, **changes: Any) -> None:
        """Edit the saved tokens as another run would have left them (expired, broken...)."""
        document = json.loads(self.path.read_text())
        document["servers"][server]["tokens"].update(changes)
        self.path.write_text(json.dumps(document))
        self.read()

    def expire(self, server: str) -> None:
        self.change_tokens(server, expires_at=time.time() - 5)

    def assert_not_in(self, texts: Iterable[str]) -> None:
        self.read() if self.path.exists() else None
        assert self.secrets, "no secret was collected: the check would prove nothing"
        for text in texts:
            for secret in self.secrets:
                assert secret not in text, "a token or secret appears in the output or the log"
