"""OpenTelemetry: a client span per request, and the trace context carried to the server in ``_meta``.

Only when ``opentelemetry-api`` is installed (the ``otel`` extra; an app that traces has it already):
``import mcp_client`` never imports it, and without it a request pays one boolean test (the session's,
looked up once). With it and a tracer provider configured (below), each request runs in a ``CLIENT``
span named ``"{method} {target}"`` (``"tools/call get_weather"``), with the attributes of the
OpenTelemetry semantic conventions for MCP that the official SDK and fastmcp also set
(``mcp.method.name``, ``jsonrpc.request.id``, ``gen_ai.tool.name`` / ``gen_ai.prompt.name`` /
``mcp.resource.uri``, ``mcp.protocol.version``, ``mcp.session.id``, ``network.transport``), and the W3C
``traceparent`` / ``tracestate`` of that span are put in the request's ``_meta`` (2026-07-28 "Trace
context"; legacy servers that read them, as the official SDK's do, join the same trace). An error answer
marks the span ``ERROR`` with ``error.type`` (the JSON-RPC code) and ``rpc.response.status_code``.

A lost server brought back (``Client(reconnect=...)``) is an ``INTERNAL`` span ``mcp.client.reconnect``
around the attempts, with the event
``mcp.client.reconnected`` when the server is back (or ``mcp.client.reconnect_attempt_failed`` per
failed attempt, and the span ``ERROR`` when the client gives up), so a trace shows the restart where it
happened, next to the WARNING on ``mcp_client.session``.

Spans go to whatever tracer provider the app configured. Until it configures one (``set_tracer_provider``
with the SDK's or another real provider, or ``OTEL_PYTHON_TRACER_PROVIDER``), requests open no span and
carry no trace context: the API's default provider (a proxy with nothing behind it) and its no-op
provider mean tracing is off, and ``tracing_on`` answers that with a few attribute reads per request
(issue 32: an app that has the package but does not trace pays next to nothing for it).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Generator, MutableMapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

__all__ = ["event", "reconnect_span", "request_span", "tracing_available", "tracing_on"]

_TRACER_NAME = "mcp-client"
_available: bool | None = None
_trace: Any = None
"""``opentelemetry.trace`` once someone imported it (the app, to configure tracing)."""
_from_environment: bool | None = None
_UNSET = object()
_TARGET_ATTRIBUTE = {
    "tools/call": ("name", "gen_ai.tool.name"),
    "prompts/get": ("name", "gen_ai.prompt.name"),
    "resources/read": ("uri", "mcp.resource.uri"),
    "resources/subscribe": ("uri", "mcp.resource.uri"),
    "resources/unsubscribe": ("uri", "mcp.resource.uri"),
}


def tracing_available() -> bool:
    """Whether ``opentelemetry-api`` can be imported (looked up once, without importing it)."""
    global _available
    if _available is None:
        try:
            _available = importlib.util.find_spec("opentelemetry.trace") is not None
        except (ImportError, ValueError):
            _available = False
    return _available


def tracing_on() -> bool:
    """Whether the app configured a tracer provider, so that requests are traced (asked per request).

    A provider is set with ``trace.set_tracer_provider`` (which imports ``opentelemetry.trace``, so a
    process where nothing imported it has none) or named by ``OTEL_PYTHON_TRACER_PROVIDER``; the API's
    proxy (nothing set) and its ``NoOpTracerProvider`` are not tracing.
    """
    trace = _trace if _trace is not None else _trace_module()
    if trace is None:
        return False
    # The API keeps the provider set in this global, and looks up the environment on each
    # ``get_tracer_provider()``: read the global, and ask the API only when it may have something to load.
    provider = getattr(trace, "_TRACER_PROVIDER", _UNSET)
    if provider is None:
        if not _provider_in_environment():
            return False
        provider = trace.get_tracer_provider()
    elif provider is _UNSET:
        provider = trace.get_tracer_provider()
    return not isinstance(provider, (trace.ProxyTracerProvider, trace.NoOpTracerProvider))


def _trace_module() -> Any:
    """``opentelemetry.trace`` if it is loaded (or must be, to load the provider the environment names)."""
    global _trace
    loaded = sys.modules.get("opentelemetry.trace")
    if loaded is None:
        if not _provider_in_environment():
            return None
        loaded = importlib.import_module("opentelemetry.trace")
    _trace = loaded
    return loaded


def _provider_in_environment() -> bool:
    """Whether ``OTEL_PYTHON_TRACER_PROVIDER`` names a provider (read once per process)."""
    global _from_environment
    if _from_environment is None:
        _from_environment = "OTEL_PYTHON_TRACER_PROVIDER" in os.environ  # as the API tests it
    return _from_environment


def request_span(
    method: str,
    params: MutableMapping[str, Any] | None,
    *,
    request_id: object,
    protocol_version: str | None = None,
    session_id: str | None = None,
    transport: str | None = None,
) -> AbstractContextManager[Any]:
    """A span around one request; puts the trace context into ``params["_meta"]`` (no-op without OTel).

    ``params`` is the dict about to be sent; it gains a ``_meta`` (merged, never replaced) only when a
    trace context exists. Yields the span (or ``None``); call ``failed(span, code, message)`` for an
    error answer.
    """
    if not tracing_available():
        return nullcontext()
    return _span(method, params, request_id, protocol_version, session_id, transport)


@contextmanager
def _span(
    method: str,
    params: MutableMapping[str, Any] | None,
    request_id: object,
    protocol_version: str | None,
    session_id: str | None,
    transport: str | None,
) -> Generator[Any]:
    from opentelemetry import propagate, trace

    attributes: dict[str, Any] = {"mcp.method.name": method, "jsonrpc.request.id": str(request_id)}
    name = method
    target = _TARGET_ATTRIBUTE.get(method)
    if target is not None and params is not None:
        value = params.get(target[0])
        if isinstance(value, str):
            attributes[target[1]] = value
            name = f"{method} {value}"
    if protocol_version:
        attributes["mcp.protocol.version"] = protocol_version
    if session_id:
        attributes["mcp.session.id"] = session_id
    if transport:
        attributes["network.transport"] = transport
    tracer = trace.get_tracer(_TRACER_NAME)
    with tracer.start_as_current_span(name, kind=trace.SpanKind.CLIENT, attributes=attributes) as span:
        if params is not None:
            carrier: dict[str, str] = {}
            propagate.inject(carrier)
            if carrier:
                meta = params.get("_meta")
                params["_meta"] = {**carrier, **meta} if isinstance(meta, dict) else carrier
        yield span


def failed(span: Any, code: object, message: str) -> None:
    """Mark ``span`` (from ``request_span``) as failed with a JSON-RPC error answer."""
    if span is None:
        return
    from opentelemetry.trace import Status, StatusCode

    span.set_attribute("error.type", str(code))
    span.set_attribute("rpc.response.status_code", str(code))
    span.set_status(Status(StatusCode.ERROR, message))


def reconnect_span(server: str, cause: str, *, restarts_process: bool) -> AbstractContextManager[Any]:
    """A span around bringing ``server`` back after ``cause`` (no-op without OTel); yields it or ``None``.

    An exception leaving the block (the client gave up) is recorded on it and marks it ``ERROR``.
    """
    if not tracing_available():
        return nullcontext()
    return _reconnect_span(server, cause, restarts_process)


@contextmanager
def _reconnect_span(server: str, cause: str, restarts_process: bool) -> Generator[Any]:
    from opentelemetry import trace

    attributes: dict[str, Any] = {
        "mcp.server": server,
        "mcp.reconnect.cause": cause,
        "mcp.reconnect.restarts_process": restarts_process,
    }
    tracer = trace.get_tracer(_TRACER_NAME)
    with tracer.start_as_current_span(
        "mcp.client.reconnect", kind=trace.SpanKind.INTERNAL, attributes=attributes
    ) as span:
        yield span


def event(span: Any, name: str, attributes: dict[str, Any]) -> None:
    """Add the event ``name`` to ``span`` (from ``reconnect_span``; ``None``: nothing to do)."""
    if span is not None:
        span.add_event(name, attributes)
