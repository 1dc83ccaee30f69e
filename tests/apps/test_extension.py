"""``Client(apps=True)`` declares MCP Apps, in both eras: the bytes the client sends, and what the
official server's ``client_supports_apps`` makes of them. Without ``apps=True`` nothing is declared."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_client import Client
from tests.apps.conftest import recorded_apps_stdio
from tests.core.helpers import text_of

pytestmark = pytest.mark.anyio

DECLARED = {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}
CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"  # 2026-07-28: in each request's _meta
TEST_TIMEOUT = 60


def _sent(journal: Path) -> list[dict[str, Any]]:
    """Every JSON-RPC message the client wrote to the server's stdin, as written."""
    return [json.loads(line) for line in journal.read_bytes().splitlines() if line.strip()]


def _declared(message: dict[str, Any]) -> object:
    params = message.get("params") or {}
    if message.get("method") == "initialize":
        return params["capabilities"].get("extensions")
    return params.get("_meta", {}).get(CAPABILITIES, {}).get("extensions")


async def test_apps_true_is_on_the_wire_in_the_handshake(tmp_path: Path) -> None:
    journal = tmp_path / "wire.jsonl"
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(recorded_apps_stdio(journal), mode="legacy", apps=True) as client:
            answer = text_of(await client.call_tool("supports_apps"))
    assert answer == "apps: True"
    (initialize,) = [m for m in _sent(journal) if m.get("method") == "initialize"]
    assert _declared(initialize) == DECLARED
    assert b'"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}' in journal.read_bytes()


async def test_apps_true_is_on_the_wire_in_every_modern_request(tmp_path: Path) -> None:
    journal = tmp_path / "wire.jsonl"
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(recorded_apps_stdio(journal), mode="2026-07-28", apps=True) as client:
            answer = text_of(await client.call_tool("supports_apps"))
            await client.read_app("show_clock")
    assert answer == "apps: True"
    requests = [m for m in _sent(journal) if "id" in m and "method" in m]
    assert {m["method"] for m in requests} >= {"tools/call", "tools/list", "resources/read"}
    for request in requests:
        assert _declared(request) == DECLARED, request["method"]


@pytest.mark.parametrize("era", ["legacy", "2026-07-28"])
async def test_without_apps_true_nothing_is_declared(tmp_path: Path, era: str) -> None:
    journal = tmp_path / "wire.jsonl"
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(recorded_apps_stdio(journal), mode=era) as client:
            answer = text_of(await client.call_tool("supports_apps"))
    assert answer == "apps: False"
    assert b"io.modelcontextprotocol/ui" not in journal.read_bytes()


async def test_the_server_sees_the_declaration_over_http(apps_http_url: str, era: str) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(apps_http_url, mode=era, apps=True) as client:
            assert text_of(await client.call_tool("supports_apps")) == "apps: True"
        async with Client(apps_http_url, mode=era) as client:
            assert text_of(await client.call_tool("supports_apps")) == "apps: False"


@pytest.mark.parametrize("size", [0, -1, True, 1.5])
def test_max_app_bytes_must_be_a_positive_int(size: Any) -> None:
    with pytest.raises(ValueError, match="max_app_bytes must be a positive number of bytes"):
        Client("http://127.0.0.1:9/mcp", max_app_bytes=size)
