"""One process of the "several processes, one tokens.json" test: wait for the go, call ``whoami`` once.

    python tests/oidc/_one_call.py MCP_URL TOKENS_FILE GO_FILE

Prints ``READY`` once imported (the test starts every process, waits for all of them, then creates
GO_FILE so that they call at the same moment), then the tool's answer. A login is a failure here:
the saved login must be renewed without one.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import anyio

from mcp_client import Client, OAuthError
from mcp_client.auth import FileTokenStorage, OAuth

GO_WAIT = 60.0


async def no_login(url: str) -> str:
    raise OAuthError("a login was started, but the saved login should have been renewed")


async def main(url: str, tokens: str) -> None:
    auth = OAuth("mcp-client", storage=FileTokenStorage(tokens), authorize=no_login)
    async with Client(url, auth=auth) as client:
        result = await client.call_tool("whoami", {})
    print("ANSWER", "".join(getattr(block, "text", "") for block in result.content), flush=True)


if __name__ == "__main__":
    mcp_url, tokens_file, go_file = sys.argv[1:4]
    print("READY", flush=True)
    deadline = time.monotonic() + GO_WAIT
    while not Path(go_file).exists():
        if time.monotonic() > deadline:
            raise SystemExit("no go within a minute")
        time.sleep(0.01)
    anyio.run(main, mcp_url, tokens_file)
