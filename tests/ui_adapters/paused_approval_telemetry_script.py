"""Run by test_paused_approvals.py in a process of its own (the OpenTelemetry tracer provider is
process-wide): a call of ``plain`` on the approvals server (``argv[1]``: its URL) pauses on its approval
in a ``QuestionBroker``, is allowed, and is resumed inside the app's span ``resume``; prints the finished
spans with their events as JSON."""

import json
import sys

import anyio
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from mcp_client import ApprovalResult, Client, ToolPolicy
from ui_adapters import PausedCall, QuestionBroker

exporter = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
trace.set_tracer_provider(provider)


async def main(url: str) -> None:
    broker = QuestionBroker()
    tracer = trace.get_tracer("app")
    with anyio.fail_after(60):
        async with Client(url, approval_callback=broker, tool_policy=ToolPolicy()) as client:
            paused = await broker.call_tool(client, "plain", {"text": "x"})
            assert isinstance(paused, PausedCall)
            (item,) = broker.pending()
            await broker.answer(item.id, ApprovalResult("allow", remember="session"))
            with tracer.start_as_current_span("resume"):
                await broker.resume(paused.id, client)
    spans = [
        {
            "name": span.name,
            "events": [{"name": e.name, "attributes": dict(e.attributes or {})} for e in span.events],
        }
        for span in exporter.get_finished_spans()
    ]
    print(json.dumps(spans))


anyio.run(main, sys.argv[1])
