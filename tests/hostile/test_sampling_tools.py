"""A server that offers the model tools without asking whether the client can take them.

The spec: a client that did not declare ``sampling.tools`` MUST answer a ``sampling/createMessage``
carrying ``tools`` or ``toolChoice`` with an error. The official server checks the client's
capabilities before it sends one, so only a server that does not check can show the client's side:
the hostile server's ``sample_with_tools`` sends it anyway. What the server hears is read from its
access log (legacy) or from the call (2026-07-28, where nothing goes back and the call fails).
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from mcp_client import Client, ClientRequestContext, MCPError
from mcp_client.types import CreateMessageRequestParams, CreateMessageResult, TextContent
from tests.hostile.conftest import HostileServer

pytestmark = pytest.mark.anyio

BOUND = 30
INVALID_PARAMS = -32602
OFFERS = ["tools", "toolChoice", "both"]


class Model:
    """The app's model: records what it was asked, answers fixed text."""

    def __init__(self) -> None:
        self.asked: list[CreateMessageRequestParams] = []

    async def __call__(
        self, context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> CreateMessageResult:
        self.asked.append(params)
        return CreateMessageResult(role="assistant", content=TextContent(text="found it"), model="m-1")


def _answers_to_our_question(hostile: HostileServer, tag: str) -> list[dict[str, Any]]:
    """What the client POSTed back for the server's pushed sampling request (legacy)."""
    return [b for b in hostile.requests(tag) if "method" not in b and str(b.get("id", "")).startswith("srv-")]


def _retries_with_answers(hostile: HostileServer, tag: str) -> list[dict[str, Any]]:
    """The 2026-07-28 retries of the call that carried answers."""
    return [
        b
        for b in hostile.requests(tag)
        if b.get("method") == "tools/call" and "inputResponses" in b.get("params", {})
    ]


@pytest.mark.parametrize("offer", OFFERS)
async def test_tools_offered_to_a_client_that_did_not_declare_them_are_refused(
    hostile: HostileServer, tag: str, era: str, offer: str
) -> None:
    model = Model()
    async with Client(hostile.url(tag), mode=era, sampling_callback=model) as client:
        if era == "legacy":  # the refusal goes back to the server; its tool reports what it heard
            with anyio.fail_after(BOUND):
                result = await client.call_tool("sample_with_tools", {"offer": offer})
            heard = json.loads(result.content[0].text)  # type: ignore[union-attr]
        else:  # nothing can go back in a 2026-07-28 round: the call fails with the refusal
            with anyio.fail_after(BOUND), pytest.raises(MCPError) as caught:
                await client.call_tool("sample_with_tools", {"offer": offer})
            heard = {"error": {"code": caught.value.code, "message": caught.value.message}}
    assert model.asked == []  # the model never saw a request it could not have honoured
    assert "result" not in heard
    assert heard["error"]["code"] == INVALID_PARAMS
    assert "sampling.tools" in heard["error"]["message"]
    if era == "legacy":
        [answer] = _answers_to_our_question(hostile, tag)  # on the wire, as the server got it
        assert answer["error"] == heard["error"]
    else:
        assert _retries_with_answers(hostile, tag) == []  # no answer went back to the server


@pytest.mark.parametrize("offer", OFFERS)
async def test_the_same_request_reaches_the_model_once_tools_are_declared(
    hostile: HostileServer, tag: str, era: str, offer: str
) -> None:
    """The control: the refusal above is the missing declaration, not the request itself."""
    model = Model()
    async with Client(
        hostile.url(tag), mode=era, sampling_callback=model, sampling_capabilities={"tools": {}}
    ) as client:
        with anyio.fail_after(BOUND):
            result = await client.call_tool("sample_with_tools", {"offer": offer})
    [asked] = model.asked
    assert (asked.tools is not None) == (offer in ("tools", "both"))
    assert (asked.tool_choice is not None) == (offer in ("toolChoice", "both"))
    heard = json.loads(result.content[0].text)  # type: ignore[union-attr]
    if era == "legacy":
        heard = heard["result"]
    assert heard["model"] == "m-1"
    assert heard["content"] == {"type": "text", "text": "found it"}
