"""Run by test_telemetry.py in a process of its own (the OpenTelemetry tracer provider is process-wide):
starts the restart server over stdio (``argv[1]``: its command line as JSON), SIGKILLs it between two
calls, and prints the spans the SDK's in-memory exporter saw as JSON, with their events."""

import json
import os
import signal
import sys

import anyio
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from mcp_client import Client, Reconnect, StdioServerParameters
from mcp_client.types import TextContent

exporter = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
trace.set_tracer_provider(provider)


async def pid(client: Client) -> int:
    result = await client.call_tool("pid", {})
    return int("".join(block.text for block in result.content if isinstance(block, TextContent)))


async def main(command: list[str]) -> None:
    server = StdioServerParameters(command[0], command[1:])
    with anyio.fail_after(60):
        async with Client(server, reconnect=Reconnect(attempts=3, first_delay=0.05, max_delay=0.5)) as client:
            first = await pid(client)
            os.kill(first, signal.SIGKILL)
            events = client._session.transport._events  # type: ignore[attr-defined]  # pyright: ignore
            while events.exited is None:  # noqa: ASYNC110 - the client saw the exit (bounded above)
                await anyio.sleep(0.02)
            second = await pid(client)
    spans = [
        {
            "name": span.name,
            "kind": span.kind.name,
            "attributes": dict(span.attributes or {}),
            "status": span.status.status_code.name,
            "events": [{"name": e.name, "attributes": dict(e.attributes or {})} for e in span.events],
            "span_id": span.context.span_id if span.context is not None else None,
            "parent_id": span.parent.span_id if span.parent is not None else None,
        }
        for span in exporter.get_finished_spans()
    ]
    print(json.dumps({"pids": [first, second], "spans": spans}))


anyio.run(main, json.loads(sys.argv[1]))
