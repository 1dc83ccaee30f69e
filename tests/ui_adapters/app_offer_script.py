"""A model's call of a tool with a view, offered at the terminal (``TerminalAppOffer``), on a real pty.

    python tests/ui_adapters/app_offer_script.py [--tool forecast] [--view-fails] [--host]

Starts ``tests/servers/app_tools_server.py`` over stdio and runs the model's call of ``--tool`` (city
Oslo) through ``ToolBridge(client, on_app=TerminalAppOffer(open_view))``. ``open_view`` stands for a
host's ``present``: it returns a view whose URL is on loopback and prints ``VIEW CLOSED`` when closed
(``--view-fails``: it raises instead). The browser is a recorder printing ``BROWSER OPENED <url>``.
With ``--host``, ``open_view`` is a real ``BrowserAppHost(client, open_browser=False).present`` and the
recorder fetches the page it is given (``BROWSER OPENED <url> HTTP <status>``); the views left open are
printed at the end (``OPEN VIEWS: n``). What the model reads is printed last, as ``MODEL READS: ...``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

import anyio

from mcp_client import Client, StdioServerParameters
from mcp_client.llm import ToolBridge
from mcp_client.types import CallToolResult
from ui_adapters.app_offer import TerminalAppOffer
from ui_adapters.apps import BrowserAppHost

SERVER = Path(__file__).resolve().parents[1] / "servers" / "app_tools_server.py"
URL = "http://127.0.0.1:8765/view/Zk3q/"


class View:
    url = URL

    async def close(self) -> None:
        print("VIEW CLOSED", flush=True)


def browser(url: str) -> bool:
    print(f"BROWSER OPENED {url}", flush=True)
    return True


def fetching_browser(url: str) -> bool:
    import httpx2

    print(f"BROWSER OPENED {url} HTTP {httpx2.get(url, timeout=30).status_code}", flush=True)
    return True


async def with_host(tool: str) -> None:
    peer_python = os.environ.get("MCP_CLIENT_TEST_PEER_PYTHON") or sys.executable
    server = StdioServerParameters(command=peer_python, args=[str(SERVER), "stdio"])
    async with Client(server, apps=True) as client, BrowserAppHost(client, open_browser=False) as host:
        offer = TerminalAppOffer(host.present, open_browser=fetching_browser)
        bridge = ToolBridge(client, on_app=offer)
        await bridge.anthropic_tools()
        answer = await bridge.run_anthropic({"id": "t1", "name": tool, "input": {"city": "Oslo"}})
        print(f"OPEN VIEWS: {sum(not view.closed for view in host.views)}", flush=True)
    print(f"MODEL READS: {answer['content'][0]['text']}", flush=True)


async def main(tool: str, view_fails: bool) -> None:
    async def open_view(name: str, arguments: dict[str, Any], result: CallToolResult) -> View:
        if view_fails:
            raise RuntimeError("the host is closed")
        return View()

    peer_python = os.environ.get("MCP_CLIENT_TEST_PEER_PYTHON") or sys.executable
    server = StdioServerParameters(command=peer_python, args=[str(SERVER), "stdio"])
    async with Client(server) as client:
        bridge = ToolBridge(client, on_app=TerminalAppOffer(open_view, open_browser=browser))
        await bridge.anthropic_tools()
        answer = await bridge.run_anthropic({"id": "t1", "name": tool, "input": {"city": "Oslo"}})
    print(f"MODEL READS: {answer['content'][0]['text']}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", default="forecast")
    parser.add_argument("--view-fails", action="store_true")
    parser.add_argument("--host", action="store_true")
    args = parser.parse_args()
    if args.host:
        anyio.run(with_host, args.tool)
    else:
        anyio.run(main, args.tool, args.view_fails)
