"""A tool whose MCP Apps visibility lacks ``"model"`` never reaches a model, whether or not the client
declared the extension: ``ToolBridge`` (every provider format) and the three framework adapters leave it
out, for a ``Client`` and a ``ClientGroup``, while ``list_tools()`` still lists it (a host needs it), and
a model's call naming it is an error result that never reaches the server.

The real target is the official example ``@modelcontextprotocol/server-system-monitor`` 2.0.3, whose
``poll-system-stats`` is ``visibility: ["app"]``; ``tests/servers/apps_server.py`` adds the hostile shapes
and counts the calls it receives (``ran()``).
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from mcp_client import Client, ClientGroup
from mcp_client.llm import ToolBridge
from tests.apps.conftest import APPS_SERVER, apps_stdio
from tests.core.helpers import text_of
from tests.support import ext_apps
from tests.support.servers import PEER_PYTHON

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 90
APP_ONLY = {"app_only", "poll", "vis_string", "vis_numbers"}
FOR_THE_MODEL = {
    "show_clock",
    "show_blob",
    "model_only",
    "vis_object",  # a visibility that is no list counts as the default
    "uri_number",
    "uri_https",
    "flat_only",
    "show_plain",
    "supports_apps",
    "ran",
}


async def _exported_names(bridge: ToolBridge) -> dict[str, list[str]]:
    gemini = await bridge.gemini_tools()
    return {
        "openai": [t["function"]["name"] for t in await bridge.openai_tools()],
        "responses": [t["name"] for t in await bridge.openai_responses_tools()],
        "anthropic": [t["name"] for t in await bridge.anthropic_tools()],
        "gemini": [d["name"] for d in gemini[0]["function_declarations"]],
    }


def _openai_call(name: str) -> dict[str, Any]:
    return {"id": "call_1", "type": "function", "function": {"name": name, "arguments": "{}"}}


async def test_system_monitor_s_app_only_tool_is_listed_but_never_handed_to_the_model() -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(ext_apps.stdio_parameters("system-monitor")) as client:
            listed = [tool.name for tool in (await client.list_tools()).tools]
            bridge = ToolBridge(client)
            exported = await _exported_names(bridge)
            reply = await bridge.run_openai(_openai_call("poll-system-stats"))
    assert listed == ["get-system-info", "poll-system-stats"]
    assert exported == {fmt: ["get-system-info"] for fmt in ("openai", "responses", "anthropic", "gemini")}
    assert (
        reply["content"]
        == "Error: There is no tool named 'poll-system-stats'. The tools are: get-system-info."
    )


@pytest.mark.parametrize("apps", [True, False])
async def test_app_only_tools_are_never_exported_nor_run(apps_server: Any, era: str, apps: bool) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(apps_server, mode=era, apps=apps) as client:
            before = json.loads(text_of(await client.call_tool("ran")))
            listed = {tool.name for tool in (await client.list_tools()).tools}
            bridge = ToolBridge(client)
            exported = await _exported_names(bridge)
            replies = []
            for name in sorted(APP_ONLY):
                replies.append((await bridge.run_openai(_openai_call(name)))["content"])
                use = {"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}
                replies.append(json.dumps((await bridge.run_anthropic(use))["content"]))
                replies.append(json.dumps(await bridge.run_gemini({"name": name, "args": {}})))
            after = json.loads(text_of(await client.call_tool("ran")))
    assert listed == APP_ONLY | FOR_THE_MODEL
    for names in exported.values():
        assert set(names) == FOR_THE_MODEL
    assert len(replies) == 3 * len(APP_ONLY)
    assert all("There is no tool named" in reply for reply in replies)
    assert after == before  # not one of those calls reached the server


async def test_a_model_only_tool_is_exported_and_runs(apps_server: Any) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(apps_server) as client:
            bridge = ToolBridge(client)
            await bridge.openai_tools()
            call = {
                "id": "c",
                "type": "function",
                "function": {"name": "model_only", "arguments": '{"text": "hi"}'},
            }
            reply = await bridge.run_openai(call)
    assert reply["content"] == "model only: hi"


def _group_config() -> dict[str, Any]:
    command, args = ext_apps.stdio_command("system-monitor")
    return {
        "mcpServers": {
            "monitor": {"command": command, "args": args},
            "lab": {"command": PEER_PYTHON, "args": [str(APPS_SERVER), "stdio"]},
        }
    }


async def test_a_group_never_hands_app_only_tools_to_the_model() -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with ClientGroup(_group_config()) as group:
            listed = {tool.name for tool in await group.list_tools()}
            bridge = ToolBridge(group)
            exported = await _exported_names(bridge)
            reply = await bridge.run_openai(_openai_call("lab_app_only"))
            monitor = await bridge.run_openai(_openai_call("monitor_poll-system-stats"))
            ran = json.loads(text_of(await group.call_tool("lab_ran")))
    assert {"monitor_poll-system-stats", "lab_app_only", "lab_poll"} <= listed
    wanted = {"monitor_get-system-info"} | {f"lab_{name}" for name in FOR_THE_MODEL}
    for names in exported.values():
        assert set(names) == wanted
    assert "There is no tool named 'lab_app_only'" in reply["content"]
    assert "There is no tool named 'monitor_poll-system-stats'" in monitor["content"]
    assert ran == []


@pytest.mark.parametrize("kind", ["client", "group"])
async def test_the_framework_adapters_leave_app_only_tools_out(kind: str) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from mcp_client.frameworks.langchain import load_tools
    from mcp_client.frameworks.openai_agents import function_tools
    from mcp_client.frameworks.pydantic_ai import MCPToolset

    offered: list[str] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        offered.extend(tool.name for tool in info.function_tools)
        return ModelResponse(parts=[TextPart("done")])

    async def names(source: Client | ClientGroup) -> dict[str, set[str]]:
        await Agent(FunctionModel(model), toolsets=[MCPToolset(source)]).run("hello")
        return {
            "langchain": {tool.name for tool in await load_tools(source)},
            "openai_agents": {tool.name for tool in await function_tools(source)},
            "pydantic_ai": set(offered),
        }

    with anyio.fail_after(TEST_TIMEOUT):
        if kind == "client":
            async with Client(apps_stdio()) as client:
                found = await names(client)
            wanted = FOR_THE_MODEL
        else:
            async with ClientGroup(_group_config()) as group:
                found = await names(group)
            wanted = {"monitor_get-system-info"} | {f"lab_{name}" for name in FOR_THE_MODEL}
    assert found == {"langchain": wanted, "openai_agents": wanted, "pydantic_ai": wanted}
