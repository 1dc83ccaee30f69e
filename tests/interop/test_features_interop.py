"""Progress, logs, output schemas, templates and completion against the third-party peers.

server-everything (TypeScript reference server, legacy era only): ``trigger-long-running-operation``
reports progress (with a total, no message), ``toggle-simulated-logging`` sends one log line of a random
level at once and then every 5 s (it honours ``logging/setLevel``), ``get-structured-content`` declares
an output schema, and its templates and ``completable-prompt`` complete arguments. FastMCP 4.1.6 (both
eras, ``fastmcp_server.py``): ``count`` reports progress, ``chatty`` logs at four levels, ``forecast``
returns structured output.
"""

from __future__ import annotations

import anyio
import pytest

from mcp_client import Client, StdioServerParameters
from mcp_client.types import LoggingMessageNotificationParams, PromptReference, ResourceTemplateReference

pytestmark = pytest.mark.anyio

TEST_TIMEOUT = 60.0


def text_of(result: object) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------------- server-everything


@pytest.mark.parametrize("transport", ["http", "stdio"])
async def test_everything_progress_keeps_a_long_operation_alive(
    transport: str, everything_url: str, everything_stdio_command: tuple[str, list[str]]
) -> None:
    """Four steps 1 s apart with a 2.5 s timeout: only the restarts on progress let it finish (the
    margins leave a loaded machine 1.5 s of lateness per step)."""
    server = everything_url if transport == "http" else StdioServerParameters(*everything_stdio_command)
    seen: list[tuple[float, float | None]] = []
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(server, mode="legacy", timeout=30) as client:
            result = await client.call_tool(
                "trigger-long-running-operation",
                {"duration": 4, "steps": 4},
                read_timeout_seconds=2.5,
                progress_callback=lambda p, t, m: seen.append((p, t)),
            )
    assert "Long running operation completed" in text_of(result)
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


async def test_everything_logs_reach_the_callback(everything_url: str) -> None:
    logs: list[LoggingMessageNotificationParams] = []
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(
            everything_url, mode="legacy", logging_callback=logs.append, log_level="debug"
        ) as client:
            await client.call_tool("toggle-simulated-logging")
            with anyio.move_on_after(10):
                while not logs:  # noqa: ASYNC110 - the callback appends to a plain list
                    await anyio.sleep(0.05)
            await client.call_tool("toggle-simulated-logging")  # stop it
    assert logs, "no log message arrived within 10 s"
    assert logs[0].level in {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
    assert "message" in str(logs[0].data)


async def test_everything_structured_content_fits_its_schema(everything_url: str) -> None:
    async with Client(everything_url, mode="legacy") as client:
        result = await client.call_tool("get-structured-content", {"location": "Chicago"})
    assert set(result.structured_content) == {"temperature", "conditions", "humidity"}


async def test_everything_templates_and_completion(everything_url: str) -> None:
    async with Client(everything_url, mode="legacy") as client:
        templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
        assert "demo://resource/dynamic/text/{resourceId}" in templates
        ids = await client.complete(
            ResourceTemplateReference(uri="demo://resource/dynamic/text/{resourceId}"),
            {"name": "resourceId", "value": "7"},
        )
        assert ids.completion.values == ["7"]
        names = await client.complete(
            PromptReference(name="completable-prompt"),
            {"name": "name", "value": ""},
            context_arguments={"department": "Sales"},
        )
        assert names.completion.values == ["David", "Eve", "Frank"]


# ------------------------------------------------------------------------------------------------ fastmcp


async def test_fastmcp_progress_and_logs(fastmcp_url: str, era: str) -> None:
    seen: list[tuple[float, float | None, str | None]] = []
    logs: list[LoggingMessageNotificationParams] = []
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(fastmcp_url, mode=era, logging_callback=logs.append, log_level="warning") as client:
            result = await client.call_tool(
                "count",
                {"steps": 3, "interval": 0.01},
                progress_callback=lambda p, t, m: seen.append((p, t, m)),
            )
            assert text_of(await client.call_tool("chatty")) == "logged"
            with anyio.move_on_after(30):  # a bound on the wait, not a time the logs must beat
                while len(logs) < 2:  # noqa: ASYNC110 - the callback appends to a plain list
                    await anyio.sleep(0.05)
    assert text_of(result) == "counted to 3"
    assert seen == [(1, 3, "step 1 of 3"), (2, 3, "step 2 of 3"), (3, 3, "step 3 of 3")]
    assert [m.level for m in logs] == ["warning", "error"]


async def test_fastmcp_structured_output_is_checked_and_kept(fastmcp_url: str, era: str) -> None:
    async with Client(fastmcp_url, mode=era) as client:
        result = await client.call_tool("forecast", {"city": "Bergen"})
    assert result.structured_content == {"city": "Bergen", "temperature": 12.5}
