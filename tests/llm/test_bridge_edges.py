"""The bridge at its edges: tool names a server crafts, a tool listed twice, arguments JSON cannot carry,
what the model reads of a result, and the one server error that is the user's, not the model's.

The real SDKs talk to the fake endpoint (``fake_provider.py``); the server is ``names_server.py``
(official SDK), whose ``ran()`` tool says which tools ran, so a test sees which tool a call reached,
or that none did.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import anthropic
import anyio
import openai
import pytest
from google import genai
from google.genai import types as genai_types
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_client import Client, ClientGroup, StdioServerParameters, UrlElicitationRequiredError
from mcp_client.llm import ToolBridge
from mcp_client.llm._names import _hashed, _plain, provider_names  # pyright: ignore[reportPrivateUsage]
from mcp_client.types import Tool
from tests.llm import fake_provider as fake
from tests.llm.fake_provider import FakeProvider
from tests.support.bad_arguments import BAD_ARGUMENT_STRINGS, DEEP, WHY, nested
from tests.support.servers import SERVERS_DIR, guide_stdio_command, stdio_command

pytestmark = pytest.mark.anyio

NAMES_SERVER = SERVERS_DIR / "names_server.py"
NAMES = StdioServerParameters(*stdio_command(NAMES_SERVER))
CRAFTED = "a_b_" + hashlib.sha256(b"a.b").hexdigest()[:8]
VALID = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")
BOUND = 120  # seconds: generous, for a busy machine


def _openai(provider: FakeProvider) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(api_key="test", base_url=provider.url + "/v1", max_retries=0)


async def _ran(client: Client) -> list[str]:
    """Which tools ran on the names server so far."""
    result = await client.call_tool("ran", {})
    return json.loads(result.content[0].text)  # type: ignore[union-attr]


def _exported(bridge_tools: list[Any], original: str) -> str:
    (name,) = [t.name for t in bridge_tools if t.original_name == original]
    return name


# ------------------------------------------------------------------ names: properties

# Pieces that make collisions likely: the characters a name is cleaned of, case, digits first, length.
_PIECES = st.sampled_from(["a", "A", "b", "B", "_", ".", "-", "/", "9", "é", " ", "a_b", "x" * 30, "X" * 61])
_NAME = st.lists(_PIECES, min_size=0, max_size=5).map("".join)


@settings(max_examples=300, deadline=None)
@given(names=st.lists(_NAME, max_size=12), data=st.data())
def test_no_two_names_ever_share_a_provider_name(names: list[str], data: st.DataObject) -> None:
    """Whatever the server sends (the same name twice, names apart only in case, names crafted to be
    another's hashed spelling), every name gets a valid provider name of its own, ignoring case."""
    crafted = [_hashed(n, _plain(n), attempt) for n in names for attempt in range(3)]
    if crafted:
        names = names + data.draw(st.lists(st.sampled_from(crafted), max_size=6))
    names = data.draw(st.permutations(names))
    out = provider_names(names)
    assert len(out) == len(names)
    assert len({name.lower() for name in out}) == len(out)
    assert all(VALID.fullmatch(name) for name in out)
    seen: set[str] = set()
    for given_name, exported in zip(names, out, strict=True):  # a valid name keeps itself, once
        if VALID.fullmatch(given_name) and given_name.lower() not in seen:
            assert exported == given_name
        seen.add(given_name.lower())
    assert provider_names(names) == out  # stable from one listing to the next


@settings(max_examples=200, deadline=None)
@given(listing=st.lists(st.tuples(st.sampled_from(["one", "one_x", "two"]), _NAME), max_size=12))
def test_each_exported_name_maps_back_to_its_own_tool(listing: list[tuple[str, str]]) -> None:
    """Through the bridge, over a group whose servers share tool names (an empty ``tool_prefix``) and
    list some twice: one exported tool per (server, tool), each name its own."""
    config = {
        "mcpServers": {
            name: {"command": "unused", "tool_prefix": prefix}
            for name, prefix in (("one", ""), ("one_x", "one_"), ("two", ""))
        }
    }
    group = ClientGroup(config)  # never entered: only its config and naming are used
    by_server: dict[str, list[Tool]] = {"one": [], "one_x": [], "two": []}
    for server, tool_name in listing:
        by_server[server].append(Tool(name=tool_name, input_schema={"type": "object"}))
    bridge = ToolBridge(group)
    exported = bridge._build(list(by_server.items()))  # pyright: ignore[reportPrivateUsage]
    names = [tool.name for tool in exported]
    assert len({name.lower() for name in names}) == len(names)
    identities = [(tool.server, tool.original_name) for tool in exported]
    assert sorted(identities) == sorted({(s, t) for s, t in listing})  # each tool once, none lost
    for tool in exported:  # the first listing of a name is the one exported
        first = next(t for t in by_server[tool.server or ""] if t.name == tool.original_name)
        assert tool.tool is first


def test_names_apart_only_in_case_stay_apart() -> None:
    out = provider_names(["Search", "search", "SEARCH"])
    assert out[0] == "Search"
    assert len({n.lower() for n in out}) == 3


# ------------------------------------------------------------------ names: a real server and model


async def test_a_crafted_name_cannot_take_another_tools_call(fake_provider: FakeProvider) -> None:
    """``a.b``, ``a_b`` and ``a_b_<hash of a.b>`` on one server: three names in the request, and the
    model's call of the name ``a.b`` was given runs ``a.b``."""
    with anyio.fail_after(BOUND):
        async with Client(NAMES) as client, _openai(fake_provider) as model:
            bridge = ToolBridge(client)
            tools = await bridge.openai_tools()
            ab = _exported(await bridge.tools(), "a.b")
            fake_provider.reply(fake.chat_tool_call(ab, "{}"), fake.chat_text("done"))
            messages: list[Any] = [{"role": "user", "content": "run a.b"}]
            response = await model.chat.completions.create(model="gpt-test", messages=messages, tools=tools)
            message = response.choices[0].message
            messages.append(message.model_dump(exclude_none=True))
            for call in message.tool_calls or []:
                messages.append(await bridge.run_openai(call))
            await model.chat.completions.create(model="gpt-test", messages=messages, tools=tools)
            ran = await _ran(client)

    sent = [t["function"]["name"] for t in fake_provider.bodies("/chat/completions")[0]["tools"]]
    assert {"a_b", CRAFTED, ab} <= set(sent) and len({n.lower() for n in sent}) == len(sent)
    assert ab not in ("a_b", CRAFTED)
    assert sent.count("twice") == 1  # listed twice by the server, exported once
    assert ran == ["a.b"]
    assert fake_provider.bodies("/chat/completions")[1]["messages"][-1]["content"] == "ran a.b"


async def test_a_group_exports_a_tool_listed_twice_once_and_same_names_apart() -> None:
    """Two names servers in a group with no prefix: every tool name is on both; each is exported once
    per server under a name of its own, and a call reaches the server whose tool it named."""
    entry = {"command": NAMES.command, "args": NAMES.args, "tool_prefix": ""}
    with anyio.fail_after(BOUND):
        async with ClientGroup({"mcpServers": {"first": entry, "second": entry}}) as group:
            bridge = ToolBridge(group)
            claude = [t["name"] for t in await bridge.anthropic_tools()]
            exported = await bridge.tools()
            (second_ab,) = [t.name for t in exported if (t.server, t.original_name) == ("second", "a.b")]
            block = await bridge.run_anthropic({"id": "t1", "name": second_ab, "input": {}})
            ran = {name: await _ran(group[name]) for name in ("first", "second")}

    assert len(claude) == len({n.lower() for n in claude}) == 2 * 8  # 8 tools on each, `twice` once
    assert [t.original_name for t in exported].count("twice") == 2
    assert block["content"] == [{"type": "text", "text": "ran a.b"}]
    assert ran == {"first": [], "second": ["a.b"]}


# ------------------------------------------------------------------ arguments JSON cannot carry

NOT_RUN = "Error: The call to take was not run: "


def _nested(depth: int) -> dict[str, Any]:
    return {"value": nested(depth)}


async def test_openai_the_models_malformed_arguments_are_its_error_and_no_call(
    fake_provider: FakeProvider,
) -> None:
    calls = [
        {"id": case, "type": "function", "function": {"name": "take", "arguments": arguments}}
        for case, arguments in BAD_ARGUMENT_STRINGS.items()
    ]
    items = [
        {"type": "function_call", "id": f"fc_{case}", "call_id": case, "name": "take", "arguments": arguments}
        for case, arguments in BAD_ARGUMENT_STRINGS.items()
    ]
    reply = fake.chat_text("")
    reply["choices"][0]["message"] = {"role": "assistant", "content": None, "tool_calls": calls}
    response_reply = fake.responses_text("")
    response_reply["output"] = [{**item, "status": "completed"} for item in items]
    fake_provider.reply(reply, response_reply)
    with anyio.fail_after(BOUND):
        async with Client(NAMES) as client, _openai(fake_provider) as model:
            bridge = ToolBridge(client)
            tools = await bridge.openai_tools()
            chat = await model.chat.completions.create(model="gpt-test", messages=[], tools=tools)
            messages = [await bridge.run_openai(call) for call in chat.choices[0].message.tool_calls or []]
            responses = await model.responses.create(
                model="gpt-test", input="x", tools=await bridge.openai_responses_tools()
            )
            outputs = [await bridge.run_openai(item) for item in responses.output]
            ran = await _ran(client)

    assert {m["tool_call_id"]: m["content"] for m in messages} == {c: NOT_RUN + w for c, w in WHY.items()}
    assert {o["call_id"]: o["output"] for o in outputs} == {c: NOT_RUN + w for c, w in WHY.items()}
    assert ran == []  # the server was never called


async def test_anthropic_and_gemini_malformed_arguments_are_the_models_error_and_no_call(
    fake_provider: FakeProvider,
) -> None:
    """What the SDKs parse out of the reply (NaN, Infinity, 1e400, 150 levels deep), and what an app
    may hand over as a dict (5,000 digits, 100,000 levels deep): error results, no call."""
    parsed = {
        "nan": float("nan"),
        "infinity": [1, float("-inf")],
        "deeper_than_100": _nested(150)["value"],
    }
    uses = [
        {"type": "tool_use", "id": case, "name": "take", "input": {"value": value}}
        for case, value in parsed.items()
    ]
    claude_reply = json.dumps(fake.anthropic_text("") | {"content": uses, "stop_reason": "tool_use"})
    gemini_parts = [
        {"functionCall": {"name": "take", "args": {"value": v}, "id": c}} for c, v in parsed.items()
    ]
    gemini_reply = json.dumps(fake.gemini_text("") | {"candidates": [
        {"content": {"role": "model", "parts": gemini_parts}, "finishReason": "STOP"}
    ]})  # fmt: skip
    assert "NaN" in claude_reply and "-Infinity" in gemini_reply
    fake_provider.reply(claude_reply, gemini_reply)
    by_hand = {"digits": {"value": 7 * 10**5000}, "deep": _nested(DEEP)}
    claude = anthropic.AsyncAnthropic(api_key="test", base_url=fake_provider.url, max_retries=0)
    gemini = genai.Client(api_key="test", http_options={"base_url": fake_provider.url})
    with anyio.fail_after(BOUND):
        async with Client(NAMES) as client, claude, gemini.aio as gemini_model:
            bridge = ToolBridge(client)
            tools = await bridge.anthropic_tools()
            message = await claude.messages.create(
                model="claude-test", max_tokens=10, messages=[], tools=tools
            )
            blocks = [await bridge.run_anthropic(b) for b in message.content if b.type == "tool_use"]
            blocks += [
                await bridge.run_anthropic({"id": case, "name": "take", "input": value})
                for case, value in by_hand.items()
            ]
            config = genai_types.GenerateContentConfig(tools=await bridge.gemini_tools())
            response = await gemini_model.models.generate_content(
                model="gemini-test", contents="x", config=config
            )
            parts = [await bridge.run_gemini(call) for call in response.function_calls or []]
            parts += [
                await bridge.run_gemini({"name": "take", "args": value, "id": case})
                for case, value in by_hand.items()
            ]
            ran = await _ran(client)

    expected = {case: "The call to take was not run: " + WHY[case] for case in [*parsed, *by_hand]}
    assert {b["tool_use_id"]: b["content"][0]["text"] for b in blocks} == expected
    assert all(b["is_error"] for b in blocks)
    assert {p["function_response"]["id"]: p["function_response"]["response"] for p in parts} == {
        case: {"error": text} for case, text in expected.items()
    }
    assert ran == []


# ------------------------------------------------------------------ what the model reads


async def test_the_model_reads_content_by_default_and_structured_on_request() -> None:
    """An official-SDK ``-> str`` tool declares an outputSchema; the model reads its text, not
    ``{"result": ...}``, unless the bridge is asked for the structured result."""
    call = {"id": "c1", "type": "function", "function": {"name": "a_b", "arguments": "{}"}}
    with anyio.fail_after(BOUND):
        async with Client(NAMES) as client:
            content = ToolBridge(client)
            structured = ToolBridge(client, model_reads="structured")
            for bridge in (content, structured):
                await bridge.openai_tools()
            chat = [await bridge.run_openai(call) for bridge in (content, structured)]
            gemini = [await b.run_gemini({"name": "a_b", "args": {}}) for b in (content, structured)]
            claude = [
                await b.run_anthropic({"id": "t", "name": "a_b", "input": {}}) for b in (content, structured)
            ]
    assert [m["content"] for m in chat] == ["ran a_b", '{"result":"ran a_b"}']
    assert [p["function_response"]["response"] for p in gemini] == [
        {"output": "ran a_b"},
        {"output": {"result": "ran a_b"}},
    ]
    assert [b["content"][0]["text"] for b in claude] == ["ran a_b", '{"result":"ran a_b"}']
    with pytest.raises(ValueError, match="model_reads must be 'content' or 'structured', not 'json'"):
        ToolBridge(client, model_reads="json")  # type: ignore[arg-type]


# ------------------------------------------------------------------ the user's error, not the model's


async def test_a_url_elicitation_required_error_is_raised_not_given_to_the_model() -> None:
    """-32042 asks the *user* to open URLs before the call is made again: the model can do nothing
    with it, so ``run_*`` and ``call_tool`` raise it for the app to show."""
    command, args = guide_stdio_command()
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "require_url", "arguments": '{"booking_id": "42"}'},
    }
    with anyio.fail_after(BOUND):
        async with Client(StdioServerParameters(command, args), mode="legacy") as client:
            bridge = ToolBridge(client)
            await bridge.openai_tools()
            with pytest.raises(UrlElicitationRequiredError) as raised:
                await bridge.run_openai(call)
            with pytest.raises(UrlElicitationRequiredError):
                await bridge.call_tool(bridge.tool_for("require_url"), {"booking_id": "42"})
    (elicitation,) = raised.value.elicitations
    assert elicitation.url == "https://bank.example.com/connect?booking=42"
