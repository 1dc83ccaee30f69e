"""An HTTP server that stops and starts again on the same port is reached again (``Client(reconnect=...)``).

Real servers, real failures: the server process is stopped (or SIGKILLed during a call) and a new one
started on the same port, in both eras. The server counts how often each tool ran: a request the
server never received is sent again; one it may have run is sent again only if its tool is read-only.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import anyio.to_thread
import pytest

from mcp_client import Client, MCPConnectionError, Reconnect
from tests.core.helpers import text_of
from tests.core.test_reconnect_stdio import Counters
from tests.hostile._leaks import wait_until
from tests.support.servers import LOOPBACK, PEER_PYTHON, SERVERS_DIR, free_loopback_port, run_http_server

pytestmark = pytest.mark.anyio

RESTART_SERVER = SERVERS_DIR / "restart_server.py"
BOUND = 90.0
PATIENT = Reconnect(attempts=40, first_delay=0.1, max_delay=1.0)
"""Enough attempts to outlast a server's start on a busy machine (about 40 s)."""


class RestartingServer:
    """The restart server over HTTP on one port, stopped and started again by the test."""

    def __init__(self, counters: Counters) -> None:
        self.port = free_loopback_port()
        self._counters = counters
        self._running: contextlib.AbstractContextManager[str] | None = None
        self.url = f"http://{LOOPBACK}:{self.port}/mcp"

    def _server(self) -> contextlib.AbstractContextManager[str]:
        return run_http_server(
            lambda port: [PEER_PYTHON, str(RESTART_SERVER), "http", "--host", LOOPBACK, "--port", str(port)],
            port=self.port,
            env=self._counters.env(),
        )

    async def start(self) -> None:
        server = self._server()
        await anyio.to_thread.run_sync(server.__enter__)
        self._running = server

    async def stop(self) -> None:
        server, self._running = self._running, None
        if server is not None:
            await anyio.to_thread.run_sync(server.__exit__, None, None, None)


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[RestartingServer]:
    running = RestartingServer(Counters(tmp_path))
    await running.start()
    try:
        yield running
    finally:
        await running.stop()


async def _pid(client: Client) -> int:
    return int(text_of(await client.call_tool("pid", {})))


async def test_a_request_made_while_the_server_is_down_waits_for_it(
    era: str, server: RestartingServer, tmp_path: Path
) -> None:
    counters = Counters(tmp_path)
    reconnects: list[str] = []
    async with Client(server.url, mode=era, reconnect=PATIENT) as client:
        client.on_reconnect = lambda c: reconnects.append(c.server)
        first = await _pid(client)
        await server.stop()
        answers: list[str] = []
        async with anyio.create_task_group() as group:

            async def order() -> None:
                answers.append(text_of(await client.call_tool("order", {"item": "soup"})))

            group.start_soon(order)
            await anyio.sleep(0.3)  # the call meets a refused connection, and backs off
            await server.start()
        assert answers and answers[0].startswith("ordered soup by ")
        assert int(answers[0].rsplit(" ", 1)[1]) != first
        assert counters.ran("write") == 1  # never received by anyone but the new server
        assert reconnects == [server.url]


async def _during_a_call(
    era: str, server: RestartingServer, tmp_path: Path, tool: str, arguments: dict[str, str]
) -> tuple[list[str], list[BaseException]]:
    counters = Counters(tmp_path)
    answers: list[str] = []
    failures: list[BaseException] = []
    async with Client(server.url, mode=era, reconnect=PATIENT) as client:
        await client.list_tools()  # the tools' hints
        first = await _pid(client)
        counters.hold.write_text(str(first))
        what = "read" if tool == "peek" else "write"
        async with anyio.create_task_group() as group:

            async def call() -> None:
                try:
                    answers.append(text_of(await client.call_tool(tool, arguments)))
                except MCPConnectionError as exc:
                    failures.append(exc)

            group.start_soon(call)
            assert await wait_until(lambda: counters.ran(what) == 1, BOUND)
            os.kill(first, signal.SIGKILL)
            await server.stop()
            await server.start()
        # The client goes on with the new server either way.
        with anyio.fail_after(BOUND):
            assert await _pid(client) != first
    return answers, failures


async def test_a_read_only_call_cut_by_a_restart_is_sent_again(
    era: str, server: RestartingServer, tmp_path: Path
) -> None:
    answers, failures = await _during_a_call(era, server, tmp_path, "peek", {})
    assert failures == [] and len(answers) == 1 and answers[0].startswith("peeked by ")
    assert Counters(tmp_path).ran("read") == 2


async def test_a_side_effect_call_cut_by_a_restart_is_not_sent_again(
    era: str, server: RestartingServer, tmp_path: Path
) -> None:
    answers, failures = await _during_a_call(era, server, tmp_path, "order", {"item": "soup"})
    assert answers == [] and len(failures) == 1
    assert Counters(tmp_path).ran("write") == 1


def _newest_pid(counters: Counters) -> int:
    return int(counters.starts.read_text().split()[-1])


async def test_a_tools_old_hints_are_not_trusted_after_the_server_came_back(
    era: str, server: RestartingServer, tmp_path: Path
) -> None:
    """Issue 42: ``stock`` was read-only on the server the client listed, and is destructive on the one
    redeployed on the same port. A call of it cut by a restart is not sent again on the word of the
    old server: the hints are forgotten with the reconnect, as the lists are."""
    counters = Counters(tmp_path)
    await server.stop()
    counters.hints.write_text("read-only")
    await server.start()
    answers: list[str] = []
    failures: list[BaseException] = []
    async with Client(server.url, mode=era, reconnect=PATIENT) as client:
        (stock,) = [tool for tool in (await client.list_tools()).tools if tool.name == "stock"]
        assert stock.annotations is not None and stock.annotations["readOnlyHint"] is True
        await server.stop()
        counters.hints.write_text("destructive")  # the new deployment's hints
        async with anyio.create_task_group() as group:
            group.start_soon(client.send_ping)  # meets a refused connection, and backs off
            await anyio.sleep(0.3)
            await server.start()  # the ping reaches the new server: the client reconnected
        counters.hold.write_text("*")  # the call waits until the test kills its server
        async with anyio.create_task_group() as group:

            async def call() -> None:
                try:
                    answers.append(text_of(await client.call_tool("stock", {"item": "soup"})))
                except MCPConnectionError as exc:
                    failures.append(exc)

            group.start_soon(call)
            assert await wait_until(lambda: counters.ran("stock") == 1, BOUND)
            second = _newest_pid(counters)
            counters.hold.write_text("")  # the next server answers at once
            os.kill(second, signal.SIGKILL)  # the call is cut: the server may have run it
            await server.stop()
            await server.start()
        with anyio.fail_after(BOUND):
            assert await _pid(client) != second  # the client goes on with the next server
    assert answers == [] and len(failures) == 1
    assert counters.ran("stock") == 1  # never run twice: the server that ran it said "destructive"
