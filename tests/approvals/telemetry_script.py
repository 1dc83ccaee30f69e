"""Run by test_audit.py in a process of its own (the OpenTelemetry tracer provider is process-wide):
calls three tools of the approvals server (``argv[1]``: its command line as JSON) inside an app span,
one allowed by the policy, one the person allows, one denied by a pattern, and one more outside any
span; then one whose approval callback fails, in a span of its own; prints the finished spans with
their events as JSON."""

import json
import sys

import anyio
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from mcp_client import ApprovalResult, Client, StdioServerParameters, ToolCallDenied, ToolPolicy

exporter = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
trace.set_tracer_provider(provider)


async def allow(context: object, request: object) -> ApprovalResult:
    return ApprovalResult("allow", remember="session")


async def broken(context: object, request: object) -> ApprovalResult:
    raise RuntimeError("the approval UI crashed")


async def main(command: list[str]) -> None:
    server = StdioServerParameters(command[0], command[1:])
    policy = ToolPolicy(deny=["drop_*"])
    tracer = trace.get_tracer("app")
    with anyio.fail_after(60):
        async with Client(server, mode="legacy", tool_policy=policy, approval_callback=allow) as client:
            with tracer.start_as_current_span("agent step"):
                await client.call_tool("search_notes", {"query": "secret query"})
                await client.call_tool("write_note", {"text": "secret text"})
                try:
                    await client.call_tool("drop_notes")
                except ToolCallDenied:
                    pass
            await client.call_tool("write_note", {"text": "again"})
        async with Client(server, mode="legacy", tool_policy=policy, approval_callback=broken) as client:
            with tracer.start_as_current_span("broken step"):
                try:
                    await client.call_tool("write_note", {"text": "x"})
                except ToolCallDenied:
                    pass
    spans = [
        {
            "name": span.name,
            "events": [{"name": e.name, "attributes": dict(e.attributes or {})} for e in span.events],
        }
        for span in exporter.get_finished_spans()
    ]
    print(json.dumps(spans))


anyio.run(main, json.loads(sys.argv[1]))
