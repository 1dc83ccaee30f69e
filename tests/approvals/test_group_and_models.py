"""The same policy wherever a call comes from: a ``ClientGroup`` (for all its servers, or per server,
patterns on the group's unique names and on ``server.tool``), ``ToolBridge.run_*`` (a refusal the
model reads), and the three framework adapters in a real run of their framework (offline test models).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_client import ApprovalResult, Client, ClientGroup, ToolCallDenied, ToolPolicy
from mcp_client.approvals import pending_approval
from mcp_client.config import ConfigError
from mcp_client.llm import ToolBridge
from tests.approvals.conftest import APPROVALS_SERVER, BOUND, Approver, approvals_server, ran, text

pytestmark = pytest.mark.anyio

REFUSED = "The user refused this call of write_note: it was not run. The user said: not now"
POLICY_REFUSED = "The app's tool policy does not allow drop_notes: the call was not run."


def _config() -> dict[str, Any]:
    entry = {"command": sys.executable, "args": [str(APPROVALS_SERVER), "stdio"]}
    return {"mcpServers": {"notes": dict(entry), "files": dict(entry)}}


async def test_a_group_policy_for_all_with_unique_names_and_server_dot_tool() -> None:
    approver = Approver()
    policy = ToolPolicy(deny=["notes_drop_*", "files.wipe_disk"], allow=["files.write_*"])
    with anyio.fail_after(BOUND):
        async with ClientGroup(
            _config(), mode="legacy", tool_policy=policy, approval_callback=approver
        ) as group:
            assert not group.failures
            with pytest.raises(ToolCallDenied) as unique:
                await group.call_tool("notes_drop_notes")  # the group's unique name
            with pytest.raises(ToolCallDenied) as dotted:
                await group.call_tool("files_wipe_disk")  # server.tool: the server's own tool name
            assert text(await group.call_tool("files_drop_notes")) == "ran drop_notes"  # asked, allowed
            assert text(await group.call_tool("files_write_note", {"text": "x"})) == "ran write_note"
            assert await ran(group["notes"]) == []
            assert await ran(group["files"]) == ["drop_notes", "write_note"]
    assert (unique.value.tool, unique.value.server) == ("notes_drop_notes", "notes")
    assert unique.value.reason == "deny pattern 'notes_drop_*'"
    assert (dotted.value.tool, dotted.value.reason) == ("files_wipe_disk", "deny pattern 'files.wipe_disk'")
    (request,) = approver.asked
    assert (request.server, request.tool) == ("files", "files_drop_notes")
    assert approver.contexts[0].server_name == "files"


async def test_a_group_policy_per_member() -> None:
    approver = Approver({"*": ApprovalResult("deny")})
    with anyio.fail_after(BOUND):
        async with ClientGroup(
            _config(),
            mode="legacy",
            tool_policies={"files": ToolPolicy(ask="always", allow=["files.ran"])},
            approval_callback=approver,
        ) as group:
            assert group["notes"].tool_policy == ToolPolicy()  # the callback alone: the default
            assert text(await group.call_tool("notes_get_note", {"id": "1"})) == "ran get_note"
            with pytest.raises(ToolCallDenied):
                await group.call_tool("files_get_note", {"id": "1"})  # read-only, but always asked
            assert await ran(group["files"]) == []
    assert approver.tools == ["files_get_note"]


async def test_pending_approval_of_a_group_member_speaks_the_groups_names() -> None:
    """What an app that asks its own way reads for a member's call (``pending_approval``): the group's
    server name and unique tool name, the ``server.tool`` patterns on the server's own tool name."""
    approver = Approver()
    policy = ToolPolicy(allow=["files.write_note"])
    with anyio.fail_after(BOUND):
        async with ClientGroup(
            _config(), mode="legacy", tool_policy=policy, approval_callback=approver
        ) as group:
            member = group["files"]
            assert await pending_approval(member, "write_note", {"text": "x"}) is None  # allowed
            pending = await pending_approval(member, "plain", {"text": "x"})
            assert pending is not None
            request, context = pending
            assert (request.server, request.tool, request.reason) == (
                "files", "files_plain", 'ask="unless_read_only": the server does not mark it read-only'
            )  # fmt: skip
            assert (context.config_name, context.server_name, context.tool_name) == (
                "files", "files", "files_plain"
            )  # fmt: skip
    assert approver.asked == []


def test_a_group_checks_its_policies_at_construction() -> None:
    with pytest.raises(ValueError, match="approval_callback"):
        ClientGroup(_config(), tool_policies={"files": ToolPolicy()})
    with pytest.raises(ValueError, match="tool_policies name servers that are not in"):
        ClientGroup(_config(), tool_policies={"nowhere": ToolPolicy(ask="never")})
    ClientGroup(_config(), tool_policy=ToolPolicy(ask="never", deny=["*_drop_*"]))


def _file_with_policies(folder: Path, notes: Any, files: Any = None) -> Path:
    """An ``mcpServers`` file of two approvals servers, ``notes`` and ``files``, with these policies."""
    servers = _config()["mcpServers"]
    servers["notes"]["tool_policy"] = notes
    if files is not None:
        servers["files"]["tool_policy"] = files
    path = folder / "mcp.json"
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return path


async def test_a_policy_per_member_from_the_file(tmp_path: Path) -> None:
    """Each entry's ``"tool_policy"`` gates that server's calls, in place of the group's ``tool_policy``
    (here one that would deny every ``write_note``)."""
    path = _file_with_policies(
        tmp_path,
        notes={"deny": ["notes.drop_*", "*_wipe_disk"], "ask": "never"},
        files={"allow": ["files.write_note", "files.ran"], "ask": "always"},
    )
    approver = Approver({"*": ApprovalResult("deny", note="not now")})
    group_wide = ToolPolicy(deny=["*write_note*"], ask="never")
    with anyio.fail_after(BOUND):
        async with ClientGroup(
            path, mode="legacy", tool_policy=group_wide, approval_callback=approver
        ) as group:
            assert not group.failures
            with pytest.raises(ToolCallDenied) as dropped:
                await group.call_tool("notes_drop_notes")
            with pytest.raises(ToolCallDenied) as wiped:
                await group.call_tool("notes_wipe_disk")  # marked read-only, denied by name
            assert text(await group.call_tool("notes_write_note", {"text": "x"})) == "ran write_note"
            assert text(await group.call_tool("files_write_note", {"text": "y"})) == "ran write_note"
            with pytest.raises(ToolCallDenied) as asked:
                await group.call_tool("files_get_note", {"id": "1"})  # read-only, but "always" asks
            assert await ran(group["notes"]) == ["write_note"]
            assert await ran(group["files"]) == ["write_note"]
    assert str(dropped.value) == (
        "the call of tool 'notes_drop_notes' on notes was denied (deny pattern 'notes.drop_*') and not "
        "sent to the server: change the ToolPolicy's deny patterns to let it run"
    )
    assert wiped.value.reason == "deny pattern '*_wipe_disk'"
    assert (asked.value.by_user, asked.value.reason, asked.value.note) == (True, 'ask="always"', "not now")
    assert approver.tools == ["files_get_note"]  # nobody asked about notes' calls: "never"


def test_a_policy_from_the_file_that_may_ask_needs_someone_to_ask(tmp_path: Path) -> None:
    path = _file_with_policies(tmp_path, notes={"deny": ["notes.drop_*"]})  # ask: "unless_read_only"
    with pytest.raises(ConfigError) as caught:
        ClientGroup(path, mode="legacy")
    assert str(caught.value) == (
        f"{path}: server 'notes', field \"tool_policy\": ask='unless_read_only' may ask a person to approve "
        "a tool call, and this group has no approval_callback to ask: pass ClientGroup(approval_callback="
        '...), or write "ask": "never" to run what allow and deny do not name'
    )
    ClientGroup(_file_with_policies(tmp_path, notes={"deny": ["notes.drop_*"], "ask": "never"}))


def test_a_members_policy_is_given_in_one_place(tmp_path: Path) -> None:
    path = _file_with_policies(tmp_path, notes={"ask": "never"})
    with pytest.raises(ValueError) as caught:
        ClientGroup(path, tool_policies={"notes": ToolPolicy(ask="never")})
    assert str(caught.value) == (
        f"server 'notes' has a tool_policy in {path} and one in ClientGroup(tool_policies=...): give it "
        "in one place"
    )
    ClientGroup(path, tool_policies={"files": ToolPolicy(ask="never")})  # another member: fine


async def test_a_server_added_later_brings_its_policy() -> None:
    entry = {**_config()["mcpServers"]["notes"], "tool_policy": {"deny": ["more.drop_*"], "ask": "never"}}
    with anyio.fail_after(BOUND):
        async with ClientGroup({"mcpServers": {}}, mode="legacy") as group:
            with pytest.raises(ConfigError, match="server 'asks', field \"tool_policy\": ask='always'"):
                await group.add("asks", {**entry, "tool_policy": {"ask": "always"}})
            with pytest.raises(ConfigError, match=r"field 'tool_policy\.deny': expected a list"):
                await group.add("bad", {**entry, "tool_policy": {"deny": "more.drop_*"}})
            await group.add("more", entry)
            with pytest.raises(ToolCallDenied, match=r"deny pattern 'more\.drop_\*'"):
                await group.call_tool("more_drop_notes")
            assert text(await group.call_tool("more_write_note", {"text": "x"})) == "ran write_note"
            assert await ran(group["more"]) == ["write_note"]


async def test_tool_bridge_tells_the_model_the_user_refused() -> None:
    approver = Approver({"write_note": ApprovalResult("deny", note="not now")})
    policy = ToolPolicy(deny=["drop_*"])
    with anyio.fail_after(BOUND):
        async with Client(
            approvals_server(), mode="legacy", tool_policy=policy, approval_callback=approver
        ) as client:
            bridge = ToolBridge(client)
            await bridge.openai_tools()
            refused = await bridge.run_openai(
                {"id": "c1", "function": {"name": "write_note", "arguments": '{"text": "x"}'}}
            )
            policy_refused = await bridge.run_anthropic({"id": "t1", "name": "drop_notes", "input": {}})
            assert await ran(client) == []
    assert refused == {"role": "tool", "tool_call_id": "c1", "content": f"Error: {REFUSED}"}
    assert policy_refused == {
        "type": "tool_result",
        "tool_use_id": "t1",
        "content": [{"type": "text", "text": POLICY_REFUSED}],
        "is_error": True,
    }


async def test_tool_bridge_tells_the_model_nobody_approved_a_call_nobody_decided() -> None:
    """``ApprovalResult(asked=False)`` (no terminal, no answer in time): not the user's refusal, nor the
    app's policy; the model reads that nobody approved it, why, and not to retry it."""
    nobody = ApprovalResult("deny", note="nobody answered within 90s", asked=False)
    approver = Approver({"*": nobody})
    with anyio.fail_after(BOUND):
        async with Client(
            approvals_server(), mode="legacy", tool_policy=ToolPolicy(), approval_callback=approver
        ) as client:
            bridge = ToolBridge(client)
            await bridge.openai_tools()
            unanswered = await bridge.run_openai(
                {"id": "c1", "function": {"name": "write_note", "arguments": '{"text": "x"}'}}
            )
            assert await ran(client) == []
    assert unanswered == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "Error: Nobody approved this call of write_note, so it was not run: nobody answered "
        "within 90s. It needs a person's approval: do not retry it; go on without it, or tell the user it "
        "needs their approval.",
    }


class _Broken(Exception):
    pass


async def test_tool_bridge_tells_the_model_the_app_could_not_get_an_approval() -> None:
    """An ``approval_callback`` that raises: not the app's policy (nothing forbids the tool), nor the
    user's refusal; the model reads that no approval could be got, and not to retry. The app's error
    names the callback's failure and what it raised, not its text."""

    async def broken(context: Any, request: Any) -> ApprovalResult:
        raise _Broken("secret detail of the approval UI")

    with anyio.fail_after(BOUND):
        async with Client(
            approvals_server(), mode="legacy", tool_policy=ToolPolicy(), approval_callback=broken
        ) as client:
            bridge = ToolBridge(client)
            await bridge.openai_tools()
            failed = await bridge.run_openai(
                {"id": "c1", "function": {"name": "write_note", "arguments": '{"text": "x"}'}}
            )
            with pytest.raises(ToolCallDenied) as denied:
                await client.call_tool("write_note", {"text": "x"})
            assert await ran(client) == []
    assert failed == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "Error: The app could not get an approval for this call of write_note, so it was not "
        "run. Do not retry it; go on without it, or tell the user it could not be approved.",
    }
    assert str(denied.value) == (
        "the call of tool 'write_note' on approvals-server was denied (the approval callback failed) and "
        "not sent to the server: fix the approval_callback: it raised _Broken (its error is logged above)"
    )


async def test_pydantic_ai_reads_the_refusal_without_a_retry() -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from mcp_client.frameworks.pydantic_ai import MCPToolset

    returned: list[ToolReturnPart] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        parts = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if not parts:
            return ModelResponse(parts=[ToolCallPart("write_note", {"text": "x"}, tool_call_id="w1")])
        returned.extend(parts)
        return ModelResponse(parts=[TextPart("understood")])

    approver = Approver({"write_note": ApprovalResult("deny", note="not now")})
    with anyio.fail_after(BOUND):
        async with Client(approvals_server(), mode="legacy", approval_callback=approver) as client:
            toolset = MCPToolset(client, max_retries=0)  # a ModelRetry would end the run in an error
            run = await Agent(FunctionModel(model), toolsets=[toolset]).run("Write a note")
            assert await ran(client) == []
    assert run.output == "understood"
    (part,) = returned
    assert part.content == REFUSED


async def test_langchain_gets_an_error_tool_message() -> None:
    from mcp_client.frameworks.langchain import load_tools

    approver = Approver({"write_note": ApprovalResult("deny", note="not now")})
    with anyio.fail_after(BOUND):
        async with Client(approvals_server(), mode="legacy", approval_callback=approver) as client:
            tools = {tool.name: tool for tool in await load_tools(client)}
            call = {"name": "write_note", "args": {"text": "x"}, "id": "call_1", "type": "tool_call"}
            message = await tools["write_note"].ainvoke(call)
            assert await ran(client) == []
    assert message.status == "error"
    assert message.content == REFUSED


async def test_openai_agents_model_reads_the_refusal() -> None:
    from agents import Agent, RunConfig, Runner

    from mcp_client.frameworks.openai_agents import function_tools
    from tests.frameworks.scripted_agents_model import ScriptedModel

    approver = Approver({"write_note": ApprovalResult("deny", note="not now")})
    scripted = ScriptedModel("write_note", {"text": "x"})
    with anyio.fail_after(BOUND):
        async with Client(approvals_server(), mode="legacy", approval_callback=approver) as client:
            tools = await function_tools(client, include=["write_note"])
            agent = Agent(name="notes", model=scripted, tools=tools)
            result = await Runner.run(agent, "Write a note", run_config=RunConfig(tracing_disabled=True))
            assert await ran(client) == []
    assert REFUSED in result.final_output


async def test_pydantic_ai_deferred_approvals_use_its_own_flow() -> None:
    """``MCPToolset(approvals="deferred")``: a call the policy would ask about ends the run with
    ``ApprovalRequired``; approved in ``DeferredToolResults``, it runs without asking the callback;
    denied there, it never runs. A read-only tool is not deferred."""
    from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults, ToolDenied
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from mcp_client.frameworks.pydantic_ai import MCPToolset

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        parts = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if not parts:
            return ModelResponse(
                parts=[
                    ToolCallPart("search_notes", {"query": "q"}, tool_call_id="s1"),
                    ToolCallPart("write_note", {"text": "x"}, tool_call_id="w1"),
                ]
            )
        return ModelResponse(parts=[TextPart(" | ".join(str(p.content) for p in parts))])

    approver = Approver({"*": ApprovalResult("deny")})  # never consulted for what the run defers
    with anyio.fail_after(BOUND):
        async with Client(approvals_server(), mode="legacy", approval_callback=approver) as client:
            agent = Agent(
                FunctionModel(model),
                toolsets=[MCPToolset(client, approvals="deferred")],
                output_type=[str, DeferredToolRequests],
            )
            first = await agent.run("Search, then write a note")
            assert isinstance(first.output, DeferredToolRequests)
            (approval,) = first.output.approvals
            assert (approval.tool_name, approval.tool_call_id) == ("write_note", "w1")
            assert first.output.metadata["w1"]["reason"] == (
                'ask="unless_read_only": the server does not mark it read-only'
            )
            assert await ran(client) == ["search_notes"]
            denied = await agent.run(
                message_history=first.all_messages(),
                deferred_tool_results=DeferredToolResults(approvals={"w1": ToolDenied("not today")}),
            )
            assert "not today" in str(denied.output)
            assert await ran(client) == ["search_notes"]
            approved = await agent.run(
                message_history=first.all_messages(),
                deferred_tool_results=DeferredToolResults(approvals={"w1": True}),
            )
            assert "ran write_note" in str(approved.output)
            assert await ran(client) == ["search_notes", "write_note"]
    assert approver.asked == []
