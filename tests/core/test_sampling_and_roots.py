"""Sampling and roots through the same router as elicitation, in both eras, over HTTP and stdio.

The peer is the official ``mcp`` server (tests/servers/questions_server.py): its resolvers push
``sampling/createMessage`` and ``roots/list`` mid-call on a legacy request and return them in
``inputRequests`` on a 2026-07-28 request. Tests assert what a user sees: the tool's answer (which
carries what the callback returned), what the callback was given, the error a call raises, and what
the server was told.
"""

from __future__ import annotations

import json
from collections.abc import Generator
from typing import Any

import anyio
import httpx
import pytest

from mcp_client import (
    CallbackError,
    CapabilityNotDeclaredError,
    Client,
    ClientRequestContext,
    ClientStateError,
    MCPError,
)
from mcp_client.types import (
    CreateMessageRequestParams,
    CreateMessageResult,
    CreateMessageResultWithTools,
    ElicitRequestParams,
    ElicitResult,
    ListRootsResult,
    Root,
    TextContent,
    ToolUseContent,
)
from tests.core.helpers import server_for, text_of

pytestmark = pytest.mark.anyio


@pytest.fixture
def server(transport: str, questions_http_url: str, questions_stdio_command: tuple[str, list[str]]) -> Any:
    return server_for(transport, questions_http_url, questions_stdio_command)


class Model:
    """A sampling callback standing in for the app's model: records what it was asked, answers fixed text."""

    def __init__(self, text: str = "old pond, a frog jumps") -> None:
        self.text = text
        self.asked: list[tuple[ClientRequestContext, CreateMessageRequestParams]] = []

    async def __call__(
        self, context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> CreateMessageResult | CreateMessageResultWithTools:
        self.asked.append((context, params))
        if params.tools:
            return CreateMessageResultWithTools(
                content=[TextContent(text="let me look"), ToolUseContent(name="lookup", id="t1", input={})],
                model="fake-model-1",
                stop_reason="toolUse",
            )
        return CreateMessageResult(
            content=TextContent(text=self.text), model="fake-model-1", stop_reason="endTurn"
        )


class Roots:
    def __init__(self, *roots: Root) -> None:
        self.roots = list(roots)
        self.asked: list[ClientRequestContext] = []

    async def __call__(self, context: ClientRequestContext) -> ListRootsResult:
        self.asked.append(context)
        return ListRootsResult(roots=self.roots)


class Recording(httpx.Auth):
    """Sees every HTTP request the client makes (an ``httpx.Auth`` is the client's documented hook)."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        if request.method == "POST":
            self.bodies.append(json.loads(request.content))
        yield request

    def sent(self, method: str) -> list[dict[str, Any]]:
        return [b for b in self.bodies if b.get("method") == method]


# ------------------------------------------------------------------------------- the answers arrive


async def test_the_models_answer_reaches_the_tool(server: Any, era: str) -> None:
    model = Model()
    async with Client(server, mode=era, sampling_callback=model) as client:
        result = await client.call_tool("haiku", {"topic": "rain"})
    assert text_of(result) == "model=fake-model-1 stop=endTurn text=old pond, a frog jumps"
    [(context, params)] = model.asked
    assert params.system_prompt == "You are a terse poet."
    assert params.max_tokens == 60
    assert params.messages[0].role == "user"
    assert params.messages[0].content_as_list[0].text == "Write a haiku about rain."  # type: ignore[union-attr]
    assert params.model_preferences is not None and params.model_preferences.hints is not None
    assert params.model_preferences.hints[0].name == "haiku"
    assert params.model_preferences.speed_priority == 0.8
    assert context.era == ("legacy" if era == "legacy" else "modern")
    assert context.server_name == "questions-server"
    if era == "legacy":
        assert context.request_id is not None and context.input_key is None
    else:
        assert context.input_key is not None and context.input_key.endswith("ask_model")


async def test_sampling_with_tools_when_declared(server: Any, era: str) -> None:
    model = Model()
    async with Client(
        server, mode=era, sampling_callback=model, sampling_capabilities={"tools": {}}
    ) as client:
        result = await client.call_tool("haiku_with_tools", {"topic": "rain"})
    assert text_of(result) == "model=fake-model-1 blocks=text,tool_use stop=toolUse"
    [(_, params)] = model.asked
    assert params.tools is not None and [t.name for t in params.tools] == ["lookup"]


async def test_the_roots_reach_the_tool(server: Any, era: str) -> None:
    roots = Roots(Root(uri="file:///home/ana/project", name="project"), Root(uri="file:///tmp/scratch"))
    async with Client(server, mode=era, list_roots_callback=roots) as client:
        result = await client.call_tool("my_roots", {})
    assert text_of(result) == "roots: file:///home/ana/project (project), file:///tmp/scratch (None)"
    [context] = roots.asked
    assert context.era == ("legacy" if era == "legacy" else "modern")


async def test_a_round_mixing_elicitation_and_sampling_is_answered_in_one_retry(
    questions_http_url: str, era: str
) -> None:
    model = Model()
    asked: list[ClientRequestContext] = []

    async def confirm(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        asked.append(context)
        return ElicitResult(action="accept", content={"confirm": True})

    recording = Recording()
    async with Client(
        questions_http_url,
        mode=era,
        sampling_callback=model,
        elicitation_callback=confirm,
        auth=recording,
    ) as client:
        result = await client.call_tool("plan_with_model", {"topic": "rain"})
    assert text_of(result) == "go=accept:True text=old pond, a frog jumps"
    calls = recording.sent("tools/call")
    if era == "legacy":
        assert len(calls) == 1  # both pushed mid-call, answered as JSON-RPC responses
        return
    # 2026-07-28: both questions came in one round and went back together in one retry
    assert len(calls) == 2
    responses = calls[1]["params"]["inputResponses"]
    assert len(responses) == 2
    sampled = next(v for v in responses.values() if "model" in v)
    assert sampled == {
        "role": "assistant",
        "content": {"type": "text", "text": "old pond, a frog jumps"},
        "model": "fake-model-1",
        "stopReason": "endTurn",
    }
    assert {"action": "accept", "content": {"confirm": True}} in responses.values()
    [(sampling_context, _)] = model.asked
    assert (sampling_context.question_count, asked[0].question_count) == (2, 2)


# ----------------------------------------------------------------------------- capabilities declared


async def test_each_callback_is_its_capability_declaration(questions_http_url: str, era: str) -> None:
    def declared(recording: Recording) -> dict[str, Any]:
        if era == "legacy":
            return recording.sent("initialize")[0]["params"]["capabilities"]
        meta = recording.sent("tools/call")[0]["params"]["_meta"]
        return meta["io.modelcontextprotocol/clientCapabilities"]

    bare, full = Recording(), Recording()
    async with Client(questions_http_url, mode=era, auth=bare) as client:
        await client.call_tool("roots_changes", {})
    async with Client(
        questions_http_url,
        mode=era,
        auth=full,
        sampling_callback=Model(),
        sampling_capabilities={"tools": {}},
        list_roots_callback=Roots(),
    ) as client:
        await client.call_tool("roots_changes", {})
    assert declared(bare) == {}
    assert declared(full) == {"sampling": {"tools": {}}, "roots": {"listChanged": True}}


async def test_roots_list_changed_is_sent_in_legacy_only(
    questions_stdio_command: tuple[str, list[str]],
) -> None:
    server = server_for("stdio", "", questions_stdio_command)  # a process of its own: its own count
    async with Client(server, mode="legacy", list_roots_callback=Roots()) as client:
        await client.send_roots_list_changed()
        await client.send_roots_list_changed()
        assert text_of(await client.call_tool("roots_changes", {})) == "roots changes: 2"
    async with Client(server, mode="2026-07-28", list_roots_callback=Roots()) as client:
        await client.send_roots_list_changed()  # the era has no such notification: nothing to send
        assert text_of(await client.call_tool("roots_changes", {})) == "roots changes: 0"
    async with Client(server, mode="legacy") as client:
        with pytest.raises(ClientStateError, match="list_roots_callback"):
            await client.send_roots_list_changed()


# ----------------------------------------------------------------------------------------- refusals


async def test_a_refusal_reaches_a_legacy_server_as_its_error(server: Any) -> None:
    async def refuse(
        context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> CreateMessageResult:
        raise MCPError(-32001, "The user did not allow sampling")

    async with Client(server, mode="legacy", sampling_callback=refuse) as client:
        result = await client.call_tool("raw_sample", {"catch": True})
    assert text_of(result) == "sampling refused: -32001 The user did not allow sampling"


async def test_a_refusal_fails_the_call_with_that_same_error(server: Any, era: str) -> None:
    """2026-07-28: nothing can be sent back, the call raises it. Legacy: the server heard it, its tool
    failed, and the call raises the refusal rather than the server's echo of it."""
    refusal = MCPError(-32001, "The user did not allow sampling")

    async def refuse(
        context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> CreateMessageResult:
        raise refusal

    async with Client(server, mode=era, sampling_callback=refuse) as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool("haiku", {"topic": "rain"})
    assert caught.value is refusal


async def test_undeclared_sampling_is_refused_and_named_in_legacy(server: Any) -> None:
    async with Client(server, mode="legacy") as client:
        reported = await client.call_tool("raw_sample", {"catch": True})
        with pytest.raises(CapabilityNotDeclaredError) as caught:
            await client.call_tool("raw_sample", {})
    assert text_of(reported) == "sampling refused: -32600 Sampling not supported"  # what the server heard
    assert caught.value.kind == "sampling"
    assert "this server asked for sampling" in str(caught.value)
    assert "pass sampling_callback=..." in str(caught.value)


@pytest.mark.parametrize(
    ("tool", "kind", "callback"),
    [
        ("raw_sample_mrtr", "sampling", "sampling_callback"),
        ("raw_roots_mrtr", "roots", "list_roots_callback"),
    ],
)
async def test_undeclared_kinds_are_refused_and_named_in_2026(
    server: Any, tool: str, kind: str, callback: str
) -> None:
    asked: list[Any] = []

    async def elicit(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params)
        return ElicitResult(action="decline")

    async with Client(server, mode="2026-07-28", elicitation_callback=elicit) as client:
        with pytest.raises(CapabilityNotDeclaredError) as caught:
            await client.call_tool(tool, {})
    assert caught.value.kind == kind
    assert f"pass {callback}=..." in str(caught.value)


async def test_an_undeclared_kind_in_a_mixed_round_stops_it_before_anyone_is_asked(server: Any) -> None:
    asked: list[Any] = []

    async def elicit(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params)
        return ElicitResult(action="accept", content={"confirm": True})

    async with Client(server, mode="2026-07-28", elicitation_callback=elicit) as client:
        with pytest.raises(CapabilityNotDeclaredError, match="sampling"):
            await client.call_tool("raw_mixed_mrtr", {})
        assert asked == []  # nobody was shown a question whose round cannot be answered
        both = Client(server, mode="2026-07-28", elicitation_callback=elicit, sampling_callback=Model())
    async with both:
        assert text_of(await both.call_tool("raw_mixed_mrtr", {})) == "answered: e, s"


async def test_a_failing_sampling_callback_is_a_local_error_and_the_server_hears_only_that(
    server: Any, era: str
) -> None:
    async def broken(
        context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> CreateMessageResult:
        raise RuntimeError("the model is on fire")

    async with Client(server, mode=era, sampling_callback=broken) as client:
        with pytest.raises(CallbackError) as caught:
            await client.call_tool("haiku", {"topic": "rain"})
        assert caught.value.kind == "sampling"
        assert "the model is on fire" in str(caught.value)
        assert isinstance(caught.value.__cause__, RuntimeError)
        if era == "legacy":
            told = await client.call_tool("raw_sample", {"catch": True})
            assert text_of(told) == "sampling refused: -32603 The client's sampling handler failed"


async def test_a_root_that_is_not_a_file_uri_is_never_sent(server: Any, era: str) -> None:
    roots = Roots(Root(uri="https://example.com/repo"))
    async with Client(server, mode=era, list_roots_callback=roots) as client:
        with pytest.raises(CallbackError, match="file://"):
            await client.call_tool("my_roots", {})


# ------------------------------------------------------------------- failures belong to their call


async def test_a_local_failure_is_raised_by_its_own_call_only(server: Any) -> None:
    """A question of call A fails on our side, but A's tool carries on; call B's own failure is B's."""

    async def broken(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        raise RuntimeError("the form is on fire")

    async with Client(server, mode="legacy", elicitation_callback=broken) as client:
        first = await client.call_tool("elicit_and_carry_on", {})
        assert text_of(first) == "elicitation failed: -32603 The client's elicitation handler failed"
        with anyio.fail_after(20):
            second = await client.call_tool("no_such_tool", {})
    assert second.is_error  # the server's own answer about B, not A's leftover callback error
