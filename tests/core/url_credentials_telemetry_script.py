"""Run by test_url_credentials.py in a process of its own (the OpenTelemetry tracer provider is
process-wide): against ``argv[1]``, the Basic-auth server's URL with ``user:s3cret@``, a plain call and
one an approval policy asks about (allowed); prints every finished span's name, attributes and events
as JSON."""

import json
import sys

import anyio
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from mcp_client import ApprovalResult, Client, ToolPolicy

exporter = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
trace.set_tracer_provider(provider)


async def allow(context: object, request: object) -> ApprovalResult:
    return ApprovalResult("allow")


async def main(url: str) -> None:
    with anyio.fail_after(60):
        async with Client(url, mode="legacy", tool_policy=ToolPolicy(), approval_callback=allow) as client:
            await client.call_tool("echo", {"text": "hi"})
            await client.call_tool("write_note", {"text": "n"})
    spans = [
        {
            "name": span.name,
            "attributes": dict(span.attributes or {}),
            "events": [{"name": e.name, "attributes": dict(e.attributes or {})} for e in span.events],
        }
        for span in exporter.get_finished_spans()
    ]
    print(json.dumps(spans))


anyio.run(main, sys.argv[1])
