"""Driving the multi-round-trip loop yourself: pause a call, store it as JSON, resume it from a new Client.

Against the official ``mcp==2.3.0`` server, 2026-07-28. The guide server's ``delete_folder`` asks
through a resolver whose ``requestState`` the server seals with a per-process key: over HTTP a new
Client reaches the same server process, so the resumed call completes. Over stdio every Client starts
its own server, so the stdio test uses the features server's ``order``, whose server keeps a fixed key
(as servers sharing keys behind a load balancer do).
"""

from __future__ import annotations

import pytest

from mcp_client import Client, StdioServerParameters, UnsupportedInEraError
from mcp_client.types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult
from tests.core.helpers import accept, text_of

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"


async def test_a_paused_call_stored_as_json_is_resumed_by_a_new_client(guide_http_url: str) -> None:
    async with Client(guide_http_url, mode=MODERN, elicitation_callback=accept(confirm=True)) as first:
        paused = await first.call_tool("delete_folder", {"path": "/srv/old"}, allow_input_required=True)
    assert isinstance(paused, InputRequiredResult)
    stored = paused.model_dump_json()

    loaded = InputRequiredResult.model_validate_json(stored)
    assert loaded == paused and loaded.request_state is not None
    assert loaded.input_requests is not None
    ((key, question),) = loaded.input_requests.items()
    assert isinstance(question, ElicitRequest) and isinstance(question.params, ElicitRequestFormParams)
    assert "Really delete /srv/old?" in question.params.message

    async with Client(guide_http_url, mode=MODERN) as second:
        result = await second.call_tool(
            "delete_folder",
            {"path": "/srv/old"},
            input_responses={key: ElicitResult(action="accept", content={"confirm": True})},
            request_state=loaded.request_state,
        )
    assert text_of(result) == "deleted /srv/old"


async def test_a_complete_result_comes_back_as_it_is(guide_http_url: str) -> None:
    async with Client(guide_http_url, mode=MODERN) as client:
        result = await client.call_tool("delete_folder", {"path": "/srv/empty"}, allow_input_required=True)
    assert not isinstance(result, InputRequiredResult)
    assert text_of(result) == "deleted /srv/empty"


async def test_resume_in_another_server_process_over_stdio(
    features_stdio_command: tuple[str, list[str]],
) -> None:
    """Each stdio Client starts its own server: the state is resumed by a process that did not mint it."""
    server = StdioServerParameters(*features_stdio_command)
    async with Client(server, mode=MODERN) as first:
        paused = await first.call_tool("order", {"item": "tea"}, allow_input_required=True)
    assert isinstance(paused, InputRequiredResult)
    stored = paused.model_dump_json()

    loaded = InputRequiredResult.model_validate_json(stored)
    async with Client(server, mode=MODERN) as second:
        result = await second.call_tool(
            "order",
            {"item": "tea"},
            input_responses={"confirm": {"action": "accept", "content": {"confirm": True}}},
            request_state=loaded.request_state,
        )
    assert text_of(result) == "ordered tea"


async def test_get_prompt_and_read_resource_pause_and_resume(guide_http_url: str) -> None:
    async with Client(guide_http_url, mode=MODERN) as client:
        prompt = await client.get_prompt("trip_prompt", {"destination": "Lisbon"}, allow_input_required=True)
        assert isinstance(prompt, InputRequiredResult) and prompt.input_requests is not None
        done = await client.get_prompt(
            "trip_prompt",
            {"destination": "Lisbon"},
            input_responses={"packing_list": ElicitResult(action="accept", content={"confirm": True})},
            request_state=prompt.request_state,
        )
        assert done.messages[0].content.type == "text"
        assert done.messages[0].content.text == "Plan a trip to Lisbon with a packing list."

        resource = await client.read_resource("guide://vault/alice", allow_input_required=True)
        assert isinstance(resource, InputRequiredResult)
        read = await client.read_resource(
            "guide://vault/alice",
            input_responses={"reveal": {"action": "accept", "content": {"confirm": True}}},
            request_state=resource.request_state,
        )
        assert read.contents[0].text == "secret alice: s3cr3t-alice"  # type: ignore[union-attr]


async def test_resuming_a_legacy_call_says_there_is_nothing_to_resume(guide_http_url: str) -> None:
    async with Client(guide_http_url, mode="legacy") as client:
        with pytest.raises(UnsupportedInEraError, match="legacy"):
            await client.call_tool("delete_folder", {"path": "/srv/x"}, request_state="abc")
