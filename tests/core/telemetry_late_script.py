"""Run by test_telemetry.py in a process of its own: with opentelemetry installed but no tracer provider
set, a request opens no span and carries no trace context; once the app sets one (after the ``Client``
was made), the next request is traced. Prints what the server saw each time, and the spans, as JSON."""

import json
import sys

import anyio
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from mcp_client import Client
from mcp_client._connection import telemetry as _telemetry
from mcp_client.types import CallToolResult, TextContent


def text(result: CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, TextContent))


async def main(url: str, mode: str) -> None:
    exporter = InMemorySpanExporter()
    async with Client(url, mode=mode) as client:
        before = await client.call_tool("show_meta", {})
        off = _telemetry.tracing_on()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        trace.set_tracer_provider(provider)
        after = await client.call_tool("show_meta", {})
    seen = {
        "tracing_on_before": off,
        "tracing_on_after": _telemetry.tracing_on(),
        "meta_before": json.loads(text(before)),
        "meta_after": json.loads(text(after)),
        "spans": [span.name for span in exporter.get_finished_spans()],
    }
    print(json.dumps(seen))


anyio.run(main, sys.argv[1], sys.argv[2])
