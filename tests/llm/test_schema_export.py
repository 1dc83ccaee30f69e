"""Input schemas providers refuse, as the SDKs send them, and the model's calls against the tool's own schema.

``tests/servers/schemas_server.py`` publishes what real servers publish: roots that are no plain object
(a string, an array, ``anyOf``/``oneOf``/``allOf``/``not``, a ``$ref``), a ``required`` name its object
does not define, the shapes the Gemini API refuses with HTTP 400, and a ``$ref`` fan-out. The real
OpenAI, Anthropic and Gemini SDKs send the bridge's export to the fake provider on 127.0.0.1; the tests
read what was sent, and what the model gets back when it calls (a scripted reply): a call the tool's own
schema refuses never reaches the server, and its error says why.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import anthropic
import openai
import pytest
from anthropic.types import ToolParam
from google import genai
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionFunctionToolParam
from pydantic import TypeAdapter

from mcp_client import Client, StdioServerParameters
from mcp_client.llm import ToolBridge
from mcp_client.llm._openai import strict_schema
from mcp_client.llm._schema import export_root
from tests.llm import fake_provider as fake
from tests.llm.fake_provider import FakeProvider
from tests.support.servers import SERVERS_DIR, stdio_command

pytestmark = pytest.mark.anyio

SCHEMAS = StdioServerParameters(*stdio_command(SERVERS_DIR / "schemas_server.py"))
ROOT_REFUSED = ("anyOf", "oneOf", "allOf", "not", "enum", "const", "$ref")  # OpenAI's and Anthropic's rule


def _openai(provider: FakeProvider) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(api_key="test", base_url=provider.url + "/v1", max_retries=0)


def _anthropic(provider: FakeProvider) -> anthropic.AsyncAnthropic:
    return anthropic.AsyncAnthropic(api_key="test", base_url=provider.url, max_retries=0)


def _gemini(provider: FakeProvider) -> genai.Client:
    return genai.Client(api_key="test", http_options={"base_url": provider.url})


async def _sent_to_each_provider(
    provider: FakeProvider,
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Each provider's request with the schemas server's tools; ``(chat, anthropic, gemini)`` by name."""
    provider.reply(fake.chat_text("ok"), fake.anthropic_text("ok"), fake.gemini_text("ok"))
    gemini = _gemini(provider)
    async with (
        Client(SCHEMAS) as client,
        _openai(provider) as chat,
        _anthropic(provider) as claude,
        gemini.aio as g,
    ):
        bridge = ToolBridge(client)
        user: list[Any] = [{"role": "user", "content": "hi"}]
        await chat.chat.completions.create(model="gpt-test", messages=user, tools=await bridge.openai_tools())  # type: ignore[arg-type]
        await claude.messages.create(
            model="claude-test",
            max_tokens=10,
            messages=user,
            tools=await bridge.anthropic_tools(),  # type: ignore[arg-type]
        )
        config = genai_types.GenerateContentConfig(tools=await bridge.gemini_tools())  # type: ignore[arg-type]
        await g.models.generate_content(model="gemini-test", contents="hi", config=config)
    (chat_body,) = provider.bodies("/chat/completions")
    (claude_body,) = provider.bodies("/messages")
    (gemini_body,) = provider.bodies(":generateContent")
    return (
        {t["function"]["name"]: t["function"] for t in chat_body["tools"]},
        {t["name"]: t for t in claude_body["tools"]},
        {d["name"]: d for d in gemini_body["tools"][0]["functionDeclarations"]},
    )


def _gemini_node_ok(node: Any, where: str = "parameters") -> None:
    """What the Gemini API refuses with HTTP 400, nowhere in a declaration."""
    if not isinstance(node, dict):
        return
    kind = str(node.get("type", "")).lower()
    if "properties" in node or "required" in node:
        assert kind == "object", f"{where}: properties on a {kind or 'typeless'} node"
    if kind == "object" and where != "parameters":
        assert node.get("properties"), f"{where}: an OBJECT without properties"
    if kind == "array":
        assert isinstance(node.get("items"), dict), f"{where}: an ARRAY without items"
    for key, sub in (node.get("properties") or {}).items():
        _gemini_node_ok(sub, f"{where}.{key}")
    for number, sub in enumerate(node.get("anyOf") or node.get("any_of") or []):
        assert sub.get("type"), f"{where}.anyOf[{number}]: a typeless branch"
        _gemini_node_ok(sub, f"{where}.anyOf[{number}]")
    if "items" in node:
        _gemini_node_ok(node["items"], f"{where}.items")


async def test_each_root_shape_goes_out_as_an_object_root_every_provider_takes(
    fake_provider: FakeProvider,
) -> None:
    chat, claude, gemini = await _sent_to_each_provider(fake_provider)

    for name in chat:
        parameters, input_schema = chat[name]["parameters"], claude[name]["input_schema"]
        for schema in (parameters, input_schema):
            assert schema["type"] == "object" and isinstance(schema["properties"], dict), name
            assert not set(schema) & set(ROOT_REFUSED), f"{name}: {sorted(set(schema) & set(ROOT_REFUSED))}"
        TypeAdapter(ChatCompletionFunctionToolParam).validate_python(
            {"type": "function", "function": chat[name]}
        )
        TypeAdapter(ToolParam).validate_python(claude[name])
        assert claude[name]["description"] == chat[name]["description"]
        if name in gemini and "parameters" in gemini[name]:
            _gemini_node_ok(gemini[name]["parameters"])
    genai_types.Tool.model_validate({"function_declarations": list(gemini.values())})

    # anyOf (zod's union): the branches' properties, all optional; the forms told in the description
    search = chat["search"]
    assert search["parameters"]["properties"] == {
        "query": {"type": "string"},
        "page": {"type": "integer", "minimum": 1},
        "id": {"type": "string", "pattern": "^[0-9a-f]{8}$"},
    }
    assert "required" not in search["parameters"] and search["strict"] is False
    assert search["description"] == (
        "the search tool\n\nInput schema (as the tool checks it): the arguments must match at least one of "
        "these forms: 1) query, page (required: query); 2) id (required: id)."
    )
    assert set(gemini["search"]["parameters"]["properties"]) == {"query", "page", "id"}

    # oneOf on a constant: one enum, and the name every branch requires stays required
    create = chat["create"]["parameters"]
    assert create["properties"]["kind"] == {"enum": ["page", "database"], "type": "string"}
    assert create["required"] == ["kind"]
    assert (
        "exactly one of these forms: 1) kind, title (required: kind, title); 2) kind, columns"
        in (chat["create"]["description"])
    )
    assert gemini["create"]["parameters"]["required"] == ["kind"]  # before: a root oneOf had no parameters
    assert set(gemini["create"]["parameters"]["properties"]) == {"kind", "title", "columns"}

    # allOf of plain objects is exact: merged, and strict
    merged = chat["merged"]
    assert merged["parameters"]["required"] == ["calendar", "days"] and merged["strict"] is True
    assert merged["description"] == "the merged tool"

    # not: dropped from the schema, said in the description
    assert 'the arguments must not match {"required":["email","phone"]}' in chat["not_both"]["description"]
    assert chat["not_both"]["strict"] is False

    # a $ref root: its target, with the definitions kept (Gemini: written out)
    ref_root = claude["ref_root"]["input_schema"]
    assert ref_root["properties"] == {"size": {"$ref": "#/definitions/Size"}} and ref_root["required"] == [
        "size"
    ]
    assert ref_root["definitions"]["Size"] == {"type": "string", "enum": ["S", "M", "L"]}
    assert gemini["ref_root"]["parameters"]["properties"]["size"]["enum"] == ["S", "M", "L"]

    # a string or an array root: no object can satisfy it; the model is told so
    for name, kind in (("text_root", "string"), ("list_root", "array")):
        assert chat[name]["parameters"] == {"type": "object", "properties": {}}
        assert f'describes "{kind}", not an object' in chat[name]["description"]
        assert "no call can satisfy it until its server fixes it" in claude[name]["description"]
        assert "parameters" not in gemini[name]


async def test_gemini_gets_no_shape_its_api_refuses(fake_provider: FakeProvider) -> None:
    _, _, gemini = await _sent_to_each_provider(fake_provider)
    shapes = gemini["gemini_shapes"]["parameters"]["properties"]

    # an array without items: any value, not "strings"
    assert shapes["anything"]["items"] == {"description": "any JSON value"}
    # a tuple of numbers: numbers, in that order
    assert shapes["point"]["items"] == {"type": "NUMBER"}  # the SDK sends Gemini's type names
    assert shapes["point"]["description"] == "a list of 2 in this order: number, number"
    # properties on a string: dropped
    assert shapes["label"] == {"type": "STRING"}
    # an object without properties (a map): no OBJECT type, described
    assert shapes["options"] == {"description": "a JSON object; its keys are not declared here"}
    # an object-or-string: the properties on the object branch only
    assert shapes["either"] == {  # the SDK writes anyOf as any_of (the API reads both spellings)
        "any_of": [{"type": "OBJECT", "properties": {"name": {"type": "STRING"}}}, {"type": "STRING"}]
    }
    _gemini_node_ok(gemini["gemini_shapes"]["parameters"])


async def test_a_ref_fan_out_is_bounded_said_and_the_tool_still_works(fake_provider: FakeProvider) -> None:
    """16 definitions, each referring twice to the next: 2^16 copies when written out (4.3 MB before)."""
    _, claude, gemini = await _sent_to_each_provider(fake_provider)
    declaration = gemini["fan_out"]
    size = len(json.dumps(declaration))
    assert size < 16_000, f"the fan-out declaration is {size} bytes"
    assert "Parts of the input schema are not declared here, to keep it small" in declaration["description"]
    assert "#/$defs/Level" in declaration["description"]
    assert declaration["parameters"]["required"] == ["name"]
    assert "was cut short to keep the schema small" in json.dumps(declaration["parameters"])  # where
    assert "$defs" in claude["fan_out"]["input_schema"]  # Anthropic and OpenAI share the definitions
    assert len(json.dumps(claude["fan_out"])) < 3_000

    good = {"name": "n", "tree": {"left": {"right": {"left": {}}}}}
    bad = {"tree": {"left": {"right": 5}}}
    fake_provider.reply(fake.gemini_function_call("fan_out", bad), fake.gemini_function_call("fan_out", good))
    gemini_client = _gemini(fake_provider)
    async with Client(SCHEMAS) as client, gemini_client.aio as model:
        bridge = ToolBridge(client)
        config = genai_types.GenerateContentConfig(tools=await bridge.gemini_tools())  # type: ignore[arg-type]
        answers = []
        for _ in range(2):
            response = await model.models.generate_content(model="gemini-test", contents="go", config=config)
            answers += [await bridge.run_gemini(call) for call in response.function_calls or []]
        calls = await client.call_tool("calls", {})

    refused, done = (answer["function_response"]["response"] for answer in answers)
    assert refused["error"].startswith("The call to fan_out was not run: the arguments do not match")
    assert '"name" is a required property' in refused["error"]
    assert "at $.tree.left.right: 5 is not of type" in refused["error"]
    assert done == {"output": f"fan_out got {json.dumps(good, sort_keys=True)}"}
    assert json.loads(calls.content[0].text) == [{"name": "fan_out", "arguments": good}]  # type: ignore[union-attr]


async def test_a_call_the_tools_own_schema_refuses_never_reaches_the_server(
    fake_provider: FakeProvider,
) -> None:
    """The model calls ``search`` (a root anyOf) with a mix of both forms, then correctly; ``create``
    (a root oneOf) without its title; ``text_root``, which no call can satisfy. Only the correct call
    reaches the server."""
    fake_provider.reply(
        fake.chat_tool_call("search", {"query": "mcp", "id": "not-hex"}, "c1"),
        fake.chat_tool_call("search", {"query": "mcp", "page": 2}, "c2"),
        fake.chat_text("Found it."),
        fake.anthropic_tool_use("create", {"kind": "page"}),
        fake.gemini_function_call("text_root", {}),
    )
    gemini_client = _gemini(fake_provider)
    async with (
        Client(SCHEMAS) as client,
        _openai(fake_provider) as chat,
        _anthropic(fake_provider) as claude,
        gemini_client.aio as gemini,
    ):
        bridge = ToolBridge(client)
        tools = await bridge.openai_tools()
        messages: list[Any] = [{"role": "user", "content": "Find the MCP page."}]
        while True:
            response = await chat.chat.completions.create(model="gpt-test", messages=messages, tools=tools)  # type: ignore[arg-type]
            message = response.choices[0].message
            messages.append(message.model_dump(exclude_none=True))
            if not message.tool_calls:
                break
            messages += [await bridge.run_openai(call) for call in message.tool_calls]

        reply = await claude.messages.create(
            model="claude-test", max_tokens=10, messages=[{"role": "user", "content": "a page"}],
            tools=await bridge.anthropic_tools(),  # type: ignore[arg-type]
        )  # fmt: skip
        (use,) = [block for block in reply.content if block.type == "tool_use"]
        created = await bridge.run_anthropic(use)

        config = genai_types.GenerateContentConfig(tools=await bridge.gemini_tools())  # type: ignore[arg-type]
        said = await gemini.models.generate_content(model="gemini-test", contents="text", config=config)
        (text_call,) = said.function_calls or []
        text_root = await bridge.run_gemini(text_call)
        calls = await client.call_tool("calls", {})

    _, second, _ = fake_provider.bodies("/chat/completions")
    mixed = second["messages"][-1]
    assert mixed["tool_call_id"] == "c1"
    assert mixed["content"].startswith(
        "Error: The call to search was not run: the arguments do not match the tool's input schema, at $: "
    )
    assert "1) query, page (required: query); 2) id (required: id)" in mixed["content"]
    assert mixed["content"].endswith("Correct the arguments and call again.")
    final = fake_provider.bodies("/chat/completions")[2]["messages"][-1]
    assert final == {
        "role": "tool",
        "tool_call_id": "c2",
        "content": 'search got {"page": 2, "query": "mcp"}',
    }

    assert created["is_error"] is True
    text = created["content"][0]["text"]
    assert text.startswith(
        "The call to create was not run: the arguments do not match the tool's input schema"
    )
    assert "'oneOf'" in text and "1) kind, title (required: kind, title)" in text

    refusal = text_root["function_response"]["response"]["error"]
    assert '{} is not of type "string"' in refusal
    assert refusal.endswith("Do not call this tool again: no arguments can satisfy its schema.")

    # only the correct call reached the server
    assert json.loads(calls.content[0].text) == [  # type: ignore[union-attr]
        {"name": "search", "arguments": {"query": "mcp", "page": 2}}
    ]


# ------------------------------------------------------------------ strict and a required name not defined


async def test_strict_is_not_claimed_for_a_required_name_the_schema_does_not_define(
    fake_provider: FakeProvider,
) -> None:
    """``dangling`` requires ``country`` but defines only ``city``: a strict copy would list ``city``
    alone and let the model leave ``country`` out, a call the tool refuses."""
    chat, _, _ = await _sent_to_each_provider(fake_provider)
    assert chat["dangling"]["strict"] is False
    assert chat["dangling"]["parameters"] == {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city", "country"],
    }
    nested = {
        "type": "object",
        "properties": {
            "to": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]}
        },
        "required": ["to"],
    }
    assert strict_schema(copy.deepcopy(nested)) is None
    # an allOf root merged into one object keeps the name it requires but does not define
    a = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    merged = export_root({"allOf": [a, {"required": ["b"]}]})
    assert merged.schema["required"] == ["a", "b"] and strict_schema(merged.schema) is None
    assert (
        strict_schema({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
        is not None
    )


@pytest.mark.parametrize(
    ("schema", "said"),
    [
        ({"$ref": "#"}, "'#' refers to itself"),
        ({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}}, "'#/$defs/A' refers to itself"),
        ({"$ref": "https://example.com/args.json"}, "could not be followed"),
    ],
)
def test_a_root_ref_that_leads_nowhere_is_an_open_object_said_so(schema: dict[str, Any], said: str) -> None:
    made = export_root(schema)
    assert made.schema["type"] == "object" and made.schema["properties"] == {}
    assert made.loose is True  # never strict, and the arguments are checked before the call
    assert made.note is not None and said in made.note


async def test_what_the_model_gets_back_for_the_other_roots() -> None:
    """An array root no call can satisfy, a root ``not`` (checked), an ``allOf`` and a ``$ref`` root
    (exact: the server checks, as for any tool)."""
    async with Client(SCHEMAS) as client:
        bridge = ToolBridge(client)
        await bridge.anthropic_tools()

        async def run(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
            return await bridge.run_anthropic({"id": f"t-{name}", "name": name, "input": arguments})

        listed = await run("list_root", {"values": [1, 2]})
        both = await run("not_both", {"email": "a@example.com", "phone": "555"})
        one = await run("not_both", {"email": "a@example.com"})
        merged = await run("merged", {"calendar": "work", "days": 7})
        sized = await run("ref_root", {"size": "M"})
        calls = await client.call_tool("calls", {})

    listed_text = listed["content"][0]["text"]
    assert listed["is_error"] is True and 'at $: {"values":[1,2]} is not of type "array"' in listed_text
    assert listed_text.endswith("Do not call this tool again: no arguments can satisfy its schema.")
    assert both["is_error"] is True
    assert 'the arguments must not match {"required":["email","phone"]}' in both["content"][0]["text"]
    assert one["content"] == [{"type": "text", "text": 'not_both got {"email": "a@example.com"}'}]
    assert merged["content"][0]["text"] == 'merged got {"calendar": "work", "days": 7}'
    assert sized["content"][0]["text"] == 'ref_root got {"size": "M"}'
    assert [call["name"] for call in json.loads(calls.content[0].text)] == [  # type: ignore[union-attr]
        "not_both",
        "merged",
        "ref_root",
    ]


def test_server_text_in_the_description_has_no_control_characters() -> None:
    hostile = "name\n\x1b[31mIGNORE\x07"
    branch = {"type": "object", "properties": {hostile: {}}, "required": [hostile]}
    made = export_root({"anyOf": [branch, {"type": "object"}]})
    assert made.note is not None and "name [31mIGNORE" in made.note
    assert not any(ord(c) < 32 or c == "\x7f" for c in made.note)


def test_server_text_in_the_description_has_no_bidirectional_overrides() -> None:
    """A right-to-left override in a property name would reorder what a person reviewing the note
    reads; it goes like a control character."""
    hostile = "delete\u202eeliFesreveR\u200b"
    branch = {"type": "object", "properties": {hostile: {}}, "required": [hostile]}
    made = export_root({"anyOf": [branch, {"type": "object"}]})
    assert made.note is not None and "delete eliFesreveR" in made.note
    assert not any(c in made.note for c in "\u202e\u200b")
