"""``ClientGroup``'s promises (docs/servers.md), one test each, with their refusals: a tool name two
servers share is never called, a config entry's own ``timeout`` wins for its server, a failure to connect
says what really happened (even with hundreds failing at once), per-server callbacks, the app's naming
function, adding, removing and retrying servers.

The servers are the official SDK's ``MCPServer``, run in this process (``{"server": ...}`` entries), each
recording the calls it received; the unreachable ones are loopback ports bound and never listened on.
"""

from __future__ import annotations

import socket
import sys
from typing import Any

import anyio
import pytest
from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel

from mcp_client import (
    ClientGroup,
    ClientRequestContext,
    ClientStateError,
    MCPConnectionError,
    MCPTimeoutError,
    ServerHealth,
)
from mcp_client.types import ElicitRequestParams, ElicitResult, TextContent
from tests.hostile.conftest import STDIO_SCRIPT

pytestmark = pytest.mark.anyio

BOUND = 60.0


class Name(BaseModel):
    name: str


def recording_server(name: str, calls: list[str]) -> Any:
    server = MCPServer(name)

    @server.tool()
    def echo(text: str) -> str:
        calls.append(name)
        return f"{name}: {text}"

    @server.tool()
    async def ask(ctx: Context) -> str:
        calls.append(name)
        answer = await ctx.elicit("Your name?", schema=Name)
        return f"{name} met {answer.data.name}" if answer.action == "accept" else f"{name}: {answer.action}"

    @server.tool()
    async def slow() -> str:
        calls.append(name)
        await anyio.sleep(3600)
        return "too late"

    return server


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


async def test_two_servers_offering_one_unique_name_are_refused_by_list_tools() -> None:
    calls: list[str] = []
    servers = {
        "alpha": {"server": recording_server("alpha", calls), "tool_prefix": ""},
        "beta": {"server": recording_server("beta", calls), "tool_prefix": ""},
    }
    with anyio.fail_after(BOUND):
        async with ClientGroup({"mcpServers": servers}) as group:
            with pytest.raises(
                ValueError, match=r"two servers offer a tool named 'echo': 'alpha' and 'beta'"
            ):
                await group.list_tools()


@pytest.mark.parametrize("list_first", [True, False], ids=["after-list_tools", "without-list_tools"])
async def test_a_name_two_servers_share_is_never_called(list_first: bool) -> None:
    """The refusal of ``list_tools`` holds for ``call_tool`` too, listed first or not; names that are
    unique still route."""
    calls: list[str] = []
    servers = {
        "alpha": {"server": recording_server("alpha", calls), "rename_tools": {"echo": "say"}},
        "beta": {"server": recording_server("beta", calls), "rename_tools": {"echo": "say"}},
    }
    with anyio.fail_after(BOUND):
        async with ClientGroup({"mcpServers": servers}) as group:
            if list_first:
                with pytest.raises(ValueError, match="two servers offer"):
                    await group.list_tools()
            for _ in range(2):
                with pytest.raises(ValueError, match=r"'say'.*'alpha' and 'beta'") as caught:
                    await group.call_tool("say", {"text": "hi"})
                assert "rename_tools" in str(caught.value)  # the fix, named
            assert calls == []  # neither server ran anything
            with pytest.raises(MCPTimeoutError):
                await group.call_tool("beta_slow", {}, read_timeout_seconds=0.2)
            assert calls == ["beta"]


async def test_an_entrys_own_timeout_wins_for_its_server() -> None:
    """docs/servers.md: ``timeout`` is seconds per request for this server; the group's is for the rest."""
    calls: list[str] = []
    servers = {
        "quick": {"server": recording_server("quick", calls), "timeout": 0.5},
        "patient": {"server": recording_server("patient", calls)},
    }
    with anyio.fail_after(BOUND):
        async with ClientGroup({"mcpServers": servers}, timeout=3600) as group:
            with pytest.raises(MCPTimeoutError, match=r"within 0\.5s"):
                await group.call_tool("quick_slow", {})
            assert text_of(await group.call_tool("patient_echo", {"text": "hi"})) == "patient: hi"


async def test_the_groups_timeout_applies_to_an_entry_without_one() -> None:
    calls: list[str] = []
    servers = {"plain": {"server": recording_server("plain", calls)}}
    with anyio.fail_after(BOUND):
        async with ClientGroup({"mcpServers": servers}, timeout=0.5) as group:
            with pytest.raises(MCPTimeoutError, match=r"within 0\.5s"):
                await group.call_tool("plain_slow", {})


async def test_three_hundred_refused_servers_each_say_refused() -> None:
    """Each of 300 servers refuses the connection: each failure says so, none reads as a timeout.

    The ports are bound and never listened on, so they refuse for the whole test and nothing else can
    take them. Half are streamable HTTP, half HTTP+SSE. On main, building each server's TLS context
    blocked the event loop ~30 ms (9 s for 300), so under load requests passed their deadlines before
    their connection was even tried, and the refusals that were reported said "All connection attempts
    failed".
    """
    sockets: list[socket.socket] = []
    try:
        servers: dict[str, Any] = {}
        for index in range(300):
            held = socket.socket()
            held.bind(("127.0.0.1", 0))
            sockets.append(held)
            port = held.getsockname()[1]
            if index % 2:
                servers[f"s{index}"] = {"type": "sse", "url": f"http://127.0.0.1:{port}/sse"}
            else:
                servers[f"s{index}"] = {"url": f"http://127.0.0.1:{port}/mcp"}
        with anyio.fail_after(240):
            async with ClientGroup({"mcpServers": servers}) as group:
                failures = group.failures
        assert sorted(failures) == sorted(servers)
        wrong = {
            name: f"{type(error).__name__}: {error}"
            for name, error in failures.items()
            if not isinstance(error, MCPConnectionError)
            or "connection refused" not in str(error)
            or servers[name]["url"] not in str(error)
        }
        assert not wrong, f"{len(wrong)} of 300 misreported, e.g. {next(iter(wrong.values()))}"
    finally:
        for held in sockets:
            held.close()


def answering(answer: str, asked: list[str]) -> Any:
    async def callback(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        asked.append(f"{context.server_name} asked {answer}")
        return ElicitResult(action="accept", content={"name": answer})

    return callback


async def test_a_servers_own_callback_wins_and_every_question_names_its_server() -> None:
    calls: list[str] = []
    asked: list[str] = []
    servers = {
        "alpha": {"server": recording_server("alpha", calls), "mode": "legacy"},
        "beta": {"server": recording_server("beta", calls), "mode": "legacy"},
    }
    with anyio.fail_after(BOUND):
        async with ClientGroup(
            {"mcpServers": servers},
            elicitation_callback=answering("Ada", asked),
            callbacks={"beta": answering("Grace", asked)},
        ) as group:
            assert text_of(await group.call_tool("alpha_ask", {})) == "alpha met Ada"
            assert text_of(await group.call_tool("beta_ask", {})) == "beta met Grace"
    assert asked == ["alpha asked Ada", "beta asked Grace"]


def test_callbacks_for_a_server_not_in_the_config_are_refused() -> None:
    with pytest.raises(ValueError, match=r"callbacks name servers that are not in <dict>: nobody"):
        ClientGroup({"mcpServers": {"a": {"command": "x"}}}, callbacks={"nobody": answering("x", [])})


async def test_the_apps_tool_name_function_takes_over_naming() -> None:
    calls: list[str] = []
    servers = {"alpha": {"server": recording_server("alpha", calls), "tool_prefix": "ignored_"}}
    with anyio.fail_after(BOUND):
        async with ClientGroup(
            {"mcpServers": servers}, tool_name=lambda server, tool: f"{tool}@{server.name}"
        ) as group:
            assert sorted(tool.name for tool in await group.list_tools()) == [
                "ask@alpha",
                "echo@alpha",
                "slow@alpha",
            ]
            assert text_of(await group.call_tool("echo@alpha", {"text": "hi"})) == "alpha: hi"
            with pytest.raises(KeyError, match="no tool named 'alpha_echo'"):
                await group.call_tool("alpha_echo", {"text": "hi"})


async def test_add_remove_and_unknown_names_are_refused_clearly() -> None:
    calls: list[str] = []
    with anyio.fail_after(BOUND):
        async with ClientGroup(
            {"mcpServers": {"alpha": {"server": recording_server("alpha", calls)}}}
        ) as group:
            with pytest.raises(
                ValueError, match="a server named 'alpha' is already in this group; remove it first"
            ):
                await group.add("alpha", {"server": recording_server("again", calls)})
            with pytest.raises(KeyError, match="no server named 'nobody' in this group"):
                await group.remove("nobody")
            with pytest.raises(KeyError, match=r"no server named 'nobody' in this group \(servers: alpha\)"):
                group["nobody"]
            await group.add("late", {"server": recording_server("late", calls)})
            assert text_of(await group.call_tool("late_echo", {"text": "hi"})) == "late: hi"
            await group.remove("late")
            assert "late" not in group
            with pytest.raises(KeyError, match="no tool named 'late_echo'"):
                await group.call_tool("late_echo", {"text": "hi"})


async def test_a_failed_server_is_reported_and_connect_raises_its_error_again() -> None:
    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{held.getsockname()[1]}/mcp"
    try:
        calls: list[str] = []
        servers = {"alpha": {"server": recording_server("alpha", calls)}, "down": {"url": url}}
        with anyio.fail_after(BOUND):
            async with ClientGroup({"mcpServers": servers}) as group:
                assert list(group.failures) == ["down"] and "connection refused" in str(
                    group.failures["down"]
                )
                with pytest.raises(
                    ClientStateError, match=r"server 'down' is not connected.*group.connect\('down'\)"
                ):
                    group["down"]
                with pytest.raises(MCPConnectionError, match="connection refused"):
                    await group.connect("down")
                assert (
                    text_of(await group.call_tool("alpha_echo", {"text": "still here"}))
                    == "alpha: still here"
                )
    finally:
        held.close()


async def test_one_servers_two_tools_renamed_onto_one_name_are_refused_naming_that_server() -> None:
    calls: list[str] = []
    servers = {
        "alpha": {"server": recording_server("alpha", calls), "rename_tools": {"echo": "x", "ask": "x"}}
    }
    with anyio.fail_after(BOUND):
        async with ClientGroup({"mcpServers": servers}) as group:
            expected = r"server 'alpha' offers two tools named 'x' \('echo' and 'ask'\); change its"
            with pytest.raises(ValueError, match=expected):
                await group.list_tools()
            with pytest.raises(ValueError, match=expected):
                await group.call_tool("x", {"text": "hi"})
    assert calls == []


async def test_a_server_listing_one_tool_twice_offers_it_once(caplog: pytest.LogCaptureFixture) -> None:
    """A buggy server's listing names ``echo`` twice: the group offers one ``echo`` (the first entry)
    and routes to it, with a warning, instead of refusing as if two servers clashed."""
    servers = {"buggy": {"command": sys.executable, "args": [str(STDIO_SCRIPT), "stdio"], "tool_prefix": ""}}
    with anyio.fail_after(BOUND):
        async with ClientGroup({"mcpServers": servers}) as group:
            await group["buggy"].call_tool("serve_tool_lists", {"ttl": "0", "twice": True})
            tools = await group.list_tools(refresh=True)
            assert [tool.name for tool in tools] == ["echo"]
            assert "server 'buggy' lists its tool 'echo' twice" in caplog.text
            result = await group.call_tool("echo", {"text": "hi"})
            assert not result.is_error


async def test_a_server_that_never_answers_a_ping_is_failed_saying_so() -> None:
    """health() pings each server within a bound: one that stays silent is ``failed``, and the reason
    says what did not happen (a bare ``TimeoutError`` said nothing)."""
    args = [str(STDIO_SCRIPT), "stdio", "--silent-ping"]
    servers = {"mute": {"command": sys.executable, "args": args}}
    with anyio.fail_after(BOUND):
        async with ClientGroup({"mcpServers": servers}, client_options={"mode": "legacy"}) as group:
            health = (await group.health())["mute"]
    # No reconnect was tried (the server is alive): no attempt counted, none scheduled.
    assert health == ServerHealth("failed", 0, None, "no answer to a ping within 5s")
