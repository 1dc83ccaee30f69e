"""Run by test_telemetry.py in a process of its own (the OpenTelemetry tracer provider is process-wide):
calls the features server with the SDK's in-memory exporter installed and prints what it saw as JSON."""

import json
import sys

import anyio
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from mcp_client import Client, MCPError
from mcp_client.types import TextContent

exporter = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
trace.set_tracer_provider(provider)


async def main(url: str, mode: str) -> None:
    async with Client(url, mode=mode) as client:
        result = await client.call_tool("show_meta", {})
        try:
            await client.send_request("no/such_method", {})
        except MCPError:
            pass
    text = "".join(block.text for block in result.content if isinstance(block, TextContent))
    spans = [
        {
            "name": span.name,
            "kind": span.kind.name,
            "attributes": dict(span.attributes or {}),
            "status": span.status.status_code.name,
            "traceparent": f"00-{span.context.trace_id:032x}-{span.context.span_id:016x}-01",
        }
        for span in exporter.get_finished_spans()
    ]
    print(json.dumps({"meta": json.loads(text), "spans": spans}))


anyio.run(main, sys.argv[1], sys.argv[2])
