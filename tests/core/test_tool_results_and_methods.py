"""Output-schema checks on real results, and the methods beside the three calls: templates, completion,
subscriptions, logging level, ping, and ``meta``.

Against the official server (tests/servers/features_server.py) in both eras and both transports.
"""

from __future__ import annotations

import json

import pytest

from mcp_client import Client, InvalidToolResultError, ProtocolError
from mcp_client.types import PromptReference, ResourceTemplateReference
from tests.core.features import features_server, text_of

pytestmark = pytest.mark.anyio


async def test_a_result_that_breaks_its_schema_raises(
    era: str, transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    server = features_server(transport, features_http_url, features_stdio_command)
    async with Client(server, mode=era) as client:
        # The app never listed the tools: the client fetches the schemas itself, once.
        with pytest.raises(InvalidToolResultError) as caught:
            await client.call_tool("bad_weather", {"city": "Oslo"})
        assert isinstance(caught.value, ProtocolError)
        assert (caught.value.tool, caught.value.path, caught.value.rule) == (
            "bad_weather",
            "$.temperature",
            "type",
        )
        assert "'bad_weather'" in str(caught.value) and "$.temperature" in str(caught.value)

        good = await client.call_tool("weather", {"city": "Oslo"})
        assert good.structured_content == {"city": "Oslo", "temperature": 21.5, "conditions": ["sunny"]}

        with pytest.raises(InvalidToolResultError) as missing:
            await client.call_tool("text_weather", {"city": "Oslo"})
        assert missing.value.rule == "structuredContent"

        failed = await client.call_tool("failing_weather", {"city": "Oslo"})
        assert failed.is_error and "no weather for Oslo" in text_of(failed)


async def test_schemas_from_an_explicit_listing_are_used(features_http_url: str) -> None:
    async with Client(features_http_url, mode="legacy") as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert tools["bad_weather"].output_schema is not None
        with pytest.raises(InvalidToolResultError):
            await client.call_tool("bad_weather", {"city": "Oslo"})


async def test_resource_templates_and_completion(
    era: str, transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    server = features_server(transport, features_http_url, features_stdio_command)
    async with Client(server, mode=era) as client:
        templates = (await client.list_resource_templates()).resource_templates
        assert [(t.uri_template, t.name) for t in templates] == [("notes://{topic}", "note")]

        topics = await client.complete(
            ResourceTemplateReference(uri="notes://{topic}"), {"name": "topic", "value": "py"}
        )
        assert topics.completion.values == ["python", "pytest", "pydantic"]
        assert topics.completion.total == 3 and topics.completion.has_more is False

        as_dict = await client.complete(
            {"type": "ref/prompt", "name": "recipe"}, {"name": "cuisine", "value": "i"}
        )
        assert as_dict.completion.values == ["italian", "indian", "indonesian"]

        with_context = await client.complete(
            PromptReference(name="recipe"),
            {"name": "cuisine", "value": "th"},
            context_arguments={"diet": "vegan"},
        )
        assert with_context.completion.values == ["thai (diet=vegan)"]


async def test_ping_and_meta(
    era: str, transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    server = features_server(transport, features_http_url, features_stdio_command)
    async with Client(server, mode=era) as client:
        await client.send_ping()
        meta = json.loads(text_of(await client.call_tool("show_meta", meta={"trace": "abc-1"})))
    assert meta["trace"] == "abc-1"


async def test_the_clients_own_meta_keys_win(features_http_url: str) -> None:
    hijack = {"io.modelcontextprotocol/protocolVersion": "1999-01-01", "trace": "t"}
    async with Client(features_http_url, mode="2026-07-28") as client:
        meta = json.loads(text_of(await client.call_tool("show_meta", meta=hijack)))
    assert meta["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
    assert meta["trace"] == "t"


@pytest.mark.parametrize("transport", ["http", "stdio"])
async def test_legacy_subscriptions_and_logging_level(
    transport: str, features_http_url: str, features_stdio_command: tuple[str, list[str]]
) -> None:
    server = features_server(transport, features_http_url, features_stdio_command)
    async with Client(server, mode="legacy") as client:
        assert client.server_capabilities.resources is not None
        assert client.server_capabilities.resources.get("subscribe") is True
        await client.subscribe_resource("notes://today")
        await client.unsubscribe_resource("notes://today")
        await client.set_logging_level("info")
