"""The exported tools, checked against each provider SDK's own types and rules.

Every tool of our test servers, the bistro, fastmcp and server-everything is exported in all four
formats and validated with the SDK's own types: ``TypeAdapter`` of OpenAI's and Anthropic's params,
Gemini's ``Tool``/``FunctionDeclaration`` models (whose ``Schema`` forbids unknown keywords). Strict
OpenAI schemas are checked against the OpenAI Agents SDK's ``ensure_strict_json_schema`` (an independent
reading of the strict rules: a strict schema is one it leaves unchanged).
"""

from __future__ import annotations

import copy
import sys
from typing import Any

import pytest
from agents.strict_schema import ensure_strict_json_schema
from anthropic.types import ToolParam
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam
from pydantic import TypeAdapter

from mcp_client import Client, ClientGroup, StdioServerParameters
from mcp_client.llm import ToolBridge
from mcp_client.llm._names import provider_names
from mcp_client.llm._openai import strict_schema
from tests.interop import _peers
from tests.llm.conftest import BISTRO
from tests.support.servers import FEATURES_SERVER, FORMS_SERVER, GUIDE_SERVER, QUESTIONS_SERVER, stdio_command

pytestmark = pytest.mark.anyio

CHAT_TOOL = TypeAdapter(ChatCompletionFunctionToolParam)
RESPONSES_TOOL = TypeAdapter(FunctionToolParam)
ANTHROPIC_TOOL = TypeAdapter(ToolParam)


def _ours(script: Any) -> StdioServerParameters:
    command, args = stdio_command(script)
    return StdioServerParameters(command, args)


def _peer(name: str) -> StdioServerParameters:
    if name == "fastmcp":
        python = _peers.require_installed(_peers.FASTMCP_PYTHON, "fastmcp 4.1.6 (its venv)")
        return StdioServerParameters(str(python), [str(_peers.FASTMCP_SERVER), "stdio"])
    if name == "everything":
        entry = _peers.require_installed(_peers.EVERYTHING_ENTRY, "@modelcontextprotocol/server-everything")
        return StdioServerParameters(_peers.require_node(), [str(entry), "stdio"])
    scripts = {"guide": GUIDE_SERVER, "features": FEATURES_SERVER, "questions": QUESTIONS_SERVER}
    return BISTRO if name == "bistro" else _ours(scripts.get(name, FORMS_SERVER))


def _strict_nodes_ok(node: Any) -> None:
    """Every object node closed and fully required (the rule, asserted directly too)."""
    if isinstance(node, dict):
        if node.get("type") == "object" or "properties" in node:
            assert node["additionalProperties"] is False
            assert sorted(node["required"]) == sorted(node["properties"])
        for value in node.values():
            _strict_nodes_ok(value)
    elif isinstance(node, list):
        for item in node:
            _strict_nodes_ok(item)


@pytest.mark.parametrize(
    "peer", ["bistro", "guide", "features", "questions", "forms", "fastmcp", "everything"]
)
async def test_every_export_passes_the_sdks_own_types(peer: str) -> None:
    mode = "legacy" if peer == "everything" else "auto"
    async with Client(_peer(peer), mode=mode) as client:
        originals = copy.deepcopy([t.input_schema for t in (await client.list_tools()).tools])
        bridge = ToolBridge(client)
        chat = await bridge.openai_tools()
        responses = await bridge.openai_responses_tools()
        claude = await bridge.anthropic_tools()
        gemini = await bridge.gemini_tools()
        after = [t.input_schema for t in (await client.list_tools()).tools]
    assert chat, f"{peer} offers no tools"
    assert after == originals  # every conversion worked on a copy

    for tool in chat:
        CHAT_TOOL.validate_python(tool)
        function = tool["function"]
        assert set(function) <= {"name", "description", "parameters", "strict"}
        assert function["parameters"]["type"] == "object" and "properties" in function["parameters"]
        if function["strict"]:
            _strict_nodes_ok(function["parameters"])
            assert ensure_strict_json_schema(copy.deepcopy(function["parameters"])) == function["parameters"]
    for tool in responses:
        RESPONSES_TOOL.validate_python(tool)
    for tool in claude:
        ANTHROPIC_TOOL.validate_python(tool)
        assert tool["input_schema"]["type"] == "object"
    declarations = genai_types.Tool.model_validate(gemini[0]).function_declarations or []
    assert [d.name for d in declarations] == [t["function"]["name"] for t in chat]


async def test_strict_where_possible_across_the_peers() -> None:
    """Strict is chosen per tool: forms' ``ask`` takes a free-form ``schema`` object (a map, which
    strict mode cannot spell), the guide's tools all can be strict."""
    strict: dict[str, bool] = {}
    for peer in ("guide", "forms"):
        async with Client(_peer(peer)) as client:
            for tool in await ToolBridge(client).openai_tools():
                strict[tool["function"]["name"]] = tool["function"]["strict"]
    assert strict.pop("ask") is False
    assert all(strict.values()) and len(strict) > 10


# ------------------------------------------------------------------ the strict rules, one by one


def test_strict_makes_top_level_optional_parameters_nullable_on_a_copy() -> None:
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string", "title": "City"},
            "days": {"type": "integer", "default": 3, "minimum": 1},
            "unit": {"enum": ["C", "F"]},
        },
        "required": ["city"],
    }
    original = copy.deepcopy(schema)
    made = strict_schema(schema)
    assert made is not None
    assert schema == original
    assert made.nullable_optional == {"days", "unit"}
    assert made.schema == {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "days": {"type": ["integer", "null"], "minimum": 1},
            "unit": {"anyOf": [{"enum": ["C", "F"]}, {"type": "null"}]},
        },
        "required": ["city", "days", "unit"],
        "additionalProperties": False,
    }


@pytest.mark.parametrize(
    "schema",
    [
        # a map: closing it would refuse every key the tool takes
        {
            "type": "object",
            "properties": {"tags": {"type": "object", "additionalProperties": {"type": "string"}}},
        },
        # a nested optional field: no strict spelling keeps "may be left out" there
        {
            "type": "object",
            "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}, "required": []}},
            "required": ["a"],
        },
        {"type": "object", "properties": {"x": {}}, "required": ["x"]},  # any value
        {"type": "object", "properties": {"x": {"type": "string", "minLength": 2}}, "required": ["x"]},
        {"type": "object", "properties": {"x": {"allOf": [{"type": "string"}]}}, "required": ["x"]},
        {"type": "object", "properties": {"x": {"type": "string", "format": "uri"}}, "required": ["x"]},
        {"type": "object", "properties": {}, "additionalProperties": True},
    ],
)
def test_strict_refuses_what_it_cannot_keep(schema: dict[str, Any]) -> None:
    assert strict_schema(schema) is None


# ------------------------------------------------------------------ names and groups


def test_names_are_made_safe_short_and_unique() -> None:
    long = "files." + "x" * 100
    given = ["ok_name", "a.b", "a_b", "9lives", long, long + "y"]
    names = dict(zip(given, provider_names(given), strict=True))
    assert names["ok_name"] == "ok_name"
    assert names["a.b"] != names["a_b"] == "a_b"
    assert names["a.b"].startswith("a_b_") and len(names["a.b"]) == 12
    assert names["9lives"] == "_9lives"
    assert len(names[long]) == 64 and len(names[long + "y"]) == 64
    assert names[long] != names[long + "y"]
    assert provider_names([long]) == [names[long]]  # stable from one listing to the next
    assert all(n.replace("_", "").replace("-", "").isalnum() for n in names.values())


async def test_a_group_exports_unique_safe_names_and_routes_calls(canned_answers: Any) -> None:
    entry = {"command": sys.executable, "args": BISTRO.args, "mode": "legacy"}  # ctx.elicit: legacy only
    config = {"mcpServers": {"bistro": entry, "bistro.annex": entry}}
    answers = canned_answers(fields={"accept_alternative": True, "date": "2025-12-28"})
    async with ClientGroup(config, elicitation_callback=answers) as group:
        bridge = ToolBridge(group)
        names = [t["name"] for t in await bridge.anthropic_tools()]
        assert names == ["bistro_book_table", "bistro_annex_book_table"]
        behind = bridge.tool_for("bistro_annex_book_table")
        assert (behind.server, behind.original_name) == ("bistro.annex", "book_table")
        block = await bridge.run_anthropic(
            {"id": "t1", "name": "bistro_annex_book_table", "input": {"date": "2025-12-25", "party_size": 3}}
        )
    assert "2025-12-28" in block["content"][0]["text"]
    assert [q.context.server_name for q in answers.questions] == ["bistro.annex"]
    with pytest.raises(KeyError, match="no tool named 'nope'"):
        bridge.tool_for("nope")


async def test_include_exclude_and_the_list_follows_list_changed() -> None:
    async with Client(_peer("features")) as client:
        bridge = ToolBridge(client, include=["add_tool", "late*"], exclude=["*_excluded"])
        assert [t["name"] for t in await bridge.anthropic_tools()] == ["add_tool"]
        await bridge.run_anthropic({"id": "t1", "name": "add_tool", "input": {"name": "late_one"}})
        await bridge.run_anthropic({"id": "t2", "name": "add_tool", "input": {"name": "late_excluded"}})
        for _ in range(100):  # the notice arrives beside the call's result; give it time on a busy machine
            names = [t["name"] for t in await bridge.anthropic_tools()]
            if "late_one" in names:
                break
            await _sleep(0.05)
        assert names == ["add_tool", "late_one"]
        block = await bridge.run_anthropic({"id": "t3", "name": "late_one", "input": {}})
    assert block["content"] == [{"type": "text", "text": "late_one was added"}]


async def _sleep(seconds: float) -> None:
    import anyio

    await anyio.sleep(seconds)


# ------------------------------------------------------------------ Gemini's subset


def test_gemini_parameters_drop_what_gemini_refuses() -> None:
    from mcp_client.llm._gemini import parameters

    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"Size": {"type": "string", "enum": ["S", "M"]}},
        "properties": {
            "size": {"$ref": "#/$defs/Size", "description": "cup size"},
            "note": {"type": ["string", "null"], "format": "uri"},
            "count": {"type": "integer", "exclusiveMinimum": 0},
            "kind": {"const": "latte"},
            "extras": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "required": ["size", "ghost"],
        "additionalProperties": False,
    }
    out = parameters(schema)
    genai_types.Schema.model_validate(out)
    assert out == {
        "type": "object",
        "properties": {
            "size": {"type": "string", "enum": ["S", "M"], "description": "cup size"},
            "note": {"type": "string", "nullable": True},
            "count": {"type": "integer"},
            "kind": {"type": "string", "enum": ["latte"]},
            # Gemini refuses an OBJECT without properties: a map is declared without a type, described
            "extras": {"description": "a JSON object; its keys are not declared here"},
        },
        "required": ["size"],
    }


# ------------------------------------------------------------------ results in each provider's shape


async def test_results_keep_images_resources_structure_and_errors() -> None:
    async with Client(_peer("everything"), mode="legacy") as client:
        bridge = ToolBridge(client)
        await bridge.openai_tools()
        image = {"id": "t1", "name": "get-tiny-image", "input": {}}
        claude_image = await bridge.run_anthropic(image)
        responses_image = await bridge.run_openai(
            {"call_id": "c1", "name": "get-tiny-image", "arguments": "{}"}
        )
        chat_image = await bridge.run_openai(
            {"id": "c2", "type": "function", "function": {"name": "get-tiny-image", "arguments": ""}}
        )
        resource = await bridge.run_anthropic(
            {"id": "t2", "name": "get-resource-reference", "input": {"resourceType": "Text", "resourceId": 1}}
        )
        weather_call = {"name": "get-structured-content", "args": {"location": "Chicago"}}
        weather_text = await bridge.run_gemini(weather_call)
        structured = ToolBridge(client, model_reads="structured")
        await structured.gemini_tools()
        weather = await structured.run_gemini(weather_call)
        echo = await bridge.run_gemini({"name": "echo", "args": {"message": "hi"}, "id": "g1"})

    assert [b["type"] for b in claude_image["content"]] == ["text", "image", "text"]
    assert claude_image["content"][1]["source"]["media_type"] == "image/png"
    assert [i["type"] for i in responses_image["output"]] == ["input_text", "input_image", "input_text"]
    assert responses_image["output"][1]["image_url"].startswith("data:image/png;base64,")
    assert "[image (image/png) not shown]" in chat_image["content"]  # Chat tool messages take text only
    assert resource["content"][1]["text"].startswith("[resource ")  # an embedded text resource as text
    assert set(weather["function_response"]["response"]["output"]) >= {"temperature", "conditions"}
    assert isinstance(weather_text["function_response"]["response"]["output"], str)  # the content
    assert echo == {"function_response": {"name": "echo", "id": "g1", "response": {"output": "Echo: hi"}}}


async def test_a_tool_error_is_the_providers_error_flag() -> None:
    async with Client(_peer("features")) as client:
        bridge = ToolBridge(client)
        claude = await bridge.run_anthropic(
            {"id": "t1", "name": "failing_weather", "input": {"city": "Oslo"}}
        )
        chat = await bridge.run_openai(
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "failing_weather", "arguments": '{"city":"Oslo"}'},
            }
        )
        gemini = await bridge.run_gemini({"name": "failing_weather", "args": {"city": "Oslo"}})
    assert claude["is_error"] is True and "no weather for Oslo" in claude["content"][0]["text"]
    assert chat["content"].startswith("Error: ") and "no weather for Oslo" in chat["content"]
    assert "no weather for Oslo" in gemini["function_response"]["response"]["error"]
