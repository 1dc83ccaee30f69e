"""MCP Apps (issue 44): a view's ``tools/call`` through ``AppBridge``, and showing a view in Chromium.

    .venv/bin/python -m bench.apps_view [--calls 300] [--rounds 5] [--views 5]

1. *tools/call through AppBridge*: the view's ``tools/call`` as the host answers it
   (``await bridge.handle(message)``: the visibility check, the call through ``Client.call_tool``, the
   result as the view's JSON-RPC answer) against ``client.call_tool`` itself, on ``bench.server``'s
   ``echo`` over stdio, in turn, ``--calls`` each per round; the ratio is the median over rounds of
   their mean times per call, each round's pair measured back to back. Target: at most 1.2x.
2. *Showing a view*: ``BrowserAppHost.show("get-time")`` of the official example
   ``server-basic-vanillajs`` (npm, ``.cache/peers/ext-apps``) until headless Chromium shows the tool's
   result inside the view (the view's DOM holds the time the call returned): the tool call, reading
   the view, serving it, the page, the sandbox proxy, the view's own start-up and its
   ``ui/initialize``, then the tool result it paints. One Chromium for all views; the median is shown.
   Skipped, with a note, when Chromium, chromedriver, selenium or the example server is missing.

``python -m bench --quick`` prints both (one round of 10 calls, one view). Nothing is written.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.2
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
VANILLA = ROOT / ".cache/peers/ext-apps/node_modules/@modelcontextprotocol/server-basic-vanillajs/dist"
_HELLO = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "ui/initialize",
    "params": {
        "protocolVersion": "2026-01-26",
        "appInfo": {"name": "bench", "version": "1"},
        "appCapabilities": {},
    },
}


async def bridge_ratio(calls: int, rounds: int, warmup: int = 20) -> dict[str, Any]:
    """Mean seconds per call, direct and through ``AppBridge.handle``, per round, and the median ratio."""
    from mcp_client import Client, StdioServerParameters
    from mcp_client.apps import AppBridge

    async def send(message: dict[str, Any]) -> None:
        pass

    server = StdioServerParameters(sys.executable, ["-m", "bench.server", "stdio"], cwd=str(ROOT))
    direct: list[float] = []
    bridged: list[float] = []
    async with Client(server, apps=True) as client:
        bridge = AppBridge(client, "echo", send=send)
        await bridge.handle(_HELLO)
        await bridge.handle({"jsonrpc": "2.0", "method": "ui/notifications/initialized"})

        async def through_bridge(i: int) -> None:
            message = {"jsonrpc": "2.0", "id": i, "method": "tools/call"}
            message["params"] = {"name": "echo", "arguments": {"text": f"hello {i}"}}
            answer = await bridge.handle(message)
            assert answer is not None and answer["result"]["content"][0]["text"] == f"hello {i}", answer

        async def call_directly(i: int) -> None:
            result = await client.call_tool("echo", {"text": f"hello {i}"})
            assert result.content[0].text == f"hello {i}"  # type: ignore[union-attr]

        for i in range(warmup):
            await call_directly(i)
            await through_bridge(i + 1)
        for k in range(rounds):
            pair = [(call_directly, direct), (through_bridge, bridged)]
            for run, into in pair if k % 2 == 0 else pair[::-1]:  # alternate which goes first
                started = time.perf_counter()
                for i in range(calls):
                    await run(i + 1)
                into.append((time.perf_counter() - started) / calls)
    ratios = [b / d for b, d in zip(bridged, direct, strict=True)]
    return {
        "direct_ms": statistics.median(direct) * 1000,
        "bridge_ms": statistics.median(bridged) * 1000,
        "ratio": statistics.median(ratios),
        "calls": calls,
        "rounds": rounds,
    }


def first_paint_missing() -> str | None:
    """Why the view can't be shown here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not path.exists():
            return f"{path} is missing (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401  # pyright: ignore[reportUnusedImport]
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not (VANILLA / "index.js").exists():
        return "server-basic-vanillajs is not installed (python scripts/install_peers.py --only ext-apps)"
    return None


def _driver() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=720,900"):
        options.add_argument(flag)
    options.add_argument("--disable-background-networking")
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


def _painted(driver: Any, url: str, text: str, timeout: float = 30.0) -> None:
    """Load the host page and wait until the view (two frames down) shows ``text``."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    wait = WebDriverWait(driver, timeout, poll_frequency=0.005)
    wait.until(ec.frame_to_be_available_and_switch_to_it((By.TAG_NAME, "iframe")))  # the sandbox proxy
    wait.until(ec.frame_to_be_available_and_switch_to_it((By.TAG_NAME, "iframe")))  # the view
    wait.until(lambda d: text in d.find_element(By.TAG_NAME, "body").text)
    driver.switch_to.default_content()


async def first_paint(views: int) -> dict[str, Any]:
    """Seconds from ``show`` to the tool's result painted in the view, per view, and their median."""
    from mcp_client import Client, StdioServerParameters
    from mcp_client.types import TextContent
    from ui_adapters.apps import BrowserAppHost

    driver = await anyio.to_thread.run_sync(_driver)
    times: list[float] = []
    calls: list[float] = []
    try:
        server = StdioServerParameters("node", ["index.js", "--stdio"], cwd=str(VANILLA))
        async with Client(server, apps=True) as client:
            await client.call_tool("get-time")  # the server and the connection warm
            async with BrowserAppHost(client, open_browser=False) as host:
                for _ in range(views):
                    started = time.perf_counter()
                    await client.call_tool("get-time")
                    calls.append(time.perf_counter() - started)
                    started = time.perf_counter()
                    view = await host.show("get-time")
                    [block] = view.result.content
                    assert isinstance(block, TextContent)
                    await anyio.to_thread.run_sync(_painted, driver, view.url, block.text)
                    times.append(time.perf_counter() - started)
                    await view.close()
    finally:
        await anyio.to_thread.run_sync(driver.quit)
    return {
        "median_ms": statistics.median(times) * 1000,
        "call_ms": statistics.median(calls) * 1000,
        "views": views,
    }


def report(*, quick: bool, calls: int = 300, rounds: int = 5, views: int = 5) -> list[str]:
    """The lines ``python -m bench`` prints for MCP Apps (``quick``: 10 calls, one round, one view)."""
    if quick:
        calls, rounds, views = 10, 1, 1
    lines = ["MCP Apps (issue 44; bench/apps_view.py)"]
    ratio = anyio.run(bridge_ratio, calls, rounds, 2 if quick else 20)
    verdict = (
        ""
        if quick
        else (" (target <= 1.2x: met)" if ratio["ratio"] <= TARGET else " (target <= 1.2x: MISSED)")
    )
    lines.append(
        f"  view tools/call via AppBridge: {ratio['bridge_ms']:.3f} ms/call vs call_tool "
        f"{ratio['direct_ms']:.3f} ms/call = {ratio['ratio']:.2f}x{verdict} "
        f"({ratio['calls']} calls x {ratio['rounds']} rounds, stdio echo)"
    )
    missing = first_paint_missing()
    if missing is not None:
        lines.append(f"  showing a view: skipped ({missing})")
        return lines
    paint = anyio.run(first_paint, views)
    lines.append(
        f"  showing a view (show -> result painted in Chromium): {paint['median_ms']:.0f} ms median of "
        f"{paint['views']} (the tool call alone: {paint['call_ms']:.1f} ms; server-basic-vanillajs)"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.apps_view", description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--views", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    for line in report(quick=args.quick, calls=args.calls, rounds=args.rounds, views=args.views):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
